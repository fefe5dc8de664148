package pathres

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// kernelWorks reports whether kernelResolve answers on this system (Linux
// 5.6 or later with openat2 allowed); followWorks whether it can also
// follow symlinks (procfs on /proc).
func kernelWorks() bool {
	_, pr := kernelResolve("/", tryClean)
	return pr == proofClean
}

func followWorks(t *testing.T) bool {
	t.Helper()
	tr := newTestTree(t)
	tr.dir("d")
	tr.link("l", "d")
	real, pr := kernelResolve(tr.path("l"), tryAll)
	if pr == proofFollowed {
		require.Equal(t, tr.path("d"), real)
	}
	return pr == proofFollowed
}

// requireKernel skips t where the kernel is never asked, and fails it on a
// Linux system where it should be: the fast path must not go untested
// because it silently never answers.
func requireKernel(t *testing.T) {
	t.Helper()
	if kernelWorks() {
		return
	}
	if runtime.GOOS == "linux" && os.Getenv("PATHRES_NO_OPENAT2") == "" {
		t.Fatal("kernelResolve does not answer on Linux; set PATHRES_NO_OPENAT2=1 if this kernel (older than 5.6, or a seccomp filter) has no openat2")
	}
	t.Skip("no kernel resolution on this system")
}

// errText is err's message, "" for nil, so that the errors of the fast and
// the slow path can be compared.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// requireSameResolve checks that Resolve (kernel first) and the user-space
// resolver give the same path or the same error for p, and that a kernel
// answer, where there is one, is the user-space answer.
func requireSameResolve(t testing.TB, p string) (proof, string, error) {
	t.Helper()
	slow, slowErr := resolve(p, false)
	fast, fastErr := Resolve(p)
	require.Equal(t, errText(slowErr), errText(fastErr), "Resolve(%q): kernel-first and user-space errors differ", p)
	require.Equal(t, slow, fast, "Resolve(%q): kernel-first and user-space results differ", p)
	real, pr := "", notProven
	if Validate(p) == nil {
		real, pr = kernelResolve(p, tryAll)
	}
	if pr != notProven {
		require.NoError(t, slowErr, "kernelResolve(%q) = %q (proof %d) where user space fails", p, real, pr)
		require.Equal(t, slow, real, "kernelResolve(%q) (proof %d) disagrees with user space", p, pr)
	}
	return pr, slow, slowErr
}

// requireSameContains checks that Contains and Root.Contains give the same
// answer with and without the kernel.
func requireSameContains(t testing.TB, root, p string) {
	t.Helper()
	sr, si, se := contains(root, p, false)
	fr, fi, fe := contains(root, p, true)
	require.Equal(t, errText(se), errText(fe), "Contains(%q, %q): errors differ", root, p)
	require.Equal(t, sr, fr, "Contains(%q, %q): resolved differs", root, p)
	require.Equal(t, si, fi, "Contains(%q, %q): inside differs (user space %v)", root, p, si)

	slowRoot, slowErr := newRoot(root, false)
	fastRoot, fastErr := newRoot(root, true)
	require.Equal(t, errText(slowErr), errText(fastErr), "NewRoot(%q): errors differ", root)
	if slowErr != nil {
		return
	}
	require.Equal(t, slowRoot.Real(), fastRoot.Real(), "NewRoot(%q).Real() differs", root)
	sr, si, se = slowRoot.Contains(p)
	fr, fi, fe = fastRoot.Contains(p)
	require.Equal(t, errText(se), errText(fe), "Root(%q).Contains(%q): errors differ", root, p)
	require.Equal(t, sr, fr, "Root(%q).Contains(%q): resolved differs", root, p)
	require.Equal(t, si, fi, "Root(%q).Contains(%q): inside differs (user space %v)", root, p, si)
}

// TestKernelProofs checks that the kernel does answer where it should, with
// the expected proof, and that its answer is the user-space one.
func TestKernelProofs(t *testing.T) {
	requireKernel(t)
	tr := buildSandboxTree(t)
	follow := followWorks(t)
	tests := []struct {
		p    string
		want proof
	}{
		{"/", proofClean},
		{"sb", proofClean},
		{"sb/a/b/c/deep.txt", proofClean},
		{"sb/./a//b/", proofClean},
		{"sb/a/b/../../file.txt", proofClean},
		{"/../..$B/sb", proofClean},
		{"sb/a/new.txt", proofCleanMissing},
		{"sb/a/new/", proofCleanMissing},
		{"sb/./new", proofCleanMissing},
		{"sb/dirlink/c", proofFollowed},
		{"sb/abslink/b", proofFollowed},
		{"sb/chain1/c/deep.txt", proofFollowed},
		{"sb/deeplink/../../b", proofFollowed},
		{"sb/deeplink/../../x", notProven}, // missing beyond a symlink
		{"sb/up/outside/secret", proofFollowed},
		{"sb/rootlink", proofFollowed},
		{"sblink", proofFollowed},
		{"sb/filelink", proofFollowed},
		{"sb/dotlink/dotlink/a", proofFollowed},
	}
	for _, tt := range tests {
		p := tr.path(tt.p)
		pr, _, _ := requireSameResolve(t, p)
		want := tt.want
		if want == proofFollowed && !follow {
			want = notProven
		}
		assert.Equal(t, want, pr, "proof for %q", p)
	}
}

