package sandboxauth

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/internal/programs"
)

// Red-team round 25a: files the user writes in the project while a
// confined command runs, and what the quarantine then does with them.
// Each payload was run with `sandboxauth run --sandbox SB -- ./p.sh`, as
// root and as the unprivileged sbtest, with the user's step done by hand
// in SB from another shell while it ran.

// TestEscape25aQuarantinedNpmrcReadable: a missing project .npmrc gets an
// empty read-only placeholder while a command runs. When the user saves
// a real .npmrc meanwhile (npm config set --location=project, npm login
// --scope with a project location, an editor: by rename, which detaches
// the placeholder and stops the run, or in place, root's editor or vim's
// :w! on the read-only file), the quarantine moves the user's file aside
// as .npmrc.sandboxauth-quarantine when the run ends. .npmrc is
// read-protected, but that new name matches no read-protected pattern
// (.env's copy, .env.sandboxauth-quarantine, is still hidden by .env.*):
// the next confined run reads the user's registry token.
//
//	run 1:   sleep 3                       (the user saves .npmrc meanwhile)
//	user:    printf '//registry.npmjs.org/:_authToken=npm_SECRET\n' > .npmrc.tmp && mv .npmrc.tmp .npmrc
//	run 2:   cat .npmrc.sandboxauth-quarantine
//
// Verified with sandboxauth run as root (in place and by rename) and as
// sbtest (by rename): run 2 printed the token.
func TestEscape25aQuarantinedNpmrcReadable(t *testing.T) {
	const token = "//registry.npmjs.org/:_authToken=npm_SECRET25A"
	for _, c := range []struct {
		name string
		save func(t *testing.T, path string)
	}{
		{"by rename", func(t *testing.T, path string) { renameOver17(t, path, token+"\n") }},
		{"in place", func(t *testing.T, path string) {
			require.NoError(t, os.Chmod(path, 0o600)) // vim's :w! on a read-only file
			require.NoError(t, os.WriteFile(path, []byte(token+"\n"), 0o600))
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			sb := escapeSandbox(t)
			npmrc := filepath.Join(sb, ".npmrc")
			while17(t, sb, func() { c.save(t, npmrc) })
			entries, _ := os.ReadDir(sb)
			for _, e := range entries {
				t.Logf("after run 1: %s", e.Name())
			}
			out := runProtected20(t, sb, `for f in .npmrc*; do echo "== $f"; cat "$f"; done`)
			assert.NotContains(t, out, "npm_SECRET25A", "the next confined run read the .npmrc the user saved during the previous one, moved aside by the quarantine")
		})
	}
}

// TestEscape25aQuarantinedRenvironReadable: the same with an existing
// .Renviron (read- and write-protected: R's per-project environment,
// where API keys go). The user saves it by rename while a command runs
// (RStudio, usethis::edit_r_environ("project"), an editor); the watch
// stops the run and the quarantine moves the user's new file aside as
// .Renviron.sandboxauth-quarantine, which no read-protected pattern
// covers: the next confined run reads the key.
//
//	before:  echo OPENAI_API_KEY=old > .Renviron
//	run 1:   sleep 3
//	user:    echo OPENAI_API_KEY=NEW > .Renviron.tmp && mv .Renviron.tmp .Renviron
//	run 2:   cat .Renviron.sandboxauth-quarantine
//
// Verified with sandboxauth run as root: run 2 printed the new key.
func TestEscape25aQuarantinedRenvironReadable(t *testing.T) {
	sb := escapeSandbox(t)
	renviron := filepath.Join(sb, ".Renviron")
	require.NoError(t, os.WriteFile(renviron, []byte("OPENAI_API_KEY=old\n"), 0o600))
	while17(t, sb, func() { renameOver17(t, renviron, "OPENAI_API_KEY=SECRET25A\n") })
	out := runProtected20(t, sb, `for f in .Renviron*; do echo "== $f"; cat "$f"; done`)
	assert.NotContains(t, out, "SECRET25A", "the next confined run read the .Renviron the user saved during the previous one, moved aside by the quarantine")
}

