package confine

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// DefaultPolicy returns the policy real toolchains need for a project in
// sandbox, with no network:
//
//   - the sandbox is writable; /tmp, /var/tmp, /run and /dev/shm are the
//     command's own (empty, and gone when it ends);
//   - Go's build cache (GOCACHE, else its default) is Private: go build and
//     go test work and stay fast from the second run on, and nothing the
//     command compiles reaches the user's own builds;
//   - every other cache that builds trust (the Go module cache; npm, yarn,
//     pnpm, pip, uv, poetry, cargo, deno, bun) is readable and read-only:
//     what was downloaded before can be used, nothing can be changed, and
//     without the network nothing new is downloaded;
//   - the user's credentials are Hidden (see CredentialPaths), and so are
//     the places the environment moves them to (CARGO_HOME, KUBECONFIG,
//     XDG_CONFIG_HOME, CLAUDE_CONFIG_DIR, CODEX_HOME, HF_HOME, ...).
//
// Locations follow the calling process's environment (HOME,
// XDG_CACHE_HOME, GOCACHE); the credentials of the home the user database
// gives are hidden as well, whatever HOME says (and every home's, when
// neither is known). The result is a plain struct: adjust it to
// taste.
func DefaultPolicy(sandbox string) Policy {
	home, _ := os.UserHomeDir()
	homes := userHomes()
	p := Policy{Sandbox: sandbox, Hidden: systemCredentials(), HiddenEnv: CredentialEnv(), HiddenEnvUserinfo: []string{"*"}}
	for _, h := range homes {
		p.Hidden = append(p.Hidden, homeCredentials(h)...)
	}
	p.Hidden = append(p.Hidden, envCredentials(os.Getenv, homes)...)
	if os.Geteuid() == 0 || len(homes) == 0 {
		// Root reads every user's files: hide theirs too. So does a user
		// whose home is not known.
		for _, h := range otherHomes("") {
			if !slices.Contains(homes, h) {
				p.Hidden = append(p.Hidden, homeCredentials(h)...)
			}
		}
	}
	if c := goBuildCache(home); c != "" {
		p.Private = append(p.Private, c)
	}
	return p
}

// goBuildCache returns where Go keeps its build cache for this process:
// GOCACHE when it is an absolute path, else the "go-build" directory of
// the user's cache directory ("" when there is none, or GOCACHE is off).
func goBuildCache(home string) string {
	if v := os.Getenv("GOCACHE"); v != "" {
		if filepath.IsAbs(v) {
			return filepath.Clean(v)
		}
		return ""
	}
	cache := os.Getenv("XDG_CACHE_HOME")
	if !filepath.IsAbs(cache) {
		if home == "" {
			return ""
		}
		cache = filepath.Join(home, ".cache")
	}
	return filepath.Join(cache, "go-build")
}

