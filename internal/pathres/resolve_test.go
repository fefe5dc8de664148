package pathres

import (
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// buildSandboxTree builds the tree shared by the Resolve and Contains tests:
//
//	sb/a/b/c/deep.txt, sb/file.txt      plain directories and files
//	sb/dirlink    -> a/b                relative directory link
//	sb/abslink    -> $B/sb/a            absolute directory link
//	sb/filelink   -> file.txt           file link
//	sb/deeplink   -> a/b/c              for ".." after a symlink
//	sb/dotlink    -> .
//	sb/dotdotlink -> a/b/..             target with ".."
//	sb/linkdir    -> dirlink/c          link through a link
//	sb/chain1 -> chain2 -> chain3 -> $B/sb/a/b
//	sb/up         -> ..                 to the parent of the sandbox
//	sb/rootlink   -> /
//	sb/dangin     -> newfile            dangling, inside
//	sb/danginabs  -> $B/sb/newdir/newfile
//	sb/dangout    -> ../outside/new     dangling, outside (dir exists)
//	sb/dangoutabs -> $B/nowhere/x       dangling, outside (dir missing)
//	sb/self       -> self               self loop
//	sb/loopa -> loopb -> loopa          two-link loop
//	sb/a/self2    -> ../a/self2         loop in the middle of a path
//	outside/secret, sb-evil/x
//	sblink        -> sb                 the sandbox reached through a symlink
func buildSandboxTree(tb testing.TB) *testTree {
	tr := newTestTree(tb)
	tr.dir("sb/a/b/c")
	tr.file("sb/a/b/c/deep.txt")
	tr.file("sb/file.txt")
	tr.link("sb/dirlink", "a/b")
	tr.link("sb/abslink", "$B/sb/a")
	tr.link("sb/filelink", "file.txt")
	tr.link("sb/deeplink", "a/b/c")
	tr.link("sb/dotlink", ".")
	tr.link("sb/dotdotlink", "a/b/..")
	tr.link("sb/linkdir", "dirlink/c")
	tr.link("sb/chain1", "chain2")
	tr.link("sb/chain2", "chain3")
	tr.link("sb/chain3", "$B/sb/a/b")
	tr.link("sb/up", "..")
	tr.link("sb/rootlink", "/")
	tr.link("sb/dangin", "newfile")
	tr.link("sb/danginabs", "$B/sb/newdir/newfile")
	tr.link("sb/dangout", "../outside/new")
	tr.link("sb/dangoutabs", "$B/nowhere/x")
	tr.link("sb/self", "self")
	tr.link("sb/loopa", "loopb")
	tr.link("sb/loopb", "loopa")
	tr.link("sb/a/self2", "../a/self2")
	tr.file("outside/secret")
	tr.file("sb-evil/x")
	tr.link("sblink", "sb")
	return tr
}

func TestResolve(t *testing.T) {
	tr := buildSandboxTree(t)
	tests := []struct {
		name, p, want string
		wantErr       error
	}{
		// Plain paths.
		{"sandbox dir", "sb", "sb", nil},
		{"existing file", "sb/a/b/c/deep.txt", "sb/a/b/c/deep.txt", nil},
		{"missing file", "sb/a/new.txt", "sb/a/new.txt", nil},
		{"root", "/", "/", nil},
		{"dotdot at root", "/..", "/", nil},
		{"dotdots above root", "/../../..$B/sb", "sb", nil},
		{"trailing slash", "sb/a/b/", "sb/a/b", nil},
		{"trailing slashes", "sb/a/b///", "sb/a/b", nil},
		{"double slashes", "$B//sb//a///b", "sb/a/b", nil},
		{"leading double slash", "/$B/sb/a", "sb/a", nil},
		{"dot components", "$B/./sb/./a/.", "sb/a", nil},
		{"dot only tail", "sb/.", "sb", nil},
		{"plain dotdot", "sb/a/b/../../file.txt", "sb/file.txt", nil},

		// Directory, file and chained links.
		{"relative dir link", "sb/dirlink", "sb/a/b", nil},
		{"through relative dir link", "sb/dirlink/c/deep.txt", "sb/a/b/c/deep.txt", nil},
		{"absolute dir link", "sb/abslink/b", "sb/a/b", nil},
		{"file link", "sb/filelink", "sb/file.txt", nil},
		{"link to dot", "sb/dotlink/dotlink/a", "sb/a", nil},
		{"link target with dotdot", "sb/dotdotlink/a", "sb/a/a", nil},
		{"link through link", "sb/linkdir/deep.txt", "sb/a/b/c/deep.txt", nil},
		{"chain of links", "sb/chain1/c", "sb/a/b/c", nil},
		{"sandbox via symlink", "sblink/a/b", "sb/a/b", nil},

		// ".." after a symlink: kernel semantics.
		{"dotdot after dir link", "sb/dirlink/..", "sb/a", nil},
		{"dotdots after deep link", "sb/deeplink/../../x", "sb/a/x", nil},
		{"dotdot after link chain", "sb/chain1/../b", "sb/a/b", nil},
		{"dotdot after file link", "sb/filelink/..", "sb", nil},
		{"up link", "sb/up", "", nil},
		{"up link to outside", "sb/up/outside/secret", "outside/secret", nil},
		{"up link back inside", "sb/up/sb/a", "sb/a", nil},

		// Links to "/".
		{"link to root", "sb/rootlink", "/", nil},
		{"through link to root", "sb/rootlink/etc/passwd", "/etc/passwd", nil},
		{"dotdot after link to root", "sb/rootlink/..", "/", nil},
		{"link to root then base", "sb/rootlink$B/sb/a", "sb/a", nil},

		// Dangling links are followed.
		{"dangling inside", "sb/dangin", "sb/newfile", nil},
		{"dangling inside absolute", "sb/danginabs", "sb/newdir/newfile", nil},
		{"dangling outside", "sb/dangout", "outside/new", nil},
		{"dangling outside absolute", "sb/dangoutabs", "nowhere/x", nil},
		{"below dangling link", "sb/dangoutabs/y/z", "nowhere/x/y/z", nil},
		{"dotdot after dangling link", "sb/dangoutabs/../y", "nowhere/y", nil},

		// Missing tails and "..".
		{"missing tail", "sb/missing/x/y", "sb/missing/x/y", nil},
		{"missing popped to outside", "sb/missing/../../outside/secret", "outside/secret", nil},
		{"missing popped to etc", "sb/missing/../../../../../../../../../../etc/x", "/etc/x", nil},
		{"missing popped then link", "sb/missing/../dirlink/c", "sb/a/b/c", nil},
		{"missing popped twice then link", "sb/missing/x/../../up/outside", "outside", nil},
		{"missing popped then dotdot link", "sb/missing/../dirlink/..", "sb/a", nil},
		{"link beneath missing not followed", "sb/missing/dirlink/..", "sb/missing", nil},
		{"loop beneath missing not followed", "sb/missing/self", "sb/missing/self", nil},

		// Non-directory components are kept literally.
		{"file then component", "sb/file.txt/x", "sb/file.txt/x", nil},
		{"file then components", "sb/file.txt/x/y", "sb/file.txt/x/y", nil},
		{"file then dotdot", "sb/file.txt/../a", "sb/a", nil},
		{"file then component then dotdot", "sb/file.txt/x/../y", "sb/file.txt/y", nil},
		{"file link then component", "sb/filelink/x", "sb/file.txt/x", nil},
		{"file then link name", "sb/file.txt/dirlink/..", "sb/file.txt", nil},

		// Loops.
		{"self loop", "sb/self", "", ErrLoop},
		{"self loop with tail", "sb/self/x", "", ErrLoop},
		{"two-link loop", "sb/loopa", "", ErrLoop},
		{"two-link loop with tail", "sb/loopb/x/y", "", ErrLoop},
		{"loop in the middle", "sb/a/self2/b/c", "", ErrLoop},
		{"loop through dir link", "sb/dirlink/../self2", "", ErrLoop},
		{"loop then dotdot", "sb/self/..", "", ErrLoop},

		// Bad input.
		{"empty", "", "", ErrEmpty},
		{"relative", "/rel/path", "", ErrNotAbsolute},
		{"dot", "/.", "", ErrNotAbsolute},
		{"NUL", "sb/a\x00b", "", ErrNUL},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := tr.path(tt.p)
			switch tt.p {
			case "":
				p = ""
			case "/rel/path":
				p = "rel/path"
			case "/.":
				p = "."
			}
			start := time.Now()
			got, err := Resolve(p)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr, "Resolve(%q) = %q", p, got)
				assert.Empty(t, got)
				assert.Contains(t, err.Error(), strconv.Quote(p))
				assert.Less(t, time.Since(start), time.Second, "an error must come quickly")
				return
			}
			require.NoError(t, err, "Resolve(%q)", p)
			want := tr.path(tt.want)
			if tt.want == "" {
				want = tr.base
			}
			assert.Equal(t, want, got, "Resolve(%q)", p)
			assert.Equal(t, filepath.Clean(got), got, "result is clean")
			if ev, err := filepath.EvalSymlinks(p); err == nil {
				assert.Equal(t, ev, got, "agrees with EvalSymlinks on an existing path")
			}
		})
	}
}

