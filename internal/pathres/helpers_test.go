package pathres

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// testTree builds a directory tree in a fresh t.TempDir. base is the real
// path of the temporary directory (on macOS, t.TempDir lives under the
// symlink /var -> /private/var).
type testTree struct {
	tb   testing.TB
	base string
}

func newTestTree(tb testing.TB) *testTree {
	tb.Helper()
	base, err := filepath.EvalSymlinks(tb.TempDir())
	require.NoError(tb, err)
	return &testTree{tb: tb, base: base}
}

// path returns base joined with rel without cleaning it, so that test paths
// may contain "..", "." and repeated slashes. "$B" in rel is replaced by
// base; a rel beginning with "/" after that is returned as is.
func (tr *testTree) path(rel string) string {
	rel = strings.ReplaceAll(rel, "$B", tr.base)
	if strings.HasPrefix(rel, "/") {
		return rel
	}
	return tr.base + "/" + rel
}

func (tr *testTree) dir(rel string) {
	tr.tb.Helper()
	require.NoError(tr.tb, os.MkdirAll(tr.path(rel), 0o755))
}

func (tr *testTree) file(rel string) {
	tr.tb.Helper()
	p := tr.path(rel)
	require.NoError(tr.tb, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(tr.tb, os.WriteFile(p, []byte("x"), 0o644))
}

// link creates the symlink rel -> target; "$B" in target is replaced by
// base.
func (tr *testTree) link(rel, target string) {
	tr.tb.Helper()
	p := tr.path(rel)
	require.NoError(tr.tb, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(tr.tb, os.Symlink(strings.ReplaceAll(target, "$B", tr.base), p))
}

// resolveLimit is Resolve with a different link limit, so that results can
// be compared with filepath.EvalSymlinks, which gives up after 255 links.
func resolveLimit(p string, limit int) (string, error) {
	if err := Validate(p); err != nil {
		return "", err
	}
	r := resolver{cur: p, maxLinks: limit}
	if err := r.run(); err != nil {
		return "", err
	}
	return r.result(), nil
}

// evalLimit is filepath.EvalSymlinks's own link limit.
const evalLimit = 255

// isEvalLoop reports whether err is filepath.EvalSymlinks's "too many links".
func isEvalLoop(err error) bool {
	return err != nil && strings.Contains(err.Error(), "too many links")
}

// chdirUnrecorded changes this process's working directory to dir for the
// rest of the test, as t.Chdir does, but without recording dir as an input
// of the test: go test keys its result cache on every directory a test
// changes into, and a fresh temporary directory's name differs on every
// run, so t.Chdir into one means that the package's tests never hit the
// cache. The tests open only absolute paths after the change, so the
// directory is not an input. The test must not run in parallel.
func chdirUnrecorded(t *testing.T, dir string) {
	t.Helper()
	old, err := os.Getwd()
	require.NoError(t, err)
	require.NoError(t, syscall.Chdir(dir))
	t.Cleanup(func() { require.NoError(t, syscall.Chdir(old)) })
}
