package pathres

import (
	"path/filepath"
	"strconv"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
)

func TestClean(t *testing.T) {
	for _, p := range []string{
		"", ".", "..", "a", "a/", "./a", "/", "//", "///a", "/a", "/a/", "/a//b", "/a/./b", "/a/../b",
		"/a/..", "/..", "/../a", "/.", "/a/b.", "/a/..b", "/a/.b/", "/a (deleted)", "a/../../b",
	} {
		assert.Equal(t, filepath.Clean(p), Clean(p), strconv.Quote(p))
	}
}

// TestCleanReturnsInput: a clean absolute path comes back as the same
// string, not a copy.
func TestCleanReturnsInput(t *testing.T) {
	p := "/tmp/sb/a/b/c.go"
	assert.Equal(t, 0.0, testing.AllocsPerRun(100, func() { _ = Clean(p) }))
	assert.Same(t, unsafe.StringData(p), unsafe.StringData(Clean(p)))
}

func FuzzClean(f *testing.F) {
	for _, s := range []string{"/", "/a/b", "/a//b/", "/a/./../b", "a/b", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if got, want := Clean(p), filepath.Clean(p); got != want {
			t.Fatalf("Clean(%q) = %q, filepath.Clean gives %q", p, got, want)
		}
	})
}
