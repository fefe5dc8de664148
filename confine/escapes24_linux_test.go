package confine

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEscape24CopiesNamedWithSpaces: copyname.Of took a copy's decoration
// only after one of . - _ ~, so the names file managers give a copy (GNOME
// Files ".netrc (copy)", Dolphin ".netrc (1)", macOS Finder ".netrc copy",
// Windows "Copy of .netrc") and the RCS and gzip copies (",v", ".gz") are
// readable beside the hidden file, as is Vim's persistent undo file, which
// holds the lines changed (`set undofile` writes ..netrc.un~ beside
// .netrc, the undo directory being "." by default).
//
//	before:  ~/.netrc and its copies
//	payload: for f in "$HOME"/.??* "$HOME"/Copy*; do cat "$f"; done
//
// Verified with sandboxauth run as root (every name below printed).
// Closed: copyname.Of takes a space and a comma as separators and
// parentheses between words (NAME (copy), NAME (1), NAME copy, NAME,v),
// "Copy of NAME", and Vim's undo file .NAME.un~.
func TestEscape24CopiesNamedWithSpaces(t *testing.T) {
	requireConfinement(t)
	home := fakeHome(t)
	t.Setenv("GOCACHE", home+"/.cache/go-build")
	assertSecretsHiddenQuoted(t, home, map[string]string{
		".netrc (copy)":           "machine example.com password NETRCGNOMECOPYSECRET",
		".netrc (1)":              "machine example.com password NETRCDOLPHINCOPYSECRET",
		".netrc copy":             "machine example.com password NETRCFINDERCOPYSECRET",
		"Copy of .netrc":          "machine example.com password NETRCWINCOPYSECRET",
		".netrc,v":                "machine example.com password NETRCRCSSECRET",
		".git-credentials (copy)": "https://u:GITCREDCOPYSECRET@example.com",
		".pgpass copy":            "db:5432:*:u:PGPASSCOPYSECRET",
		"..netrc.un~":             "machine example.com password NETRCUNDOSECRET",
		"..git-credentials.un~":   "https://u:GITCREDUNDOSECRET@example.com",
		".netrc - Copy (2)":       "machine example.com password NETRCWINCOPY2SECRET",
		"Copy (2) of .netrc":      "machine example.com password NETRCWINXPCOPYSECRET",
		".netrc copy 2":           "machine example.com password NETRCFINDERCOPY2SECRET",
		".netrc (another copy)":   "machine example.com password NETRCGNOMECOPY2SECRET",
	})
}

// TestEscape24VimUndoFileOfHiddenFile: the same with a real Vim undo file:
// the user deleted a line of ~/.netrc in Vim with `set undofile`; the
// deleted password is in ~/..netrc.un~, readable by the confined command.
// Closed: copyname.Of takes .NAME.un~ for a copy of NAME.
func TestEscape24VimUndoFileOfHiddenFile(t *testing.T) {
	requireConfinement(t)
	vim, err := exec.LookPath("vim")
	require.NoError(t, err, "vim is needed")
	home := fakeHome(t)
	t.Setenv("GOCACHE", home+"/.cache/go-build")
	netrc := filepath.Join(home, ".netrc")
	require.NoError(t, os.WriteFile(netrc, []byte("machine h login u password VIMUNDOSECRET\n"), 0o600))
	cmd := exec.Command(vim, "-u", "NONE", "-es", "-c", "set undofile", "-c", "normal! ggdd", "-c", "wq", netrc)
	cmd.Dir = home
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.FileExists(t, filepath.Join(home, "..netrc.un~"))
	sb, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	got, _ := sh(t, DefaultPolicy(sb), sb, `cat "$HOME/..netrc.un~"`)
	require.NotContains(t, got, "VIMUNDOSECRET", "the password deleted from the hidden ~/.netrc was read from Vim's undo file beside it")
}

// assertSecretsHiddenQuoted is assertSecretsHidden for names with spaces
// and parentheses (quoted for the shell).
func assertSecretsHiddenQuoted(t *testing.T, home string, secrets map[string]string) {
	t.Helper()
	for rel, body := range secrets {
		require.NoError(t, os.WriteFile(filepath.Join(home, rel), []byte(body), 0o600))
	}
	sb, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	p := DefaultPolicy(sb)
	for rel, body := range secrets {
		out, _ := sh(t, p, sb, "cat '"+filepath.Join(home, rel)+"'")
		assert.NotContains(t, out, body, "%s was readable", rel)
	}
}

