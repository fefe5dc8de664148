package programs

import "strings"

// sysinspect: read-only views of the system that the system family
// (system.go) lacks: sockets (netstat, ss), the journal and the kernel's
// ring buffer (journalctl, dmesg), whether a process exists (kill -0),
// terminal multiplexer sessions (tmux), the dynamic linker's cache
// (ldconfig -p), installed packages (rpm -q, apt list) and more of
// docker's listings. Every other form of these programs changes the system, and
// stays blocked or dangerous.
//
// Decisions:
//   - ss and netstat take no operand: an ss filter may name a host, which
//     ss looks up in DNS (a channel out for anything the model read).
//   - journalctl and dmesg never follow (-f, -w: they would not end), and
//     nothing that rotates, vacuums, flushes or clears is accepted.
//     journalctl's -n and -b take their value attached, or a number in the
//     next word, which journalctl takes only when it is one (-n
//     --vacuum-size=1 vacuums): the spec reads them as attached, so the
//     next word is parsed as what it is.
//   - tmux talks to a server that runs commands: only the listing commands,
//     on the default socket (no -L, -S or -f before them), without -F or
//     -f, whose formats run #(commands) in the server. A listing does not
//     start a server, so no configuration file is read.
//   - docker talks to a daemon that is root on the machine: only its
//     listings and version, with no global option (-H, --context, --config
//     select another daemon or configuration); DOCKER_* assignments are
//     dangerous (environment.go). docker compose ps and logs load the
//     project's compose files, whose include entries may fetch from any
//     host with .env's values interpolated: project code
//     (sysinspectProjectCode).
func sysinspect() []*Spec {
	form := func(cmd, prefix, reason string, maxOperands int, o ...[]Option) *Spec {
		return &Spec{ReadOnly: true, Command: cmd, Prefix: words(prefix), Syntax: GNU, Operands: Text, MaxOperands: maxOperands, Reason: reason, Options: join(o...)}
	}
	never := func(list string) []Option { return unsafe("follows forever and never ends", list) }
	tmux := func(prefix, reason, list string) *Spec {
		return &Spec{ReadOnly: true, Command: "tmux", Prefix: words(prefix), Syntax: POSIX, MaxOperands: NoOperands, Reason: reason,
			Options: join(opts(list), unsafe("its format runs #(commands) in the tmux server", "-F= -f="))}
	}
	rpmQuery := join(
		opts("-a,--all -i,--info -l,--list -f,--file -c,--configfiles -d,--docfiles -R,--requires --provides --conflicts --obsoletes --recommends --suggests --supplements --enhances --whatprovides --whatrequires --changelog --changes --last -s,--state --qf,--queryformat= --nosignature --nodigest --noghost --noconfig --dump --scripts --triggers,--triggerscripts --filesbypkg -g,--group --quiet -v,--verbose"),
		unsafe("runs a program or evaluates macros that can", "--pipe= -E,--eval= -D,--define= --macros= --load= --rcfile="),
		unsafe("reads another package database", "-r,--root= --dbpath="),
	)
	out := []*Spec{
		form("netstat", "", "lists sockets, routes and interface statistics", NoOperands,
			opts("-a,--all -t,--tcp -u,--udp -U,--udplite -S,--sctp -w,--raw -x,--unix -l,--listening -n,--numeric --numeric-hosts --numeric-ports --numeric-users -p,--program -e,--extend -o,--timers -r,--route -i,--interfaces -s,--statistics -g,--groups -M,--masquerade -v,--verbose -W,--wide -N,--symbolic -C,--cache -F,--fib -T,--notrim -Z,--context -A,--protocol= -4,--inet -6,--inet6 -h,--help -V,--version"),
			never("-c,--continuous")),
		form("ss", "", "lists sockets", NoOperands,
			opts("-h,--help -V,--version -H,--no-header -O,--oneline -n,--numeric -r,--resolve -a,--all -l,--listening -o,--options -e,--extended -m,--memory -p,--processes -T,--threads -i,--info --tos --cgroup --tipcinfo -s,--summary -Z,--context -z,--contexts -b,--bpf -4,--ipv4 -6,--ipv6 -0,--packet -t,--tcp -M,--mptcp -S,--sctp -u,--udp -d,--dccp -w,--raw -x,--unix --tipc --vsock --xdp --inet-sockopt -B,--bound-inet -f,--family= -A,--query,--socket="),
			never("-E,--events"),
			unsafe("closes sockets", "-K,--kill"),
			unsafe("writes a raw dump or reads a filter file that may name hosts to look up", "-D,--diag= -F,--filter="),
			unsafe("enters another network namespace", "-N,--net=")),
		form("journalctl", "", "prints the journal; never follows, rotates or vacuums", -1,
			opts("--system --user -M,--machine= -m,--merge --namespace= -S,--since= -U,--until= -c,--cursor= --after-cursor= --show-cursor -b,--boot[=] -u,--unit= --user-unit= -t,--identifier= -T,--exclude-identifier= -p,--priority= --facility= -g,--grep= --case-sensitive[=] -k,--dmesg -o,--output= --output-fields= -n,--lines[=] -r,--reverse --utc -x,--catalog --no-hostname --no-full -l,--full -a,--all -q,--quiet --no-pager -N,--fields -F,--field= --list-boots --disk-usage --header --list-catalog --dump-catalog --verify --verify-key= --no-tail -h,--help --version"),
			opts("-D,--directory=R --file=R --root=R --cursor-file=W"),
			never("-f,--follow"),
			unsafe("starts a pager", "-e,--pager-end"),
			unsafe("changes the journal or its keys", "--vacuum-size= --vacuum-files= --vacuum-time= --sync --relinquish-var --smart-relinquish-var --flush --rotate --update-catalog --setup-keys --force --interval="),
			unsafe("mounts a disk image", "--image=")),
		form("dmesg", "", "prints the kernel's ring buffer; never clears it or changes the console", NoOperands,
			opts("-f,--facility= -H,--human -J,--json -k,--kernel -L,--color[=] -l,--level= -P,--nopager -p,--force-prefix -r,--raw --noescape -S,--syslog -s,--buffer-size= -u,--userspace -x,--decode -d,--show-delta -e,--reltime -T,--ctime -t,--notime --time-format= --since= --until= -h,--help -V,--version"),
			opts("-F,--file=R -K,--kmsg-file=R"),
			never("-w,--follow -W,--follow-new"),
			unsafe("clears the ring buffer or changes the console", "-C,--clear -c,--read-clear -D,--console-off -E,--console-on -n,--console-level=")),
		{ReadOnly: true, Command: "kill", Prefix: words("-0"), Syntax: POSIX, Operands: Text, Check: pidsOnly,
			Reason: "tells whether processes exist; sends no signal"},
		tmux("ls", "lists the tmux server's sessions", ""),
		tmux("list-sessions", "lists the tmux server's sessions", ""),
		tmux("lsw", "lists the tmux server's windows", "-a -t="),
		tmux("list-windows", "lists the tmux server's windows", "-a -t="),
		tmux("lsp", "lists the tmux server's panes", "-a -s -t="),
		tmux("list-panes", "lists the tmux server's panes", "-a -s -t="),
		tmux("-V", "prints the version", ""),
		{ReadOnly: true, Command: "ldconfig", Prefix: words("-p"), Syntax: GNU, MaxOperands: NoOperands, Reason: "prints the dynamic linker's cache"},
		{ReadOnly: true, Command: "ldconfig", Prefix: words("--print-cache"), Syntax: GNU, MaxOperands: NoOperands, Reason: "prints the dynamic linker's cache"},
		form("docker", "network ls", "lists networks", NoOperands, opts("-f,--filter= --format= --no-trunc -q,--quiet")),
		form("docker", "network list", "lists networks", NoOperands, opts("-f,--filter= --format= --no-trunc -q,--quiet")),
		form("docker", "image ls", "lists images", 1, opts("-a,--all --digests -f,--filter= --format= --no-trunc -q,--quiet --tree")),
		form("docker", "image list", "lists images", 1, opts("-a,--all --digests -f,--filter= --format= --no-trunc -q,--quiet --tree")),
		form("docker", "container ls", "lists containers", NoOperands, opts("-a,--all -f,--filter= --format= -n,--last= -l,--latest --no-trunc -q,--quiet -s,--size")),
		form("docker", "volume ls", "lists volumes", NoOperands, opts("-f,--filter= --format= -q,--quiet")),
		form("docker", "compose ps", "lists the project's containers (loading the compose files is project code)", -1,
			opts("-a,--all --format= -q,--quiet --services --filter= --status= --no-trunc --orphans")),
		form("docker", "compose logs", "prints the project's container logs; never follows (loading the compose files is project code)", -1,
			opts("--no-color --no-log-prefix --since= --until= -n,--tail= -t,--timestamps --index="),
			never("-f,--follow")),
		form("docker", "compose version", "prints the version", NoOperands, opts("-f,--format= --short")),
	}
	// top prints once in batch mode with a count (-b -n N); otherwise it
	// is interactive or never ends.
	out = append(out, &Spec{ReadOnly: true, Command: "top", Syntax: GNU, MaxOperands: NoOperands, Check: topBatch, Reason: "prints the processes once",
		Options: opts("-b,--batch-mode -n,--iterations= -c,--cmdline-toggle -d,--delay= -E,--scale-summary-mem= -e,--scale-task-mem= -H,--threads-show -i,--idle-toggle -o,--sort-override= -O,--list-fields -p,--pid= -s,--secure-mode -S,--accum-time-toggle -u,--filter-only-euser= -U,--filter-any-user= -w,--width[=] -1,--single-cpu-toggle -h,--help -V,--version")})
	// ip's listings: the object (a, addr, address, r, route, l, link) and
	// then nothing, or show or list and their selectors. ip reads its own
	// options only before the object, where none is accepted (-b runs a
	// batch file, -n enters a namespace); an abbreviated verb (ip addr a
	// is add) is not accepted.
	for _, object := range []string{"a", "addr", "address", "r", "route", "l", "link"} {
		out = append(out, &Spec{ReadOnly: true, Command: "ip", Prefix: words(object), TextOnly: true, Check: ipShow, Reason: "lists network interfaces, addresses or routes"})
	}
	out = append(out, form("docker", "stats", "prints containers' resource use once", -1, opts("-a,--all --format= --no-trunc --no-stream")))
	out[len(out)-1].Check = requires("--no-stream")
	// apt list reads the package lists and dpkg's status; no -o or -c,
	// which set any configuration.
	out = append(out, form("apt", "list", "lists packages", -1, opts("--installed --upgradable --manual-installed -a,--all-versions -v,--verbose -q,--quiet")))
	for _, q := range []string{"-q", "--query", "-qa", "-qi", "-ql", "-qf", "-qc", "-qd", "-qR", "-qai", "-qal", "-qil"} {
		out = append(out, form("rpm", q, "queries installed packages", -1, rpmQuery))
	}
	return out
}