// TestEscape25aProjectSecretsOtherFrameworks: the project's secrets that
// frameworks and tools document under names no read-protected pattern
// takes (.env, .env.*, .envrc, .dev.vars, master.key, .Renviron,
// local.settings.json, .secrets.*, Terraform's state and variables are
// hidden):
//
//   - Flutter's and Android's release signing: android/key.properties
//     (storePassword, keyPassword: Flutter's documented name, git-ignored
//     by its template) and the upload keystore it names (*.jks,
//     *.keystore);
//
//   - Google's API quickstarts: credentials.json (the OAuth client
//     secret) and token.json (the user's refresh token, written by the
//     quickstart on the first run), a service account's key file;
//
//   - Amplify's amplify/team-provider-info.json, WordPress's
//     wp-config.php, Apache's .htpasswd, Rails' config/secrets.yml
//     (before encrypted credentials);
//
//   - env files named otherwise than .env.*: prod.env and app.env (docker
//     compose's env_file, systemd's EnvironmentFile), .env_prod,
//     .env-prod;
//
//   - the home's credential files kept in a project (a CI or container
//     home checked out beside the code, a tool run with HOME=$PWD): .netrc,
//     .pypirc, .git-credentials, .aws/credentials, .docker/config.json,
//     .pgpass, .vault-token, .ssh/id_ed25519, which are hidden in the home
//     but not in the sandbox.
//
//     payload: cat android/key.properties token.json credentials.json prod.env .netrc ...
//
// Verified with sandboxauth run as root: all printed.
func TestEscape25aProjectSecretsOtherFrameworks(t *testing.T) {
	sb := escapeSandbox(t)
	secrets := map[string]string{
		"android/key.properties":          "storePassword=KEYPROPSSECRET\nkeyPassword=KEYPROPSSECRET",
		"android/app/upload-keystore.jks": "JKSKEYSTORESECRET",
		"release.keystore":                "ANDROIDKEYSTORESECRET",
		"credentials.json":                `{"installed":{"client_secret":"GOOGLECLIENTSECRET"}}`,
		"token.json":                      `{"refresh_token":"GOOGLETOKENSECRET"}`,
		"service-account.json":            `{"type":"service_account","private_key":"SERVICEACCOUNTSECRET"}`,
		"amplify/team-provider-info.json": `{"dev":{"categories":{"auth":{"x":{"clientSecret":"AMPLIFYSECRET"}}}}}`,
		"wp-config.php":                   "define('DB_PASSWORD', 'WPCONFIGSECRET');",
		".htpasswd":                       "admin:$apr1$HTPASSWDSECRET",
		"config/secrets.yml":              "production:\n  secret_key_base: RAILSSECRETSYMLSECRET",
		"prod.env":                        "DATABASE_URL=postgres://u:PRODENVSECRET@db/x",
		"app.env":                         "API_KEY=APPENVSECRET",
		".env_prod":                       "API_KEY=ENVUNDERSCORESECRET",
		".env-prod":                       "API_KEY=ENVDASHSECRET",
		".netrc":                          "machine api.example login u password PROJNETRCSECRET",
		".pypirc":                         "[pypi]\npassword = PROJPYPIRCSECRET",
		".git-credentials":                "https://u:PROJGITCREDSECRET@example.invalid",
		".aws/credentials":                "[default]\naws_secret_access_key = PROJAWSSECRET",
		".docker/config.json":             `{"auths":{"r":{"auth":"PROJDOCKERSECRET"}}}`,
		".pgpass":                         "db:5432:*:u:PROJPGPASSSECRET",
		".vault-token":                    "hvs.PROJVAULTSECRET",
		".ssh/id_ed25519":                 "-----BEGIN OPENSSH PRIVATE KEY-----\nPROJSSHKEYSECRET",
	}
	for rel, body := range secrets {
		write15(t, filepath.Join(sb, rel), body+"\n", 0o600)
	}
	var script strings.Builder
	for rel := range secrets {
		script.WriteString("cat '" + rel + "'; ")
	}
	out := runProtected20(t, sb, script.String())
	for rel, body := range secrets {
		assert.NotContains(t, out, body, "%s, a project's secrets, was readable", rel)
	}
}

