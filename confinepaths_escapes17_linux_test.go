package sandboxauth

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/confine"
)

// while17 runs, confined in sb under ProtectConfinement's policy, a
// payload that signals it started (sb/started), waits until the user is
// done (sb/userdone) and then prints the files reads; meanwhile user()
// acts, outside, as the user would while a command runs. It returns what
// the payload printed.
func while17(t *testing.T, sb string, user func(), reads ...string) string {
	t.Helper()
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	script := `touch started; i=0; while [ ! -e userdone ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done;`
	for _, r := range reads {
		script += ` echo "[$(cat ` + shellQuote(r) + ` 2>&1)]";`
	}
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
	user()
	// The payload goes on a while after: the watch stops the command
	// within a fraction of a millisecond of a rename, but the sandbox's
	// first process is this test binary, slower under -race, and the
	// payload must not win that race here (round 18's tests take it on).
	time.Sleep(time.Second)
	require.NoError(t, os.WriteFile(filepath.Join(sb, "userdone"), nil, 0o644))
	return <-done
}

// renameOver17 writes text into a new file beside path and renames it over
// path: how git credential-store (its .lock file), npm config set, an
// editor that saves by rename, sed -i save a file.
func renameOver17(t *testing.T, path, text string) {
	t.Helper()
	tmp := path + ".lock"
	require.NoError(t, os.WriteFile(tmp, []byte(text), 0o600))
	require.NoError(t, os.Rename(tmp, path))
}

// TestEscape17RenameOverHiddenCredential: a hidden file is a /dev/null
// bound over the path in the command's mount namespace. A rename over a
// mount point from another namespace is allowed and detaches the mount
// there (Linux >= 3.18), so that when the user's own program saves the
// credential file by rename while a confined command runs (git
// credential-store writes ~/.git-credentials.lock and renames it, as the
// user's `git push` asking for a password does; write-file-atomic, editors)
// the command reads the new file: the token the user just entered.
//
//	payload: while :; do cat ~/.git-credentials; sleep 0.1; done > seen.txt
//	user:    printf 'protocol=https\nhost=h\nusername=u\npassword=NEW\n\n' | git -c credential.helper=store credential approve
//
// Verified with sandboxauth run, as root (seen.txt held
// https://u:NEWTOKEN_FROM_CREDENTIAL_STORE@example.invalid) and as the
// unprivileged sbtest (same, with git credential approve).
func TestEscape17RenameOverHiddenCredential(t *testing.T) {
	sb := escapeSandbox(t)
	home := dotHome15(t)
	creds := filepath.Join(home, ".git-credentials")
	write15(t, creds, "https://u:OLDTOKEN@example.invalid\n", 0o600)
	netrc := filepath.Join(home, ".netrc")
	write15(t, netrc, "machine example.invalid password OLDNETRC\n", 0o600)
	out := while17(t, sb, func() {
		renameOver17(t, creds, "https://u:NEWTOKEN17@example.invalid\n")
		renameOver17(t, netrc, "machine example.invalid password NEWNETRC17\n")
	}, creds, netrc)
	assert.NotContains(t, out, "NEWTOKEN17", "the confined command read ~/.git-credentials saved by rename while it ran")
	assert.NotContains(t, out, "NEWNETRC17", "the confined command read ~/.netrc saved by rename while it ran")
}

// TestEscape17RenameOverHiddenDotEnv: the same for the sandbox's own
// hidden files: a .env that exists (hidden) and a missing .npmrc (an
// empty-file placeholder, hidden since round 16): what the user saves
// there by rename while the command runs (an editor, `npm config set
// --location=project`, dotenv tools) is read by the command.
//
//	user: printf 'API_KEY=SECRET\n' > .env.tmp && mv .env.tmp .env
//
// Verified with sandboxauth run, as root: the payload's loop printed
// [API_KEY=SECRET_BY_RENAME] [tok=NPMRENAME]; after the run both files
// were moved to *.sandboxauth-quarantine. Also verified as sbtest.
func TestEscape17RenameOverHiddenDotEnv(t *testing.T) {
	sb := escapeSandbox(t)
	dotHome15(t)
	env := filepath.Join(sb, ".env")
	write15(t, env, "API_KEY=old\n", 0o600)
	npmrc := filepath.Join(sb, ".npmrc")
	out := while17(t, sb, func() {
		renameOver17(t, env, "API_KEY=SECRET17\n")
		renameOver17(t, npmrc, "//registry.npmjs.org/:_authToken=NPMSECRET17\n")
	}, ".env", ".npmrc")
	assert.NotContains(t, out, "SECRET17", "the confined command read the .env the user saved by rename while it ran")
	assert.NotContains(t, out, "NPMSECRET17", "the confined command read the .npmrc the user saved by rename while it ran")
}