// CredentialEnv returns the patterns of environment variables that carry
// credentials (tokens, keys, passwords of cloud providers, registries,
// forges and model providers, and the HTTP headers and cookies a program
// is told to send, *_HEADERS and *_HEADER, *_COOKIE and *_COOKIES: an
// "Authorization: Bearer ..." or "x-api-key: ..." in
// ANTHROPIC_CUSTOM_HEADERS or OTEL_EXPORTER_OTLP_HEADERS; and npm's
// per-registry tokens, npm_config_//HOST/:_authToken, as *_AUTHTOKEN): DefaultPolicy
// keeps them from the command. The passwords inside URLs, a proxy's
// among them, are taken out of every other variable (see
// Policy.HiddenEnvUserinfo). The slice is new on each call.
func CredentialEnv() []string {
	return []string{
		"*_TOKEN", "*_SECRET", "*_SECRET_KEY", "*_SECRET_ACCESS_KEY", "*_PASSWORD", "*_PASSWD",
		"*_API_KEY", "*_APIKEY", "*_ACCESS_KEY", "*_PRIVATE_KEY", "*_CREDENTIALS", "*_AUTH",
		"*_KEY", "*_PASS", "*_PAT", "*_JWT", "*_DSN", "*_URI", "*_WEBHOOK_URL", "*_DATABASE_URL",
		"POSTGRES_URL", "MYSQL_URL", "MONGO_URL", "PASSWORD", "SECRET*", "TOKEN",
		"GIT_CONFIG_PARAMETERS", "GIT_CONFIG_KEY_*", "GIT_CONFIG_VALUE_*", "GIT_ASKPASS", "SSH_ASKPASS",
		"AWS_*", "AZURE_CLIENT_SECRET", "GOOGLE_APPLICATION_CREDENTIALS", "GH_*", "GITHUB_TOKEN",
		"GITLAB_*", "NPM_CONFIG__AUTH*", "NODE_AUTH_TOKEN", "DOCKER_AUTH_CONFIG", "SSH_AUTH_SOCK",
		"GPG_AGENT_INFO", "VAULT_*", "OP_SESSION_*", "KUBECONFIG", "PGPASSWORD", "MYSQL_PWD",
		"DATABASE_URL", "REDIS_URL", "*_PASSPHRASE", "TF_TOKEN_*", "POETRY_PYPI_TOKEN_*",
		"POETRY_HTTP_BASIC_*", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "UV_INDEX_URL",
		"UV_EXTRA_INDEX_URL", "OCI_CLI_KEY_CONTENT",
		"*_HEADERS", "*_HEADER", "*_COOKIE", "*_COOKIES", "*_AUTHTOKEN",
	}
}