func TestResolveMaxLinks(t *testing.T) {
	tr := newTestTree(t)
	tr.dir("target")
	// l0 -> l1 -> ... -> l40 -> target: MaxLinks+1 links from l0.
	for i := 0; i <= MaxLinks; i++ {
		next := "l" + strconv.Itoa(i+1)
		if i == MaxLinks {
			next = "target"
		}
		tr.link("l"+strconv.Itoa(i), next)
	}
	got, err := Resolve(tr.path("l1/x"))
	require.NoError(t, err, "exactly MaxLinks links are followed")
	assert.Equal(t, tr.path("target/x"), got)

	_, err = Resolve(tr.path("l0/x"))
	require.ErrorIs(t, err, ErrLoop, "one more than MaxLinks is a loop")

	// Links count across the whole resolution, not per component.
	tr.link("dot", ".")
	p := tr.base
	for i := 0; i < MaxLinks; i++ {
		p += "/dot"
	}
	got, err = Resolve(p)
	require.NoError(t, err)
	assert.Equal(t, tr.base, got)
	_, err = Resolve(p + "/dot")
	require.ErrorIs(t, err, ErrLoop)
}

func TestResolveEmptyLinkTarget(t *testing.T) {
	tr := newTestTree(t)
	tr.dir("sb")
	if err := os.Symlink("", tr.path("sb/empty")); err != nil {
		t.Skipf("this system refuses empty symlinks: %v", err)
	}
	got, err := Resolve(tr.path("sb/empty/../x"))
	require.NoError(t, err)
	assert.Equal(t, tr.path("sb/x"), got)
	got, err = Resolve(tr.path("sb/empty"))
	require.NoError(t, err)
	assert.Equal(t, tr.path("sb/empty"), got)
}

