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

// waitFile waits for path to exist.
func waitFile(t *testing.T, path string) {
	t.Helper()
	require.Eventually(t, func() bool { _, err := os.Lstat(path); return err == nil }, 10*time.Second, 20*time.Millisecond, path)
}

// TestEscapeDeepScanConcurrentDormantRepository: the deep scan's "known"
// git directories are per run. Run A makes a .git directory deep in the
// project (beyond the bounded walk) with core.fsmonitor, and waits. Run
// B's policy is made more than a second later: its scan before the run
// takes that directory for a known git directory, whose config is older
// than B's policy. A then renames HEAD to H and ends: to A's scan after
// the run it is no git directory, nothing is moved aside. B renames H
// back to HEAD and ends: to B's scan it is a known git directory whose
// obeyed files did not change (HEAD is not among them). The repository
// stays, fsmonitor and all; the user's git status there runs it
// unconfined.
//
//	a.sh: mkdir -p a/b/c/d/e/f/.git/objects a/b/c/d/e/f/.git/refs; echo 'ref: refs/heads/main' > .../HEAD
//	      printf '[core]\n\tfsmonitor = "touch $HOME/pwned; false"\n' > .../config; wait; mv .../HEAD .../H
//	b.sh: wait for A's end; mv .../H .../HEAD
func TestEscapeDeepScanConcurrentDormantRepository(t *testing.T) {
	sb := escapeSandbox(t)
	marker := homeMarker(t)
	g := "a/b/c/d/e/f/.git"
	a := shIn(sb, `set -e
g=`+g+`
mkdir -p $g/objects $g/refs/heads
echo 'ref: refs/heads/main' > $g/HEAD
printf '[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tfsmonitor = "touch `+marker+`; false"\n' > $g/config
touch ready-a
while [ ! -e go-a ]; do sleep 0.05; done
mv $g/HEAD $g/H`)
	require.NoError(t, confine.Start(a, protectedPolicy(t, sb)))
	waitFile(t, filepath.Join(sb, "ready-a"))
	time.Sleep(2 * time.Second) // A's files are older than B's policy, by more than its slack

	b := shIn(sb, `set -e
touch ready-b
while [ ! -e a-ended ]; do sleep 0.05; done
mv `+g+`/H `+g+`/HEAD`)
	require.NoError(t, confine.Start(b, protectedPolicy(t, sb)))
	waitFile(t, filepath.Join(sb, "ready-b"))
	require.NoError(t, os.WriteFile(filepath.Join(sb, "go-a"), nil, 0o644))
	require.NoError(t, a.Wait())
	require.NoError(t, os.WriteFile(filepath.Join(sb, "a-ended"), nil, 0o644))
	require.NoError(t, b.Wait())

	t.Logf("git status in a/b/c/d/e/f: %s", userGit(t, filepath.Join(sb, "a/b/c/d/e/f"), "status", "--short"))
	assert.NoFileExists(t, marker, "git status in a directory of the project ran the fsmonitor of a repository two concurrent runs made")
}

