package confine

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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

// TestRenameAcrossDirectories: a rename from one directory of the sandbox
// to another failed with EXDEV ("Invalid cross-device link"): a Landlock
// domain put on bubblewrap's thread for its scoping alone denied it, as
// Landlock does in any domain that does not grant it. rustc moves a
// library's metadata up a directory (cargo build of a library crate
// failed), and git mv renames across directories.
func TestRenameAcrossDirectories(t *testing.T) {
	sb, _, p := dirs(t)
	require.NoError(t, os.MkdirAll(filepath.Join(sb, "a"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(sb, "b"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(sb, "a", "f"), []byte("x"), 0o644))
	cmd := exec.Command(testBinary(t))
	cmd.Dir = sb
	cmd.Env = append(os.Environ(), "CONFINE_TEST_RENAME=a/f:b/f")
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, Run(cmd, p), out.String())
	assert.FileExists(t, filepath.Join(sb, "b", "f"))
	assert.NoFileExists(t, filepath.Join(sb, "a", "f"))
}

// init, in the test binary run as a confined command with
// CONFINE_TEST_RENAME=FROM:TO, renames FROM to TO (rename(2), which mv
// would replace by a copy on EXDEV) and exits.
func init() {
	v := os.Getenv("CONFINE_TEST_RENAME")
	if v == "" {
		return
	}
	from, to, _ := strings.Cut(v, ":")
	if err := os.Rename(from, to); err != nil {
		fmt.Fprintln(os.Stderr, "rename:", err)
		os.Exit(3)
	}
	os.Exit(0)
}