// TestEscape25aProjectSecretsToolDefaults: files where tools look for a
// project's secrets by default, under names no pattern takes:
// cookiecutter-django's .envs/.production/.django (and .postgres), act's
// secret file .secrets (`act` reads it for the workflows' secrets),
// Ansible's vault password file (vault_password_file = .vault_pass in
// the project's ansible.cfg), Composer's auth.json beside composer.json
// (registry and GitHub tokens), sentry-cli's .sentryclirc (read from the
// project upwards), an App Store Connect or APNs key (AuthKey_ID.p8),
// Firebase's service account key (PROJECT-firebase-adminsdk-ID.json), a
// compose secret file (secrets/db_password.txt).
//
//	payload: cat .envs/.production/.django .secrets .vault_pass auth.json .sentryclirc ...
//
// Verified with sandboxauth run as root: all printed.
func TestEscape25aProjectSecretsToolDefaults(t *testing.T) {
	sb := escapeSandbox(t)
	secrets := map[string]string{
		".envs/.production/.django":          "DJANGO_SECRET_KEY=COOKIECUTTERSECRET",
		".envs/.production/.postgres":        "POSTGRES_PASSWORD=COOKIEPGSECRET",
		".secrets":                           "GITHUB_TOKEN=ACTSECRETSSECRET",
		".vault_pass":                        "ANSIBLEVAULTPROJECTSECRET",
		"auth.json":                          `{"github-oauth":{"github.com":"COMPOSERAUTHSECRET"}}`,
		".sentryclirc":                       "[auth]\ntoken=SENTRYPROJECTSECRET",
		"AuthKey_ABC123DEFG.p8":              "-----BEGIN PRIVATE KEY-----\nAPPLEP8SECRET",
		"myapp-firebase-adminsdk-x1y2z.json": `{"type":"service_account","private_key":"FIREBASEADMINSECRET"}`,
		"secrets/db_password.txt":            "COMPOSESECRETFILESECRET",
	}
	for rel, body := range secrets {
		write15(t, filepath.Join(sb, rel), body+"\n", 0o600)
	}
	var script strings.Builder
	for rel := range secrets {
		script.WriteString("cat '" + rel + "'; ")
	}
	out := runProtected20(t, sb, script.String())
	for rel, body := range secrets {
		assert.NotContains(t, out, body, "%s, a project's secrets, was readable", rel)
	}
}

// TestEscape25aPytestVersionRunsConftest: RunsProjectCode takes a lone
// --version or --help as running nothing of the project, so `pytest
// --version` and `pytest --help` are safe (auto-allowed, and run as they
// are, unconfined, where nothing rewrites them: without confinement, and
// for the agents whose hooks do not rewrite). But pytest loads the
// rootdir's conftest.py (and the ini file's addopts, -p PLUGIN included)
// before it handles either option: --help lists the options conftest.py
// adds. A conftest.py written by a confined command (or by the agent's
// own file tool: it is a file of the project) runs with the user's
// rights at the next `pytest --version`, with no question asked, while
// `pytest -q` is asked about.
//
//	payload: echo 'open("/root/v/pwned","w")' > conftest.py
//	agent:   pytest --version        (sandboxauth check: safe; hook for
//	                                  claude-code without "confine": allow)
//
// Verified as root with Debian's python3-pytest 7.2.1: `sandboxauth check
// -- pytest --version` says safe, `sandboxauth hook --for claude-code`
// answers allow (and ask for `pytest -q`), and pytest --version, run in
// the project, made the marker; so did pytest --help.
func TestEscape25aPytestVersionRunsConftest(t *testing.T) {
	for _, args := range [][]string{{"pytest", "--version"}, {"pytest", "--help"}} {
		t.Run(args[1], func(t *testing.T) {
			sb := escapeSandbox(t)
			marker := homeMarker(t)
			runProtected20(t, sb, "echo 'open(\""+marker+"\", \"w\").write(\"conftest ran\")' > conftest.py")
			res, err := NewShellAllowedCommands().Check(args)
			require.NoError(t, err)
			if res == CommandCheckResultSafe {
				// What the agent's shell does with a safe command: run it.
				if pytest, err := exec.LookPath("pytest"); err == nil {
					cmd := exec.Command(pytest, args[1:]...)
					cmd.Dir = sb
					out, _ := cmd.CombinedOutput()
					t.Logf("%v: %.200s", args, out)
				}
			}
			assert.NotEqual(t, CommandCheckResultSafe, res, "%v loads the project's conftest.py, yet is safe", args)
			assert.NoFileExists(t, marker, "%v, safe, ran the project's conftest.py unconfined", args)
		})
	}
}

// TestEscape25aKateSwapOfDotEnv: Kate and KWrite keep the unsaved changes
// of a file being edited in a swap file beside it named
// .NAME.kate-swp: for .env, ..env.kate-swp, which no pattern takes (Vim's
// .env.swp is hidden, JetBrains' .env___jb_tmp___ too). The command reads
// what the user is typing into .env.
//
//	payload: cat ..env.kate-swp
//
// Verified with sandboxauth run as root: printed.
func TestEscape25aKateSwapOfDotEnv(t *testing.T) {
	sb := escapeSandbox(t)
	write15(t, filepath.Join(sb, ".env"), "API_KEY=old\n", 0o600)
	write15(t, filepath.Join(sb, "..env.kate-swp"), "Kate Swap File 2.0 API_KEY=KATESWAPSECRET\n", 0o600)
	out := runProtected20(t, sb, "cat ..env.kate-swp")
	assert.NotContains(t, out, "KATESWAPSECRET", "Kate's swap file of .env was readable")
}