// TestEscape17TrackedDotEnvEditedDuringRun: a tracked .env that holds
// exactly its stored blob is no longer hidden (repotrust.StoredFiles,
// round 16). The check is made once, before the start: the user then
// puts the real secret into the file (in place, or by rename) while the
// command runs, and the command reads it. The secret is in no object of
// the repository.
//
//	git add .env (API_KEY=placeholder); run; meanwhile: echo API_KEY=SECRET > .env
//
// Verified with sandboxauth run, as root: the payload's loop printed
// API_KEY=SECRET_IN_PLACE and API_KEY=SECRET_BY_RENAME; afterwards the
// user's .env was moved to .env.sandboxauth-quarantine.
func TestEscape17TrackedDotEnvEditedDuringRun(t *testing.T) {
	sb := escapeSandbox(t)
	dotHome15(t)
	env := filepath.Join(sb, ".env")
	write15(t, env, "API_KEY=placeholder\n", 0o644)
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = sb
		cmd.Env = append(os.Environ(), gitEnv...)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	git("add", ".env")
	git("commit", "-qm", "init")
	out := while17(t, sb, func() {
		require.NoError(t, os.WriteFile(env, []byte("API_KEY=TRACKEDSECRET17\n"), 0o644))
	}, ".env")
	assert.NotContains(t, out, "TRACKEDSECRET17", "the confined command read the secret the user wrote into the tracked .env while it ran")
}

// TestEscape17GitConfigAfterUserGitConfig: the read-only protected files
// are binds over their paths in the command's mount namespace, and a
// rename over a mount point from outside detaches it there. git writes
// .git/config by renaming config.lock over it: when the user runs `git
// config`, `git remote add`, `git push -u`, `git branch -u` (or an IDE
// does) while a confined command runs, the command finds .git/config
// writable and adds a core.fsmonitor; the judging after the run leaves it,
// and the user's next `git status` runs it unconfined.
//
//	payload: touch started; while [ ! -e userdone ]; do sleep 0.05; done
//	         printf '[core]\n\tfsmonitor = "touch ~/v/pwned; false"\n' >> .git/config
//	user:    git config user.name someone   (while it runs), then git status
//
// Verified with sandboxauth run, as root (git config user.name) and as
// sbtest (git remote add origin URL): WROTE-CONFIG, and the user's git
// status made ~/v/pwned.
func TestEscape17GitConfigAfterUserGitConfig(t *testing.T) {
	sb := escapeSandbox(t)
	dotHome15(t)
	marker := homeMarker(t)
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	script := `touch started; i=0; while [ ! -e userdone ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done;` +
		` printf '[core]\n\tfsmonitor = "touch ` + marker + `; false"\n' >> .git/config && echo WROTE-CONFIG`
	done := make(chan struct{})
	go func() {
		out, err := runConfined(shIn(sb, script), p)
		t.Logf("payload: %v %s", err, out)
		close(done)
	}()
	for i := 0; i < 200; i++ {
		if _, err := os.Stat(filepath.Join(sb, "started")); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	userGit(t, sb, "config", "user.name", "someone")
	time.Sleep(time.Second) // as in while17
	require.NoError(t, os.WriteFile(filepath.Join(sb, "userdone"), nil, 0o644))
	<-done
	b, err := os.ReadFile(filepath.Join(sb, ".git", "config"))
	require.NoError(t, err)
	assert.NotContains(t, string(b), "fsmonitor", "the confined command rewrote .git/config after the user's git config renamed it")
	cmd := exec.Command("git", "status", "--short")
	cmd.Dir = sb
	_, _ = cmd.CombinedOutput()
	assert.NoFileExists(t, marker, "the user's git status ran the command's core.fsmonitor")
}

// TestEscape17ExcludePlaceholderRewrittenByOverlappingRun: a repository
// without .git/info/exclude gets, for its runs, a placeholder exclude
// (gitExcludePlaceholders), read-only. A second run of the sandbox while
// the first runs finds the placeholders of the first existing, has no
// line to add, and leaves .git/info/exclude as it is: writable in its
// view (its directory is). It replaces the placeholder by a file of its
// own ending in `*`; the judging after the runs leaves it, and the user's
// own git (unconfined) then ignores every untracked file: git status and
// git add -A no longer show what the command dropped into the work tree.
//
//	sandboxauth run -- sleep 2 &
//	sandboxauth run -- sh -c 'cp .git/info/exclude x; rm .git/info/exclude; cat x > .git/info/exclude; echo "*" >> .git/info/exclude'
//
// Verified with sandboxauth run, as root: after both, .git/info/exclude
// (missing before) ended in `*` and `git status --short` printed nothing
// for a new file.
func TestEscape17ExcludePlaceholderRewrittenByOverlappingRun(t *testing.T) {
	sb := escapeSandbox(t)
	dotHome15(t)
	require.NoError(t, os.RemoveAll(filepath.Join(sb, ".git", "info")))
	exclude := filepath.Join(sb, ".git", "info", "exclude")
	a := shIn(sb, `sleep 2`)
	require.NoError(t, confine.Start(a, protectedPolicy(t, sb)))
	require.Eventually(t, func() bool { _, err := os.Stat(exclude); return err == nil }, 5*time.Second, 50*time.Millisecond)
	out, err := runConfined(shIn(sb, `cp .git/info/exclude x && rm -f .git/info/exclude && cat x > .git/info/exclude && echo '*' >> .git/info/exclude && rm x`), protectedPolicy(t, sb))
	t.Log(out, err)
	_ = a.Wait()
	b, err := os.ReadFile(exclude)
	if err == nil {
		assert.NotContains(t, string(b), "\n*\n", "a confined run left a .git/info/exclude that makes the user's git ignore every untracked file")
	}
	assert.NoFileExists(t, exclude, "the placeholder .git/info/exclude stayed after the runs")
}
