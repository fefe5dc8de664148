package repotrust

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStoredFiles: a tracked file is stored when it holds the bytes of
// its index entry's blob, loose or packed; changed, replaced by a link,
// untracked, or with its object gone, it is not.
func TestStoredFiles(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, dir string)
		want  []string
	}{
		{"unchanged, loose", func(t *testing.T, dir string) {}, []string{".env"}},
		{"unchanged, packed", func(t *testing.T, dir string) { runGit(t, dir, "gc", "-q", "--prune=now") }, []string{".env"}},
		{"changed", func(t *testing.T, dir string) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, ".env"), []byte("KEY=local\n"), 0o644))
		}, nil},
		{"same length, other bytes", func(t *testing.T, dir string) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, ".env"), []byte("KEY=tmplatf\n"), 0o644))
		}, nil},
		{"a link to a copy", func(t *testing.T, dir string) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, "copy"), []byte("KEY=template\n"), 0o644))
			require.NoError(t, os.Remove(filepath.Join(dir, ".env")))
			require.NoError(t, os.Symlink("copy", filepath.Join(dir, ".env")))
		}, nil},
		{"untracked", func(t *testing.T, dir string) { runGit(t, dir, "rm", "-q", "--cached", ".env") }, nil},
		{"object gone", func(t *testing.T, dir string) {
			objects := filepath.Join(dir, ".git", "objects")
			id := runGit(t, dir, "rev-parse", ":.env")
			require.NoError(t, os.Remove(filepath.Join(objects, id[:2], id[2:40])))
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			runGit(t, dir, "init", "-q")
			require.NoError(t, os.WriteFile(filepath.Join(dir, ".env"), []byte("KEY=template\n"), 0o644))
			runGit(t, dir, "add", ".env")
			runGit(t, dir, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x")
			tc.setup(t, dir)
			gitDir := filepath.Join(dir, ".git")
			got := StoredFiles(gitDir, gitDir, 20, dir, []string{".env", "missing"})
			var names []string
			for name, content := range got {
				names = append(names, name)
				assert.Equal(t, "KEY=template\n", string(content))
			}
			assert.Equal(t, tc.want, names)
		})
	}
}