func TestResolvePermissionError(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root can search any directory")
	}
	tr := newTestTree(t)
	tr.file("sb/locked/inner/x")
	require.NoError(t, os.Chmod(tr.path("sb/locked"), 0))
	t.Cleanup(func() { _ = os.Chmod(tr.path("sb/locked"), 0o755) })

	_, err := Resolve(tr.path("sb/locked/inner/x"))
	require.ErrorIs(t, err, fs.ErrPermission)
	assert.NotErrorIs(t, err, ErrLoop)

	_, inside, err := Contains(tr.path("sb"), tr.path("sb/locked/inner/x"))
	require.ErrorIs(t, err, fs.ErrPermission)
	assert.False(t, inside)
}

// TestResolveTempDirAlias checks paths given through t.TempDir itself, which
// may not be real (macOS: /var -> /private/var).
func TestResolveTempDirAlias(t *testing.T) {
	dir := t.TempDir()
	real, err := filepath.EvalSymlinks(dir)
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755))

	got, err := Resolve(dir + "/a/b/new")
	require.NoError(t, err)
	assert.Equal(t, real+"/a/b/new", got)

	_, inside, err := Contains(real, dir+"/a/b/new")
	require.NoError(t, err)
	assert.True(t, inside)
	_, inside, err = Contains(dir, real+"/a")
	require.NoError(t, err)
	assert.True(t, inside)
}
