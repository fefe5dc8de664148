package sandboxauth

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/internal/pathres"
)

// escapeTree builds, under a fresh temp dir:
//
//	sb/                      the sandbox
//	sb/src/a/b/c/file.go
//	sb/link-out -> ../outside            directory link out
//	sb/link-in -> src/a                  directory link in
//	sb/file-out -> ../outside/secret     file link out
//	sb/file-in -> src/a/b/c/file.go      file link in
//	sb/dangling-out -> ../outside/new    dangling link out
//	sb/dangling-in -> src/new.go         dangling link in
//	sb/root -> /                         link to the root
//	sb/deep -> src/a/b/c                 for ".." after a link
//	sb/loop1 -> loop2, sb/loop2 -> loop1 a loop
//	sb/self -> self                      a self loop
//	sb-evil/x                            prefix confusion
//	outside/secret
//	alias -> sb                          the sandbox reached through a link
func escapeTree(t *testing.T) (root string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	mk := func(p string) { require.NoError(t, os.MkdirAll(filepath.Join(root, p), 0o755)) }
	file := func(p string) { require.NoError(t, os.WriteFile(filepath.Join(root, p), []byte("x"), 0o644)) }
	link := func(target, p string) { require.NoError(t, os.Symlink(target, filepath.Join(root, p))) }
	mk("sb/src/a/b/c")
	mk("outside")
	mk("sb-evil")
	file("sb/src/a/b/c/file.go")
	file("outside/secret")
	file("sb-evil/x")
	link("../outside", "sb/link-out")
	link("src/a", "sb/link-in")
	link("../outside/secret", "sb/file-out")
	link("src/a/b/c/file.go", "sb/file-in")
	link("../outside/new", "sb/dangling-out")
	link("src/new.go", "sb/dangling-in")
	link("/", "sb/root")
	link("src/a/b/c", "sb/deep")
	link("loop2", "sb/loop1")
	link("loop1", "sb/loop2")
	link("self", "sb/self")
	link("sb", "alias")
	return root
}

func TestSandboxPathEscapes(t *testing.T) {
	root := escapeTree(t)
	sb := filepath.Join(root, "sb")
	alias := filepath.Join(root, "alias")
	cases := []struct {
		name    string
		sandbox string
		path    string
		inside  bool
	}{
		{"plain file", sb, sb + "/src/a/b/c/file.go", true},
		{"the sandbox itself", sb, sb, true},
		{"missing file", sb, sb + "/src/new/deeper/x.go", true},
		{"dir link out", sb, sb + "/link-out/secret", false},
		{"dir link out, missing tail", sb, sb + "/link-out/newfile", false},
		{"dir link in", sb, sb + "/link-in/b/c/file.go", true},
		{"file link out", sb, sb + "/file-out", false},
		{"file link in", sb, sb + "/file-in", true},
		{"dangling link out", sb, sb + "/dangling-out", false},
		{"dangling link in", sb, sb + "/dangling-in", true},
		{"link to root", sb, sb + "/root/etc/passwd", false},
		{"link to root itself", sb, sb + "/root", false},
		{"dotdot after link stays in", sb, sb + "/deep/../x", true},
		{"dotdot after link inside by kernel, cleaned form escapes", sb, sb + "/deep/../../x", false},
		{"dotdot after link, cleaned form escapes", sb, sb + "/deep/../../../../x", false},
		{"dotdot after link escapes", sb, sb + "/deep/../../../../../outside/secret", false},
		{"dotdot lexical escape", sb, sb + "/src/../../outside/secret", false},
		{"dotdot through missing dir", sb, sb + "/missing/../../outside/secret", false},
		{"dotdot through missing dir stays", sb, sb + "/missing/../src/a", true},
		{"prefix confusion", sb, root + "/sb-evil/x", false},
		{"parent of sandbox", sb, root, false},
		{"root", sb, "/", false},
		{"loop", sb, sb + "/loop1", false},
		{"loop below", sb, sb + "/loop1/x", false},
		{"self loop", sb, sb + "/self", false},
		{"sandbox through alias, path direct", alias, sb + "/src/a/b/c/file.go", true},
		{"sandbox direct, path through alias", sb, alias + "/src/a/b/c/file.go", true},
		{"sandbox through alias, escape", alias, alias + "/link-out/secret", false},
		{"trailing slash", sb, sb + "/src/", true},
		{"double slash", sb, sb + "//src//a", true},
		{"dot components", sb, sb + "/./src/./a", true},
	}
	a, ch, err := NewSandboxAuthorizer(testCommands())
	require.NoError(t, err)
	defer a.Close()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, op := range []Operation{OpRead, OpWrite} {
				done := make(chan error, 1)
				go func() {
					if op == OpRead {
						done <- a.IsAuthorizedForRead(false, "", "read_file", c.sandbox, c.path)
					} else {
						done <- a.IsAuthorizedForWrite(false, "", "write_file", c.sandbox, c.path)
					}
				}()
				select {
				case err := <-done:
					if c.inside {
						assert.NoError(t, err, "%s %s", op, c.path)
					} else {
						assert.ErrorIs(t, err, ErrOutsideSandbox, "%s %s", op, c.path)
						assert.ErrorIs(t, err, ErrDenied)
					}
				case req := <-ch:
					req.Disallow()
					t.Fatalf("%s %s: the Sandbox policy asked without requestPermission", op, c.path)
				case <-time.After(10 * time.Second):
					t.Fatalf("%s %s: no answer (a hang)", op, c.path)
				}
			}
		})
	}
}