// TestEscape25aUserSettingsSavedDuringRunMovedAside: a missing protected
// directory (.vscode/, .claude/) is an empty placeholder directory on the
// user's disk while a command runs, bound read-only over itself in the
// command's view, so the command cannot put anything in it. When the user
// saves a file there meanwhile (VS Code's "Preferences: Open Workspace
// Settings", Claude Code's /permissions writing .claude/settings.local.json,
// both unconfined), the run's end moves the user's own directory aside
// (.vscode.sandboxauth-quarantine) as if the command had made it: the
// user's settings are gone from where the editor and the agent read them,
// with no word to the user but a line on the command's standard error.
//
//	run:   sleep 3
//	user:  mkdir -p .vscode && echo '{"editor.tabSize": 2}' > .vscode/settings.json
//	after: ls -a  ->  .vscode.sandboxauth-quarantine, no .vscode
//
// Verified with sandboxauth run as root.
func TestEscape25aUserSettingsSavedDuringRunMovedAside(t *testing.T) {
	sb := escapeSandbox(t)
	files := map[string]string{
		".vscode/settings.json":       `{"editor.tabSize": 2}`,
		".claude/settings.local.json": `{"permissions":{"allow":["Bash(ls:*)"]}}`,
	}
	while17(t, sb, func() {
		for rel, body := range files {
			require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(sb, rel)), 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(sb, rel), []byte(body), 0o644))
		}
	})
	entries, _ := os.ReadDir(sb)
	for _, e := range entries {
		t.Logf("after the run: %s", e.Name())
	}
	for rel, body := range files {
		b, err := os.ReadFile(filepath.Join(sb, rel))
		assert.NoError(t, err, "the user's %s, saved while the command ran, is no longer where the user saved it", rel)
		assert.Equal(t, body, string(b))
	}
}

// TestEscape25aLoneVersionOrHelpLoadsProjectPlugins: RunsProjectCode takes
// a lone --version or --help as running nothing of the project, so these
// are on no list (the Permissive policy allows them; the Sandbox policy
// asks) where the same program on the project is project code (asked
// about under both). But flake8 loads the project's local plugins
// ([flake8:local-plugins] in .flake8, setup.cfg or tox.ini, paths = .)
// to list them in --version and their options in --help, and pylint runs
// its rcfile's init-hook before printing --help.
//
//	payload: printf '[flake8:local-plugins]\nextension =\n    ABC = evil:Plugin\npaths = .\n' > .flake8; echo 'import os; ...' > evil.py
//	         printf "[MAIN]\ninit-hook='import os; ...'\n" > .pylintrc
//	agent:   flake8 --version; flake8 --help; pylint --help   (Permissive: allow)
//
// Verified as root with Debian's flake8 5.0.4 and pylint 2.16: each made
// its marker, run in the project; tox --version and pylint --version did
// not.
func TestEscape25aLoneVersionOrHelpLoadsProjectPlugins(t *testing.T) {
	for _, args := range [][]string{{"flake8", "--version"}, {"flake8", "--help"}, {"pylint", "--help"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			sb := escapeSandbox(t)
			marker := homeMarker(t)
			code := "open(\"" + marker + "\", \"w\").write(\"ran\")"
			runProtected20(t, sb, "printf '[flake8:local-plugins]\\nextension =\\n    ABC = evilplug:Plugin\\npaths = .\\n' > .flake8; "+
				"printf '%s\\nclass Plugin:\\n    name = \"evil\"\\n    version = \"1\"\\n    def __init__(self, tree): pass\\n    def run(self): return iter(())\\n' '"+code+"' > evilplug.py; "+
				"printf \"[MAIN]\\ninit-hook='%s'\\n\" '"+code+"' > .pylintrc")
			what, known := programs.RunsProjectCode(args[0], args[1:])
			if known && what == "" {
				// What a policy that lets it run does: run it, unconfined.
				if path, err := exec.LookPath(args[0]); err == nil {
					cmd := exec.Command(path, args[1:]...)
					cmd.Dir = sb
					out, _ := cmd.CombinedOutput()
					t.Logf("%v: %.200s", args, out)
				}
			}
			assert.NotEqual(t, "", what, "%v runs the project's plugins, yet is not project code", args)
			assert.NoFileExists(t, marker, "%v ran the project's code unconfined", args)
		})
	}
}