// TestKernelFallback checks the paths for which the kernel must not answer:
// they are resolved in user space, with the same result as before.
func TestKernelFallback(t *testing.T) {
	tr := buildSandboxTree(t)
	tr.file("sb/gone (deleted)")
	tr.link("sb/gonelink", "gone (deleted)")
	tr.link("sb/magic", "/proc/self/cwd")
	tr.link("sb/magicfd", "/proc/self/fd/0")
	tr.dir("sb/deep/er")

	f, err := os.Create(tr.path("sb/unlinked"))
	require.NoError(t, err)
	t.Cleanup(func() { _ = f.Close() })
	require.NoError(t, os.Remove(tr.path("sb/unlinked")))

	long := tr.path("sb/" + strings.Repeat("d/", pathLimit/2))

	fallbacks := []string{
		tr.path("sb/x/y/z"),                       // more than maxMissingUp missing
		tr.path("sb/missing/x"),                   // (maxMissingUp is 1)
		tr.path("sb/missing/../a"),                // missing, then ".."
		tr.path("sb/missing/./../a/new"),          //
		tr.path("sb/self"),                        // loops
		tr.path("sb/self/x"),                      //
		tr.path("sb/loopa"),                       //
		tr.path("sb/a/self2/b"),                   //
		tr.path("sb/dangin"),                      // dangling links
		tr.path("sb/dangout"),                     //
		tr.path("sb/dangoutabs/y/z"),              //
		tr.path("sb/danginabs"),                   //
		tr.path("sb/file.txt/x"),                  // a file followed by components
		tr.path("sb/file.txt/"),                   // a file with a trailing slash
		tr.path("sb/file.txt/."),                  //
		tr.path("sb/file.txt/../a"),               //
		tr.path("sb/filelink/"),                   //
		tr.path("sb/gonelink"),                    // the kernel's name ends in " (deleted)"
		tr.path("sb/magic"),                       // magic links
		tr.path("sb/magic/x"),                     //
		tr.path("sb/magicfd"),                     //
		"/proc/self/cwd",                          //
		"/proc/self/fd/" + fdString(f),            // a removed file
		"/proc/self/fd/" + fdString(f) + "/x",     //
		long,                                      // longer than PATH_MAX
		long + "x",                                //
		tr.path("sb/" + strings.Repeat("n", 300)), // a name longer than NAME_MAX
	}
	for _, p := range fallbacks {
		pr, _, _ := requireSameResolve(t, p)
		assert.Equal(t, notProven, pr, "the kernel must not answer for %q", p)
		requireSameContains(t, tr.path("sb"), p)
		requireSameContains(t, tr.path("sblink"), p)
	}

	// A name that merely ends in " (deleted)" is answered without /proc.
	pr, got, err := requireSameResolve(t, tr.path("sb/gone (deleted)"))
	require.NoError(t, err)
	assert.Equal(t, tr.path("sb/gone (deleted)"), got)
	if kernelWorks() {
		assert.Equal(t, proofClean, pr)
	}
}

// pathLimit is PATH_MAX on Linux and macOS alike.
const pathLimit = 4096

func fdString(f *os.File) string { return strconv.Itoa(int(f.Fd())) }

// TestKernelFallbackPermission: an unsearchable directory makes the kernel
// fail with EACCES, and the user-space resolver reports the error.
func TestKernelFallbackPermission(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root can search any directory")
	}
	tr := buildSandboxTree(t)
	tr.file("sb/locked/inner/x")
	tr.link("sb/tolocked", "locked/inner")
	require.NoError(t, os.Chmod(tr.path("sb/locked"), 0))
	t.Cleanup(func() { _ = os.Chmod(tr.path("sb/locked"), 0o755) })
	for _, rel := range []string{"sb/locked/inner/x", "sb/locked/new", "sb/tolocked/x", "sb/locked"} {
		p := tr.path(rel)
		pr, _, _ := requireSameResolve(t, p)
		if rel != "sb/locked" {
			assert.Equal(t, notProven, pr, p)
		}
		requireSameContains(t, tr.path("sb"), p)
		requireSameContains(t, tr.path("sb/locked/inner"), p)
	}
}

