package sandboxauth

// Escapes found in the fourth round of red-teaming the confinement that
// ProtectConfinement builds (the policy `sandboxauth run` uses): each test
// asserts that the escape does NOT happen, and fails while it does.

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/confine"
)

// userGit runs git with args in dir, unconfined (the user's own git), and
// returns its combined output.
func userGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	c := exec.Command("git", args...)
	c.Dir, c.Env = dir, append(os.Environ(), gitEnv...)
	b, _ := c.CombinedOutput()
	return string(b)
}

// TestEscapeQuarantineSplitIndexHidesGitlink: the quarantine finds the
// submodules git status enters by reading the top repository's index,
// and an index it does not understand counts as having none. The command
// makes a repository deeper than the walk reaches, gives it a
// core.fsmonitor, records it as a gitlink, then turns the index into a
// split index (git update-index --split-index: a "link" extension and a
// .git/sharedindex.* file, no configuration needed). The quarantine then
// sees no gitlink and leaves the repository; the user's plain git status
// enters it and runs the fsmonitor unconfined.
//
//	mkdir -p a/b/c/d/evil && cd a/b/c/d/evil && git init -q && git commit -q --allow-empty -m x
//	printf '[core]\n\tfsmonitor = "touch $HOME/pwned; false"\n' >> .git/config
//	cd - && git update-index --add --cacheinfo 160000,$(git -C a/b/c/d/evil rev-parse HEAD),a/b/c/d/evil
//	git update-index --split-index
func TestEscapeQuarantineSplitIndexHidesGitlink(t *testing.T) {
	sb := escapeSandbox(t)
	marker := homeMarker(t)
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	cmd := exec.Command("/bin/sh", "-c", `set -e
mkdir -p a/b/c/d/evil && cd a/b/c/d/evil && git init -q && git commit -q --allow-empty -m x
printf '[core]\n\tfsmonitor = "touch `+marker+`; false"\n' >> .git/config
cd "$OLDPWD" && git update-index --add --cacheinfo 160000,$(git -C a/b/c/d/evil rev-parse HEAD),a/b/c/d/evil
git update-index --split-index`)
	cmd.Dir = sb
	cmd.Env = append(os.Environ(), gitEnv...)
	out, err := runConfined(cmd, p)
	require.NoError(t, err, out)
	matches, _ := filepath.Glob(filepath.Join(sb, ".git", "sharedindex.*"))
	require.NotEmpty(t, matches, "the payload made no split index")

	t.Logf("git status: %s", userGit(t, sb, "status", "--short"))
	assert.NoFileExists(t, marker, "a plain git status ran the confined command's fsmonitor unconfined")
}

