package classify

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSandboxRootFailsClosed checks that the classifier's resolved sandbox
// is never empty: used before any path was placed, it is resolved then, and
// a sandbox that cannot be resolved panics (which Commands.Classify turns
// into an inscrutable verdict) rather than giving "".
func TestSandboxRootFailsClosed(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, os.Mkdir(filepath.Join(root, "sb"), 0o755))
	require.NoError(t, os.Symlink("sb", filepath.Join(root, "alias")))
	require.NoError(t, os.Symlink("loop2", filepath.Join(root, "sb/loop1")))
	require.NoError(t, os.Symlink("loop1", filepath.Join(root, "sb/loop2")))
	r := cmdClassifier{sandbox: root + "/alias"}
	assert.Equal(t, root+"/sb", r.sandboxRoot(), "resolved through the link on first use")

	loop := cmdClassifier{sandbox: root + "/sb/loop1"}
	assert.Panics(t, func() { loop.sandboxRoot() })
}
