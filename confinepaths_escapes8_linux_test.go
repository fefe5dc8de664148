package sandboxauth

import (
	"os"
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
