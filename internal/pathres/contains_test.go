package pathres

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestContains(t *testing.T) {
	tr := buildSandboxTree(t)
	tests := []struct {
		name, root, p string
		want          bool
		wantErr       error
	}{
		{"root itself", "sb", "sb", true, nil},
		{"existing file", "sb", "sb/a/b/c/deep.txt", true, nil},
		{"missing file", "sb", "sb/a/new.txt", true, nil},
		{"missing dirs", "sb", "sb/x/y/z", true, nil},
		{"prefix confusion", "sb", "sb-evil/x", false, nil},
		{"prefix confusion root", "sb", "sb-evil", false, nil},
		{"dotdot to sibling", "sb", "sb/../sb-evil/x", false, nil},
		{"dotdot out", "sb", "sb/..", false, nil},
		{"dotdot out and back", "sb", "sb/../sb/a", true, nil},
		{"outside", "sb", "outside/secret", false, nil},
		{"parent", "sb", "", false, nil},
		{"file system root", "sb", "/", false, nil},
		{"etc", "sb", "/etc/passwd", false, nil},

		{"dir link inside", "sb", "sb/dirlink/c", true, nil},
		{"abs link inside", "sb", "sb/abslink/b", true, nil},
		{"chain inside", "sb", "sb/chain1/c/deep.txt", true, nil},
		{"up link", "sb", "sb/up", false, nil},
		{"up link to outside", "sb", "sb/up/outside/secret", false, nil},
		{"up link back inside", "sb", "sb/up/sb/a", true, nil},
		{"link to root", "sb", "sb/rootlink/etc/passwd", false, nil},
		{"link to root back inside", "sb", "sb/rootlink$B/sb/a", true, nil},
		{"dangling inside", "sb", "sb/dangin", true, nil},
		{"dangling inside absolute", "sb", "sb/danginabs", true, nil},
		{"dangling outside", "sb", "sb/dangout", false, nil},
		{"dangling outside absolute", "sb", "sb/dangoutabs", false, nil},
		{"missing then dotdots out", "sb", "sb/missing/../../outside/secret", false, nil},
		{"missing then dotdot then up link", "sb", "sb/missing/../up/outside", false, nil},
		{"link beneath missing", "sb", "sb/missing/up/x", true, nil},
		{"file then component", "sb", "sb/file.txt/x", true, nil},

		// Kernel and lexical cleaning disagree: both must be inside.
		{"kernel inside, clean outside", "sb", "sb/deeplink/../../../outside/secret", false, nil},
		{"kernel inside, clean outside (etc)", "sb", "sb/deeplink/../../../../../../../../../../../etc/passwd", false, nil},
		{"kernel outside, clean inside", "sb", "sb/up/../x", false, nil},
		{"both inside", "sb", "sb/dirlink/..", true, nil},
		{"kernel inside, clean just outside", "sb", "sb/deeplink/../../x", false, nil},
		{"both inside deep", "sb", "sb/deeplink/../x", true, nil},

		// The sandbox root itself reached through a symlink, or unclean.
		{"root via link, path via link", "sblink", "sblink/a/b", true, nil},
		{"root via link, real path", "sblink", "sb/a/b", true, nil},
		{"real root, path via link", "sb", "sblink/a/b", true, nil},
		{"root via link, evil sibling", "sblink", "sb-evil/x", false, nil},
		{"root via link, dotdot out", "sblink", "sblink/../outside", false, nil},
		{"root via link, up link", "sblink", "sblink/up/outside", false, nil},
		{"root with trailing slash", "sb/", "sb/a", true, nil},
		{"root with trailing slash, evil", "sb/", "sb-evil", false, nil},
		{"root with dot", "sb/.", "sb/./a", true, nil},
		{"root with double slash", "$B//sb", "$B//sb/a", true, nil},
		{"root through dir link", "sb/dirlink", "sb/a/b/c", true, nil},
		{"root through dir link, sibling", "sb/dirlink", "sb/a/x", false, nil},
		{"root is missing", "sb/nosuch", "sb/nosuch/x", true, nil},
		{"root is a dangling link", "sb/dangout", "outside/new/x", true, nil},

		// "/" as the sandbox contains everything.
		{"slash root", "/", "/etc/passwd", true, nil},
		{"slash root, link", "/", "sb/rootlink/etc", true, nil},
		{"slash root, slash", "/", "/", true, nil},

		// Errors are never inside.
		{"loop in path", "sb", "sb/self/x", false, ErrLoop},
		{"loop in clean path only", "sb", "sb/a/self2/../../x", false, ErrLoop},
		{"loop in root", "sb/loopa", "sb/loopa/x", false, ErrLoop},
		{"empty path", "sb", "-", false, ErrEmpty},
		{"relative path", "sb", "-rel", false, ErrNotAbsolute},
		{"NUL path", "sb", "sb/a\x00", false, ErrNUL},
		{"empty root", "-", "sb/a", false, ErrEmpty},
		{"relative root", "-rel", "sb/a", false, ErrNotAbsolute},
		{"NUL root", "sb\x00", "sb/a", false, ErrNUL},
	}
	arg := func(s string) string {
		switch s {
		case "-":
			return ""
		case "-rel":
			return "rel/x"
		}
		return tr.path(s)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, p := arg(tt.root), arg(tt.p)
			if tt.p == "" {
				p = tr.base
			}
			resolved, inside, err := Contains(root, p)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr, "Contains(%q, %q)", root, p)
				assert.False(t, inside)
				return
			}
			require.NoError(t, err, "Contains(%q, %q)", root, p)
			assert.Equal(t, tt.want, inside, "Contains(%q, %q) resolved to %q", root, p, resolved)
			want, err := Resolve(p)
			require.NoError(t, err)
			assert.Equal(t, want, resolved, "Contains returns Resolve(p)")
			if pr, pi, ok := Proven(root, p); ok {
				assert.Equal(t, resolved, pr, "Proven(%q, %q)", root, p)
				assert.Equal(t, inside, pi, "Proven(%q, %q)", root, p)
			}
		})
	}
}

