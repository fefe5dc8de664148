package programs

// coreutils: GNU coreutils and the small programs that come with every
// system. They read getopt_long syntax (GNU), print to standard output, and
// read the files named by their operands.
func coreutils() []*Spec {
	const prints = "prints information about the system; reads no file"
	text := func(name, reason string) *Spec {
		return &Spec{Command: name, TextOnly: true, Reason: reason}
	}
	info := func(name, list string) *Spec {
		return &Spec{Command: name, Syntax: GNU, Options: opts(list + " --help --version"), MaxOperands: NoOperands, Reason: prints}
	}
	return []*Spec{
		text("echo", "prints its arguments"),
		text("true", "does nothing"),
		text("false", "does nothing"),
		text("expr", "evaluates an expression"),
		text("test", "tests a condition"),
		text("[", "tests a condition"),
		text("sleep", "waits"),
		info("pwd", "-L -P"),
		info("whoami", ""),
		info("nproc", "--all --ignore="),
		info("tty", "-s --silent --quiet"),
		info("logname", ""),
		info("uname", "-a,--all -s,--kernel-name -n,--nodename -r,--kernel-release -v,--kernel-version -m,--machine -p,--processor -i,--hardware-platform -o,--operating-system"),
		{
			Command: "cat", Syntax: GNU, Reason: "prints files",
			Options: opts("-A,--show-all -b,--number-nonblank -e -E,--show-ends -n,--number -s,--squeeze-blank -t -T,--show-tabs -u -v,--show-nonprinting --help --version"),
		},
		{
			Command: "head", Syntax: GNU, Numeric: true, Reason: "prints the start of files",
			Options: opts("-c,--bytes= -n,--lines= -q,--quiet,--silent -v,--verbose -z,--zero-terminated --help --version"),
		},
		{
			Command: "tail", Syntax: GNU, Numeric: true, Reason: "prints the end of files; never waits for more",
			Options: join(
				opts("-c,--bytes= -n,--lines= -q,--quiet,--silent -v,--verbose -z,--zero-terminated -s,--sleep-interval= --help --version"),
				unsafe("follows the file and never ends", "-f,--follow[=] -F --retry --pid="),
			),
		},
		{
			Command: "wc", Syntax: GNU, Reason: "counts bytes, words and lines",
			Options: join(
				opts("-c,--bytes -m,--chars -l,--lines -L,--max-line-length -w,--words --total= --help --version"),
				unsafe("reads a list of file names from a file, which are never checked", "--files0-from="),
			),
		},
		{
			Command: "sort", Syntax: GNU, Reason: "sorts lines to standard output",
			Options: join(
				opts("-b,--ignore-leading-blanks -d,--dictionary-order -f,--ignore-case -g,--general-numeric-sort -i,--ignore-nonprinting -M,--month-sort -h,--human-numeric-sort -n,--numeric-sort -R,--random-sort -r,--reverse -V,--version-sort -c --check[=] -C -k,--key= -m,--merge -s,--stable -S,--buffer-size= -t,--field-separator= -u,--unique -z,--zero-terminated --debug --parallel= --sort= --help --version"),
				opts("--random-source=R"),
				unsafe("writes the sorted output to a file", "-o,--output="),
				unsafe("runs a program to compress temporary files", "--compress-program="),
				unsafe("writes temporary files to a directory of its choosing", "-T,--temporary-directory="),
				unsafe("reads a list of file names from a file, which are never checked", "--files0-from="),
			),
		},
	}
}
