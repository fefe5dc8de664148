package confine

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestShown: a shown file reads with the given content in the view, its
// real content unchanged, and cannot be written; a missing one is a
// placeholder holding the content while the command runs, gone after; a
// directory cannot be shown as a file.
func TestShown(t *testing.T) {
	sb, _, p := dirs(t)
	existing := filepath.Join(sb, "exclude")
	missing := filepath.Join(sb, "info", "exclude")
	require.NoError(t, os.WriteFile(existing, []byte("own\n"), 0o644))
	p.ReadOnly = []string{existing, missing}
	p.Shown = map[string]string{existing: "own\nshown\n", missing: "made\n"}

	out, err := sh(t, p, sb, "cat exclude info/exclude")
	require.NoError(t, err, out)
	assert.Equal(t, "own\nshown\nmade\n", out)
	for _, script := range []string{
		"echo x > exclude", "echo x >> exclude", "rm -f exclude", "mv exclude e2",
		"echo x > info/exclude", "rm -rf info", "truncate -s 0 exclude",
	} {
		out, err := sh(t, p, sb, script)
		require.Error(t, err, "%s: %s", script, out)
	}
	b, err := os.ReadFile(existing)
	require.NoError(t, err)
	assert.Equal(t, "own\n", string(b), "the real file is not changed")
	assert.NoDirExists(t, filepath.Join(sb, "info"), "the placeholder is removed")
	assert.NoFileExists(t, filepath.Join(sb, "e2"))

	dir := filepath.Join(sb, "d")
	require.NoError(t, os.Mkdir(dir, 0o755))
	p.ReadOnly = []string{dir}
	p.Shown = map[string]string{dir: "x"}
	cmd := exec.Command("/bin/true")
	cmd.Dir = sb
	require.ErrorIs(t, Run(cmd, p), ErrUnsafePolicy)
}

// TestShownOutside: a file outside the writable places is shown with the
// given content too (a linked worktree's git exclude, in its repository
// elsewhere); a missing one is not made.
func TestShownOutside(t *testing.T) {
	sb, outside, p := dirs(t)
	file := filepath.Join(outside, "exclude")
	missing := filepath.Join(outside, "none")
	require.NoError(t, os.WriteFile(file, []byte("own\n"), 0o644))
	p.ReadOnly = []string{file, missing}
	p.Shown = map[string]string{file: "own\nshown\n", missing: "x\n"}
	out, err := sh(t, p, sb, "cat "+file+"; cat "+missing+" 2>/dev/null || echo missing")
	require.NoError(t, err, out)
	assert.Equal(t, "own\nshown\nmissing\n", out)
	assert.NoFileExists(t, missing)
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, "own\n", string(b))
}
