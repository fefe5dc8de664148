package sandboxauth

import "github.com/sandboxauth/sandboxauth/internal/programs"

// The default lists. "Safe" means: runs without asking inside the sandbox
// because it cannot write, delete or execute outside it, reach the network,
// install software, or change git history or remotes. Every safe entry is
// guarded against the flags that would break that promise; path arguments
// and redirections are checked separately by the classifier.
//
// Precedence is safe > blocked > dangerous, so a safe entry must never match
// a dangerous form of its command: that is what ExceptFlags are for.

func namesMatchers(reason string, cmds ...string) []CommandMatcher {
	ms := make([]CommandMatcher, len(cmds))
	for i, c := range cmds {
		ms[i] = CommandMatcher{Command: c, Reason: reason}
	}
	return ms
}

// guardedNames returns one safe matcher per command, each excluding the
// flags in except.
func guardedNames(except []string, reason string, cmds ...string) []CommandMatcher {
	ms := make([]CommandMatcher, len(cmds))
	for i, c := range cmds {
		ms[i] = CommandMatcher{Command: c, ExceptFlags: except, Reason: reason}
	}
	return ms
}

func subMatcher(cmd string, prefix []string, except []string, reason string) CommandMatcher {
	return CommandMatcher{Command: cmd, CommandArgsPrefix: prefix, ExceptFlags: except, Reason: reason}
}

func flagMatcher(cmd string, prefix []string, flags []string, reason string) CommandMatcher {
	return CommandMatcher{Command: cmd, CommandArgsPrefix: prefix, Flags: flags, Reason: reason}
}