// TestEscape24CodexDotEnv: Codex loads $CODEX_HOME/.env (~/.codex/.env)
// into its environment when it starts (codex-rs's load_dotenv: "Load env
// vars from ~/.codex/.env and $(pwd)/.env"), the place its users keep
// OPENAI_API_KEY; codingAgents lists Codex's auth.json, config.toml,
// sessions and histories but not .env, which stays readable (Gemini's
// ~/.gemini/.env is hidden).
//
//	payload: cat ~/.codex/.env
//
// Verified with sandboxauth run as root (the key printed). Closed:
// codingAgents lists Codex's .env.
func TestEscape24CodexDotEnv(t *testing.T) {
	requireConfinement(t)
	home := fakeHome(t)
	t.Setenv("GOCACHE", home+"/.cache/go-build")
	require.NoError(t, os.MkdirAll(filepath.Join(home, ".codex"), 0o700))
	assertSecretsHiddenQuoted(t, home, map[string]string{
		".codex/.env": "OPENAI_API_KEY=sk-CODEXDOTENVSECRET",
	})
}

// TestEscape24MoreAgentsSecrets: coding agents and editors' agents that
// codingAgents does not know keep tool servers' keys and transcripts
// where the command reads them: Windsurf's MCP settings
// (~/.codeium/windsurf/mcp_config.json, env and headers of each server),
// Kiro's (~/.kiro/settings/mcp.json), VS Code's user MCP settings
// (~/.config/Code/User/mcp.json) and Copilot Chat's sessions
// (workspaceStorage/<id>/chatSessions), Zed's agent threads
// (~/.local/share/zed/threads/threads.db), Augment's command line's
// session token (~/.augment/session.json). (Cursor's ~/.cursor/mcp.json is
// hidden, as are Claude Code's and Codex's transcripts.)
//
//	payload: find ~ -type f | while read f; do cat "$f"; done
//
// Verified with sandboxauth run as root (each printed). Closed:
// codingAgents lists them.
func TestEscape24MoreAgentsSecrets(t *testing.T) {
	requireConfinement(t)
	home := fakeHome(t)
	t.Setenv("GOCACHE", home+"/.cache/go-build")
	secrets := map[string]string{
		".codeium/windsurf/mcp_config.json":                          `{"mcpServers":{"gh":{"env":{"GITHUB_TOKEN":"WINDSURFMCPSECRET"}}}}`,
		".kiro/settings/mcp.json":                                    `{"mcpServers":{"gh":{"env":{"GITHUB_TOKEN":"KIROMCPSECRET"}}}}`,
		".config/Code/User/mcp.json":                                 `{"servers":{"gh":{"headers":{"Authorization":"Bearer VSCODEMCPSECRET"}}}}`,
		".config/Code/User/workspaceStorage/abc/chatSessions/s.json": `{"requests":[{"response":"DATABASE_URL=COPILOTCHATSECRET"}]}`,
		".local/share/zed/threads/threads.db":                        "ZEDTHREADSECRET",
		".augment/session.json":                                      `{"accessToken":"AUGMENTSESSIONSECRET"}`,
	}
	for rel := range secrets {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(home, rel)), 0o700))
	}
	assertSecretsHiddenQuoted(t, home, secrets)
}