func TestOnePathOutsideRefusesTheWholeCall(t *testing.T) {
	root := escapeTree(t)
	sb := filepath.Join(root, "sb")
	a, _, err := NewSandboxAuthorizer(testCommands())
	require.NoError(t, err)
	defer a.Close()
	paths := []string{sb + "/src/a/b/c/file.go", sb + "/src", sb + "/link-out/secret", sb + "/src/a"}
	err = a.IsAuthorizedForRead(false, "", "read_file", sb, paths...)
	require.ErrorIs(t, err, ErrOutsideSandbox)
	assert.Contains(t, err.Error(), sb+"/link-out/secret")
	assert.NotContains(t, err.Error(), `"`+sb+`/src"`, "only the offending paths are named")
}

func TestPermissivePromptShowsOutsidePathsFirst(t *testing.T) {
	root := escapeTree(t)
	sb := filepath.Join(root, "sb")
	var paths []string
	for i := 0; i < 12; i++ {
		paths = append(paths, filepath.Join(sb, "src", "f"+string(rune('a'+i))))
	}
	paths = append(paths, sb+"/file-out")
	a, ch, err := NewPermissiveSandboxAuthorizer(testCommands())
	require.NoError(t, err)
	defer a.Close()
	seen, err := answering(t, ch, false, func() error { return a.IsAuthorizedForWrite(false, "", "write_file", sb, paths...) })
	require.ErrorIs(t, err, ErrAuthorizationDenied)
	require.Len(t, seen, 1)
	assert.Contains(t, seen[0].Prompt, sb+"/file-out  (OUTSIDE the sandbox: "+root+"/outside/secret)")
	assert.Contains(t, seen[0].Prompt, "and 7 more inside the sandbox")
	assert.Equal(t, []string{root + "/outside/secret"}, seen[0].Outside)
}

// TestPlacedDirProvenBeneath checks that a working directory placed as a
// by-product of a path beneath it is placed exactly as place would place
// it, and that only a path strictly beneath it, proven by the kernel,
// stands in for it.
func TestPlacedDirProvenBeneath(t *testing.T) {
	root := escapeTree(t)
	sb := root + "/sb"
	tests := []struct {
		name, cwd, p string
		derived      bool // the path's proof placed the directory
	}{
		{"sandbox, file beneath", sb, sb + "/src/a/b/c/file.go", true},
		{"sandbox with slash", sb + "/", sb + "//src/a", true},
		{"sub directory", sb + "/src/a", sb + "/src/a/b/c/file.go", true},
		{"missing file beneath", sb + "/src", sb + "/src/new.go", true},
		{"dot-dot in the directory", sb + "/src/..", sb + "/src/../src", true},
		{"dot-dot out of the sandbox", sb + "/..", sb + "/../outside/secret", true},
		{"the directory itself", sb + "/src", sb + "/src", false},
		{"a trailing slash only", sb + "/src", sb + "/src/", false},
		{"double slash after", sb + "/src", sb + "/src//a", false},
		{"sibling with the same prefix", sb + "/src", sb + "/src2/x", false},
		{"directory through a link", sb + "/link-in", sb + "/link-in/b", false},
		{"link out", sb + "/link-out", sb + "/link-out/secret", false},
		{"sandbox through a link", root + "/alias", root + "/alias/src", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := placedDir{sandbox: sb, dir: tt.cwd}
			require.NoError(t, want.place())

			got := placedDir{sandbox: sb, dir: tt.cwd}
			if _, _, ok := pathres.Proven(sb, tt.p); ok {
				got.ProvenBeneath(tt.p)
			}
			assert.Equal(t, tt.derived, got.done, "placed by the path's proof")
			require.NoError(t, got.place())
			assert.Equal(t, want.inside, got.inside)
			assert.Equal(t, want.resolved, got.resolved)
			assert.Equal(t, want.root, got.root)
		})
	}
}

// TestPlacedDirPlaced checks that a working directory offers itself as the
// proof of a missing file in it (classify.WorkDir.Placed) only once placed,
// inside the sandbox, and leading to itself: never through a link.
func TestPlacedDirPlaced(t *testing.T) {
	root := escapeTree(t)
	sb := root + "/sb"
	tests := []struct {
		name, cwd string
		ok        bool
	}{
		{"sandbox", sb, true},
		{"sub directory", sb + "/src/a", true},
		{"directory through a link inside", sb + "/link-in", false},
		{"link out", sb + "/link-out", false},
		{"outside", root + "/outside", false},
		{"sandbox through a link", root + "/alias", false},
		{"missing (literal, as a missing file in it is)", sb + "/missing", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := placedDir{sandbox: sb, dir: tt.cwd}
			_, ok := d.Placed()
			assert.False(t, ok, "not placed yet")
			_ = d.place()
			dir, ok := d.Placed()
			assert.Equal(t, tt.ok, ok)
			if ok {
				assert.Equal(t, tt.cwd, dir)
			}
		})
	}
}