// TestKernelSandboxTree compares the kernel-first and the user-space
// answers of Resolve, Contains and Root.Contains on every path of the
// hand-made tree, for roots with and without symlinks, missing and unclean.
func TestKernelSandboxTree(t *testing.T) {
	tr := buildSandboxTree(t)
	roots := []string{"sb", "sblink", "sb/", "sb//", "sb/.", "sb/a/..", "sb/dirlink", "sb/deeplink/..", "sb/missing", "sb/dangout", "sb/file.txt", "sb/rootlink", "sb/self", "/"}
	var paths []string
	forEachProbe(tr.path("sb"), 2, func(p string) { paths = append(paths, p) })
	for _, rel := range []string{"sb/dirlink", "sb/deeplink", "sb/up", "sb/chain1", "sb/dangout", "sb/rootlink", "sblink"} {
		for _, tail := range []string{"", "/", "/..", "/../..", "/c", "/x/y", "/../outside/secret", "/./a"} {
			paths = append(paths, tr.path(rel)+tail)
		}
	}
	for _, p := range paths {
		requireSameResolve(t, p)
		for _, r := range roots {
			requireSameContains(t, tr.path(r), p)
		}
	}
}

func TestCleanState(t *testing.T) {
	tr := buildSandboxTree(t)
	roots := []string{"sb", "sb/", "sb//", "sb/.", "sb/./", "sb/a/..", "sb/a/../", "$B//sb", "sb/file.txt", "/"}
	tails := []string{"", "/", "//", "/a", "/a/", "/./a", "/..", "/../..", "/dirlink/..", "/up/outside", "/missing/../a", "/x/y", "/self"}
	for _, r := range roots {
		root := tr.path(r)
		slow := resolver{cur: root, maxLinks: MaxLinks}
		require.NoError(t, slow.run())
		clean := filepath.Clean(root)
		require.Equal(t, clean, slow.result())
		fast := cleanState(root, clean)
		require.Equal(t, clean, fast.result(), "cleanState(%q)", root)
		for _, tail := range tails {
			p := root + tail
			want, wantErr := resolveUnder(&slow, root, p)
			got, err := resolveUnder(&fast, root, p)
			require.Equal(t, errText(wantErr), errText(err), "root %q, path %q", root, p)
			require.Equal(t, want, got, "root %q, path %q", root, p)
		}
	}
}

func TestIsClean(t *testing.T) {
	tests := map[string]bool{
		"/": true, "/a": true, "/a/b": true, "/a/..b": true, "/a/b.": true, "/a (deleted)": true,
		"": false, "a": false, "//": false, "/a/": false, "/a//b": false, "/.": false, "/..": false,
		"/a/.": false, "/a/./b": false, "/a/../b": false, "/a/..": false, "pipe:[12]": false,
	}
	for p, want := range tests {
		assert.Equal(t, want, isClean([]byte(p)), strconv.Quote(p))
		if want {
			assert.Equal(t, p, filepath.Clean(p))
		}
	}
	assert.True(t, hasDeletedSuffix([]byte("/a (deleted)")))
	assert.False(t, hasDeletedSuffix([]byte("/a (deleted)x")))
	assert.False(t, hasDeletedSuffix([]byte("deleted)")))
}

func TestLexicallyBeneath(t *testing.T) {
	tests := []struct {
		root, p string
		want    bool
	}{
		{"/sb", "/sb", true}, {"/sb", "/sb/a", true}, {"/sb/", "/sb/a", true}, {"/sb", "/sb-evil", false},
		{"/sb", "/s", false}, {"/", "/a", true}, {"/sb/.", "/sb/./a", true}, {"/sb/.", "/sb/.a", false},
		{"", "/a", false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, lexicallyBeneath(tt.root, tt.p), "%q %q", tt.root, tt.p)
	}
}

func TestLexicalParent(t *testing.T) {
	tests := map[string]string{
		"/": "/", "/a": "/", "/a/": "/", "//a//": "/", "/a/b": "/a", "/a/b/": "/a", "/a//b//": "/a", "/a/./b": "/a/.", "/a/b/.": "/a/b",
	}
	for p, want := range tests {
		assert.Equal(t, want, lexicalParent(p), strconv.Quote(p))
	}
}
