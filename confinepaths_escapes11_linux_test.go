package sandboxauth

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/confine"
)

// TestEscapeDeepScanDigestSwapAcrossRuns: the deep scan judges a known
// git directory by digests of what git obeys, taken when each run's
// policy is made and after its command ends; each run compares only its
// own two. Two runs of the same sandbox pass a changed configuration
// between them. The project holds a repository deeper than the walk
// (a/b/c/d/e/f, the user's). Run A appends a core.fsmonitor to its
// config, then run B's policy is made (its digest "before" is the
// changed config). A writes the original config back and ends: A's
// digests before and after agree. B writes the fsmonitor config again
// and ends: B's digests before and after agree. Nothing is moved aside;
// the user's git status there runs the fsmonitor unconfined.
//
//	a.sh: cp $g/config /tmp/orig; printf '\tfsmonitor = "touch $HOME/pwned; false"\n' >> $g/config
//	      (B's policy is made) ; cat /tmp/orig > $g/config
//	b.sh: wait for A's end; printf '\tfsmonitor = ...' >> $g/config   (the same bytes as A's)
func TestEscapeDeepScanDigestSwapAcrossRuns(t *testing.T) {
	sb := escapeSandbox(t)
	marker := homeMarker(t)
	repo := filepath.Join(sb, "a/b/c/d/e/f")
	require.NoError(t, os.MkdirAll(repo, 0o755))
	out, err := exec.Command("git", "init", "-q", repo).CombinedOutput()
	require.NoError(t, err, "%s", out)
	g := "a/b/c/d/e/f/.git"
	line := `printf '\tfsmonitor = "touch ` + marker + `; false"\n' >> ` + g + `/config`

	a := shIn(sb, `set -e
cp `+g+`/config /tmp/orig
`+line+`
touch ready-a
while [ ! -e go-a ]; do sleep 0.05; done
cat /tmp/orig > `+g+`/config`)
	require.NoError(t, confine.Start(a, protectedPolicy(t, sb)))
	waitFile(t, filepath.Join(sb, "ready-a"))

	b := shIn(sb, `set -e
touch ready-b
while [ ! -e a-ended ]; do sleep 0.05; done
`+line)
	require.NoError(t, confine.Start(b, protectedPolicy(t, sb)))
	waitFile(t, filepath.Join(sb, "ready-b"))
	require.NoError(t, os.WriteFile(filepath.Join(sb, "go-a"), nil, 0o644))
	require.NoError(t, a.Wait())
	require.NoError(t, os.WriteFile(filepath.Join(sb, "a-ended"), nil, 0o644))
	require.NoError(t, b.Wait())

	cfg, _ := os.ReadFile(filepath.Join(repo, ".git/config"))
	t.Logf("config after both runs:\n%s", cfg)
	t.Logf("git status in a/b/c/d/e/f: %s", userGit(t, repo, "status", "--short"))
	assert.NoFileExists(t, marker, "git status in a deep repository ran an fsmonitor that two runs passed between them")
}
