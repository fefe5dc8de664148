package programs

// The default blocked and dangerous lists (the safe list is derived from
// the specs). "Safe" means: runs without asking inside the sandbox
// because it cannot write, delete or execute outside it, reach the network,
// install software, or change git history or remotes. Every safe entry is
// guarded against the flags that would break that promise; path arguments
// and redirections are checked separately by the classifier.
//
// Precedence is safe > blocked > dangerous, so a safe entry must never match
// a dangerous form of its command: that is what ExceptFlags are for.

func namesMatchers(reason string, cmds ...string) []ListEntry {
	ms := make([]ListEntry, len(cmds))
	for i, c := range cmds {
		ms[i] = ListEntry{Command: c, Reason: reason}
	}
	return ms
}

func flagMatcher(cmd string, prefix []string, flags []string, reason string) ListEntry {
	return ListEntry{Command: cmd, CommandArgsPrefix: prefix, Flags: flags, Reason: reason}
}

func concatMatchers(groups ...[]ListEntry) []ListEntry {
	var out []ListEntry
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

func matcherList1(ms ...ListEntry) []ListEntry { return ms }

// ListEntry is one entry of a default list. Its fields are those of the
// public CommandMatcher, whose documentation says how it matches.
type ListEntry struct {
	Command           string
	CommandArgsPrefix []string
	Flags             []string
	ExceptFlags       []string
	Reason            string
}

// Blocked returns a fresh copy of the default blocked list: network
// clients, remote shells, privilege escalation, system package managers,
// system control, scheduled jobs, kernel, firewall and network
// configuration, user administration.
func Blocked() []ListEntry {
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
		),
		gitBlocked(),
	)
}

// BlockedTable returns the default blocked list, the entries of Blocked in
// order, as it is compiled into the program (listtables.go): nothing is
// built. The entries are shared: callers must not change them.
func BlockedTable() []ListEntry { return blockedTable[:] }

// DangerousTable returns the default dangerous list, the entries of
// Dangerous in order, as it is compiled into the program. The entries are
// shared: callers must not change them.
func DangerousTable() []ListEntry { return dangerousTable[:] }

// Dangerous returns a fresh copy of the default dangerous list: git
// operations that change history or talk to remotes (git.go), go commands
// that download, install or run tools (golang.go), forced or recursive
// deletes, installs, interpreters with inline code, container and cloud
// tools, and programs that run other commands.
func Dangerous() []ListEntry {
	return concatMatchers(
		gitDangerous(),
		matcherList1(
			flagMatcher("rm", nil, []string{"-r", "-R", "-f", "--recursive", "--force", "-d", "--dir"}, "recursive or forced removal"),
			flagMatcher("rmdir", nil, []string{"-p", "--parents"}, "removes parent directories"),
		),
		goDangerous(),
		pkgInstalls(),
		npmScripts(),
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
			"ip", "ngrok", "cloudflared"),
		gitWirePrograms(),
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

func pkgInstalls() []ListEntry {
	type sp struct {
		cmd    string
		prefix []string
	}
	list := []sp{
		{"npm", []string{"install"}}, {"npm", []string{"i"}}, {"npm", []string{"add"}}, {"npm", []string{"ci"}},
		{"npm", []string{"uninstall"}}, {"npm", []string{"update"}}, {"npm", []string{"exec"}},
		{"npm", []string{"publish"}}, {"npm", []string{"link"}}, {"npm", []string{"login"}},
		{"npm", []string{"x"}},
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
	ms := make([]ListEntry, len(list))
	for i, e := range list {
		ms[i] = ListEntry{Command: e.cmd, CommandArgsPrefix: e.prefix,
			Reason: "installs or runs packages from the network"}
	}
	return ms
}

// npmScripts are the npm commands that run the project's package scripts
// (project code): npm test is npm run test, so both go the same way.
func npmScripts() []ListEntry {
	var ms []ListEntry
	for _, sub := range []string{"run", "run-script", "rum", "urn", "test", "tst", "t", "start", "stop", "restart"} {
		ms = append(ms, ListEntry{Command: "npm", CommandArgsPrefix: []string{sub},
			Reason: "runs the project's package scripts (project code)"})
	}
	return ms
}
