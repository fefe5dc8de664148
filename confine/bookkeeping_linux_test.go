package confine

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBookkeepingDir: the records are kept in the first of the places
// (the home's cache, the runtime directory, /tmp/sandboxauth-UID) that
// no command could write and that is the user's own; none is an error.
// The places do not follow the environment.
func TestBookkeepingDir(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	sb := filepath.Join(base, "sandbox")
	runtime := filepath.Join(base, "runtime")
	require.NoError(t, os.MkdirAll(sb, 0o755))
	require.NoError(t, os.MkdirAll(runtime, 0o700))
	tmpDir := "/tmp/sandboxauth-" + strconv.Itoa(os.Geteuid())
	choose := func(cache, run string, writable ...string) (string, error) {
		return bookkeepingDirAmong([]string{filepath.Join(cache, "sandboxauth"), filepath.Join(run, "sandboxauth"), tmpDir}, sb, writable)
	}

	t.Run("the cache directory, outside", func(t *testing.T) {
		got, err := choose(filepath.Join(base, "cache"), runtime)
		require.NoError(t, err)
		assert.Equal(t, filepath.Join(base, "cache", "sandboxauth"), got)
	})
	t.Run("the cache directory in the sandbox", func(t *testing.T) {
		got, err := choose(filepath.Join(sb, ".cache"), runtime)
		require.NoError(t, err)
		assert.Equal(t, filepath.Join(runtime, "sandboxauth"), got)
	})
	t.Run("the cache directory in a writable place, no runtime directory", func(t *testing.T) {
		w := filepath.Join(base, "shared")
		got, err := choose(filepath.Join(w, "cache"), filepath.Join(w, "run"), w)
		require.NoError(t, err)
		assert.Equal(t, tmpDir, got)
	})
	t.Run("a cache directory others may write", func(t *testing.T) {
		open := filepath.Join(base, "open")
		require.NoError(t, os.MkdirAll(filepath.Join(open, "sandboxauth"), 0o755))
		require.NoError(t, os.Chmod(filepath.Join(open, "sandboxauth"), 0o777))
		got, err := choose(open, runtime)
		require.NoError(t, err)
		assert.Equal(t, filepath.Join(runtime, "sandboxauth"), got)
	})
	t.Run("a link in place of the directory", func(t *testing.T) {
		linked := filepath.Join(base, "linked")
		require.NoError(t, os.MkdirAll(linked, 0o700))
		require.NoError(t, os.Symlink(sb, filepath.Join(linked, "sandboxauth")))
		got, err := choose(linked, runtime)
		require.NoError(t, err)
		assert.Equal(t, filepath.Join(runtime, "sandboxauth"), got)
	})
	t.Run("everything in reach", func(t *testing.T) {
		_, err := choose(filepath.Join(sb, ".cache"), filepath.Join(sb, "run"), "/tmp")
		require.ErrorIs(t, err, ErrUnsafePolicy)
		assert.Contains(t, err.Error(), "does not hold your home's .cache")
	})
	t.Run("the environment does not move them", func(t *testing.T) {
		before := bookkeepingCandidates()
		t.Setenv("XDG_CACHE_HOME", filepath.Join(base, "elsewhere"))
		t.Setenv("XDG_RUNTIME_DIR", runtime)
		t.Setenv("HOME", base)
		assert.Equal(t, before, bookkeepingCandidates())
		assert.NotContains(t, bookkeepingCandidates(), filepath.Join(base, "elsewhere", "sandboxauth"))
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
