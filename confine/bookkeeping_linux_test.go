package confine

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBookkeepingDir: the records are kept in the user's cache directory
// unless a command could write there, then in the runtime directory or
// /tmp/sandboxauth-UID; a place that is not the user's own is refused.
func TestBookkeepingDir(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	sb := filepath.Join(base, "sandbox")
	runtime := filepath.Join(base, "runtime")
	require.NoError(t, os.MkdirAll(sb, 0o755))
	require.NoError(t, os.MkdirAll(runtime, 0o700))
	tmpDir := "/tmp/sandboxauth-" + strconv.Itoa(os.Geteuid())

	t.Run("the cache directory, outside", func(t *testing.T) {
		t.Setenv("XDG_CACHE_HOME", filepath.Join(base, "cache"))
		got, err := bookkeepingDir(sb, nil)
		require.NoError(t, err)
		assert.Equal(t, filepath.Join(base, "cache", "sandboxauth"), got)
	})
	t.Run("the cache directory in the sandbox", func(t *testing.T) {
		t.Setenv("XDG_CACHE_HOME", filepath.Join(sb, ".cache"))
		t.Setenv("XDG_RUNTIME_DIR", runtime)
		got, err := bookkeepingDir(sb, nil)
		require.NoError(t, err)
		assert.Equal(t, filepath.Join(runtime, "sandboxauth"), got)
	})
	t.Run("the cache directory in a writable place, no runtime directory", func(t *testing.T) {
		w := filepath.Join(base, "shared")
		t.Setenv("XDG_CACHE_HOME", filepath.Join(w, "cache"))
		t.Setenv("XDG_RUNTIME_DIR", "")
		got, err := bookkeepingDir(sb, []string{w})
		require.NoError(t, err)
		assert.Equal(t, tmpDir, got)
	})
	t.Run("a cache directory others may write", func(t *testing.T) {
		open := filepath.Join(base, "open")
		require.NoError(t, os.MkdirAll(filepath.Join(open, "sandboxauth"), 0o755))
		require.NoError(t, os.Chmod(filepath.Join(open, "sandboxauth"), 0o777))
		t.Setenv("XDG_CACHE_HOME", open)
		t.Setenv("XDG_RUNTIME_DIR", runtime)
		got, err := bookkeepingDir(sb, nil)
		require.NoError(t, err)
		assert.Equal(t, filepath.Join(runtime, "sandboxauth"), got)
	})
	t.Run("a link in place of the directory", func(t *testing.T) {
		linked := filepath.Join(base, "linked")
		require.NoError(t, os.MkdirAll(linked, 0o700))
		require.NoError(t, os.Symlink(sb, filepath.Join(linked, "sandboxauth")))
		t.Setenv("XDG_CACHE_HOME", linked)
		t.Setenv("XDG_RUNTIME_DIR", runtime)
		got, err := bookkeepingDir(sb, nil)
		require.NoError(t, err)
		assert.Equal(t, filepath.Join(runtime, "sandboxauth"), got)
	})
	t.Run("everything in reach", func(t *testing.T) {
		t.Setenv("XDG_CACHE_HOME", filepath.Join(sb, ".cache"))
		t.Setenv("XDG_RUNTIME_DIR", filepath.Join(sb, "run"))
		_, err := bookkeepingDir(sb, []string{"/tmp"})
		require.ErrorIs(t, err, ErrUnsafePolicy)
		assert.Contains(t, err.Error(), "XDG_CACHE_HOME")
	})
}

// TestRecordsOfANewSandboxAtTheSamePath: a project removed and another
// made at the same path (a fresh clone) gets records and private copies
// of its own, not those of the one before (a private build cache its
// commands filled, a baseline of another tree).
func TestRecordsOfANewSandboxAtTheSamePath(t *testing.T) {
	requireConfinement(t)
	sb := filepath.Join(t.TempDir(), "proj")
	require.NoError(t, os.Mkdir(sb, 0o755))
	p := DefaultPolicy(sb)
	p.Private = []string{t.TempDir()}
	rec, err := SandboxRecord(p, "x")
	require.NoError(t, err)
	copies, err := PrivateCopies(p)
	require.NoError(t, err)
	again, err := SandboxRecord(p, "x")
	require.NoError(t, err)
	assert.Equal(t, rec, again, "the same sandbox, the same record")

	require.NoError(t, os.Remove(sb))
	require.NoError(t, os.Mkdir(sb, 0o755))
	rec2, err := SandboxRecord(p, "x")
	require.NoError(t, err)
	copies2, err := PrivateCopies(p)
	require.NoError(t, err)
	assert.NotEqual(t, rec, rec2, "a new directory at the same path got the old one's record")
	assert.NotEqual(t, copies, copies2, "a new directory at the same path got the old one's private copies")
}
