package sandboxauth

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/confine"
)

// TestProtectConfinementNestedGitlinks: repositories behind the gitlinks
// of a nested repository's index, and behind theirs in turn, are kept
// read-only however deep they lie; the walk alone does not reach them.
func TestProtectConfinementNestedGitlinks(t *testing.T) {
	sb, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	git := func(dir string, args ...string) string {
		t.Helper()
		c := exec.Command("git", args...)
		c.Dir, c.Env = dir, append(os.Environ(), gitEnv...)
		out, err := c.CombinedOutput()
		require.NoError(t, err, "git %v: %s", args, out)
		return strings.TrimSpace(string(out))
	}
	sub := filepath.Join(sb, "sub")
	deep := filepath.Join(sub, "a", "b", "c", "d", "deep")
	deeper := filepath.Join(deep, "e", "f", "g", "h", "deeper")
	for _, d := range []string{sb, sub, deep, deeper} {
		require.NoError(t, os.MkdirAll(d, 0o755))
		git(d, "init", "-q")
		git(d, "commit", "-q", "--allow-empty", "-m", "x")
	}
	link := func(parent, child string) {
		rel, err := filepath.Rel(parent, child)
		require.NoError(t, err)
		git(parent, "update-index", "--add", "--cacheinfo", "160000,"+git(child, "rev-parse", "HEAD")+","+filepath.ToSlash(rel))
	}
	link(deep, deeper)
	link(sub, deep)

	p, err := ProtectConfinement(confine.Policy{Sandbox: sb}, DefaultProtectedPaths())
	require.NoError(t, err)
	for _, d := range []string{sub, deep, deeper} {
		assert.Contains(t, p.ReadOnly, filepath.Join(d, ".git", "config"))
		assert.Contains(t, p.ReadOnly, filepath.Join(d, ".git", "hooks"))
	}
}