func concatMatchers(groups ...[]CommandMatcher) []CommandMatcher {
	var out []CommandMatcher
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

func matcherList1(ms ...CommandMatcher) []CommandMatcher { return ms }

func defaultBlocked() []CommandMatcher {
	return concatMatchers(
		namesMatchers("network client: downloads, uploads or connects out",
			"curl", "wget", "wget2", "nc", "ncat", "netcat", "socat", "telnet", "ftp", "tftp", "lftp",
			"aria2c", "axel", "httpie", "http", "https", "xh", "curlie", "websocat", "gsutil"),
		namesMatchers("remote shell or file transfer",
			"ssh", "scp", "sftp", "mosh", "sshpass", "ssh-copy-id", "autossh", "rsh", "rlogin", "rcp"),
		namesMatchers("network scanner", "nmap", "masscan", "zmap"),
		namesMatchers("privilege escalation: runs a command as another user",
			"sudo", "su", "doas", "pkexec", "runuser", "sudoedit", "gksudo", "kdesu"),
		namesMatchers("system package manager: installs software system-wide",
			"apt", "apt-get", "aptitude", "dpkg", "rpm", "yum", "dnf", "microdnf", "zypper", "pacman",
			"yay", "apk", "brew", "port", "snap", "flatpak", "nix-env", "emerge", "pkg", "pkg_add",
			"choco", "winget", "scoop", "softwareupdate", "installer", "mas"),
		namesMatchers("system control: services, power, boot",
			"systemctl", "service", "shutdown", "reboot", "poweroff", "halt", "init", "telinit",
			"launchctl", "rc-service", "update-rc.d", "chkconfig", "loginctl", "systemd-run"),
		namesMatchers("scheduled jobs: persistence",
			"crontab", "at", "batch", "atrun", "anacron"),
		namesMatchers("kernel and mounts",
			"mount", "umount", "modprobe", "insmod", "rmmod", "sysctl", "kextload", "kextunload",
			"kmutil", "swapon", "swapoff", "losetup", "mkfs", "fdisk", "sfdisk", "parted", "diskutil",
			"csrutil", "nvram", "bless", "efibootmgr", "grub-install"),
		namesMatchers("firewall and network configuration",
			"iptables", "ip6tables", "nft", "ufw", "firewall-cmd", "pfctl", "ifconfig", "route",
			"netsh", "networksetup", "nmcli", "iwconfig", "tc", "ebtables", "arptables", "ipset",
			"wg", "wg-quick", "openvpn", "tailscale"),
		namesMatchers("user and credential administration",
			"useradd", "userdel", "usermod", "passwd", "chpasswd", "groupadd", "groupdel",
			"visudo", "setcap", "dscl", "sysadminctl"),
		matcherList1(
			flagMatcher("rsync", nil, []string{"-e", "--rsh", "--rsync-path"}, "rsync running a remote shell command"),
			flagMatcher("git", []string{"daemon"}, nil, "serves the repository on the network"),
		),
	)
}

func defaultDangerous() []CommandMatcher {
	gitSub := func(reason string, subs ...string) []CommandMatcher {
		ms := make([]CommandMatcher, len(subs))
		for i, s := range subs {
			ms[i] = CommandMatcher{Command: "git", CommandArgsPrefix: []string{s}, Reason: reason}
		}
		return ms
	}
	return concatMatchers(
		gitSub("talks to a remote", "push", "pull", "fetch", "clone", "ls-remote", "remote",
			"submodule", "send-email", "request-pull", "svn", "p4"),
		gitSub("changes history, refs or the working tree", "commit", "reset", "checkout", "switch",
			"restore", "rebase", "merge", "cherry-pick", "revert", "clean", "rm", "mv", "stash",
			"filter-branch", "filter-repo", "update-ref", "symbolic-ref", "reflog", "gc", "prune",
			"replace", "am", "apply", "bisect", "worktree", "notes", "tag", "branch", "update-index",
			"read-tree", "commit-tree", "pack-refs", "repack", "maintenance", "lfs", "sparse-checkout"),
		gitSub("changes configuration that later git commands execute", "config", "hook",
			"credential", "credential-store", "credential-cache", "difftool", "mergetool",
			"instaweb", "web--browse", "upload-pack", "receive-pack", "fsmonitor--daemon"),
		matcherList1(
			flagMatcher("rm", nil, []string{"-r", "-R", "-f", "--recursive", "--force", "-d", "--dir"}, "recursive or forced removal"),
			flagMatcher("rmdir", nil, []string{"-p", "--parents"}, "removes parent directories"),
			flagMatcher("go", nil, []string{"-exec", "-toolexec", "-vettool"}, "runs an arbitrary program during the build"),
			flagMatcher("go", []string{"install"}, nil, "installs binaries outside the sandbox"),
			flagMatcher("go", []string{"get"}, nil, "downloads and changes dependencies"),
			flagMatcher("go", []string{"run"}, nil, "builds and runs a program, possibly fetched from the network"),
			flagMatcher("go", []string{"generate"}, nil, "runs the commands named in //go:generate lines"),
			flagMatcher("go", []string{"mod", "download"}, nil, "downloads modules into the cache outside the sandbox"),
			flagMatcher("go", []string{"mod", "tidy"}, nil, "downloads modules and rewrites go.mod"),
			flagMatcher("go", []string{"clean"}, nil, "deletes caches outside the sandbox"),
			flagMatcher("go", []string{"env"}, []string{"-w", "-u"}, "writes the user's go env file"),
			flagMatcher("go", []string{"tool"}, nil, "runs an arbitrary tool"),
			flagMatcher("go", []string{"work", "sync"}, nil, "downloads modules"),
		),
		pkgInstalls(),
		namesMatchers("interpreter: runs code the classifier cannot read",
			"osascript", "wscript", "cscript", "powershell", "pwsh", "expect", "tclsh", "wish"),
		matcherList1(
			flagMatcher("python", nil, []string{"-c", "-m"}, "runs inline code or a module"),
			flagMatcher("node", nil, []string{"-e", "--eval", "-p", "--print", "-r", "--require", "--import", "--loader"}, "runs inline code"),
			flagMatcher("nodejs", nil, []string{"-e", "--eval", "-p", "--print"}, "runs inline code"),
			flagMatcher("deno", []string{"eval"}, nil, "runs inline code"),
			flagMatcher("deno", []string{"run"}, nil, "runs a script, possibly from the network"),
			flagMatcher("bun", nil, []string{"-e", "--eval", "-p", "--print", "x"}, "runs inline code or a package"),
			flagMatcher("perl", nil, []string{"-e", "-E", "-M"}, "runs inline code"),
			flagMatcher("ruby", nil, []string{"-e", "-r"}, "runs inline code"),
			flagMatcher("php", nil, []string{"-r", "-B", "-R", "-E"}, "runs inline code"),
			flagMatcher("lua", nil, []string{"-e", "-l"}, "runs inline code"),
			flagMatcher("luajit", nil, []string{"-e", "-l"}, "runs inline code"),
			flagMatcher("julia", nil, []string{"-e", "--eval", "-E", "--print"}, "runs inline code"),
			flagMatcher("rscript", nil, []string{"-e"}, "runs inline code"),
			flagMatcher("r", nil, []string{"-e"}, "runs inline code"),
			flagMatcher("scala", nil, []string{"-e"}, "runs inline code"),
			flagMatcher("groovy", nil, []string{"-e"}, "runs inline code"),
			flagMatcher("jshell", nil, []string{"-R", "-J"}, "runs inline code"),
		),
		namesMatchers("awk program with side effects (system, pipes, output redirection, getline)",
			"awk", "gawk", "mawk", "nawk"),
		namesMatchers("editor or pager with a shell escape", "vim", "vi", "nvim", "view", "ex", "emacs",
			"emacsclient", "nano", "ed", "pico", "joe", "mcedit"),
		namesMatchers("runs another command the classifier does not parse",
			"watch", "flock", "strace", "ltrace", "gdb", "lldb", "valgrind", "perf", "parallel",
			"unbuffer", "script", "sg", "chroot", "nsenter", "unshare", "firejail", "bwrap",
			"faketime", "proxychains", "proxychains4", "torsocks", "caffeinate", "dtrace", "dtruss",
			"hyperfine", "entr", "fswatch", "inotifywait", "tmux", "screen", "xdotool", "busybox", "toybox"),
		namesMatchers("container, cluster or cloud control",
			"docker", "docker-compose", "podman", "nerdctl", "kubectl", "helm", "minikube", "kind",
			"k3s", "terraform", "tofu", "pulumi", "ansible", "ansible-playbook", "vagrant", "packer",
			"aws", "gcloud", "az", "gh", "glab", "hub", "heroku", "fly", "flyctl", "vercel",
			"netlify", "firebase", "doctl", "oci", "eksctl", "serverless", "wrangler"),
		namesMatchers("signals other processes", "kill", "pkill", "killall", "xkill", "skill", "slay"),
		namesMatchers("changes permissions or ownership", "chmod", "chown", "chgrp", "chattr", "chflags",
			"setfacl", "xattr"),
		namesMatchers("raw disk or file destruction", "dd", "shred", "wipe", "srm", "fallocate"),
		namesMatchers("network access", "ping", "ping6", "traceroute", "tracepath", "mtr", "dig", "nslookup",
			"host", "whois", "openssl", "gnutls-cli", "ncftp", "smbclient", "ldapsearch", "mysql",
			"psql", "redis-cli", "mongo", "mongosh", "sqlcmd", "tcpdump", "tshark", "wireshark",
			"ip", "ngrok", "cloudflared", "git-upload-pack",
			"git-receive-pack", "git-shell"),
		namesMatchers("opens files or URLs with other programs", "open", "xdg-open", "gio", "start",
			"sensible-browser", "x-www-browser", "firefox", "chromium", "google-chrome", "lynx",
			"w3m", "links"),
		namesMatchers("reads secrets from a keychain or password store", "security", "secret-tool",
			"pass", "gpg", "gpg2", "op", "bw", "vault", "keyctl", "ssh-add", "ssh-agent",
			"ssh-keygen", "ssh-keyscan"),
		namesMatchers("changes system settings", "defaults", "scutil", "pmset", "timedatectl",
			"hostnamectl", "localectl", "hwclock", "setxkbmap", "gsettings",
			"dconf", "update-alternatives", "ldconfig", "systemsetup", "spctl", "tccutil", "codesign"),
		matcherList1(
			flagMatcher("date", nil, []string{"-s", "--set"}, "sets the system clock"),
			flagMatcher("hostname", nil, []string{"-F", "--file", "-b", "--boot"}, "sets the host name"),
			flagMatcher("tar", nil, []string{"--checkpoint-action", "--to-command", "--use-compress-program",
				"-I", "--rsh-command", "--info-script", "--new-volume-script", "-F", "--rmt-command"},
				"tar option that runs a program"),
			flagMatcher("zip", nil, []string{"-TT", "--unzip-command"}, "zip option that runs a program"),
			flagMatcher("rsync", nil, nil, "copies files, possibly to or from a remote host"),
			flagMatcher("make", nil, []string{"-f", "--file", "--makefile", "-C", "--directory", "--eval", "-E"}, "make reading another makefile or directory"),
			flagMatcher("find", nil, []string{"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"}, "find action that runs commands, deletes or writes files"),
			flagMatcher("fd", nil, []string{"-x", "--exec", "-X", "--exec-batch"}, "fd runs a command per match"),
			flagMatcher("sed", nil, []string{"-i", "--in-place"}, "edits files in place"),
			flagMatcher("sort", nil, []string{"-o", "--output", "--compress-program"}, "writes a file or runs a compressor"),
			flagMatcher("rg", nil, []string{"--pre", "--search-zip", "-z", "--hostname-bin"}, "ripgrep option that runs other programs"),
			flagMatcher("ln", nil, []string{"-s", "--symbolic", "-f", "--force"}, "creates or replaces links that may point outside"),
			flagMatcher("truncate", nil, nil, "destroys file contents"),
			flagMatcher("mkfifo", nil, nil, "creates special files"),
			flagMatcher("mknod", nil, nil, "creates device nodes"),
			flagMatcher("install", nil, nil, "copies files and sets modes, often system-wide"),
			flagMatcher("npm", nil, []string{"-g", "--global", "--location"}, "global npm operation"),
			flagMatcher("yq", nil, []string{"-i", "--inplace"}, "edits files in place"),
			flagMatcher("cargo", []string{"install"}, nil, "installs binaries outside the sandbox"),
			flagMatcher("cargo", []string{"run"}, nil, "runs an arbitrary program"),
			flagMatcher("cargo", []string{"publish"}, nil, "publishes a crate"),
			flagMatcher("cargo", []string{"login"}, nil, "stores a registry token"),
			flagMatcher("cargo", []string{"add"}, nil, "adds a dependency from the network"),
			flagMatcher("cargo", []string{"update"}, nil, "updates dependencies from the network"),
			flagMatcher("cargo", []string{"fetch"}, nil, "downloads dependencies"),
			flagMatcher("cargo", nil, []string{"--config", "-Z"}, "overrides cargo configuration (runners, linkers)"),
			flagMatcher("rustup", nil, nil, "installs toolchains outside the sandbox"),
		),
	)
}

func pkgInstalls() []CommandMatcher {
	type sp struct {
		cmd    string
		prefix []string
	}
	list := []sp{
		{"npm", []string{"install"}}, {"npm", []string{"i"}}, {"npm", []string{"add"}}, {"npm", []string{"ci"}},
		{"npm", []string{"uninstall"}}, {"npm", []string{"update"}}, {"npm", []string{"exec"}},
		{"npm", []string{"publish"}}, {"npm", []string{"link"}}, {"npm", []string{"login"}},
		{"npm", []string{"run"}}, {"npm", []string{"start"}}, {"npm", []string{"x"}},
		{"npm", []string{"init"}}, {"npm", []string{"create"}}, {"npm", []string{"config"}},
		{"npx", nil}, {"pnpx", nil}, {"bunx", nil}, {"uvx", nil}, {"pipx", nil},
		{"pnpm", []string{"add"}}, {"pnpm", []string{"install"}}, {"pnpm", []string{"i"}},
		{"pnpm", []string{"dlx"}}, {"pnpm", []string{"exec"}}, {"pnpm", []string{"update"}},
		{"pnpm", []string{"remove"}}, {"pnpm", []string{"create"}}, {"pnpm", []string{"run"}},
		{"yarn", []string{"add"}}, {"yarn", []string{"install"}}, {"yarn", []string{"global"}},
		{"yarn", []string{"dlx"}}, {"yarn", []string{"remove"}}, {"yarn", []string{"up"}},
		{"yarn", []string{"run"}}, {"yarn", []string{"exec"}}, {"yarn", []string{"create"}},
		{"bun", []string{"add"}}, {"bun", []string{"install"}}, {"bun", []string{"i"}},
		{"bun", []string{"x"}}, {"bun", []string{"run"}}, {"bun", []string{"create"}},
		{"pip", []string{"install"}}, {"pip", []string{"uninstall"}}, {"pip", []string{"download"}},
		{"pip", []string{"wheel"}}, {"pip", []string{"config"}},
		{"uv", []string{"pip"}}, {"uv", []string{"tool"}}, {"uv", []string{"add"}},
		{"uv", []string{"sync"}}, {"uv", []string{"run"}}, {"uv", []string{"python"}},
		{"poetry", []string{"add"}}, {"poetry", []string{"install"}}, {"poetry", []string{"update"}},
		{"poetry", []string{"run"}}, {"pipenv", []string{"install"}}, {"pipenv", []string{"run"}},
		{"conda", []string{"install"}}, {"conda", []string{"create"}}, {"conda", []string{"run"}},
		{"mamba", []string{"install"}}, {"micromamba", []string{"install"}},
		{"easy_install", nil}, {"gem", []string{"install"}}, {"gem", []string{"update"}},
		{"bundle", []string{"install"}}, {"bundle", []string{"exec"}}, {"bundler", []string{"install"}},
		{"composer", []string{"install"}}, {"composer", []string{"require"}}, {"composer", []string{"update"}},
		{"composer", []string{"global"}}, {"dotnet", []string{"tool"}}, {"dotnet", []string{"add"}},
		{"dotnet", []string{"run"}}, {"mvn", nil}, {"gradle", nil}, {"gradlew", nil}, {"sbt", nil},
		{"nvm", nil}, {"fnm", nil}, {"volta", nil}, {"asdf", nil}, {"mise", nil}, {"sdk", nil},
		{"gvm", nil}, {"pyenv", nil}, {"rbenv", nil}, {"rvm", nil}, {"nix", nil}, {"nix-shell", nil},
		{"guix", nil}, {"cpan", nil}, {"cpanm", nil}, {"luarocks", nil}, {"opam", nil},
		{"cabal", []string{"install"}}, {"stack", []string{"install"}}, {"deno", []string{"install"}},
		{"go", []string{"mod", "vendor"}}, {"corepack", nil}, {"helm", nil},
	}
	ms := make([]CommandMatcher, len(list))
	for i, e := range list {
		ms[i] = CommandMatcher{Command: e.cmd, CommandArgsPrefix: e.prefix,
			Reason: "installs or runs packages from the network"}
	}
	return ms
}

// Guards shared by several safe entries.
var (
	gitDiffExcept = []string{"--output", "--ext-diff", "--textconv", "--no-index", "--exec", "--upload-pack",
		"--receive-pack", "--open-files-in-pager", "-O", "--show-signature"}
	goBuildExcept = []string{"-exec", "-toolexec", "-vettool", "-ldflags", "-overlay", "-modfile",
		"-pkgdir", "-C", "-mod", "-gcflags", "-asmflags", "-gccgoflags"}
	// Any awk may be mawk or gawk: -W exec runs a program file, -D reads
	// debugger commands that evaluate code, and the profile, dump and
	// pretty-print options write files.
	awkExcept = []string{"-f", "--file", "-i", "--include", "-l", "--load", "-E", "--exec", "-W",
		"-D", "--debug", "-p", "--profile", "-o", "--pretty-print", "-d", "--dump-variables"}
	// Reading the configuration of the user or the system (outside the
	// sandbox), or naming where a value comes from, is not safe.
	gitConfigReadExcept = []string{"--global", "--system", "--file", "-f", "--blob", "--show-origin", "--show-scope", "--includes"}
	cargoExcept         = []string{"--config", "-Z", "--open", "--fix"}
	tarExcept           = []string{"--checkpoint-action", "--to-command", "--use-compress-program", "-I",
		"--rsh-command", "--info-script", "--new-volume-script", "-F", "--rmt-command", "-x", "-c",
		"--extract", "--create", "--append", "-r", "-u", "--delete", "--index-file", "--volno-file",
		"-A", "--catenate", "--concatenate", "-g", "--listed-incremental", "-G", "--incremental",
		"-d", "--diff", "--compare", "--update", "--get"}
)

// defaultSafe is the safe list: the matchers derived from the program
// specs, then the matchers of programs that have no spec yet.
func defaultSafe() []CommandMatcher {
	out := specMatchers()
	for _, m := range unspecifiedSafe() {
		if programs.Lookup(normalizeCommandName(m.Command), m.CommandArgsPrefix) == nil {
			out = append(out, m)
		}
	}
	return out
}

func unspecifiedSafe() []CommandMatcher {
	return concatMatchers(
		namesMatchers("reads files or prints information; cannot write, run or reach out",
			"cat", "head", "stat", "cmp", "comm", "cut", "tr",
			"nl", "od", "xxd", "hexdump", "strings", "base32",
			"df", "pwd", "whoami", "id", "uname", "echo", "true", "false", "test", "[",
			"seq", "basename", "dirname", "realpath", "readlink", "which", "whereis", "type",
			"column", "expand", "unexpand", "fold", "fmt", "paste", "join", "rev", "tac",
			"tsort", "numfmt", "expr", "sleep", "nproc", "arch", "locale", "tty", "uptime",
			"groups", "logname", "getconf", "cal", "jq",
			"eza", "exa", "lsd", "shellcheck", "cd", "uniq", "tee", "touch",
			"mkdir", "wait", "dircolors", "look", "factor"),
		// Guarded reads: no list of files read from a file (its names are
		// never path-checked), and no flag that follows symbolic links while
		// walking a tree (a link in the sandbox may lead anywhere).
		guardedNames([]string{"--files0-from"}, "counts sizes or lines; no file list read from a file", "wc"),
		guardedNames([]string{"-f", "-F", "--follow", "--retry"}, "prints the end of files; never waits for more", "tail"),
		// Writes inside the sandbox are allowed, so copying, moving and
		// removing single files is too; every operand is checked as a
		// write (never outside, never into .git, a protected path or a
		// PATH directory). No recursion into trees, no links followed.
		guardedNames([]string{"-r", "-R", "--recursive", "-f", "--force", "-d", "--dir", "-i", "-I", "--interactive",
			"--no-preserve-root", "--preserve-root", "--one-file-system"}, "removes single files inside the sandbox", "rm"),
		// No backups: their names (destination + suffix) would be written
		// unchecked. No recursion: a tree copied into the sandbox may land
		// anywhere under the destination.
		guardedNames([]string{"-L", "--dereference", "-i", "--interactive", "-s", "--symbolic-link",
			"-l", "--link", "--copy-contents", "-b", "--backup", "-S", "--suffix", "-r", "-R", "--recursive",
			"-a", "--archive"}, "copies files inside the sandbox; no links followed or made", "cp"),
		guardedNames([]string{"-i", "--interactive", "-b", "--backup", "-S", "--suffix"},
			"moves or renames files inside the sandbox", "mv"),
		guardedNames([]string{"--files0-from", "-L", "--dereference"}, "counts disk usage; no file list, no links followed", "du"),
		guardedNames([]string{"-c", "--check"}, "prints a checksum; no list of files to check",
			"md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "shasum", "cksum", "b2sum", "sum"),
		guardedNames([]string{"-f", "--files-from"}, "identifies file types; no list of files read from a file", "file"),
		guardedNames([]string{"-R", "--dereference-recursive"}, "searches files; links are not followed", "grep", "egrep", "fgrep"),
		guardedNames([]string{"-r", "--recursive"}, "compares files (a recursive diff follows links out of the sandbox)", "diff"),
		guardedNames([]string{"-L", "--dereference"}, "lists files; links are not followed", "ls"),
		namesMatchers("sets shell error-handling options (scripts accept only -e, -u, -x, -v, -o pipefail and the like)", "set"),
		matcherList1(
			subMatcher("base64", nil, []string{"-o", "--output"}, "encodes or decodes to standard output"),
			subMatcher("iconv", nil, []string{"-o", "--output"}, "converts text to standard output"),
			subMatcher("tree", nil, []string{"-o", "-R", "-l", "--fromfile"}, "lists a directory tree; links are not followed"),
			subMatcher("hostname", nil, []string{"-F", "--file", "-b", "--boot"}, "prints the host name"),
			subMatcher("date", nil, []string{"-s", "--set"}, "prints the date"),
			subMatcher("printf", nil, []string{"-v"}, "prints text"),
			subMatcher("find", nil, []string{"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint",
				"-fprint0", "-fprintf", "-fls", "-L", "-follow", "-files0-from"}, "lists files; no action that runs, deletes or writes"),
			subMatcher("rg", nil, []string{"--pre", "--pre-glob", "--search-zip", "-z", "--hostname-bin", "-L", "--follow"},
				"searches files; no preprocessor or decompressor"),
			subMatcher("sort", nil, []string{"-o", "--output", "--compress-program", "-T", "--temporary-directory", "--files0-from"},
				"sorts to standard output"),
			subMatcher("sed", nil, []string{"-i", "--in-place", "-f", "--file"},
				"stream editor, safe only with a provably harmless script"),
			subMatcher("awk", nil, awkExcept, "text processing, safe only with a provably harmless program"),
			subMatcher("gawk", nil, awkExcept, "text processing, safe only with a provably harmless program"),
			subMatcher("mawk", nil, awkExcept, "text processing, safe only with a provably harmless program"),
			subMatcher("nawk", nil, awkExcept, "text processing, safe only with a provably harmless program"),
			subMatcher("fd", nil, []string{"-x", "--exec", "-X", "--exec-batch", "-L", "--follow"}, "lists files; no command per match, no links followed"),
			subMatcher("bat", nil, []string{"--pager", "cache"}, "prints files with highlighting; not its cache commands"),
			// Any spelling of list mode (-t bundled with other short
			// options, --list); old-style bundles without a dash are
			// named one by one.
			CommandMatcher{Command: "tar", Flags: []string{"-t", "--list"}, ExceptFlags: tarExcept, Reason: "lists an archive"},
			subMatcher("tar", []string{"tf"}, tarExcept, "lists an archive"),
			subMatcher("tar", []string{"tvf"}, tarExcept, "lists an archive"),
			subMatcher("tar", []string{"tzf"}, tarExcept, "lists an archive"),
			subMatcher("tar", []string{"tzvf"}, tarExcept, "lists an archive"),
			subMatcher("tar", []string{"tjf"}, tarExcept, "lists an archive"),
			subMatcher("tar", []string{"tjvf"}, tarExcept, "lists an archive"),
			subMatcher("tar", []string{"tJf"}, tarExcept, "lists an archive"),
			subMatcher("tar", []string{"tJvf"}, tarExcept, "lists an archive"),
			subMatcher("unzip", []string{"-l"}, nil, "lists an archive"),
			subMatcher("unzip", []string{"-v"}, nil, "lists an archive verbosely"),
			subMatcher("unzip", []string{"-Z"}, nil, "lists an archive (zipinfo mode)"),
			subMatcher("unzip", []string{"-Z1"}, nil, "lists the names in an archive (zipinfo mode)"),
			subMatcher("unzip", []string{"-t"}, nil, "tests an archive without extracting"),
			subMatcher("unzip", []string{"-tq"}, nil, "tests an archive without extracting"),
			subMatcher("zipinfo", nil, nil, "lists an archive"),
			// -w would rewrite every .go file under a directory operand,
			// writing through symbolic links that nothing checked.
			subMatcher("gofmt", nil, []string{"-w"}, "formats Go code to standard output or lists differences"),
			subMatcher("goimports", nil, []string{"-w"}, "lists import fixes"),
			subMatcher("command", []string{"-v"}, nil, "looks up a command name"),
			subMatcher("command", []string{"-V"}, nil, "describes a command name"),
		),
		gitSafe(),
		goSafe(),
		matcherList1(
			subMatcher("cargo", []string{"test"}, cargoExcept, "runs the project's tests (same stance as go test)"),
			subMatcher("cargo", []string{"check"}, cargoExcept, "type-checks the project"),
			subMatcher("cargo", []string{"build"}, cargoExcept, "builds the project into target/"),
			subMatcher("cargo", []string{"clippy"}, cargoExcept, "lints the project"),
			subMatcher("cargo", []string{"bench"}, cargoExcept, "runs the project's benchmarks"),
			subMatcher("cargo", []string{"doc"}, cargoExcept, "builds documentation into target/"),
			subMatcher("cargo", []string{"tree"}, cargoExcept, "prints the dependency tree"),
			subMatcher("cargo", []string{"metadata"}, cargoExcept, "prints package metadata"),
			subMatcher("cargo", []string{"--version"}, nil, "prints the version"),
			subMatcher("cargo", []string{"version"}, nil, "prints the version"),
			flagMatcher("cargo", []string{"fmt"}, []string{"--check"}, "checks formatting without writing"),
			subMatcher("cargo", []string{"fmt", "--", "--check"}, nil, "checks formatting without writing"),
			flagMatcher("rustfmt", nil, []string{"--check"}, "checks formatting without writing"),
			subMatcher("rustc", []string{"--version"}, nil, "prints the version"),
			subMatcher("node", []string{"--version"}, nil, "prints the version"),
			subMatcher("node", []string{"-v"}, nil, "prints the version"),
			subMatcher("npm", []string{"--version"}, nil, "prints the version"),
			subMatcher("npm", []string{"-v"}, nil, "prints the version"),
			subMatcher("npm", []string{"test"}, nil, "runs the project's tests"),
			subMatcher("npm", []string{"ls"}, []string{"-g", "--global"}, "lists installed packages"),
			subMatcher("python", []string{"--version"}, nil, "prints the version"),
			subMatcher("python", []string{"-V"}, nil, "prints the version"),
			subMatcher("python", []string{"-m", "pytest"}, []string{"-p", "--pyargs"}, "runs the project's tests"),
			subMatcher("python", []string{"-m", "unittest"}, nil, "runs the project's tests"),
			subMatcher("pytest", nil, []string{"-p", "--pyargs"}, "runs the project's tests"),
			subMatcher("tsc", []string{"--noEmit"}, nil, "type-checks without writing"),
		),
	)
}

func gitSafe() []CommandMatcher {
	g := func(prefix []string, except []string, reason string) CommandMatcher {
		return CommandMatcher{Command: "git", CommandArgsPrefix: prefix, ExceptFlags: except, Reason: reason}
	}
	p := func(s ...string) []string { return s }
	return matcherList1(
		g(p("status"), nil, "shows the working tree status"),
		g(p("diff"), gitDiffExcept, "shows changes; no external diff, textconv or output file"),
		g(p("log"), gitDiffExcept, "shows history; no external diff, textconv or output file"),
		g(p("show"), gitDiffExcept, "shows objects; no external diff, textconv or output file"),
		g(p("whatchanged"), gitDiffExcept, "shows history"),
		g(p("diff-tree"), gitDiffExcept, "compares trees"),
		g(p("diff-index"), gitDiffExcept, "compares the index"),
		g(p("diff-files"), gitDiffExcept, "compares the working tree"),
		g(p("range-diff"), gitDiffExcept, "compares commit ranges"),
		g(p("shortlog"), gitDiffExcept, "summarises history"),
		g(p("blame"), []string{"--textconv", "--contents", "-S"}, "annotates lines; no revisions file (-S reads any file)"),
		g(p("annotate"), []string{"--textconv"}, "annotates lines"),
		g(p("grep"), []string{"-O", "--open-files-in-pager", "--textconv", "--ext-grep", "--no-index"},
			"searches tracked files; no pager program"),
		g(p("rev-parse"), nil, "resolves revisions"),
		g(p("rev-list"), nil, "lists commits"),
		g(p("ls-files"), nil, "lists tracked files"),
		g(p("ls-tree"), nil, "lists a tree"),
		g(p("cat-file"), []string{"--textconv", "--filters"}, "prints objects; no textconv or filters"),
		g(p("describe"), nil, "describes a commit"),
		g(p("name-rev"), nil, "names a revision"),
		g(p("merge-base"), nil, "finds a common ancestor"),
		g(p("show-ref"), []string{"-d"}, "lists refs"),
		g(p("for-each-ref"), nil, "lists refs"),
		g(p("count-objects"), nil, "counts objects"),
		g(p("check-ignore"), nil, "checks ignore rules"),
		g(p("check-attr"), nil, "checks attributes"),
		g(p("add"), []string{"-i", "--interactive", "-p", "--patch", "-e", "--edit", "--pathspec-from-file"},
			"stages changes in the index; nothing interactive"),
		g(p("version"), nil, "prints the version"),
		g(p("--version"), nil, "prints the version"),
		g(p("help"), []string{"-w", "--web", "-i", "--info", "-m", "--man"}, "prints help text"),
		g(p("branch"), []string{"-d", "-D", "-m", "-M", "-c", "-C", "-f", "-u", "--delete", "--move",
			"--copy", "--force", "--set-upstream-to", "--set-upstream", "--unset-upstream",
			"--edit-description", "--track", "--no-track", "--create-reflog"},
			"lists branches; no deletion, rename, copy or upstream change"),
		g(p("tag"), []string{"-v", "--verify", "-d", "--delete", "-a", "-s", "-u", "-f", "--force", "-m", "-F", "--annotate",
			"--sign", "--local-user", "--message", "--file", "-e", "--edit", "--create-reflog"},
			"lists tags"),
		g(p("reflog"), []string{"expire", "delete", "drop", "exists", "write"}, "shows the reflog"),
		g(p("stash", "list"), gitDiffExcept, "lists stashes"),
		g(p("stash", "show"), gitDiffExcept, "shows a stash"),
		g(p("remote"), []string{"add", "remove", "rm", "rename", "set-url", "set-head", "set-branches",
			"prune", "update", "show"}, "lists remotes"),
		g(p("worktree", "list"), nil, "lists worktrees"),
		g(p("submodule", "status"), nil, "shows submodule status"),
		g(p("config", "--get"), nil, "reads one configuration value"),
		g(p("config", "--get-all"), nil, "reads configuration values"),
		g(p("config", "--get-regexp"), gitConfigReadExcept, "reads the repository's configuration values"),
		g(p("config", "--list"), gitConfigReadExcept, "lists the repository's configuration"),
		g(p("config", "-l"), gitConfigReadExcept, "lists the repository's configuration"),
		g(p("config", "get"), nil, "reads one configuration value"),
		g(p("config", "list"), nil, "lists configuration"),
		g(p("fsck"), []string{"--lost-found"}, "checks the object database"),
		g(p("var"), []string{"-l"}, "prints a git variable (not the whole configuration)"),
	)
}

func goSafe() []CommandMatcher {
	g := func(prefix []string, except []string, reason string) CommandMatcher {
		return CommandMatcher{Command: "go", CommandArgsPrefix: prefix, ExceptFlags: except, Reason: reason}
	}
	p := func(s ...string) []string { return s }
	testExcept := append(append([]string{}, goBuildExcept...), "-o")
	return matcherList1(
		g(p("test"), testExcept, "runs the project's tests; no -exec, -toolexec or -o"),
		g(p("build"), goBuildExcept, "builds the project; no -toolexec or -ldflags"),
		g(p("vet"), goBuildExcept, "vets the project; no -vettool"),
		g(p("list"), append(append([]string{}, goBuildExcept...), "-u", "-retracted", "-versions", "-reuse", "-m"),
			"lists packages; no network queries"),
		g(p("version"), nil, "prints the version"),
		g(p("env"), []string{"-w", "-u"}, "prints the Go environment"),
		g(p("doc"), []string{"-http"}, "prints documentation"),
		g(p("help"), nil, "prints help text"),
		g(p("mod", "verify"), nil, "verifies the module cache"),
		g(p("tool", "cover"), []string{"-html", "-o"}, "summarises a coverage profile; no browser, no output file"),
		g(p("mod", "edit", "-json"), nil, "prints go.mod as JSON"),
		g(p("mod", "edit", "-print"), nil, "prints go.mod"),
	)
}