// systemCredentials returns the system's secrets that only root reads:
// password hashes and sudo rules, SSH host private keys (every
// /etc/ssh/ssh_host_*_key present), TLS private keys (/etc/ssl/private,
// /etc/pki/tls/private, Let's Encrypt's /etc/letsencrypt), VPN and
// wireless keys (WireGuard, OpenVPN, IPsec, PPP, NetworkManager's system
// connections, wpa_supplicant, iwd, netplan), cluster administrators'
// credentials and node tokens (kubeadm's /etc/kubernetes, k3s's and
// RKE2's /etc/rancher and their servers' state, the kubelet's keys),
// Kerberos keytabs, the database administrators' passwords Debian keeps
// (/etc/mysql/debian.cnf), mail relay passwords, CI runners' tokens,
// directory clients' bind passwords and Samba's password databases,
// services' keys (BIND, Ceph, Jenkins, Grafana, Gitea, ...), the mail
// spools and crontabs, and
// the file systems' snapshots (snapper's /.snapshots, Timeshift's), which
// hold old copies of every credential of the machine; ZFS's .zfs, which
// no listing shows, is kept by Landlock's reading rules, which grant only
// what a directory holding hidden paths lists.
// Directories are named whole where they hold little besides secrets, so
// that a key under a new name is hidden too. Most do not exist on a given
// machine, and a missing one costs nothing (see Policy.Hidden).
func systemCredentials() []string {
	out := []string{
		"/etc/shadow", "/etc/gshadow", "/etc/shadow-", "/etc/gshadow-", "/etc/sudoers", "/etc/sudoers.d",
		"/etc/ssh/ssh_host_rsa_key", "/etc/ssh/ssh_host_ecdsa_key", "/etc/ssh/ssh_host_ed25519_key",
		"/etc/ssl/private", "/etc/pki/tls/private", "/etc/letsencrypt",
		"/etc/wireguard", "/etc/openvpn", "/etc/ipsec.secrets", "/etc/ipsec.d/private", "/etc/swanctl/private",
		"/etc/ppp/chap-secrets", "/etc/ppp/pap-secrets",
		"/etc/NetworkManager/system-connections", "/etc/wpa_supplicant", "/var/lib/iwd", "/etc/netplan",
		"/etc/kubernetes", "/etc/rancher", "/var/lib/rancher/k3s/server", "/var/lib/rancher/rke2/server",
		"/etc/krb5.keytab", "/etc/mysql/debian.cnf", "/etc/postfix/sasl_passwd", "/etc/postfix/sasl_passwd.db",
		"/etc/gitlab-runner", "/etc/gitlab/gitlab-secrets.json",
		"/.snapshots", "/home/.snapshots", "/timeshift", "/timeshift-btrfs",
		// Package repositories' logins, and the keyring pacman signs with.
		"/etc/apt/auth.conf", "/etc/apt/auth.conf.d", "/etc/pacman.d/gnupg",
		// Debian's daily copies of the password and group files.
		"/var/backups",
		// systemd's credentials: the host key it encrypts them with, and
		// the stores of the credentials themselves.
		"/var/lib/systemd/credential.secret", "/etc/credstore", "/etc/credstore.encrypted",
		// Mesh VPNs' node keys, and the disks' key files.
		"/var/lib/tailscale", "/var/lib/zerotier-one", "/var/lib/netbird", "/etc/cryptsetup-keys.d",
		// Containers' settings (the environment each got: every -e
		// secret), volumes and registry logins; the kubelet's keys and its
		// pods' mounted secrets; libvirt's secrets.
		"/var/lib/docker", "/var/lib/containers", "/etc/containers/auth.json", "/etc/docker/key.json",
		"/var/lib/kubelet", "/etc/libvirt/secrets", "/var/lib/libvirt/secrets",
		// Web and mail servers' TLS keys kept outside /etc/ssl/private,
		// and the certificates ACME clients obtained with their keys.
		"/etc/nginx/ssl", "/etc/nginx/certs", "/etc/apache2/ssl", "/etc/httpd/ssl", "/etc/pki/nginx/private",
		"/etc/haproxy/certs", "/etc/dovecot/private", "/var/lib/caddy", "/var/lib/acme",
		// Old password hashes (pam_pwhistory), directory clients' bind
		// passwords (LDAP, SSSD), Samba's password databases.
		"/etc/security/opasswd", "/etc/ldap.secret", "/etc/libnss-ldap.secret", "/etc/pam_ldap.secret",
		"/etc/sssd", "/var/lib/samba/private", "/etc/samba/smbpasswd",
		// Mail relays' and dynamic DNS passwords; users' mail spools and
		// crontabs (the commands with the tokens they pass).
		"/etc/exim4/passwd.client", "/etc/ssmtp", "/etc/msmtprc", "/etc/ddclient.conf",
		"/var/mail", "/var/spool/mail", "/var/spool/cron",
		// Services' keys and passwords in their settings: BIND's control
		// key, Jenkins' master key and credentials, PgBouncer's user list,
		// Redis's requirepass, Datadog's API key, Grafana's and Gitea's
		// secret keys, containerd's registry logins, cloudflared's tunnel
		// credentials, hostapd's passphrase.
		"/etc/bind/rndc.key", "/var/lib/jenkins/secrets", "/var/lib/jenkins/credentials.xml",
		"/etc/pgbouncer/userlist.txt", "/etc/redis/redis.conf", "/etc/datadog-agent",
		"/etc/grafana/grafana.ini", "/etc/gitea", "/etc/containerd/config.toml", "/etc/cloudflared",
		"/etc/hostapd",
	}
	// Host keys of every type (dsa, ed448, ... and whatever comes next),
	// not only the usual three (their .pub halves are not secret); BIND's
	// TSIG and DNSSEC keys and Ceph's keyrings, whatever their names.
	for _, pattern := range []string{"/etc/ssh/ssh_host_*_key", "/etc/bind/*.key", "/etc/ceph/*.keyring", "/etc/ceph/*.keyring.*"} {
		keys, err := filepath.Glob(pattern)
		if err != nil {
			continue
		}
		for _, k := range keys {
			if !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	return out
}

// otherHomes returns the home directories under /home and /root other
// than home.
func otherHomes(home string) []string {
	var out []string
	if entries, err := os.ReadDir("/home"); err == nil {
		for _, e := range entries {
			if h := filepath.Join("/home", e.Name()); e.IsDir() && h != home {
				out = append(out, h)
			}
		}
	}
	if home != "/root" {
		out = append(out, "/root")
	}
	return out
}

// CredentialPaths returns the places where the user's credentials, keys,
// tokens, browser profiles, shell and client histories live, beneath
// home, with the coding agents' tokens, settings, session transcripts,
// prompt histories and shell snapshots (see codingAgents) and the
// directories where editors keep copies of what they edit; and the
// system's secrets (password hashes, host, TLS and VPN keys, cluster
// administrators' credentials, package repositories' logins, containers'
// settings, systemd's credentials): DefaultPolicy hides them all. Each is
// an absolute path; most do not exist on a given machine. Start hides
// with each hidden path the copies left beside it (NAME~, NAME.bak,
// .NAME.swp, "NAME (copy)", NAME.tar.gz, ...) and what the links inside a hidden directory lead to
// (see Policy.Hidden). The slice is new on each call.
func CredentialPaths(home string) []string {
	return append(systemCredentials(), homeCredentials(home)...)
}

// envCredentials returns where the environment (getenv) moves the
// credentials homeCredentials knows: CARGO_HOME, the XDG base directories,
// KUBECONFIG's list, GNUPGHOME, DOCKER_CONFIG, AWS's, gh's, gcloud's,
// Azure's (its client certificate too), pass's and npm's variables, the
// coding agents' homes (CLAUDE_CONFIG_DIR, CODEX_HOME), Hugging Face's,
// pip's, poetry's, Helm's, Teleport's, talosctl's, glab's and OCI's, the
// files of passwords and tokens named by a variable (Ansible's vault
// password, restic's, AWS's web identity token, libpq's service file,
// Terraform's kubeconfig), Docker's client key (DOCKER_CERT_PATH),
// curl's .curlrc (CURL_HOME), HISTFILE and ZDOTDIR. A leading ~/ is the
// home's and a relative value is taken from the working directory, as
// the programs take them. A value that is the root, a home or above one
// is passed over: hiding it would hide far more than a credential.
func envCredentials(getenv func(string) string, homes []string) []string {
	var out []string
	add := func(p string) {
		// The programs expand a leading ~ themselves (botocore, gcloud)
		// and take a relative path from their working directory, the
		// caller's.
		if rest, ok := strings.CutPrefix(p, "~/"); ok && len(homes) > 0 {
			p = filepath.Join(homes[0], rest)
		}
		if !filepath.IsAbs(p) {
			abs, err := filepath.Abs(p)
			if err != nil || p == "" {
				return
			}
			p = abs
		}
		p = filepath.Clean(p)
		if p == "/" || slices.ContainsFunc(homes, func(h string) bool { return h == p || strings.HasPrefix(h, p+"/") }) {
			return
		}
		out = append(out, p)
	}
	// The base directories: what homeCredentials keeps in ~/.config,
	// ~/.local/share, ~/.local/state and ~/.cache, where they are moved.
	inHome := homeCredentials("/")
	for _, base := range []struct{ env, rel string }{
		{"XDG_CONFIG_HOME", ".config/"}, {"XDG_DATA_HOME", ".local/share/"},
		{"XDG_STATE_HOME", ".local/state/"}, {"XDG_CACHE_HOME", ".cache/"},
	} {
		dir := getenv(base.env)
		if dir == "" {
			continue
		}
		for _, c := range inHome {
			if rel, ok := strings.CutPrefix(c, "/"+base.rel); ok {
				add(filepath.Join(dir, rel))
			}
		}
	}
	if d := getenv("CARGO_HOME"); d != "" {
		add(filepath.Join(d, "credentials"))
		add(filepath.Join(d, "credentials.toml"))
	}
	// Directories of settings and caches named by a variable: only the
	// file in them that holds the credential.
	for _, v := range []struct{ env, file string }{
		{"DOCKER_CONFIG", "config.json"}, {"GRADLE_USER_HOME", "gradle.properties"},
		{"COMPOSER_HOME", "auth.json"}, {"PULUMI_HOME", "credentials.json"},
		{"KAGGLE_CONFIG_DIR", "kaggle.json"}, {"DOCKER_CERT_PATH", "key.pem"}, {"CURL_HOME", ".curlrc"},
	} {
		if d := getenv(v.env); d != "" {
			add(filepath.Join(d, v.file))
		}
	}
	// The coding agents' directories: the same entries as in the home.
	for _, a := range codingAgents() {
		if d := getenv(a.env); a.env != "" && d != "" {
			for _, e := range agentEntries(d, a.entries) {
				add(e)
			}
		}
	}
	for _, v := range []struct {
		env   string
		files []string
	}{
		{"HF_HOME", []string{"token", "stored_tokens"}}, {"POETRY_CONFIG_DIR", []string{"auth.toml"}},
		{"ZDOTDIR", []string{".zsh_history", ".zhistory"}},
	} {
		if d := getenv(v.env); d != "" {
			for _, f := range v.files {
				add(filepath.Join(d, f))
			}
		}
	}
	for _, k := range filepath.SplitList(getenv("KUBECONFIG")) {
		add(k)
	}
	for _, name := range []string{
		"GNUPGHOME", "AWS_SHARED_CREDENTIALS_FILE", "AWS_CONFIG_FILE", "GH_CONFIG_DIR",
		"CLOUDSDK_CONFIG", "AZURE_CONFIG_DIR", "PASSWORD_STORE_DIR", "NPM_CONFIG_USERCONFIG",
		"npm_config_userconfig", "HISTFILE", "GOOGLE_APPLICATION_CREDENTIALS", "NETRC",
		"PGPASSFILE", "REGISTRY_AUTH_FILE", "TF_CLI_CONFIG_FILE", "BOTO_CONFIG", "RCLONE_CONFIG",
		"SOPS_AGE_KEY_FILE", "HF_TOKEN_PATH", "MYSQL_HISTFILE", "PSQL_HISTORY", "NODE_REPL_HISTORY",
		"MINIKUBE_HOME", "VAULT_CONFIG_PATH", "TERRAFORM_CONFIG", "PIP_CONFIG_FILE",
		"HELM_REGISTRY_CONFIG", "HELM_CONFIG_HOME", "TELEPORT_HOME", "TALOSCONFIG", "GLAB_CONFIG_DIR",
		"OCI_CLI_CONFIG_FILE", "OCI_CLI_KEY_FILE", "ANSIBLE_VAULT_PASSWORD_FILE", "RESTIC_PASSWORD_FILE",
		"AWS_WEB_IDENTITY_TOKEN_FILE", "PGSERVICEFILE", "KUBE_CONFIG_PATH", "AZURE_CLIENT_CERTIFICATE_PATH",
	} {
		if v := getenv(name); v != "" {
			add(v)
		}
	}
	return out
}

// homeCredentials returns CredentialPaths' places beneath home (none
// when home is not an absolute path).
func homeCredentials(home string) []string {
	var out []string
	if home == "" || !filepath.IsAbs(home) {
		return out
	}
	for _, rel := range []string{
		// Keys, cloud and cluster credentials.
		".ssh", ".gnupg", ".password-store", ".aws", ".azure", ".config/gcloud",
		".kube", ".docker", ".netrc", ".git-credentials", ".config/git/credentials",
		".config/gh", ".config/hub", ".config/glab-cli", ".npmrc", ".yarnrc", ".pypirc",
		".cargo/credentials", ".cargo/credentials.toml", ".gem/credentials",
		".m2/settings-security.xml", ".gradle/gradle.properties", ".terraform.d",
		".vault-token", ".config/op", ".1password", ".local/share/keyrings",
		".pki", ".oci", ".config/doctl", ".config/heroku", ".netlify", ".vercel",
		".config/configstore", ".fly", ".boto", ".s3cfg", ".databrickscfg",
		".config/rclone", ".dropbox", ".pgpass", ".my.cnf", ".mylogin.cnf", ".terraformrc",
		".config/containers/auth.json", ".cache/huggingface/token", ".huggingface/token",
		".yarnrc.yml", ".config/composer/auth.json", ".composer/auth.json", ".m2/settings.xml",
		".nuget/NuGet/NuGet.Config", ".config/NuGet/NuGet.Config", ".config/hcloud", ".config/linode-cli",
		".bluemix", ".config/ngrok", ".ngrok2", ".config/gitlab-runner", ".config/sops",
		".config/age", ".local/share/password-store", ".env", ".config/.env",
		".config/stripe", ".pulumi", ".sentryclirc", ".kaggle", ".wrangler", ".config/.wrangler",
		".supabase", ".local/share/com.vercel.cli", ".config/com.vercel.cli",
		".config/solana", ".android/adbkey", ".config/fish/fish_variables", ".local/share/atuin",
		".config/gitlab", ".config/doppler", ".doppler", ".config/infisical",
		".config/hashicorp", ".circleci/cli.yml", ".travis", ".config/netlify", ".railway",
		".heroku", ".ipython/profile_default/history.sqlite",
		".cloudflared", ".minikube", ".config/openstack", ".authinfo", ".authinfo.gpg", ".msmtprc",
		".config/msmtp", ".config/helm", ".ivy2/.credentials", ".sbt/.credentials", ".bundle/config",
		".config/pip/pip.conf", ".pip/pip.conf", ".wakatime.cfg", ".tsh", ".passwd-s3fs",
		".config/scw", ".config/clickhouse-client", ".influxdbv2", ".mbsyncrc", ".fetchmailrc",
		".config/aerc/accounts.conf", ".muttrc", ".config/mutt", ".config/teleport",
		".config/exercism", ".config/hut", ".config/tea", ".config/jira", ".jira.d",
		".config/twine", ".config/coveralls", ".config/nordvpn", ".config/openvpn",
		".config/vpn", ".config/rbw", ".config/Bitwarden CLI", ".config/keybase",
		".subversion/auth", ".config/pypoetry/auth.toml", ".mc/config.json", ".smbcredentials",
		".config/filezilla", ".wgetrc", ".curlrc", ".cache/huggingface/stored_tokens",
		".codeium/config.json",
		".local/share/kwalletd",
		// Package registries' and artifact stores' tokens: only the file
		// (or the directory of tokens) where a toolchain also keeps
		// packages it needs to run (~/.pub-cache, ~/.hex, ~/.stack,
		// ~/.julia, ~/.conan).
		".bunfig.toml", ".config/.bunfig.toml", ".jfrog", ".config/dart/pub-tokens.json",
		".pub-cache/credentials.json", ".hex/hex.config", ".config/rebar3/hex.config",
		".conan2/credentials.json", ".conan/.conan.db", ".config/coursier/credentials.properties",
		".stack/upload", ".julia/servers", ".continuum/anaconda-client/tokens", ".config/uv/uv.toml",
		// Cloud and service command lines that keep a token, a key or
		// session cookies in a file or directory of their own.
		".b2_account_info", ".ovh.conf", ".gsutil", ".chef", ".gitcookies", ".now",
		".config/turso", ".config/neonctl", ".config/planetscale", ".convex", ".render",
		".config/bk.yaml", ".config/lab", ".fastlane/spaceship", ".davfs2/secrets",
		// Chat clients' saved passwords (in plain text in their settings),
		// streaming keys (one service.json per OBS profile), lftp's
		// bookmarks with their passwords, Jupyter's running servers' tokens
		// and kernels' signing keys.
		".purple", ".irssi", ".config/hexchat", ".config/weechat/sec.conf", ".weechat/sec.conf",
		".local/share/weechat/sec.conf", ".config/obs-studio/basic/profiles", ".lftp/bookmarks",
		".local/share/lftp/bookmarks", ".local/share/jupyter/runtime",
		// Package managers' and build tools' logins and tokens.
		".config/nix/nix.conf", ".config/nix/netrc", ".config/cachix", ".local/share/uv/credentials",
		".config/pnpm/rc", ".local/share/gem/credentials", ".cabal/config", ".Renviron", ".expo/state.json",
		// Databases' and data tools' connections, Ansible's vault
		// password, and more clouds' and APIs' command lines.
		".pg_service.conf", ".vault_pass.txt", ".dbt/profiles.yml", ".snowflake", ".snowsql",
		".config/exoscale", ".config/vultr-cli.yaml", ".vultr-cli.yaml", ".twilio-cli",
		// Clusters, clouds and CI.
		".talos", ".config/argocd", ".rancher", ".cf/config.json", ".aliyun", ".gitlab-runner/config.toml",
		// .NET's user secrets, kept out of the projects on purpose.
		".microsoft/usersecrets",
		// Database and remote-desktop clients: saved logins and histories.
		".local/share/DBeaverData", ".local/share/remmina", ".config/remmina", ".mongodb", ".dbshell",
		".cqlsh_history", ".cassandra", ".config/pgcli", ".mycli-history", ".config/litecli",
		// Desktop API clients, and the editors' servers on remote machines
		// (their stores of tokens, and their local histories, which keep a
		// copy of each file saved).
		".config/Postman", ".config/Insomnia", ".vscode-server/data/User/globalStorage",
		".vscode-server/data/User/History", ".cursor-server/data/User/globalStorage",
		".cursor-server/data/User/History", ".windsurf-server/data/User/globalStorage",
		".windsurf-server/data/User/History", ".config/Code/User/History",
		// Editors' copies of what they edit kept in a directory of their
		// own (Vim's and Neovim's swap, undo and backup directories,
		// Emacs's backups); copies kept beside the file (NAME~, #NAME#,
		// .NAME.swp) are hidden with it (see copyname.Of).
		".local/state/nvim/swap", ".local/state/nvim/undo", ".local/state/nvim/backup",
		".local/share/nvim/swap", ".vim/swap", ".vim/undo", ".vim/undodir", ".vim/backup",
		".emacs.d/backups", ".config/emacs/backups",
		// The same kept by other editors: JetBrains IDEs' Local History
		// (every version of every file edited, under the cache of each
		// product), Sublime Text's sessions (hot exit keeps unsaved
		// buffers' text), micro's backups, Emacs undo-tree's histories.
		".cache/JetBrains", ".config/sublime-text/Local", ".config/sublime-text-3/Local",
		".config/micro/backups", ".emacs.d/undo-tree-hist", ".config/emacs/undo-tree-hist",
		// Snapshots of a home that is a subvolume of its own (snapper's).
		".snapshots",
		// Desktop programs' sessions and stores (cookies, tokens, keys).
		".config/Slack", ".config/discord", ".config/Element", ".config/Signal",
		".local/share/TelegramDesktop", ".config/Code/User/globalStorage", ".config/JetBrains",
		// Coding agents' account files in the home itself (their
		// directories: see codingAgents), and aider's settings and logs.
		".claude.json", ".config/Cursor", ".aider.conf.yml", ".aider.chat.history.md",
		".aider.input.history", ".aider.llm.history",
		// Browser profiles.
		".mozilla", ".config/google-chrome", ".config/chromium", ".config/BraveSoftware",
		".config/microsoft-edge", ".config/vivaldi", ".config/opera", "snap/firefox", "snap/chromium",
		".thunderbird",
		// Shell and interpreter history.
		".bash_history", ".zsh_history", ".zhistory", ".history", ".local/share/fish/fish_history",
		".python_history", ".node_repl_history", ".psql_history", ".mysql_history",
		".sqlite_history", ".irb_history", ".lesshst", ".viminfo", ".local/share/nvim/shada",
		".local/state/nvim/shada", ".rediscli_history", ".wget-hsts", ".histfile", ".sh_history",
		".Rhistory", ".julia/logs/repl_history.jl", ".duckdb_history",
		// Where the XDG layouts and usual set-ups move them (zsh with
		// ZDOTDIR=~/.config/zsh, bash's "eternal history"), and other
		// shells' own.
		".config/zsh/.zsh_history", ".config/zsh/.zhistory", ".local/state/zsh/history",
		".local/share/zsh/history", ".cache/zsh/history", ".local/state/bash/history",
		".local/share/bash/history", ".bash_eternal_history", ".config/nushell/history.txt",
		".config/nushell/history.sqlite3", ".local/share/xonsh", ".local/state/elvish/db.bolt",
		".elvish/db", ".local/share/powershell/PSReadLine",
	} {
		out = append(out, filepath.Join(home, rel))
	}
	return append(out, agentCredentials(home)...)
}
