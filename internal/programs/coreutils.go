package programs

import "strings"

// coreutils: GNU coreutils and the small programs that come with every
// system. They read getopt_long syntax (GNU), print to standard output, and
// read the files named by their operands. The ones that write (touch,
// mkdir, cp, mv, rm, tee) are in fileutils.go.
func coreutils() []*Spec {
	const prints = "prints information about the system; reads no file"
	text := func(name, reason string) *Spec {
		return &Spec{ReadOnly: true, Command: name, TextOnly: true, Reason: reason}
	}
	info := func(name, list string) *Spec {
		return &Spec{ReadOnly: true, Command: name, Syntax: GNU, Options: opts(list + " --help --version"), MaxOperands: NoOperands, Reason: prints}
	}
	reader := coreReader
	files0 := files0From()
	sums := func(name string) *Spec {
		return reader(name, "prints a checksum; no list of files to check",
			"-b,--binary -t,--text -z,--zero --tag --untagged -l,--length= --status --strict -w,--warn --quiet --ignore-missing",
			unsafe("checks the files named in a list read from a file, which are never checked", "-c,--check"))
	}
	return []*Spec{
		text("expr", "evaluates an expression"),
		{ReadOnly: true, Command: "sleep", Syntax: GNU, Operands: Text, Options: opts("--help --version"), Reason: "waits"},
		{ReadOnly: true, Command: "seq", Syntax: GNU, Numeric: true, Operands: Text, MaxOperands: 3, Options: opts("-f,--format= -s,--separator= -t,--terminator= -w,--equal-width --help --version"), Reason: "prints a sequence of numbers"},
		{ReadOnly: true, Command: "factor", Syntax: GNU, Operands: Text, Options: opts("-h,--exponents --help --version"), Reason: "prints prime factors"},
		{ReadOnly: true, Command: "basename", Syntax: GNU, Operands: Text, Options: opts("-a,--multiple -s,--suffix= -z,--zero --help --version"), Reason: "prints the last part of a name; reads no file"},
		{ReadOnly: true, Command: "dirname", Syntax: GNU, Operands: Text, Options: opts("-z,--zero --help --version"), Reason: "prints the directory part of a name; reads no file"},
		{ReadOnly: true, Command: "numfmt", Syntax: GNU, Operands: Text, Options: opts("-d,--delimiter= --field= --format= --from= --from-unit= --grouping --header[=] --invalid= --padding= --round= --suffix= --to= --to-unit= -z,--zero-terminated --debug --help --version"), Reason: "formats numbers"},
		info("pwd", "-L -P"),
		info("whoami", ""),
		info("nproc", "--all --ignore="),
		info("tty", "-s --silent --quiet"),
		info("logname", ""),
		info("arch", ""),
		info("uptime", "-p,--pretty -s,--since"),
		info("uname", "-a,--all -s,--kernel-name -n,--nodename -r,--kernel-release -v,--kernel-version -m,--machine -p,--processor -i,--hardware-platform -o,--operating-system"),
		{ReadOnly: true, Command: "id", Syntax: GNU, Operands: Text, MaxOperands: 1, Options: opts("-a -Z,--context -g,--group -G,--groups -n,--name -r,--real -u,--user -z,--zero --help --version"), Reason: prints},
		{ReadOnly: true, Command: "groups", Syntax: GNU, Operands: Text, Options: opts("--help --version"), Reason: prints},
		{ReadOnly: true, Command: "locale", Syntax: GNU, Operands: Text, Options: opts("-a,--all-locales -m,--charmaps -c,--category-name -k,--keyword-name -v,--verbose --help -V,--version"), Reason: prints},
		{ReadOnly: true, Command: "getconf", Syntax: POSIX, Operands: Text, MaxOperands: 2, Options: opts("-a"), Reason: prints},
		{ReadOnly: true, Command: "cal", Syntax: GNU, Operands: Text, Options: opts("-1,--one -3,--three -n,--months= -S,--span -s,--sunday -m,--monday -j,--julian -y,--year -Y,--twelve -w,--week[=] -v,--vertical --color[=] -c,--columns= -h,--help -V,--version"), Reason: "prints a calendar"},
		{ReadOnly: true, Command: "df", Syntax: GNU, Reason: "prints file system usage", Options: join(opts("-a,--all -B,--block-size= -h,--human-readable -H,--si -i,--inodes -k -l,--local --no-sync --output[=] -P,--portability --total -t,--type= -T,--print-type -x,--exclude-type= -v --sync --help --version"))},
		{ReadOnly: true, Command: "free", Syntax: GNU, MaxOperands: NoOperands, Reason: prints,
			Options: join(opts("-b,--bytes -k,--kibi -m,--mebi -g,--gibi --tebi --pebi --kilo --mega --giga --tera --peta -h,--human --si -l,--lohi -L,--line -t,--total -v,--committed -w,--wide --help -V,--version"),
				unsafe("repeats forever", "-s,--seconds= -c,--count="))},
		{ReadOnly: true, Command: "date", Syntax: GNU, Operands: Text, MaxOperands: 1, Reason: "prints the date", Check: dateCheck,
			Options: join(opts("-d,--date= --debug -I,--iso-8601[=] --resolution -R,--rfc-email --rfc-3339= -u,--utc,--universal --help --version"),
				opts("-f,--file=R -r,--reference=R"),
				unsafe("sets the system clock", "-s,--set="))},
		{ReadOnly: true, Command: "hostname", Syntax: GNU, MaxOperands: NoOperands, Reason: "prints the host name",
			Options: join(opts("-a,--alias -A,--all-fqdns -d,--domain -f,--fqdn,--long -i,--ip-address -I,--all-ip-addresses -s,--short -y,--yp,--nis -h,--help -V,--version"),
				unsafe("sets the host name", "-b,--boot -F,--file="))},
		{ReadOnly: true, Command: "which", Syntax: GNU, Operands: Text, Options: opts("-a --all -s"), Reason: "finds a command on PATH"},
		{ReadOnly: true, Command: "whereis", Syntax: GNU, Operands: Text, Options: opts("-b -m -s -u -l -g -h,--help -V,--version"), Reason: "finds a command's files"},
		{ReadOnly: true, Command: "realpath", Syntax: GNU, Operands: Text, Options: opts("-e,--canonicalize-existing -m,--canonicalize-missing -L,--logical -P,--physical -q,--quiet --relative-to= --relative-base= -s,--strip,--no-symlinks -z,--zero --help --version"), Reason: "prints a resolved path"},
		{ReadOnly: true, Command: "readlink", Syntax: GNU, Operands: Text, Options: opts("-f,--canonicalize -e,--canonicalize-existing -m,--canonicalize-missing -n,--no-newline -q,--quiet -s,--silent -v,--verbose -z,--zero --help --version"), Reason: "prints where a link points"},
		reader("stat", "prints file metadata", "-L,--dereference -f,--file-system -c,--format= --printf= -t,--terse --cached="),
		reader("cmp", "compares files byte by byte", "-b,--print-bytes -i,--ignore-initial= -l,--verbose -n,--bytes= -s,--quiet,--silent"),
		reader("comm", "compares sorted files", "-1 -2 -3 --check-order --nocheck-order --output-delimiter= --total -z,--zero-terminated"),
		reader("cut", "prints selected parts of lines", "-b,--bytes= -c,--characters= -d,--delimiter= -f,--fields= -n --complement -s,--only-delimited --output-delimiter= -z,--zero-terminated"),
		{ReadOnly: true, Command: "tr", Syntax: GNU, Operands: Text, MaxOperands: 2, Options: opts("-c,-C,--complement -d,--delete -s,--squeeze-repeats -t,--truncate-set1 --help --version"), Reason: "translates characters from standard input"},
		reader("nl", "numbers lines", "-b,--body-numbering= -d,--section-delimiter= -f,--footer-numbering= -h,--header-numbering= -i,--line-increment= -l,--join-blank-lines= -n,--number-format= -p,--no-renumber -s,--number-separator= -v,--starting-line-number= -w,--number-width="),
		reader("od", "dumps files in octal and other formats", "-A,--address-radix= --endian= -j,--skip-bytes= -N,--read-bytes= -S,--strings[=] -t,--format= -v,--output-duplicates -w,--width[=] --traditional -a -b -c -d -f -i -l -o -s -x"),
		{ReadOnly: true, Command: "xxd", Syntax: Single, MaxOperands: 1, Reason: "dumps a file in hex to standard output (options end at the first operand, and a second operand would be written)",
			Options: opts("-a,-autoskip -b,-bits -C,-capitalize -c,-cols= -d -E,-EBCDIC -e -g,-groupsize= -h,-help -i,-include -l,-len= -n,-name= -o,-offset= -p,-ps,-postscript,-plain -r,-revert -R= -s,-seek= -u -v,-version")},
		reader("hexdump", "dumps files in hex", "-b -c -C,--canonical -d -o -x -e,--format= -n,--length= -s,--skip= -v,--no-squeezing -L,--color[=] -h -V", opts("-f,--format-file=R")),
		{ReadOnly: true, Command: "strings", Syntax: GNU, Reason: "prints the printable strings in files", Check: responseFiles,
			Options: opts("-a,--all -d,--data -f,--print-file-name -n,--bytes= -t,--radix= -o -e,--encoding= -w,--include-all-whitespace -s,--output-separator= -T,--target= -U,--unicode= -h,--help -v,-V,--version")},
		reader("base32", "encodes or decodes to standard output", "-d,--decode -i,--ignore-garbage -w,--wrap="),
		reader("base64", "encodes or decodes to standard output", "-d,--decode -i,--ignore-garbage -w,--wrap="),
		reader("column", "formats input into columns", "-t,--table -s,--separator= -o,--output-separator= -c,--output-width= -x,--fillrows -n,--table-name= -e,--table-noheadings -J,--json -N,--table-columns= -R,--table-right= -H,--table-hide= -l,--table-columns-limit= -T,--table-truncate= -W,--table-wrap= -O,--table-order= -E,--table-noextreme= -d,--table-header-repeat -L,--keep-empty-lines -r,--tree= -i,--tree-id= -p,--tree-parent= -h -V"),
		reader("expand", "converts tabs to spaces", "-i,--initial -t,--tabs="),
		reader("unexpand", "converts spaces to tabs", "-a,--all --first-only -t,--tabs="),
		reader("fold", "wraps lines", "-b,--bytes -s,--spaces -w,--width=", nil),
		reader("fmt", "formats paragraphs", "-c,--crown-margin -p,--prefix= -s,--split-only -t,--tagged-paragraph -u,--uniform-spacing -w,--width= -g,--goal="),
		reader("paste", "merges lines of files", "-d,--delimiters= -s,--serial -z,--zero-terminated"),
		reader("join", "joins lines of two files on a field", "-a= -e= -i,--ignore-case -j= -o= -t= -v= -1= -2= --check-order --nocheck-order --header -z,--zero-terminated"),
		reader("rev", "reverses lines", "-0,--zero -h -V"),
		reader("tac", "prints files last line first", "-b,--before -r,--regex -s,--separator="),
		reader("tsort", "sorts a partial order", ""),
		{ReadOnly: true, Command: "look", Syntax: POSIX, First: Text, MaxOperands: 2, Options: opts("-a,--alternative -d,--alphanum -f,--ignore-case -t,--terminate= -h,--help -V,--version"), Reason: "prints lines that begin with a string"},
		{ReadOnly: true, Command: "dircolors", Syntax: GNU, MaxOperands: 1, Options: opts("-b,--sh,--bourne-shell -c,--csh,--c-shell -p,--print-database --print-ls-colors --help --version"), Reason: "prints ls colour settings"},
		{ReadOnly: true, Command: "iconv", Syntax: GNU, Reason: "converts text to standard output",
			Options: join(opts("-f,--from-code= -t,--to-code= -l,--list -c -s,--silent --verbose -?,--help --usage -V,--version"),
				unsafe("writes the output to a file", "-o,--output=W"))},
		{ReadOnly: true, Command: "file", Syntax: GNU, Reason: "identifies file types",
			Options: join(opts("--apple --extension --mime-encoding --mime-type -b,--brief -C,--compile -c,--checking-printout -d -E -e,--exclude= --exclude-quiet= -F,--separator= -h,--no-dereference -i,--mime -k,--keep-going -L,--dereference -l,--list -N,--no-pad -n,--no-buffer -0,--print0 -p,--preserve-date -P,--parameter= -r,--raw -s,--special-files -S,--no-sandbox -v,--version -z,--uncompress -Z,--uncompress-noreport --help"),
				opts("-m,--magic-file=P"),
				unsafe("reads a list of file names from a file, which are never checked", "-f,--files-from="))},
		{ReadOnly: true, Command: "du", Syntax: GNU, Reason: "counts disk usage; reads no file contents",
			Options: join(opts("-0,--null -a,--all --apparent-size -B,--block-size= -b,--bytes -c,--total -D,--dereference-args -d,--max-depth= -H -h,--human-readable --inodes -k -l,--count-links -m -P,--no-dereference -S,--separate-dirs --si -s,--summarize -t,--threshold= --time[=] --time-style= -x,--one-file-system --exclude= --help --version"),
				opts("-X,--exclude-from=R"),
				unsafe("follows symbolic links while walking a tree, which may lead out of the sandbox", "-L,--dereference"),
				files0)},
		sums("md5sum"), sums("sha1sum"), sums("sha224sum"), sums("sha256sum"), sums("sha384sum"), sums("sha512sum"), sums("b2sum"),
		reader("cksum", "prints a checksum", "-a,--algorithm= --base64 --debug -l,--length= --raw --tag --untagged -z,--zero", unsafe("checks the files named in a list read from a file, which are never checked", "-c,--check")),
		{ReadOnly: true, Command: "shasum", Syntax: GNU, Reason: "prints a checksum",
			Options: join(opts("-a,--algorithm= -b,--binary -t,--text -U,--UNIVERSAL -0,--01 --tag -s,--status -q,--quiet -w,--warn --strict -h,--help -v,--version"),
				unsafe("checks the files named in a list read from a file, which are never checked", "-c,--check"))},
		reader("sum", "prints a checksum", "-r -s,--sysv"),
	}
}

