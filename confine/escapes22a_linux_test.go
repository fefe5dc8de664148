package confine

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Red-team round 22a: credentials a command confined by DefaultPolicy
// still read, each verified with sandboxauth run before its fix.

// TestEscape22aAgentTranscripts: the coding agents' own tokens are hidden
// (~/.claude/.credentials.json, ~/.codex/auth.json, ~/.gemini/oauth_creds.json),
// and so are shell and REPL histories, but not the agents' session
// transcripts and prompt histories, which hold everything the agent read or
// was told: the output of every tool call (a `cat .env` the user allowed
// once, a token pasted into the prompt, `env` output). The sandbox's own
// .env is hidden, yet its bytes sit in ~/.claude/projects/<project>/*.jsonl
// as soon as the agent ever read it. opencode's whole data directory and
// ~/.cursor, ~/.continue, ~/.aider are hidden; Claude Code's, Codex's,
// Gemini CLI's and Qwen Code's logs are not.
//
//	cat ~/.claude/projects/*/*.jsonl ~/.claude/history.jsonl \
//	    ~/.codex/sessions/*/*/*/*.jsonl ~/.codex/history.jsonl ~/.gemini/tmp/*/logs.json
//
// Closed by codingAgents (agents.go): each agent's tokens, settings,
// transcripts, prompt histories, shell snapshots, file copies and IDE
// lock files are hidden (Amp's, Goose's, Crush's data directories whole),
// its skills, commands and plugins, whose scripts the model runs, not.
func TestEscape22aAgentTranscripts(t *testing.T) {
	requireConfinement(t)
	home := fakeHome(t)
	t.Setenv("GOCACHE", home+"/.cache/go-build")
	assertSecretsHidden(t, home, map[string]string{
		".claude/projects/-home-u-proj/0b6f.jsonl":   `{"type":"tool_result","content":"OPENAI_API_KEY=CLAUDETRANSCRIPTSECRET"}`,
		".claude/history.jsonl":                      `{"display":"use token CLAUDEHISTORYSECRET"}`,
		".claude/shell-snapshots/snapshot-bash-1.sh": "export GITHUB_TOKEN=CLAUDESNAPSHOTSECRET",
		".codex/sessions/2026/11/27/rollout-1.jsonl": `{"output":"AWS_SECRET_ACCESS_KEY=CODEXSESSIONSECRET"}`,
		".codex/history.jsonl":                       `{"text":"key CODEXHISTORYSECRET"}`,
		".gemini/tmp/5f1c/logs.json":                 `[{"message":"token GEMINILOGSECRET"}]`,
		".gemini/tmp/5f1c/chats/session-1.json":      `{"content":"GEMINICHATSECRET"}`,
		".qwen/tmp/5f1c/logs.json":                   `[{"message":"token QWENLOGSECRET"}]`,
		".local/share/amp/history.jsonl":             `{"text":"AMPHISTORYSECRET"}`,
		// The IDE integration's lock file: the token of the editor
		// extension's MCP WebSocket server on 127.0.0.1.
		".claude/ide/51234.lock":     `{"pid":1,"transport":"ws","authToken":"CLAUDEIDETOKENSECRET"}`,
		".factory/sessions/s1.jsonl": `{"text":"DROIDSESSIONSECRET"}`,
	})
}