// TestProven checks which paths the one-call kernel proof answers for, and
// that it declines every path it cannot prove.
func TestProven(t *testing.T) {
	if !kernelWorks() {
		t.Skip("openat2 is not available on this kernel: Proven never answers, Contains does the work")
	}
	tr := buildSandboxTree(t)
	tests := []struct {
		name, root, p string
		ok, inside    bool
	}{
		{"root itself", "sb", "sb", true, true},
		{"existing file", "sb", "sb/a/b/c/deep.txt", true, true},
		{"missing tail", "sb", "sb/a/new.txt", true, true},
		{"dotdot out, no links", "sb", "sb/../outside/secret", true, false},
		{"dotdot out and back", "sb", "sb/../sb/a", true, true},
		{"root with trailing slash", "sb/", "sb/a", true, true},
		{"root with dot", "sb/.", "sb/./a", true, true},

		{"two missing components", "sb", "sb/x/y/z", false, false},
		{"symlink in path", "sb", "sb/dirlink/c", false, false},
		{"symlink out", "sb", "sb/up/outside/secret", false, false},
		{"root is a symlink", "sblink", "sblink/a/b", false, false},
		{"not lexically beneath", "sb", "sb-evil/x", false, false},
		{"outside", "sb", "outside/secret", false, false},
		{"loop", "sb", "sb/self/x", false, false},
		{"relative root", "-rel", "sb/a", false, false},
		{"NUL path", "sb", "sb/a\x00", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, p := tr.path(tt.root), tr.path(tt.p)
			if tt.root == "-rel" {
				root = "rel/x"
			}
			resolved, inside, ok := Proven(root, p)
			require.Equal(t, tt.ok, ok, "Proven(%q, %q) = %q, %v", root, p, resolved, inside)
			if !ok {
				assert.Empty(t, resolved)
				assert.False(t, inside)
				return
			}
			assert.Equal(t, tt.inside, inside)
			want, err := Resolve(p)
			require.NoError(t, err)
			assert.Equal(t, want, resolved)
		})
	}
}

