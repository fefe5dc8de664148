package sandboxauth

// Escapes found by red-teaming the confinement that ProtectConfinement
// builds (the policy `sandboxauth run` uses): each test asserts that the
// escape does NOT happen, and fails while it does. (They live here rather
// than in confine/escapes_linux_test.go because package confine cannot
// import this one.)

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/confine"
)

func escapeSandbox(t *testing.T) string {
	t.Helper()
	requireConfinement(t)
	sb, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	out, err := exec.Command("git", "init", "-q", sb).CombinedOutput()
	require.NoError(t, err, "%s", out)
	return sb
}

// TestEscapeProtectedPatternsAtDepth: patterns that match at any depth
// (rust-toolchain.toml, **/.cargo/config.toml) and wildcard patterns
// (lefthook-local.*) are kept read-only only where a match already exists
// (wildcards: not even at the top). The command creates them:
// crates/foo/rust-toolchain.toml with `path = ".../tc"` makes the user's
// next unconfined `cargo` (or rust-analyzer's) in crates/foo run tc/bin/cargo,
// the command's program (verified: `cd crates/foo && cargo --version` ran
// it); lefthook-local.yml adds hooks to every commit where lefthook is
// installed.
func TestEscapeProtectedPatternsAtDepth(t *testing.T) {
	sb := escapeSandbox(t)
	require.NoError(t, os.MkdirAll(filepath.Join(sb, "crates", "foo"), 0o755))
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	script := `mkdir -p crates/foo/tc/bin crates/foo/.cargo
printf '#!/bin/sh\necho pwned\n' > crates/foo/tc/bin/cargo; chmod +x crates/foo/tc/bin/cargo
printf '[toolchain]\npath = "%s/crates/foo/tc"\n' "$PWD" > crates/foo/rust-toolchain.toml
printf '[build]\nrustc-wrapper = "/bin/true"\n' > crates/foo/.cargo/config.toml
echo 'pre-commit: {commands: {x: {run: "touch $HOME/pwned"}}}' > lefthook-local.yml
echo 'pre-commit: {commands: {x: {run: "touch $HOME/pwned"}}}' > lefthook.yml
true`
	cmd := exec.Command("/bin/sh", "-c", script)
	cmd.Dir = sb
	out, err := runConfined(cmd, p)
	require.NoError(t, err, out)
	for _, rel := range []string{"crates/foo/rust-toolchain.toml", "crates/foo/.cargo/config.toml", "lefthook-local.yml", "lefthook.yml"} {
		assert.NoFileExists(t, filepath.Join(sb, rel), "the confined command created the protected %s", rel)
	}
}

// TestEscapeNestedRepositoryInSkippedDirectory: the walk that finds nested
// repositories skips dependency and build directories (vendor, build,
// node_modules, target, ...), so a repository there (a CMake FetchContent
// checkout in build/_deps, a vendored git checkout) keeps a writable
// .git/config and .git/hooks: the command sets core.fsmonitor, and the
// next unconfined `git status` there runs it.
func TestEscapeNestedRepositoryInSkippedDirectory(t *testing.T) {
	sb := escapeSandbox(t)
	nested := []string{"vendor/lib", "build/_deps/x-src", "node_modules/pkg"}
	for _, n := range nested {
		out, err := exec.Command("git", "init", "-q", filepath.Join(sb, n)).CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	script := ""
	for _, n := range nested {
		script += "printf '[core]\\n\\tfsmonitor = \"touch $HOME/pwned; false\"\\n' >> " + n + "/.git/config; " +
			"printf '#!/bin/sh\\ntouch $HOME/pwned\\n' > " + n + "/.git/hooks/pre-commit; "
	}
	cmd := exec.Command("/bin/sh", "-c", script+"true")
	cmd.Dir = sb
	out, err := runConfined(cmd, p)
	require.NoError(t, err, out)
	for _, n := range nested {
		b, err := os.ReadFile(filepath.Join(sb, n, ".git", "config"))
		require.NoError(t, err)
		assert.NotContains(t, string(b), "fsmonitor", "the confined command changed %s/.git/config", n)
		assert.NoFileExists(t, filepath.Join(sb, n, ".git", "hooks", "pre-commit"), "the confined command planted a hook in %s", n)
	}
}

// TestEscapeGitConfigInclude: a repository whose config includes a file of
// the work tree (`git config include.path ../.gitconfig`, the usual way to
// share a project's git settings) has that file writable: the command adds
// core.fsmonitor to it, and the user's next unconfined `git status` runs it.
// ProtectConfinement does not follow include.path / includeIf.
func TestEscapeGitConfigInclude(t *testing.T) {
	sb := escapeSandbox(t)
	out, err := exec.Command("git", "-C", sb, "config", "include.path", "../.gitconfig").CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.NoError(t, os.WriteFile(filepath.Join(sb, ".gitconfig"), []byte("[alias]\n"), 0o644))
	marker := filepath.Join(t.TempDir(), "pwned")
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	cmd := exec.Command("/bin/sh", "-c", `printf '[core]\n\tfsmonitor = "touch `+marker+`; false"\n' >> .gitconfig`)
	cmd.Dir = sb
	out2, err := runConfined(cmd, p)
	t.Log(out2, err)
	st := exec.Command("git", "status", "--short")
	st.Dir = sb
	_, _ = st.CombinedOutput()
	assert.NoFileExists(t, marker, "git status ran the fsmonitor the confined command put in the included config")
}

// TestEscapeDotEnvHardLink: .env.* files are hidden only when they exist
// as the run starts (and cannot be pre-created only at the literal .env).
// One run creates an empty .env.local and a hard link to it, notes.txt;
// the user (or `vercel env pull`, `echo ... > .env.local`) later writes
// secrets into .env.local in place; the next run finds .env.local hidden,
// and reads notes.txt, the same file.
func TestEscapeDotEnvHardLink(t *testing.T) {
	sb := escapeSandbox(t)
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	cmd := exec.Command("/bin/sh", "-c", ": > .env.local && ln .env.local notes.txt")
	cmd.Dir = sb
	out, err := runConfined(cmd, p)
	require.NoError(t, err, out)

	require.NoError(t, os.WriteFile(filepath.Join(sb, ".env.local"), []byte("STRIPE_KEY=sk_live_123\n"), 0o600))
	p, err = ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	require.Contains(t, p.Hidden, filepath.Join(sb, ".env.local"))
	cmd = exec.Command("/bin/sh", "-c", "cat notes.txt")
	cmd.Dir = sb
	out, _ = runConfined(cmd, p)
	assert.NotContains(t, out, "sk_live_123", "the confined command read the hidden .env.local through a hard link it made earlier")
}

// homeVictimDir makes a directory under the home directory (a real path),
// outside every sandbox and never under a temporary directory a sandbox
// might share, removed at the end.
func homeVictimDir(t *testing.T) string {
	t.Helper()
	home, err := os.UserHomeDir()
	require.NoError(t, err)
	d, err := os.MkdirTemp(home, "confine-victim-")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(d) })
	d, err = filepath.EvalSymlinks(d)
	require.NoError(t, err)
	return d
}