// TestEscape22aMoreCredentialsNotHidden: credentials in their tools'
// usual places that CredentialPaths does not name. Each is a plain file
// the tool writes on login (or the user's documented place for a token).
//
//	cat ~/.qwen/oauth_creds.json ~/.config/nix/nix.conf ~/.gitlab-runner/config.toml ...
//
// Closed by homeCredentials' lists (their directories whole where they
// hold little else: ~/.talos, ~/.rancher, ~/.aliyun, ~/.mongodb).
func TestEscape22aMoreCredentialsNotHidden(t *testing.T) {
	requireConfinement(t)
	home := fakeHome(t)
	t.Setenv("GOCACHE", home+"/.cache/go-build")
	assertSecretsHidden(t, home, map[string]string{
		// Coding agents and LLM command-line tools.
		".qwen/oauth_creds.json":        `{"access_token":"QWENOAUTHSECRET"}`,
		".local/share/amp/secrets.json": `{"apiKey@https://ampcode.com/":"AMPSECRET"}`,
		".config/goose/secrets.yaml":    "OPENAI_API_KEY: GOOSESECRET",
		".config/aichat/config.yaml":    "clients:\n- type: openai\n  api_key: AICHATSECRET",
		".config/shell_gpt/.sgptrc":     "OPENAI_API_KEY=SGPTSECRET",
		".config/fabric/.env":           "OPENAI_API_KEY=FABRICSECRET",
		// Package managers and build tools.
		".config/nix/nix.conf":                         "access-tokens = github.com=NIXGITHUBSECRET",
		".config/cachix/cachix.dhall":                  `{ authToken = "CACHIXSECRET", hostname = "https://cachix.org" }`,
		".local/share/uv/credentials/credentials.toml": "[[credential]]\npassword = \"UVSECRET\"",
		".config/pnpm/rc":                              "//registry.npmjs.org/:_authToken=PNPMRCSECRET",
		".local/share/gem/credentials":                 "---\n:rubygems_api_key: GEMXDGSECRET",
		".cabal/config":                                "hackage.haskell.org\n  password: CABALSECRET",
		".Renviron":                                    "GITHUB_PAT=RENVIRONSECRET",
		".expo/state.json":                             `{"auth":{"sessionSecret":"EXPOSECRET"}}`,
		// Clusters, clouds and CI.
		".talos/config":              "contexts:\n  c:\n    key: TALOSKEYSECRET",
		".config/argocd/config":      "users:\n- auth-token: ARGOCDSECRET",
		".rancher/cli2.json":         `{"Servers":{"s":{"tokenKey":"RANCHERSECRET"}}}`,
		".cf/config.json":            `{"AccessToken":"bearer CFSECRET"}`,
		".aliyun/config.json":        `{"profiles":[{"access_key_secret":"ALIYUNSECRET"}]}`,
		".gitlab-runner/config.toml": "[[runners]]\n  token = \"RUNNERTOKENSECRET\"",
		// .NET's user secrets (dotnet user-secrets), kept out of the
		// project on purpose.
		".microsoft/usersecrets/6f1c/secrets.json": `{"ConnectionStrings:Db":"USERSECRETSSECRET"}`,
		// Database and remote-desktop clients.
		".local/share/DBeaverData/workspace6/General/.dbeaver/credentials-config.json": "DBEAVERSECRET",
		".local/share/remmina/group_rdp_x.remmina":                                     "[remmina]\npassword=REMMINASECRET",
		".config/remmina/remmina.pref":                                                 "[remmina_pref]\nsecret=REMMINAKEYSECRET",
		".mongodb/mongosh/mongosh_repl_history":                                        "db.auth('admin','MONGOSHSECRET')",
		".dbshell":                                                                     "db.auth('admin','DBSHELLSECRET')",
		".cqlsh_history":                                                               "CREATE ROLE r WITH PASSWORD = 'CQLSHSECRET'",
		".config/pgcli/history":                                                        "ALTER USER u PASSWORD 'PGCLISECRET'",
		// Desktop API clients and editors' remote servers (the desktop
		// editor's ~/.config/Code/User/globalStorage is hidden).
		".config/Postman/Partitions/x/Cookies":               "POSTMANSECRET",
		".config/Insomnia/insomnia.Environment.db":           `{"data":{"token":"INSOMNIASECRET"}}`,
		".vscode-server/data/User/globalStorage/state.vscdb": "VSCODESERVERSECRET",
		".cursor-server/data/User/globalStorage/state.vscdb": "CURSORSERVERSECRET",
	})
}