// TestEscapeQuarantinePreexistingRebaseTodo: the user has an interactive
// rebase stopped (an "edit", a conflict) and has the agent run the tests.
// The quarantine moves git's sequencer state aside only when it is new;
// this one was there before, so a confined command can add an
// "exec <anything>" line to .git/rebase-merge/git-rebase-todo and the
// user's `git rebase --continue` runs it unconfined.
//
//	printf 'exec touch $HOME/pwned\n' | cat - .git/rebase-merge/git-rebase-todo > t &&
//	cat t > .git/rebase-merge/git-rebase-todo
func TestEscapeQuarantinePreexistingRebaseTodo(t *testing.T) {
	sb := escapeSandbox(t)
	for _, msg := range []string{"one", "two", "three"} {
		c := exec.Command("git", "commit", "-q", "--allow-empty", "-m", msg)
		c.Dir, c.Env = sb, append(os.Environ(), gitEnv...)
		out, err := c.CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	c := exec.Command("git", "rebase", "-q", "-i", "HEAD~2")
	c.Dir, c.Env = sb, append(os.Environ(), append(gitEnv, "GIT_SEQUENCE_EDITOR=sed -i 1s/^pick/edit/")...)
	out, err := c.CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.FileExists(t, filepath.Join(sb, ".git", "rebase-merge", "git-rebase-todo"), "no rebase stopped")

	marker := homeMarker(t)
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	cmd := exec.Command("/bin/sh", "-c", `printf 'exec touch `+marker+`\n' | cat - .git/rebase-merge/git-rebase-todo > t && cat t > .git/rebase-merge/git-rebase-todo && rm t`)
	cmd.Dir = sb
	out2, err := runConfined(cmd, p)
	require.NoError(t, err, out2)

	t.Logf("git rebase --continue: %s", userGit(t, sb, "rebase", "--continue"))
	assert.NoFileExists(t, marker, "git rebase --continue ran an exec line the confined command added to a stopped rebase")
}

// TestEscapeNestedRepositoryCommondir: a repository below the top that
// existed before the run has its configuration and hooks kept read-only,
// but files it lacks are not protected below the top, and the quarantine
// leaves its .git alone (it was there before). The command writes
// sub/.git/commondir naming a directory of its own, whose config and
// hooks git then uses for sub: the user's git status or git commit in sub
// runs them unconfined.
//
//	git init -q --bare notes/c
//	printf '[core]\n\tbare = false\n\tfsmonitor = "touch $HOME/pwned; false"\n' > notes/c/config
//	printf '../../notes/c\n' > sub/.git/commondir
func TestEscapeNestedRepositoryCommondir(t *testing.T) {
	sb := escapeSandbox(t)
	sub := filepath.Join(sb, "sub")
	out, err := exec.Command("git", "init", "-q", sub).CombinedOutput()
	require.NoError(t, err, "%s", out)
	userGit(t, sub, "commit", "-q", "--allow-empty", "-m", "x")
	marker := homeMarker(t)
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	cmd := exec.Command("/bin/sh", "-c", `set -e
mkdir -p notes && git init -q --bare notes/c
printf '[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tfsmonitor = "touch `+marker+`; false"\n' > notes/c/config
printf '../../notes/c\n' > sub/.git/commondir`)
	cmd.Dir = sb
	cmd.Env = append(os.Environ(), gitEnv...)
	out2, err := runConfined(cmd, p)
	require.NoError(t, err, out2)

	t.Logf("git status in sub: %s", userGit(t, sub, "status", "--short"))
	assert.NoFileExists(t, marker, "git status in a repository that existed before the run ran a configuration the confined command chose")
}

// TestEscapeRunReturnsBeforeQuarantine: confine.Run promises that when
// the command ends on its own, cmd.Wait returns only after
// Policy.AfterExit (the quarantine) has run. The command can end the
// sandbox's first process itself: the helper is a Go program, and as PID
// 1 of the namespace it receives every signal it has a handler for, and
// Go's runtime handles SIGABRT (and SIGILL, SIGTRAP, SIGSYS ... sent by
// kill) by crashing. bubblewrap then exits at once and cmd.Wait returns
// while the starting thread is still waiting for the sandbox's end and
// has not run the quarantine: a caller that goes on (git status) finds
// the command's new repository in place and runs its fsmonitor
// unconfined.
//
//	mkdir evil && cd evil && git init -q && git commit -q --allow-empty -m x &&
//	printf '[core]\n\tfsmonitor = "touch $HOME/pwned; false"\n' >> .git/config &&
//	cd .. && git update-index --add --cacheinfo 160000,$(git -C evil rev-parse HEAD),evil &&
//	mkdir junk && cd junk && seq 100000 | xargs touch && cd .. # a slower walk
//	kill -ABRT 1
func TestEscapeRunReturnsBeforeQuarantine(t *testing.T) {
	for i := 0; i < 5; i++ {
		sb := escapeSandbox(t)
		marker := homeMarker(t)
		p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
		require.NoError(t, err)
		after := p.AfterExit
		done := make(chan struct{})
		p.AfterExit = func() { after(); close(done) }
		cmd := exec.Command("/bin/sh", "-c", `set -e
mkdir evil && cd evil && git init -q && git commit -q --allow-empty -m x
printf '[core]\n\tfsmonitor = "touch `+marker+`; false"\n' >> .git/config
cd .. && git update-index --add --cacheinfo 160000,$(git -C evil rev-parse HEAD),evil
mkdir junk && cd junk && seq 100000 | xargs touch && cd ..
kill -ABRT 1; sleep 5`)
		cmd.Dir = sb
		cmd.Env = append(os.Environ(), gitEnv...)
		out, _ := runConfined(cmd, p)
		early := false
		select {
		case <-done:
		default:
			early = true
		}
		status := userGit(t, sb, "status", "--short") // what a caller does next
		<-done
		assert.False(t, early, "try %d: confine.Run returned before the quarantine had run (%.100s)", i+1, out)
		if !assert.NoFileExists(t, marker, "try %d: the caller's git status, right after confine.Run, ran the confined command's fsmonitor: %s", i+1, status) {
			return
		}
	}
}

// TestEscapeEmbeddedBareRepository: the quarantine looks for new
// repositories by the name .git, but git takes any directory holding
// HEAD, objects/ and refs/ for a git directory when it is met on the way
// up from the working directory (safe.bareRepository is "all" by
// default), before it looks further up for the project's .git. The
// command turns an ordinary directory of the project (src/) into one,
// with a configuration that names the directory above as work tree and a
// core.fsmonitor: the user's git status run from src/ (or anywhere below
// it) runs the fsmonitor unconfined.
//
//	cd src && mkdir -p objects refs && echo 'ref: refs/heads/main' > HEAD &&
//	printf '[core]\n\tbare = false\n\tworktree = ..\n\tfsmonitor = "touch $HOME/pwned; false"\n' > config
func TestEscapeEmbeddedBareRepository(t *testing.T) {
	sb := escapeSandbox(t)
	src := filepath.Join(sb, "src")
	require.NoError(t, os.MkdirAll(src, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(src, "main.go"), []byte("package main\n"), 0o644))
	userGit(t, sb, "add", ".")
	userGit(t, sb, "commit", "-q", "-m", "init")
	marker := homeMarker(t)
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	cmd := exec.Command("/bin/sh", "-c", `set -e
cd src && mkdir -p objects refs && echo 'ref: refs/heads/main' > HEAD
printf '[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = ..\n\tfsmonitor = "touch `+marker+`; false"\n' > config`)
	cmd.Dir = sb
	out, err := runConfined(cmd, p)
	require.NoError(t, err, out)

	t.Logf("git status in src: %s", userGit(t, src, "status", "--short"))
	assert.NoFileExists(t, marker, "git status in a directory of the project ran a configuration the confined command wrote there")
}
