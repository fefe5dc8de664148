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

// TestEscape18HardLinkIntoHiddenDirectory: a hidden FILE with more than
// one name is refused (viewOf: "the command could read it under
// another"), but the files inside a hidden DIRECTORY are not checked: a
// key of ~/.ssh that has a second name elsewhere in the home (a backup
// made with `cp -al`, `ln ~/.ssh/id_ed25519 ~/keys/`, a dotfiles manager
// that hard-links) is read through that name. The mount covers the path
// ~/.ssh; Landlock grants ~/keys, an entry of the home, and a rule on
// a directory reaches whatever inode lies beneath it.
//
//	setup:   ln ~/.ssh/id_ed25519 ~/keys/id_backup
//	payload: cat ~/keys/id_backup
//
// Verified with sandboxauth run as root (fake HOME under /root) and as
// sbtest (~/a18b/keys/k18 linked to ~/.ssh/k18): printed the key.
func TestEscape18HardLinkIntoHiddenDirectory(t *testing.T) {
	sb := escapeSandbox(t)
	home := dotHome15(t)
	key := filepath.Join(home, ".ssh", "id_ed25519")
	write15(t, key, "SSHKEY18\n", 0o600)
	require.NoError(t, os.MkdirAll(filepath.Join(home, "keys"), 0o700))
	other := filepath.Join(home, "keys", "id_backup")
	require.NoError(t, os.Link(key, other))
	out := runHidden18(t, sb, "cat "+shellQuote(key)+" "+shellQuote(other)+"; echo")
	assert.NotContains(t, out, "SSHKEY18", "the confined command read a key of the hidden ~/.ssh through its other name")
}

// TestEscape18HomeReachedThroughBindMount: the covers and Landlock's
// reading rules are made for the hidden paths' own names only. Where the
// home is also mounted elsewhere on the machine (a bind mount:
// /var/home, a container's or a backup's view of /home, an NFS export
// mounted back), the credentials are read through that other mount: its
// mount point lies beneath an entry of / that Landlock grants (/mnt), and
// a path-beneath rule reaches through the mount to the same inodes.
//
//	setup (root): mount --bind ~ /mnt/alias18
//	payload:      cat /mnt/alias18/.ssh/id_ed25519 /mnt/alias18/.git-credentials
//
// Verified with sandboxauth run as root (fake HOME under /root): printed
// both.
func TestEscape18HomeReachedThroughBindMount(t *testing.T) {
	sb := escapeSandbox(t)
	home := dotHome15(t)
	write15(t, filepath.Join(home, ".ssh", "id_ed25519"), "SSHKEY18B\n", 0o600)
	write15(t, filepath.Join(home, ".git-credentials"), "https://u:GITCRED18B@example.invalid\n", 0o600)
	alias, err := os.MkdirTemp("/mnt", "alias18-")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.Remove(alias) })
	out, err := exec.Command("mount", "--bind", home, alias).CombinedOutput()
	require.NoError(t, err, "mount --bind (the test needs root): %s", out)
	t.Cleanup(func() { _ = exec.Command("umount", "-l", alias).Run() })
	got := runHidden18(t, sb, "cat "+shellQuote(alias+"/.ssh/id_ed25519")+" "+shellQuote(alias+"/.git-credentials")+"; echo")
	assert.NotContains(t, got, "SSHKEY18B", "the confined command read ~/.ssh through another mount of the home")
	assert.NotContains(t, got, "GITCRED18B", "the confined command read ~/.git-credentials through another mount of the home")
}

// TestEscape18DotEnvCreatedDuringRun: a project's secrets files are
// hidden when they exist at the start (.env.*, Read: true), and a missing
// .env gets a placeholder the user's writes go into; but a .env.local or
// .env.production that the user creates while the command runs (`vercel
// env pull` writes .env.local, `cp .env.example .env.local` and an
// edit, `dotenv-vault pull production`) has no mount over it and lies
// beneath the sandbox's Landlock rule: the command reads it. (After the
// run, the user's new files are moved to *.sandboxauth-quarantine.)
//
//	payload: touch started; while [ ! -e userdone ]; do sleep 0.05; done; cat .env.local .env.production
//	user:    echo API=LOCALSECRET > .env.local; echo P=PROD > .env.production
//
// Verified with sandboxauth run as root (printed both) and as sbtest.
func TestEscape18DotEnvCreatedDuringRun(t *testing.T) {
	sb := escapeSandbox(t)
	dotHome15(t)
	write15(t, filepath.Join(sb, ".env.example"), "API_KEY=\n", 0o644)
	out := while17(t, sb, func() {
		write15(t, filepath.Join(sb, ".env.local"), "API_KEY=LOCALSECRET18\n", 0o600)
		write15(t, filepath.Join(sb, ".env.production"), "API_KEY=PRODSECRET18\n", 0o600)
	}, ".env.local", ".env.production")
	assert.NotContains(t, out, "LOCALSECRET18", "the confined command read the .env.local the user created while it ran")
	assert.NotContains(t, out, "PRODSECRET18", "the confined command read the .env.production the user created while it ran")
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
		require.NoError(t, err)
		config = string(b)
		if strings.Contains(config, "fsmonitor") {
			cmd := exec.Command("git", "status", "--short")
			cmd.Dir = sb
			_, _ = cmd.CombinedOutput()
			break
		}
	}
	assert.NotContains(t, config, "fsmonitor", "the confined command appended to .git/config between the user's git config and the watch's kill")
	assert.NoFileExists(t, marker, "the user's git status ran the command's core.fsmonitor")
}

// TestEscape18DotEnvReadInWatchWindow: the same window for reading. The
// user saves the project's hidden .env by rename (an editor, dotenv
// tools); the watch kills the sandbox, but a command that keeps reading
// .env (sh's read builtin, no fork) has read the new secret and written
// it into the sandbox, where the next run, and the agent, find it.
//
//	payload: while :; do read l < .env && echo "$l" >> seen.txt; done 2>/dev/null  (x4)
//	user:    printf 'API_KEY=SECRET\n' > .env.tmp && mv .env.tmp .env
//
// Verified with sandboxauth run as root: a C loop read it 27 to 962
// times before the kill, in each of 7 runs; stolen.txt stayed.
func TestEscape18DotEnvReadInWatchWindow(t *testing.T) {
	var seen string
	for attempt := 0; attempt < 3; attempt++ {
		sb := escapeSandbox(t)
		dotHome15(t)
		write15(t, filepath.Join(sb, ".env"), "API_KEY=old\n", 0o600)
		window18(t, sb, loops18(`read l < .env && echo "$l" >> seen.txt`), func() {
			renameOver17(t, filepath.Join(sb, ".env"), "API_KEY=WINDOWSECRET18\n")
		})
		b, _ := os.ReadFile(filepath.Join(sb, "seen.txt"))
		seen = string(b)
		if strings.Contains(seen, "WINDOWSECRET18") {
			break
		}
	}
	assert.NotContains(t, seen, "WINDOWSECRET18", "the confined command read the .env the user saved by rename before the watch's kill, and kept it in the sandbox")
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