// TestEscape22aBackupsOfHiddenFiles: the credentials kept in single files
// of the home are hidden by their exact names (.netrc, .git-credentials,
// .pgpass, .npmrc, .vault-token, .my.cnf, .claude.json, the shell
// histories), not the copies beside them: Emacs's and Vim's backups
// (NAME~), the NAME.bak a user or a script leaves, and Claude Code's own
// backup of ~/.claude.json (~/.claude.json.backup), which holds the same
// account data and API key.
//
//	cat ~/.netrc~ ~/.git-credentials~ ~/.claude.json.backup ~/.pgpass~ ...
//
// Closed in the engine, for every hidden path of every policy: the
// listings that rule out missing hidden paths (presence_linux.go, which
// now lists every directory holding one) show the copies beside them,
// which copyname.Of tells (NAME~, #NAME#, .NAME.swp, NAME.bak, NAME.backup.N,
// ...; not NAME.example); more in TestCopiesBesideHiddenPaths.
func TestEscape22aBackupsOfHiddenFiles(t *testing.T) {
	requireConfinement(t)
	home := fakeHome(t)
	t.Setenv("GOCACHE", home+"/.cache/go-build")
	assertSecretsHidden(t, home, map[string]string{
		".netrc~":             "machine example.com password NETRCBACKUPSECRET",
		".netrc.bak":          "machine example.com password NETRCBAKSECRET",
		".git-credentials~":   "https://u:GITCREDBACKUPSECRET@example.com",
		".pgpass~":            "db:5432:*:u:PGPASSBACKUPSECRET",
		".npmrc~":             "//registry.npmjs.org/:_authToken=NPMRCHOMEBACKUPSECRET",
		".vault-token~":       "VAULTBACKUPSECRET",
		".my.cnf~":            "[client]\npassword=MYCNFBACKUPSECRET",
		".claude.json.backup": `{"primaryApiKey":"CLAUDEJSONBACKUPSECRET"}`,
		".bash_history~":      "export TOKEN=BASHHISTBACKUPSECRET",
	})
}

// TestEscape22aLinksInsideHiddenDirectories: a hidden path that is itself
// a link is hidden under both names (~/.netrc -> dotfiles/netrc, ~/.ssh ->
// dotfiles/ssh), and a credential where the environment puts it
// (KUBECONFIG=~/clusters/prod.yaml) is hidden. But a hidden directory is
// replaced by an empty one without looking at what its entries lead to:
// ~/.kube/config -> ~/clusters/prod.yaml (the usual way to switch
// clusters), ~/.aws/credentials -> a synced or dotfiles copy (stow
// --no-folding, chezmoi's symlink mode), ~/.ssh/id_ed25519 -> a key kept
// elsewhere. The credential is read under its real name, which the
// command finds with one grep of the home.
//
//	grep -rl client-key-data ~ ; cat ~/clusters/prod.yaml ~/dotfiles/aws/credentials
//
// Closed by hiddenlinks_linux.go: the links inside existing hidden
// directories are followed (four levels, 512 entries a directory, two
// links deep) and what they lead to is hidden; a link to the home, the
// root or a directory holding the sandbox makes the policy refused
// (TestHiddenLinksFailClosed).
func TestEscape22aLinksInsideHiddenDirectories(t *testing.T) {
	requireConfinement(t)
	home := fakeHome(t)
	t.Setenv("GOCACHE", home+"/.cache/go-build")
	t.Setenv("KUBECONFIG", "")
	secrets := map[string]struct{ link, target, body, mark string }{
		"kube": {".kube/config", "clusters/prod.yaml", "users:\n- user:\n    client-key-data: KUBELINKEDSECRET", "KUBELINKEDSECRET"},
		"aws":  {".aws/credentials", "dotfiles/aws/credentials", "[default]\naws_secret_access_key = AWSLINKEDSECRET", "AWSLINKEDSECRET"},
		"ssh":  {".ssh/id_ed25519", "keys/work_ed25519", "-----BEGIN OPENSSH PRIVATE KEY-----\nSSHLINKEDSECRET", "SSHLINKEDSECRET"},
	}
	for _, s := range secrets {
		target := filepath.Join(home, s.target)
		require.NoError(t, os.MkdirAll(filepath.Dir(target), 0o700))
		require.NoError(t, os.WriteFile(target, []byte(s.body), 0o600))
		link := filepath.Join(home, s.link)
		require.NoError(t, os.MkdirAll(filepath.Dir(link), 0o700))
		require.NoError(t, os.Symlink(target, link))
	}
	sb, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	p := DefaultPolicy(sb)
	for name, s := range secrets {
		out, _ := sh(t, p, sb, "cat "+filepath.Join(home, s.target))
		assert.NotContains(t, out, s.mark, "%s: %s, the target of the hidden %s, was readable", name, s.target, s.link)
	}
}