// pagers: the coreutils agents run most (cat, head, tail, wc, sort, uniq),
// a family of their own so that judging one builds six specs, not the
// seventy of coreutils.
func pagers() []*Spec {
	reader := coreReader
	files0 := files0From()
	return []*Spec{
		{
			ReadOnly: true, Command: "cat", Syntax: GNU, Reason: "prints files",
			Options: opts("-A,--show-all -b,--number-nonblank -e -E,--show-ends -n,--number -s,--squeeze-blank -t -T,--show-tabs -u -v,--show-nonprinting --help --version"),
		},
		{
			ReadOnly: true, Command: "head", Syntax: GNU, Numeric: true, Reason: "prints the start of files",
			Options: opts("-c,--bytes= -n,--lines= -q,--quiet,--silent -v,--verbose -z,--zero-terminated --help --version"),
		},
		{
			ReadOnly: true, Command: "tail", Syntax: GNU, Numeric: true, Reason: "prints the end of files; never waits for more",
			Options: join(
				opts("-c,--bytes= -n,--lines= -q,--quiet,--silent -v,--verbose -z,--zero-terminated -s,--sleep-interval= --help --version"),
				unsafe("follows the file and never ends", "-f,--follow[=] -F --retry --pid="),
			),
		},
		reader("wc", "counts bytes, words and lines", "-c,--bytes -m,--chars -l,--lines -L,--max-line-length -w,--words --total=", files0),
		{
			ReadOnly: true, Command: "sort", Syntax: GNU, Reason: "sorts lines to standard output",
			Options: join(
				opts("-b,--ignore-leading-blanks -d,--dictionary-order -f,--ignore-case -g,--general-numeric-sort -i,--ignore-nonprinting -M,--month-sort -h,--human-numeric-sort -n,--numeric-sort -R,--random-sort -r,--reverse -V,--version-sort -c --check[=] -C -k,--key= -m,--merge -s,--stable -S,--buffer-size= -t,--field-separator= -u,--unique -z,--zero-terminated --debug --parallel= --sort= --help --version"),
				opts("--random-source=R"),
				unsafe("writes the sorted output to a file", "-o,--output=W"),
				unsafe("runs a program to compress temporary files", "--compress-program="),
				unsafe("writes temporary files to a directory of its choosing", "-T,--temporary-directory="),
				files0,
			),
		},
		{ReadOnly: true, Command: "uniq", Syntax: GNU, MaxOperands: 1, Reason: "filters repeated lines to standard output (a second operand would be written)",
			Options: opts("-c,--count -d,--repeated -D --all-repeated[=] -f,--skip-fields= --group[=] -i,--ignore-case -s,--skip-chars= -u,--unique -z,--zero-terminated -w,--check-chars= --help --version")},
	}
}