// TestEscapeLinkIntoPrivateCache: the deep scan does not follow links,
// and only .git files and links count as pointers to a git directory. A
// confined command makes a whole repository (work tree and .git, with
// core.fsmonitor) in the one place outside the sandbox it can write that
// outlives the run, the private copy of Go's build cache
// (~/.cache/sandboxauth/private/DIGEST(sandbox)/DIGEST(gocache)-go-build,
// both digests computable), and a plain symbolic link in the project,
// tools -> that directory. Nothing is moved aside: the link is not named
// .git and the repository is outside the sandbox. The user's cd tools (or
// an editor opening tools/x.go) and git status there run the fsmonitor
// unconfined: git looks for the repository from the physical working
// directory.
//
//	d() { printf %s "$1" | sha256sum | cut -c1-16; }
//	host=$HOME/.cache/sandboxauth/private/$(d "$PWD")/$(d "$GOCACHE")-go-build/evil
//	git init -q "$GOCACHE/evil"; git -C "$GOCACHE/evil" config core.fsmonitor "touch $HOME/pwned; false"
//	ln -s "$host" tools
func TestEscapeLinkIntoPrivateCache(t *testing.T) {
	sb := escapeSandbox(t)
	require.NoError(t, os.WriteFile(filepath.Join(sb, "README"), []byte("hi\n"), 0o644))
	userGit(t, sb, "add", ".")
	userGit(t, sb, "commit", "-q", "-m", "init")
	marker := homeMarker(t)
	pol, gocache, copy0 := privateGoCache(t, sb)
	host := filepath.Join(copy0, "evil")
	t.Cleanup(func() { os.RemoveAll(host) })
	p, err := ProtectConfinement(pol, DefaultProtectedPaths())
	require.NoError(t, err)
	cmd := exec.Command("/bin/sh", "-c", `set -e
rm -rf `+gocache+`/evil
git init -q `+gocache+`/evil
git -C `+gocache+`/evil config core.fsmonitor "touch `+marker+`; false"
ln -s `+host+` tools`)
	cmd.Dir = sb
	out, err := runConfined(cmd, p)
	require.NoError(t, err, out)
	_, err = os.Stat(filepath.Join(host, ".git", "config"))
	t.Logf("the repository's configuration in the private copy, outside the sandbox, after the run: %v", err) // moved aside

	st, _ := exec.Command("git", "-C", filepath.Join(sb, "tools"), "status", "--short").CombinedOutput()
	t.Logf("git status in tools: %s", st)
	assert.NoFileExists(t, marker, "git status in a directory of the project (a link) ran a configuration the confined command wrote in the private copy of Go's build cache")
}

// TestEscapeDeepScanConcurrentUndoQuarantine: the same per-run "known"
// set, without even hiding the repository: run A makes a/b/c/d/e/f/.git
// (core.fsmonitor) more than a second before run B's policy, so that B's
// scan before the run knows it. A ends and its quarantine moves the .git
// aside (.git.sandboxauth-quarantine...); B, still running, renames it
// back (a rename keeps its identity and the change times of its files)
// and ends: to B's scan it is the known git directory, unchanged.
//
//	b.sh: wait for A's end; mv a/b/c/d/e/f/.git.sandboxauth-quarantine* a/b/c/d/e/f/.git
func TestEscapeDeepScanConcurrentUndoQuarantine(t *testing.T) {
	sb := escapeSandbox(t)
	marker := homeMarker(t)
	d := "a/b/c/d/e/f"
	a := shIn(sb, `set -e
mkdir -p `+d+` && git init -q `+d+` && git -C `+d+` config core.fsmonitor "touch `+marker+`; false"
touch ready-a
while [ ! -e go-a ]; do sleep 0.05; done`)
	require.NoError(t, confine.Start(a, protectedPolicy(t, sb)))
	waitFile(t, filepath.Join(sb, "ready-a"))
	time.Sleep(2 * time.Second)

	b := shIn(sb, `touch ready-b
while [ ! -e a-ended ]; do sleep 0.05; done
ls -a `+d+`
mv `+d+`/.git.sandboxauth-quarantine* `+d+`/.git`)
	require.NoError(t, confine.Start(b, protectedPolicy(t, sb)))
	waitFile(t, filepath.Join(sb, "ready-b"))
	require.NoError(t, os.WriteFile(filepath.Join(sb, "go-a"), nil, 0o644))
	require.NoError(t, a.Wait())
	require.NoError(t, os.WriteFile(filepath.Join(sb, "a-ended"), nil, 0o644))
	require.NoError(t, b.Wait())

	t.Logf("git status in %s: %s", d, userGit(t, filepath.Join(sb, d), "status", "--short"))
	assert.NoFileExists(t, marker, "git status ran the fsmonitor of a repository a concurrent run took back from the other's quarantine")
}