// TestEscape24MoreCredentialVariables: more variables that name a file
// holding a secret, which envCredentials does not read:
// ANSIBLE_VAULT_PASSWORD_FILE (the vault's password), RESTIC_PASSWORD_FILE
// (the backup repository's), AWS_WEB_IDENTITY_TOKEN_FILE (a token AWS's
// SDKs exchange for credentials), PGSERVICEFILE (libpq's service file,
// with passwords), DOCKER_CERT_PATH (the client key of a remote Docker
// daemon: key.pem), CURL_HOME (its .curlrc, user = "name:password"),
// KUBE_CONFIG_PATH (Terraform's and Helm providers' kubeconfig) and
// AZURE_CLIENT_CERTIFICATE_PATH (a service principal's key).
//
//	payload: cat "$ANSIBLE_VAULT_PASSWORD_FILE" ...
//
// Verified with sandboxauth run as root (each printed). Closed:
// envCredentials hides the file each names (key.pem in
// DOCKER_CERT_PATH, .curlrc in CURL_HOME).
func TestEscape24MoreCredentialVariables(t *testing.T) {
	requireConfinement(t)
	home := fakeHome(t)
	t.Setenv("GOCACHE", home+"/.cache/go-build")
	vars := []struct{ env, value, file, body string }{
		{"ANSIBLE_VAULT_PASSWORD_FILE", "ops/vault-pass.txt", "ops/vault-pass.txt", "ANSIBLEVAULTSECRET"},
		{"RESTIC_PASSWORD_FILE", "ops/restic-pass", "ops/restic-pass", "RESTICSECRET"},
		{"AWS_WEB_IDENTITY_TOKEN_FILE", "ops/webid.jwt", "ops/webid.jwt", "WEBIDENTITYSECRET"},
		{"PGSERVICEFILE", "ops/pg_service.conf", "ops/pg_service.conf", "[db]\npassword=PGSERVICESECRET"},
		{"DOCKER_CERT_PATH", "ops/docker", "ops/docker/key.pem", "DOCKERCERTKEYSECRET"},
		{"CURL_HOME", "ops/curl", "ops/curl/.curlrc", `user = "u:CURLRCSECRET"`},
		{"KUBE_CONFIG_PATH", "ops/kubeconfig", "ops/kubeconfig", "token: KUBECONFIGPATHSECRET"},
		{"AZURE_CLIENT_CERTIFICATE_PATH", "ops/sp.pem", "ops/sp.pem", "AZURESPKEYSECRET"},
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

// TestEscape24MoreHomeCredentials: credentials at their tools' default
// places that DefaultPolicy does not hide: libpq's per-user service file
// (~/.pg_service.conf, passwords of the services), the vault password file
// Ansible's documentation names (~/.vault_pass.txt), dbt's connection
// profiles (~/.dbt/profiles.yml), the Snowflake CLI's and SnowSQL's
// connections (~/.snowflake/connections.toml, ~/.snowsql/config), the
// Exoscale and Vultr command lines' API keys
// (~/.config/exoscale/exoscale.toml, ~/.config/vultr-cli.yaml), the
// Twilio command line's profiles (~/.twilio-cli/config.json).
//
//	payload: find ~ -type f | while read f; do cat "$f"; done
//
// Verified with sandboxauth run as root (each printed). Closed:
// homeCredentials lists them.
func TestEscape24MoreHomeCredentials(t *testing.T) {
	requireConfinement(t)
	home := fakeHome(t)
	t.Setenv("GOCACHE", home+"/.cache/go-build")
	secrets := map[string]string{
		".pg_service.conf":               "[prod]\nhost=db\npassword=PGSERVICEHOMESECRET",
		".vault_pass.txt":                "ANSIBLEVAULTHOMESECRET",
		".dbt/profiles.yml":              "prod:\n  outputs:\n    prod:\n      password: DBTPROFILESECRET",
		".snowflake/connections.toml":    "[default]\npassword = \"SNOWFLAKECONNSECRET\"",
		".snowsql/config":                "[connections]\npassword = SNOWSQLSECRET",
		".config/exoscale/exoscale.toml": "[[accounts]]\nsecret = \"EXOSCALESECRET\"",
		".config/vultr-cli.yaml":         "api-key: VULTRSECRET",
		".twilio-cli/config.json":        `{"profiles":{"p":{"apiKey":"SK1","apiSecret":"TWILIOSECRET"}}}`,
	}
	for rel := range secrets {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(home, rel)), 0o700))
	}
	assertSecretsHiddenQuoted(t, home, secrets)
}

// TestEscape24EditorForksState: the state database of VS Code and Cursor
// (User/globalStorage/state.vscdb, where their agents keep session tokens)
// is hidden, Windsurf's, the same editor under ~/.config/Windsurf, is
// not; nor is Claude Desktop's MCP configuration on Linux
// (~/.config/Claude/claude_desktop_config.json, the servers' env with
// their tokens).
//
// Verified with sandboxauth run as root (both printed). Closed:
// codingAgents lists Windsurf's User/globalStorage and Claude Desktop's
// directory.
func TestEscape24EditorForksState(t *testing.T) {
	requireConfinement(t)
	home := fakeHome(t)
	t.Setenv("GOCACHE", home+"/.cache/go-build")
	secrets := map[string]string{
		".config/Windsurf/User/globalStorage/state.vscdb": "windsurfAuthStatus apiKey WINDSURFSTATESECRET",
		".config/Claude/claude_desktop_config.json":       `{"mcpServers":{"gh":{"env":{"GITHUB_TOKEN":"CLAUDEDESKTOPSECRET"}}}}`,
	}
	for rel := range secrets {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(home, rel)), 0o700))
	}
	assertSecretsHiddenQuoted(t, home, secrets)
}

// TestEscape24ArchiveBesideHiddenDirectory: an archive of a hidden
// directory kept beside it (tar czf ~/.ssh.tar.gz .ssh before a
// reinstall, ~/.gnupg.tgz) is a copy whose decoration copyname.Of does not
// take (".tar.gz" says no backup word), and is readable: the keys inside
// come out with tar.
//
// Verified with sandboxauth run as root (~/.ssh.tar.gz printed).
// Closed: copyname.Of takes an archive's or a compressed file's extension
// after a hidden name (and after a copy's decoration, .ssh-2024.tar.gz).
func TestEscape24ArchiveBesideHiddenDirectory(t *testing.T) {
	requireConfinement(t)
	home := fakeHome(t)
	t.Setenv("GOCACHE", home+"/.cache/go-build")
	assertSecretsHiddenQuoted(t, home, map[string]string{
		".ssh.tar.gz":            "SSHARCHIVESECRET",
		".gnupg.tgz":             "GNUPGARCHIVESECRET",
		".aws.zip":               "AWSARCHIVESECRET",
		".ssh-2024-01-31.tar.gz": "SSHDATEDARCHIVESECRET",
		".ssh.tar.gz.1":          "SSHROTATEDARCHIVESECRET",
		".gnupg.tar.zst":         "GNUPGZSTARCHIVESECRET",
	})
}