// coreReader is a coreutils program that prints something computed from
// the files its operands name.
func coreReader(name, reason, list string, more ...[]Option) *Spec {
	return &Spec{ReadOnly: true, Command: name, Syntax: GNU, Options: join(append([][]Option{opts(list + " --help --version")}, more...)...), Reason: reason}
}

// files0From is coreutils' --files0-from, which reads a list of file names
// that are never checked.
func files0From() []Option {
	return unsafe("reads a list of file names from a file, which are never checked", "--files0-from=")
}

// dateCheck accepts only +FORMAT operands: any other operand
// (MMDDhhmm[[CC]YY][.ss]) sets the system clock.
func dateCheck(p *Parsed) *Problem {
	for _, o := range p.Operands {
		if !strings.HasPrefix(o, "+") {
			return &Problem{Rule: "date with an operand other than +FORMAT", Reason: "an operand that is not a +FORMAT sets the system clock"}
		}
	}
	return nil
}

// responseFiles refuses @FILE operands, which binutils programs (and
// pytest since 8.2, through argparse's fromfile_prefix_chars) read as more
// arguments: the file is read without being checked, and the arguments in
// it are never seen here.
func responseFiles(p *Parsed) *Problem {
	for _, o := range p.Operands {
		if strings.HasPrefix(o, "@") {
			return &Problem{Rule: "response file argument", Reason: "an @FILE argument makes the program read FILE as more arguments, unchecked"}
		}
	}
	return nil
}
