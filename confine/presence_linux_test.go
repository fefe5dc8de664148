package confine

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// TestPresence: presence rules a path out exactly when an lstat of it
// fails, in listed directories (every directory holding one of the paths,
// however few), through a directory reached by a link, under a file, a
// FIFO or a missing directory (without blocking on the FIFO), and beneath
// a listed directory that lacks a name on the way; directories it cannot
// or should not list (unreadable, too large) rule nothing out.
func TestPresence(t *testing.T) {
	root := t.TempDir()
	d := filepath.Join(root, "d")
	require.NoError(t, os.MkdirAll(filepath.Join(d, "sub"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(d, "file"), nil, 0o600))
	require.NoError(t, os.Symlink("file", filepath.Join(d, "link-file")))
	require.NoError(t, os.Symlink("sub", filepath.Join(d, "link-dir")))
	require.NoError(t, os.Symlink("nowhere", filepath.Join(d, "dangling")))
	require.NoError(t, unix.Mkfifo(filepath.Join(d, "fifo"), 0o600))
	require.NoError(t, os.Symlink("d", filepath.Join(root, "linkdir")))
	require.NoError(t, os.WriteFile(filepath.Join(root, "f"), nil, 0o600))
	require.NoError(t, unix.Mkfifo(filepath.Join(root, "fifo"), 0o600))
	big := filepath.Join(root, "big")
	require.NoError(t, os.Mkdir(big, 0o755))
	for i := 0; i <= maxListed; i++ {
		require.NoError(t, os.WriteFile(filepath.Join(big, strconv.Itoa(i)), nil, 0o600))
	}
	closed := filepath.Join(root, "closed")
	require.NoError(t, os.Mkdir(closed, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(closed, "there"), nil, 0o600))
	require.NoError(t, os.Chmod(closed, 0o311)) // searchable, not readable
	t.Cleanup(func() { _ = os.Chmod(closed, 0o755) })

	in := func(dir string, names ...string) []string {
		var out []string
		for _, n := range names {
			out = append(out, filepath.Join(root, dir, n))
		}
		return out
	}
	groups := map[string][]string{
		"a listed directory":               in("d", "file", "sub", "link-file", "link-dir", "dangling", "fifo", "missing"),
		"a directory reached by a link":    in("linkdir", "file", "missing", "sub", "other"),
		"under a file":                     in("f", "a", "b", "c", "d"),
		"under a FIFO":                     in("fifo", "a", "b", "c", "d"),
		"under a missing directory":        in("nodir", "a", "b", "c", "d"),
		"a directory with too many names":  in("big", "1", "2", "3", "missing"),
		"an unreadable directory":          in("closed", "there", "a", "b", "c"),
		"a directory holding too few":      in("d", "file", "missing2"),
		"not clean":                        {filepath.Join(root, "d") + "/sub/../missing3"},
		"a directory reached by a link, 2": in("linkdir/sub", "a", "b", "c", "d"),
		"beneath a listed directory":       append(in("d", "file", "sub", "fifo", "missing"), in("d", "missing/a", "missing/b/c", "sub/a", "file/a")...),
	}
	for name, paths := range groups {
		t.Run(name, func(t *testing.T) {
			pr := newPresence(paths)
			for _, p := range paths {
				_, err := os.Lstat(p)
				want := err != nil
				switch name {
				case "a directory with too many names", "not clean":
					want = false // not listed
				case "an unreadable directory":
					want = want && os.Geteuid() == 0 // root lists it anyway
				}
				assert.Equal(t, want, pr.missing(p), "%s (lstat: %v)", p, err)
			}
		})
	}
}

// TestPresenceBackups: the copies beside the paths are found in the
// listings, and by their usual names where a directory cannot be listed;
// names that are no copies, and copies that are themselves among the
// paths, are not returned.
func TestPresenceBackups(t *testing.T) {
	root := t.TempDir()
	listed := filepath.Join(root, "listed")
	require.NoError(t, os.Mkdir(listed, 0o755))
	for _, n := range []string{".netrc", ".netrc~", "#.netrc#", ".netrc.swp", ".netrc.bak", ".env.example", ".env.bak", "other~"} {
		require.NoError(t, os.WriteFile(filepath.Join(listed, n), nil, 0o600))
	}
	require.NoError(t, os.Mkdir(filepath.Join(listed, ".ssh.old"), 0o700))
	closed := filepath.Join(root, "closed")
	require.NoError(t, os.Mkdir(closed, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(closed, ".pgpass~"), nil, 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(closed, ".pgpass.bak"), nil, 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(closed, ".pgpass.tar.gz"), nil, 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(closed, "Copy of .pgpass"), nil, 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(closed, ".pgpass (copy)"), nil, 0o600))
	require.NoError(t, os.Chmod(closed, 0o311)) // searchable, not readable
	t.Cleanup(func() { _ = os.Chmod(closed, 0o755) })

	paths := []string{filepath.Join(listed, ".netrc"), filepath.Join(listed, ".env"), filepath.Join(listed, ".ssh"),
		filepath.Join(listed, ".netrc.bak"), filepath.Join(closed, ".pgpass"), filepath.Join(root, "missing", ".netrc")}
	got := newPresence(paths).backups(paths)
	in := func(dir string, names ...string) []string {
		var out []string
		for _, n := range names {
			out = append(out, filepath.Join(dir, n))
		}
		return out
	}
	// Root lists the closed directory anyway; either way both copies are
	// found.
	assert.ElementsMatch(t, append(in(listed, "#.netrc#", ".env.bak", ".netrc.swp", ".netrc~", ".ssh.old"), in(closed, ".pgpass.bak", ".pgpass~", ".pgpass.tar.gz", "Copy of .pgpass", ".pgpass (copy)")...), got)
}

// TestCleanAbs: cleanAbs agrees with filepath.Clean on what is absolute
// and clean.
func TestCleanAbs(t *testing.T) {
	for _, p := range []string{"/", "/a", "/a/b", "/a/b/", "//a", "/a//b", "/a/./b", "/a/../b", "/a/.", "/a/..", "/.", "/..",
		"a/b", "", "/.a/..b/...", "/a.b/c~", "/a/b/.c"} {
		assert.Equal(t, filepath.IsAbs(p) && filepath.Clean(p) == p, cleanAbs(p), "%q", p)
	}
}