// TestProvenFrom checks that ProvenFrom answers as Proven whatever placed
// directory it is given, and that a placed parent of a missing tail is
// taken as proven rather than opened again: after the parent is removed,
// Proven no longer answers for a file in it, while ProvenFrom, told that
// the parent was placed, does, with Contains' answer.
func TestProvenFrom(t *testing.T) {
	if !kernelWorks() {
		t.Skip("openat2 is not available on this kernel: ProvenFrom never answers, Contains does the work")
	}
	tr := buildSandboxTree(t)
	paths := []string{"sb", "sb/a/b/c/deep.txt", "sb/a/new.txt", "sb/x/y/z", "sb/dirlink/c", "sb/dirlink/new",
		"sb/up/outside/secret", "sb/self/x", "sb/../outside/secret", "sb/a/", "sb/a/new/", "sb-evil/x"}
	placed := []string{"", "sb", "sb/a", "sb/a/b", "sb/x", "sb/dirlink", "outside", "/"}
	for _, p := range paths {
		for _, dir := range placed {
			root, abs := tr.path("sb"), tr.path(p)
			d := dir
			if d != "" && d != "/" {
				d = tr.path(dir)
			}
			wantR, wantIn, wantOK := Proven(root, abs)
			gotR, gotIn, gotOK := ProvenFrom(root, abs, d)
			assert.Equal(t, []any{wantR, wantIn, wantOK}, []any{gotR, gotIn, gotOK}, "ProvenFrom(%q, %q, %q)", root, abs, d)
		}
	}

	gone := filepath.Join(tr.path("sb"), "gone")
	file := filepath.Join(gone, "file")
	require.NoError(t, os.Mkdir(gone, 0o755))
	_, _, ok := Proven(tr.path("sb"), file)
	require.True(t, ok)
	require.NoError(t, os.Remove(gone))
	_, _, ok = Proven(tr.path("sb"), file)
	assert.False(t, ok, "Proven opens the parent of a missing tail")
	resolved, inside, ok := ProvenFrom(tr.path("sb"), file, gone)
	require.True(t, ok, "ProvenFrom takes the placed parent as proven, without opening it")
	wantR, wantIn, err := Contains(tr.path("sb"), file)
	require.NoError(t, err)
	assert.Equal(t, []any{wantR, wantIn}, []any{resolved, inside}, "the answer is Contains'")
}

// TestContainsSharedPrefix checks that continuing from the resolved root
// gives the same answer as resolving p from scratch, when the root has
// symlinks, dots and missing components of its own.
func TestContainsSharedPrefix(t *testing.T) {
	tr := buildSandboxTree(t)
	roots := []string{"sb", "sblink", "sb/", "sb/.", "sb/dirlink", "sb/deeplink/..", "sb/up/sb", "sb/missing", "sb/missing/..", "sb/dangout", "sb/file.txt", "sb/rootlink"}
	tails := []string{"", "/", "/a", "/..", "/../..", "/../sb-evil", "/dirlink/..", "/up/outside", "/missing/../..", "/x/y", "/./a//b/", "/self", "/deeplink/../../.."}
	for _, r := range roots {
		for _, tail := range tails {
			root := tr.path(r)
			p := root + tail
			want, wantErr := Resolve(p)
			got, inside, err := Contains(root, p)
			if wantErr != nil || err != nil {
				// A loop in p, or in filepath.Clean(p).
				assert.ErrorIs(t, err, ErrLoop, "Contains(%q, %q)", root, p)
				assert.False(t, inside)
				if wantErr == nil {
					_, cleanErr := Resolve(filepath.Clean(p))
					assert.ErrorIs(t, cleanErr, ErrLoop)
				}
				continue
			}
			if assert.NoError(t, err, "Contains(%q, %q)", root, p) {
				assert.Equal(t, want, got, "Contains(%q, %q)", root, p)
			}
		}
	}
}

func TestHasDotDot(t *testing.T) {
	tests := map[string]bool{
		"/":         false,
		"/a/b":      false,
		"/..":       true,
		"/a/..":     true,
		"/a/../b":   true,
		"/a/..b":    false,
		"/a/b..":    false,
		"/a/...":    false,
		"/a/...b/":  false,
		"/..a/..":   true,
		"/a/.../..": true,
		"/./.":      false,
	}
	for p, want := range tests {
		assert.Equal(t, want, HasDotDot(p), strconv.Quote(p))
	}
}