// requires makes an option mandatory: without it the form does more than
// the spec allows (kubectl version without --client asks the cluster).
func requires(option string) func(p *Parsed) *Problem {
	return func(p *Parsed) *Problem {
		if p.Has(option) {
			return nil
		}
		return &Problem{Rule: p.Spec.Command + " without " + option, Reason: "only " + p.Spec.Command + " " + strings.Join(p.Spec.Prefix, " ") + " " + option + " is understood as harmless; a person decides"}
	}
}

// topBatch: top prints and exits only in batch mode with an iteration
// count.
func topBatch(p *Parsed) *Problem {
	if !p.Has("-b") || !p.Has("-n") {
		return &Problem{Rule: "top without -b -n", Reason: "top without batch mode and an iteration count is interactive or never ends; use top -b -n 1"}
	}
	return nil
}

// ipShow accepts ip's listing verbs, spelled out, and their selectors.
func ipShow(p *Parsed) *Problem {
	if len(p.Operands) == 0 {
		return nil
	}
	switch p.Operands[0] {
	case "show", "list":
	default:
		return &Problem{Unknown: true, Rule: "ip " + p.Spec.Prefix[0] + " " + p.Operands[0], Reason: "only ip's show and list verbs, spelled out, are understood (ip abbreviates add, del and flush too)"}
	}
	for _, o := range p.Operands[1:] {
		if strings.HasPrefix(o, "-") {
			return &Problem{Unknown: true, Rule: "unknown option " + o, Reason: "ip takes its options before the object; " + o + " is not understood here"}
		}
	}
	return nil
}

// pidsOnly accepts only process IDs (a negative one names a process
// group) as kill -0's operands.
func pidsOnly(p *Parsed) *Problem {
	if len(p.Operands) == 0 {
		return &Problem{Unknown: true, Rule: "kill -0 without a process", Reason: "kill -0 needs the process IDs to check"}
	}
	for _, o := range p.Operands {
		d := strings.TrimPrefix(o, "-")
		if d == "" || strings.Trim(d, "0123456789") != "" {
			return &Problem{Unknown: true, Rule: "kill -0 operand " + o, Reason: "only process IDs are understood after kill -0 (" + o + " is not one); a person decides"}
		}
	}
	return nil
}

// sysinspectProjectCode: docker compose's listings load the project's
// compose files (see sysinspect).
func sysinspectProjectCode() []ProjectCodeEntry {
	return []ProjectCodeEntry{{Command: "docker", Subcommands: []string{"compose ps", "compose logs"}}}
}
