package sandboxauth

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/confine"
)

// TestEscape18CredentialCreatedBesideNoHiddenPath: Landlock handles
// reading only in the directories that hold a hidden path that EXISTS at
// the start (readRulesFor: a missing hidden path is skipped by viewOf and
// so makes no holder). A directory of the home that holds no existing
// credential yet (~/.cargo of an installed toolchain without
// credentials.toml, ~/.config without gh/, ~/.cache without huggingface/,
// ~/.codex without auth.json, ~/.gradle without gradle.properties) is
// granted reading whole, beneath it: the credential the user's program
// creates there while the command runs (`cargo login`, `gh auth login`,
// `huggingface-cli login`, `codex login`) is read by the command.
//
//	payload: touch started; while [ ! -e userdone ]; do sleep 0.05; done; cat ~/.cargo/credentials.toml ~/.config/gh/hosts.yml
//	user:    printf '[registry]\ntoken = "CARGOSECRET"\n' > ~/.cargo/credentials.toml
//	         mkdir ~/.config/gh; echo 'oauth_token: GHSECRET' > ~/.config/gh/hosts.yml
//
// Verified with sandboxauth run, as root (fake HOME under /root) and as
// the unprivileged sbtest: the payload printed both tokens. (~/.aws and
// ~/.npmrc created the same way stay unreadable: the home holds hidden
// paths, so new entries of the home get no rule.)
func TestEscape18CredentialCreatedBesideNoHiddenPath(t *testing.T) {
	sb := escapeSandbox(t)
	home := dotHome15(t)
	require.NoError(t, os.MkdirAll(filepath.Join(home, ".cargo", "bin"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(home, ".config", "fish"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(home, ".codex", "sessions"), 0o755))
	write15(t, filepath.Join(home, ".git-credentials"), "https://u:OLD@example.invalid\n", 0o600) // the home is a holder
	cargo := filepath.Join(home, ".cargo", "credentials.toml")
	gh := filepath.Join(home, ".config", "gh", "hosts.yml")
	codex := filepath.Join(home, ".codex", "auth.json")
	out := while17(t, sb, func() {
		write15(t, cargo, "[registry]\ntoken = \"CARGOSECRET18\"\n", 0o600)
		write15(t, gh, "github.com:\n  oauth_token: GHSECRET18\n", 0o600)
		write15(t, codex, "{\"OPENAI_API_KEY\":\"CODEXSECRET18\"}\n", 0o600)
	}, cargo, gh, codex)
	assert.NotContains(t, out, "CARGOSECRET18", "the confined command read ~/.cargo/credentials.toml made by `cargo login` while it ran")
	assert.NotContains(t, out, "GHSECRET18", "the confined command read ~/.config/gh/hosts.yml made by `gh auth login` while it ran")
	assert.NotContains(t, out, "CODEXSECRET18", "the confined command read ~/.codex/auth.json made by `codex login` while it ran")
}

// runHidden18 runs script confined in sb under ProtectConfinement's policy
// and returns its output.
func runHidden18(t *testing.T, sb, script string) string {
	t.Helper()
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	out, err := runConfined(shIn(sb, script), p)
	t.Logf("payload: %v %s", err, out)
	return out
}

// window18 runs script confined in sb (ProtectConfinement's policy) in the
// background; once it has made sb/started, user() acts outside, and the
// run is waited for. It returns the command's output.
func window18(t *testing.T, sb, script string, user func()) string {
	t.Helper()
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	done := make(chan string, 1)
	go func() {
		out, err := runConfined(shIn(sb, script), p)
		t.Logf("payload: %v %s", err, out)
		done <- out
	}()
	for i := 0; i < 200; i++ {
		if _, err := os.Stat(filepath.Join(sb, "started")); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond) // the loops are running
	user()
	select {
	case out := <-done:
		return out
	case <-time.After(20 * time.Second):
		t.Fatal("the command was not stopped after the rename")
		return ""
	}
}

// loops18 is a payload of four shell loops that run body without a fork
// (builtins only), each as fast as the shell goes, until killed.
func loops18(body string) string {
	loop := `while :; do ` + body + `; done 2>/dev/null &`
	return strings.Repeat(loop+" ", 4) + ` touch started; wait`
}

// TestEscape18GitConfigInWatchWindow: round 17's answer to the rename over
// .git/config (the user's `git config`, `git remote add`, `git push -u`
// while a command runs) is the helper's watch of the mount table, which
// kills the sandbox when the mount is detached. Between the rename and the
// kill (measured: 0.25-0.3 ms idle, 4 ms with 64 busy processes of the
// command) a command that keeps trying to append to .git/config gets its
// write in: a plain sh loop of builtins, no compiled program needed. The
// core.fsmonitor it appends stays after the run (nothing judges
// .git/config afterwards), and the user's next `git status` runs it
// unconfined. doc.go names the window ("what it wrote in that time
// stays"); it is an escape all the same, won in 2 runs out of 3 with one
// loop, every time with four.
//
//	payload: while :; do printf '\n[core]\n\tfsmonitor = "touch ~/v/pwned; false"\n' >> .git/config; done 2>/dev/null  (x4)
//	user:    git config user.name someone; later git status
//
// Verified with sandboxauth run as root: 9, 93 and 65 fsmonitor lines in
// .git/config in three runs, and the user's git status made the marker;
// as sbtest (four loops, `git remote add origin URL`): 1055 lines, and
// git status made the marker.
func TestEscape18GitConfigInWatchWindow(t *testing.T) {
	var config string
	var marker string
	for attempt := 0; attempt < 3; attempt++ {
		sb := escapeSandbox(t)
		dotHome15(t)
		marker = homeMarker(t)
		window18(t, sb, loops18(`printf '\n[core]\n\tfsmonitor = "touch `+marker+`; false"\n' >> .git/config`), func() {
			userGit(t, sb, "config", "user.name", "someone")
		})
		b, err := os.ReadFile(filepath.Join(sb, ".git", "config"))
		if err != nil {
			// Since the fix: a configuration replaced during the run
			// whose obeyed settings changed is moved aside after it.
			require.NotEmpty(t, quarantined(t, sb), "the configuration is gone, not moved aside: %v", err)
		}
		config = string(b)
		cmd := exec.Command("git", "status", "--short")
		cmd.Dir = sb
		_, _ = cmd.CombinedOutput()
		if strings.Contains(config, "fsmonitor") {
			break
		}
	}
	assert.NotContains(t, config, "fsmonitor", "the confined command appended to .git/config between the user's git config and the watch's kill")
	assert.NoFileExists(t, marker, "the user's git status ran the command's core.fsmonitor")
}

// TestEscape18CredentialsWhereTheEnvironmentPutsThem: the hidden paths are
// fixed names beneath the home. Where the user's environment moves a tool's
// files (CARGO_HOME, which DefaultPolicy itself reads as a cache place,
// XDG_CONFIG_HOME for gh and every XDG tool, KUBECONFIG, GNUPGHOME,
// DOCKER_CONFIG, GH_CONFIG_DIR, AWS_SHARED_CREDENTIALS_FILE,
// CLOUDSDK_CONFIG, PASSWORD_STORE_DIR), the credentials there are neither
// covered nor withheld by Landlock: the command reads them. (The variables
// KUBECONFIG and GNUPGHOME are removed from its environment, but the files
// stay where they are, and a listing of the home finds them.)
//
//	env:     CARGO_HOME=~/opt/cargo XDG_CONFIG_HOME=~/dotcfg KUBECONFIG=~/work/kube.yaml GNUPGHOME=~/gpg
//	payload: cat ~/opt/cargo/credentials.toml ~/dotcfg/gh/hosts.yml ~/work/kube.yaml ~/gpg/private-keys-v1.d/k.key
//
// Verified with sandboxauth run as root (fake HOME): printed all four;
// as sbtest (CARGO_HOME, XDG_CONFIG_HOME beneath ~/a18e): printed both.
func TestEscape18CredentialsWhereTheEnvironmentPutsThem(t *testing.T) {
	sb := escapeSandbox(t)
	home := dotHome15(t)
	write15(t, filepath.Join(home, ".ssh", "id_ed25519"), "k\n", 0o600)
	files := map[string]string{
		"opt/cargo/credentials.toml":  "[registry]\ntoken = \"CARGOENV18\"\n",
		"dotcfg/gh/hosts.yml":         "github.com:\n  oauth_token: GHXDG18\n",
		"work/kube.yaml":              "users:\n- user:\n    token: KUBEENV18\n",
		"gpg/private-keys-v1.d/k.key": "GPGKEY18\n",
		"dockercfg/config.json":       "{\"auths\":{\"r\":{\"auth\":\"DOCKERENV18\"}}}\n",
		"secrets/aws-credentials":     "[default]\naws_secret_access_key = AWSENV18\n",
	}
	for rel, text := range files {
		write15(t, filepath.Join(home, rel), text, 0o600)
	}
	t.Setenv("CARGO_HOME", filepath.Join(home, "opt", "cargo"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "dotcfg"))
	t.Setenv("KUBECONFIG", filepath.Join(home, "work", "kube.yaml"))
	t.Setenv("GNUPGHOME", filepath.Join(home, "gpg"))
	t.Setenv("DOCKER_CONFIG", filepath.Join(home, "dockercfg"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(home, "secrets", "aws-credentials"))
	script := ""
	for rel := range files {
		script += "cat " + shellQuote(filepath.Join(home, rel)) + "; "
	}
	out := runHidden18(t, sb, script+"echo")
	for _, secret := range []string{"CARGOENV18", "GHXDG18", "KUBEENV18", "GPGKEY18", "DOCKERENV18", "AWSENV18"} {
		assert.NotContains(t, out, secret, "the confined command read a credential where the user's environment puts it")
	}
}