// TestEscape22aMoreSystemSecretsAsRoot: run as root, the command owns
// every root-owned file, and DefaultPolicy keeps from it only the system
// secrets it names (round 4 added TLS, VPN and cluster keys). Others of
// the same kind are read: APT's repository passwords
// (/etc/apt/auth.conf.d), Debian's daily copy of the password hashes
// (/var/backups/shadow.bak), the key systemd-creds encrypts with
// (/var/lib/systemd/credential.secret), Tailscale's and ZeroTier's node
// keys, Docker's containers' settings (their environment: every secret
// passed with -e), a web server's TLS key outside /etc/ssl/private.
//
//	cat /etc/apt/auth.conf.d/*.conf /var/backups/shadow.bak /var/lib/tailscale/tailscaled.state ...
//
// Verified with sandboxauth run as root: all printed. The files are made
// only where missing, and removed afterwards.
//
// Closed by systemCredentials' list: APT's auth.conf(.d), /var/backups,
// systemd's credential key and stores, the mesh VPNs' state, Docker's
// and Podman's storage, the kubelet's directory, and web and mail
// servers' key directories.
func TestEscape22aMoreSystemSecretsAsRoot(t *testing.T) {
	requireConfinement(t)
	if os.Geteuid() != 0 {
		t.Log("not root: root-only files are closed to the command anyway")
		return
	}
	secrets := map[string]string{
		"/etc/apt/auth.conf.d/sandboxauth-test22a.conf":            "machine apt.example.com login u password APTAUTHSECRET",
		"/var/backups/shadow.bak":                                  "root:$6$SHADOWBAKSECRET:19000:0:99999:7:::",
		"/var/lib/systemd/credential.secret":                       "SYSTEMDCREDSECRET",
		"/var/lib/tailscale/tailscaled.state":                      `{"_machinekey":"TAILSCALESECRET"}`,
		"/var/lib/zerotier-one/identity.secret":                    "ZEROTIERSECRET",
		"/var/lib/docker/containers/sandboxauth22a/config.v2.json": `{"Config":{"Env":["DB_PASSWORD=DOCKERENVSECRET"]}}`,
		"/etc/nginx/ssl/sandboxauth-test22a.key":                   "-----BEGIN PRIVATE KEY-----\nNGINXKEYSECRET",
	}
	for path, body := range secrets {
		if _, err := os.Lstat(path); err == nil {
			delete(secrets, path) // the machine's own: left alone
			continue
		}
		// Make what is missing, top down, and remove it afterwards.
		var made []string
		for d := filepath.Dir(path); ; d = filepath.Dir(d) {
			if _, err := os.Lstat(d); err == nil {
				break
			}
			made = append(made, d)
		}
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o700))
		require.NoError(t, os.WriteFile(path, []byte(body), 0o600))
		t.Cleanup(func() {
			_ = os.Remove(path)
			for _, d := range made {
				_ = os.Remove(d)
			}
		})
	}
	sb, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	p := DefaultPolicy(sb)
	for path, body := range secrets {
		out, _ := sh(t, p, sb, "cat "+path)
		assert.NotContains(t, out, body[len(body)-12:], "%s was readable by a command confined as root", path)
	}
}

// TestEscape22aShellHistoriesElsewhere: ~/.bash_history, ~/.zsh_history,
// fish's and the REPLs' histories are hidden, and HISTFILE's value when
// it is in the environment. But zsh's and bash's HISTFILE is a shell
// variable, rarely exported, and the usual XDG layouts move the file: zsh
// with ZDOTDIR=~/.config/zsh keeps .zsh_history there, and setups put it
// in ~/.local/state/zsh/history or ~/.cache/zsh/history; nushell's default
// is ~/.config/nushell/history.txt; bash's "eternal history" idiom
// ~/.bash_eternal_history. Every `export TOKEN=...` the user typed is read.
//
//	cat ~/.config/zsh/.zsh_history ~/.local/state/zsh/history ~/.config/nushell/history.txt
//
// Closed by homeCredentials' list (the XDG places of zsh's and bash's
// histories, nushell's, xonsh's, elvish's, PowerShell's) and ZDOTDIR's
// .zsh_history (envCredentials).
func TestEscape22aShellHistoriesElsewhere(t *testing.T) {
	requireConfinement(t)
	home := fakeHome(t)
	t.Setenv("GOCACHE", home+"/.cache/go-build")
	t.Setenv("HISTFILE", "")
	assertSecretsHidden(t, home, map[string]string{
		".config/zsh/.zsh_history":               ": 1700000000:0;export GITHUB_TOKEN=ZDOTDIRHISTSECRET",
		".local/state/zsh/history":               ": 1700000000:0;export API_KEY=ZSHSTATEHISTSECRET",
		".cache/zsh/history":                     ": 1700000000:0;export API_KEY=ZSHCACHEHISTSECRET",
		".local/state/bash/history":              "export API_KEY=BASHSTATEHISTSECRET",
		".bash_eternal_history":                  "export API_KEY=BASHETERNALSECRET",
		".config/nushell/history.txt":            "$env.API_KEY = 'NUSHELLHISTSECRET'",
		".local/share/xonsh/history_json/x.json": `{"cmds":[{"inp":"$API_KEY='XONSHSECRET'"}]}`,
	})
}