// homeMarker is a path under the home directory, outside every sandbox,
// that a payload tries to create.
func homeMarker(t *testing.T) string {
	t.Helper()
	return filepath.Join(homeVictimDir(t), "pwned")
}

// gitEnv is git's environment for commits in these tests.
var gitEnv = []string{"GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@b", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@b", "GIT_CONFIG_NOSYSTEM=1"}

// TestEscapeNestedRepositoryGitlink: the command makes a new repository
// below the top, gives it a core.fsmonitor of its choosing, and records it
// as a submodule (a gitlink) in the top repository's index. The user's
// next plain `git status` would recurse into it and run the command: the
// new repository is moved aside when the command ends.
//
//	mkdir evil && cd evil && git init -q && git commit -q --allow-empty -m x &&
//	printf '[core]\n\tfsmonitor = "touch $HOME/pwned; false"\n' >> .git/config &&
//	cd .. && git update-index --add --cacheinfo 160000,$(git -C evil rev-parse HEAD),evil
func TestEscapeNestedRepositoryGitlink(t *testing.T) {
	sb := escapeSandbox(t)
	marker := homeMarker(t)
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	cmd := exec.Command("/bin/sh", "-c", `set -e
mkdir evil && cd evil && git init -q && git commit -q --allow-empty -m x
printf '[core]\n\tfsmonitor = "touch `+marker+`; false"\n' >> .git/config
cd .. && git update-index --add --cacheinfo 160000,$(git -C evil rev-parse HEAD),evil`)
	cmd.Dir = sb
	cmd.Env = append(os.Environ(), gitEnv...)
	out, err := runConfined(cmd, p)
	require.NoError(t, err, out)

	st := exec.Command("git", "status", "--short")
	st.Dir = sb
	b, _ := st.CombinedOutput()
	t.Logf("git status: %s", b)
	assert.NoFileExists(t, marker, "a plain git status ran the confined command's fsmonitor unconfined")
	assert.DirExists(t, filepath.Join(sb, "evil", ".git"+quarantineSuffix), "the new repository is kept aside")
}

// TestEscapeRebaseTodoExec: the command leaves an interactive rebase
// stopped at a "break" whose next step is "exec <anything>"; the user's
// `git rebase --continue` would run it. Git's state of the stopped
// operation is moved aside when the command ends.
//
//	GIT_SEQUENCE_EDITOR="printf 'break\nexec make lint\n' >" git rebase -i HEAD~1
func TestEscapeRebaseTodoExec(t *testing.T) {
	sb := escapeSandbox(t)
	for _, msg := range []string{"one", "two"} {
		c := exec.Command("git", "commit", "-q", "--allow-empty", "-m", msg)
		c.Dir, c.Env = sb, append(os.Environ(), gitEnv...)
		out, err := c.CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	marker := homeMarker(t)
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	cmd := exec.Command("/bin/sh", "-c", `GIT_SEQUENCE_EDITOR="printf 'break\nexec touch `+marker+`\n' >" git rebase -q -i HEAD~1`)
	cmd.Dir = sb
	cmd.Env = append(os.Environ(), gitEnv...)
	out, err := runConfined(cmd, p)
	t.Logf("confined payload: err=%v %s", err, out)

	cont := exec.Command("git", "rebase", "--continue")
	cont.Dir, cont.Env = sb, append(os.Environ(), gitEnv...)
	b, _ := cont.CombinedOutput()
	t.Logf("git rebase --continue: %s", b)
	assert.NoFileExists(t, marker, "git rebase --continue ran an exec line the confined command left")
}

// committedSandbox is escapeSandbox with a first commit (of a README), as
// a project the user works on has.
func committedSandbox(t *testing.T) string {
	t.Helper()
	sb := escapeSandbox(t)
	require.NoError(t, os.WriteFile(filepath.Join(sb, "README"), []byte("hi\n"), 0o644))
	userGit(t, sb, "add", ".")
	userGit(t, sb, "commit", "-q", "-m", "init")
	return sb
}
