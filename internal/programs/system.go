package programs

// system: read-only views of the system — processes, devices, services,
// installed packages, containers and scheduled jobs. Most of these
// programs are blocked by name, because their other forms install
// software, stop services or reach the network; the forms here only print,
// so a person can at least be asked about a variant, and the plain forms
// run without one. ps and lsof have grammars of their own (procinfo.go).
func system() []*Spec {
	form := func(cmd, prefix, reason, list string, more ...[]Option) *Spec {
		return &Spec{ReadOnly: true, Command: cmd, Prefix: words(prefix), Syntax: GNU, Operands: Text, Reason: reason,
			Options: join(append([][]Option{opts(list)}, more...)...)}
	}
	units := "--no-pager -l,--full -n,--lines= -o,--output= -a,--all -t,--type= --state= -p,--property= --plain --no-legend -q,--quiet -r,--recursive --value --reverse --after --before --with-dependencies --system -h,--help"
	return []*Spec{
		{ReadOnly: true, Command: "ps", TextOnly: true, Check: psCheck, Env: []string{"PS_PERSONALITY", "CMD_ENV", "PS_FORMAT"}, Reason: "lists processes"},
		{ReadOnly: true, Command: "lsof", TextOnly: true, Check: lsofCheck, Env: []string{"LSOFDEVCACHE"}, Reason: "lists open files"},
		{ReadOnly: true, Command: "lsblk", Syntax: GNU, Operands: Text, Reason: "lists block devices",
			Options: join(opts("-A,--noempty -D,--discard -E,--dedup= -I,--include= -J,--json -M,--merge -O,--output-all -P,--pairs -S,--scsi -T,--tree[=] -a,--all -b,--bytes -d,--nodeps -e,--exclude= -f,--fs -i,--ascii -l,--list -m,--perms -n,--noheadings -o,--output= -p,--paths -r,--raw -s,--inverse -t,--topology -w,--width= -x,--sort= -y,--shell -z,--zoned -h,--help -V,--version"),
				unsafe("reads device information from files under another directory, which may be any file", "--sysroot="))},
		{ReadOnly: true, Command: "pgrep", Syntax: GNU, First: Text, Operands: Text, MaxOperands: 1, Reason: "finds processes by name",
			Options: join(opts("-l,--list-name -a,--list-full -f,--full -x,--exact -u,--euid= -U,--uid= -G,--group= -g,--pgroup= -P,--parent= -s,--session= -t,--terminal= -n,--newest -o,--oldest -c,--count -d,--delimiter= -v,--inverse -w,--lightweight -i,--ignore-case --ns= --nslist= -r,--runstates= -A,--ignore-ancestors --cgroup= -O,--older= -q,--queue= -h,--help -V,--version"),
				opts("-F,--pidfile=R"))},
		form("systemctl", "status", "shows a service's status", units),
		form("systemctl", "is-active", "tells whether a service is active", units),
		form("systemctl", "is-enabled", "tells whether a service is enabled", units),
		form("systemctl", "is-failed", "tells whether a service has failed", units),
		form("systemctl", "list-units", "lists services", units),
		form("systemctl", "list-unit-files", "lists unit files", units),
		form("systemctl", "list-timers", "lists timers", units),
		form("systemctl", "show", "prints a unit's properties", units),
		form("systemctl", "cat", "prints a unit's files", units),
		form("dpkg", "-l", "lists installed packages", ""),
		form("dpkg", "--list", "lists installed packages", ""),
		form("dpkg", "-L", "lists a package's files", ""),
		form("dpkg", "--listfiles", "lists a package's files", ""),
		form("dpkg", "-s", "shows a package's status", ""),
		form("dpkg", "--status", "shows a package's status", ""),
		form("dpkg", "-S", "finds the package that owns a file", ""),
		form("dpkg", "--search", "finds the package that owns a file", ""),
		form("dpkg", "--print-architecture", "prints the architecture", ""),
		form("brew", "list", "lists installed packages", "--versions --formula,--formulae --cask,--casks -1 -l -r -t --pinned --multiple --full-name -q,--quiet -v,--verbose -d,--debug -h,--help"),
		form("brew", "--version", "prints the version", ""),
		form("brew", "--prefix", "prints where packages are installed", "--installed"),
		{ReadOnly: true, Command: "crontab", Prefix: words("-l"), Syntax: GNU, MaxOperands: NoOperands, Reason: "prints the user's scheduled jobs",
			Options: unsafe("reads another user's jobs", "-u=")},
		form("docker", "ps", "lists containers", "-a,--all -f,--filter= --format= -n,--last= -l,--latest --no-trunc -q,--quiet -s,--size"),
		form("docker", "images", "lists images", "-a,--all --digests -f,--filter= --format= --no-trunc -q,--quiet --tree"),
		form("docker", "logs", "prints a container's logs; never waits for more", "--details --since= --until= -n,--tail= -t,--timestamps",
			unsafe("follows the log and never ends", "-f,--follow")),
		form("docker", "inspect", "prints low-level information", "-f,--format= -s,--size --type="),
		form("docker", "version", "prints the version", "-f,--format="),
		form("docker", "info", "prints system-wide information", "-f,--format="),
		{ReadOnly: true, Command: "just", Prefix: words("--list"), Syntax: Clap, MaxOperands: NoOperands, Options: opts("--unsorted --list-heading= --list-prefix= -u"), Reason: "lists the project's recipes"},
		{ReadOnly: true, Command: "just", Prefix: words("--summary"), Syntax: Clap, MaxOperands: NoOperands, Options: opts("--unsorted"), Reason: "lists the project's recipes"},
		{ReadOnly: true, Command: "just", Prefix: words("--version"), Syntax: Clap, MaxOperands: NoOperands, Reason: "prints the version"},
		{ReadOnly: true, Command: "shellcheck", Syntax: GNU, Reason: "checks shell scripts",
			Options: join(opts("-a,--check-sourced -C,--color[=] -e,--exclude= --extended-analysis= -f,--format= -i,--include= -o,--enable= -P,--source-path=P -s,--shell= -S,--severity= -V,--version -W,--wiki-link-count= --norc --list-optional -h,--help"),
				opts("--rcfile=L"),
				unsafe("reads the files the scripts source, which are never checked", "-x,--external-sources"))},
	}
}

// systemProjectFiles: shellcheck reads .shellcheckrc (or shellcheckrc)
// from the directory of each script it checks and the directories above,
// and the file --rcfile names; external-sources=true there makes it
// follow "# shellcheck source=" directives to any file.
func systemProjectFiles(command string) ProjectFiles {
	if command == "shellcheck" {
		return Shellcheckrc
	}
	return 0
}