// TestEscape22aCredentialVariablesOfAgentsAndTools: DefaultPolicy hides
// the places the environment moves credentials to for the variables it
// knows (round 18, round 21's additions). More tools document one: the
// coding agents' own homes (CLAUDE_CONFIG_DIR, which Claude Code takes for
// ~/.claude and where its .credentials.json and .claude.json then live;
// CODEX_HOME, Codex's ~/.codex with auth.json), Hugging Face's HF_HOME
// (its token at $HF_HOME/token, common on machines whose home is small),
// pip's PIP_CONFIG_FILE (index URLs with passwords), poetry's
// POETRY_CONFIG_DIR (auth.toml), Helm's registry logins
// (HELM_REGISTRY_CONFIG), Teleport's TELEPORT_HOME (tsh's keys),
// talosctl's TALOSCONFIG, glab's GLAB_CONFIG_DIR, OCI's
// OCI_CLI_CONFIG_FILE.
//
//	env:     CLAUDE_CONFIG_DIR=~/.claude-work CODEX_HOME=~/codex-home HF_HOME=~/hf ...
//	payload: cat "$CLAUDE_CONFIG_DIR/.credentials.json" "$CODEX_HOME/auth.json" "$HF_HOME/token" ...
//
// Closed by envCredentials: each variable's place is hidden (the agents'
// homes with the same entries as in the home, codingAgents); the
// variables that carry a secret themselves (PIP_INDEX_URL, TF_TOKEN_*,
// POETRY_PYPI_TOKEN_*, ...) join CredentialEnv
// (TestCredentialEnvRound22a).
func TestEscape22aCredentialVariablesOfAgentsAndTools(t *testing.T) {
	requireConfinement(t)
	home := fakeHome(t)
	t.Setenv("GOCACHE", home+"/.cache/go-build")
	vars := []struct{ env, value, file, body string }{
		{"CLAUDE_CONFIG_DIR", ".claude-work", ".claude-work/.credentials.json", `{"claudeAiOauth":{"accessToken":"CLAUDECONFIGDIRSECRET"}}`},
		{"CODEX_HOME", "codex-home", "codex-home/auth.json", `{"OPENAI_API_KEY":"CODEXHOMESECRET"}`},
		{"HF_HOME", "hf", "hf/token", "hf_HFHOMESECRET"},
		{"PIP_CONFIG_FILE", "secrets/pip.conf", "secrets/pip.conf", "[global]\nindex-url = https://u:PIPCONFSECRET@pypi.example.com/simple"},
		{"POETRY_CONFIG_DIR", "poetry", "poetry/auth.toml", "[http-basic.x]\npassword = \"POETRYDIRSECRET\""},
		{"HELM_REGISTRY_CONFIG", "secrets/helm-registry.json", "secrets/helm-registry.json", `{"auths":{"r":{"auth":"HELMREGSECRET"}}}`},
		{"TELEPORT_HOME", "tsh", "tsh/keys/proxy/u", "TELEPORTKEYSECRET"},
		{"TALOSCONFIG", "secrets/talosconfig", "secrets/talosconfig", "key: TALOSCONFIGSECRET"},
		{"GLAB_CONFIG_DIR", "glab", "glab/config.yml", "token: GLABDIRSECRET"},
		{"OCI_CLI_CONFIG_FILE", "secrets/oci-config", "secrets/oci-config", "key_file=x\npass_phrase=OCICONFIGSECRET"},
	}
	for _, v := range vars {
		f := filepath.Join(home, v.file)
		require.NoError(t, os.MkdirAll(filepath.Dir(f), 0o700))
		require.NoError(t, os.WriteFile(f, []byte(v.body), 0o600))
		t.Setenv(v.env, filepath.Join(home, v.value))
	}
	sb, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	p := DefaultPolicy(sb)
	for _, v := range vars {
		out, _ := sh(t, p, sb, "cat "+filepath.Join(home, v.file))
		assert.NotContains(t, out, v.body, "%s (%s=%s) was readable", v.file, v.env, v.value)
	}
}
