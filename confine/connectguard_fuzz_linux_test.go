package confine

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"golang.org/x/sys/unix"
)

// sockaddrUn is the bytes of a struct sockaddr_un of family family (in
// native, little-endian order) followed by name, as a connect(2) gets it.
func sockaddrUn(family uint16, name string) []byte {
	return append([]byte{byte(family), byte(family >> 8)}, name...)
}

// TestUnixAddress: the guard reads a connect's AF_UNIX address as the
// kernel does: an abstract name, or a path up to its first NUL (or the
// end), and refuses what names nothing.
func TestUnixAddress(t *testing.T) {
	long := string(bytes.Repeat([]byte("a"), sockaddrUnixMax-2))
	for _, tt := range []struct {
		name     string
		addr     []byte
		path     string
		abstract bool
		errno    unix.Errno
	}{
		{"a path with its NUL", sockaddrUn(unix.AF_UNIX, "/home/u/.ssh/ctl.sock\x00"), "/home/u/.ssh/ctl.sock", false, 0},
		{"a path without NUL", sockaddrUn(unix.AF_UNIX, "x.sock"), "x.sock", false, 0},
		{"a path with bytes after its NUL", sockaddrUn(unix.AF_UNIX, "a.sock\x00/home/u/b.sock"), "a.sock", false, 0},
		{"a path filling the structure", sockaddrUn(unix.AF_UNIX, long), long, false, 0},
		{"one byte too long", sockaddrUn(unix.AF_UNIX, long+"b"), "", false, unix.EINVAL},
		{"an abstract name", sockaddrUn(unix.AF_UNIX, "\x00name"), "", true, 0},
		{"an abstract name with a path after", sockaddrUn(unix.AF_UNIX, "\x00/home/u/x.sock"), "", true, 0},
		{"the empty abstract name", sockaddrUn(unix.AF_UNIX, "\x00"), "", true, 0},
		{"no name", sockaddrUn(unix.AF_UNIX, ""), "", false, unix.EINVAL},
		{"the family alone, half", []byte{unix.AF_UNIX}, "", false, unix.EINVAL},
		{"nothing", nil, "", false, unix.EINVAL},
		{"another family", sockaddrUn(unix.AF_INET, "/home/u/x.sock"), "", false, unix.EINVAL},
		{"AF_UNIX in the high byte", sockaddrUn(unix.AF_UNIX<<8, "/home/u/x.sock"), "", false, unix.EINVAL},
		{"AF_UNSPEC", sockaddrUn(unix.AF_UNSPEC, "/x"), "", false, unix.EINVAL},
	} {
		path, abstract, errno := unixAddress(tt.addr)
		assert.Equal(t, tt.path, path, tt.name)
		assert.Equal(t, tt.abstract, abstract, tt.name)
		assert.Equal(t, tt.errno, errno, tt.name)
	}
}

// FuzzUnixAddress: whatever a command passes to connect, the guard's
// reading of it is the kernel's: a path is never empty, never holds a
// NUL, and is what precedes the first NUL of the name; an abstract name
// starts with a NUL; nothing longer than struct sockaddr_un is read.
func FuzzUnixAddress(f *testing.F) {
	for _, seed := range [][]byte{
		sockaddrUn(unix.AF_UNIX, "/home/u/.ssh/ctl.sock\x00"),
		sockaddrUn(unix.AF_UNIX, "rel.sock"),
		sockaddrUn(unix.AF_UNIX, "\x00abstract"),
		sockaddrUn(unix.AF_UNIX, "a\x00b"),
		sockaddrUn(unix.AF_INET, "x"),
		{unix.AF_UNIX, 0},
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, addr []byte) {
		path, abstract, errno := unixAddress(addr)
		valid := len(addr) > 2 && len(addr) <= sockaddrUnixMax && addr[0] == unix.AF_UNIX && addr[1] == 0
		if !valid {
			if errno != unix.EINVAL || path != "" || abstract {
				t.Fatalf("%q: read as %q, abstract %v, errno %v", addr, path, abstract, errno)
			}
			return
		}
		if errno != 0 {
			t.Fatalf("%q: refused (%v)", addr, errno)
		}
		if abstract != (addr[2] == 0) {
			t.Fatalf("%q: abstract %v", addr, abstract)
		}
		if abstract {
			if path != "" {
				t.Fatalf("%q: an abstract name read as path %q", addr, path)
			}
			return
		}
		name, _, _ := bytes.Cut(addr[2:], []byte{0})
		if path == "" || bytes.IndexByte([]byte(path), 0) >= 0 || path != string(name) {
			t.Fatalf("%q: read as path %q", addr, path)
		}
	})
}

// viewLinks is readlink in a view as bubblewrap makes it: selfLinks lead
// into /proc/self.
func viewLinks(link string) (string, error) {
	switch link {
	case "/dev/fd":
		return "/proc/self/fd", nil
	case "/dev/stdin":
		return "/proc/self/fd/0", nil
	case "/dev/stdout":
		return "/proc/self/fd/1", nil
	case "/dev/stderr":
		return "/proc/self/fd/2", nil
	}
	return "", errors.New("not a link")
}

// TestThreadPath: the guard reads /proc/self, /proc/thread-self and the
// view's links to them (/dev/fd, /dev/stdin, /dev/stdout, /dev/stderr) at
// the start of a path as the command's thread, and leaves every other
// path, and a link the command replaced by one leading elsewhere, to the
// lookup.
func TestThreadPath(t *testing.T) {
	replaced := func(link string) (string, error) {
		if link == "/dev/fd" {
			return "/home/u/sockets", nil
		}
		return viewLinks(link)
	}
	gone := func(string) (string, error) { return "", errors.New("no such file") }
	for _, tt := range []struct {
		path     string
		readlink func(string) (string, error)
		want     string
	}{
		{"/proc/self/fd/3", viewLinks, "/proc/42/fd/3"},
		{"/proc/thread-self/fd/3", viewLinks, "/proc/42/fd/3"},
		{"/proc/self/cwd/x.sock", viewLinks, "/proc/42/cwd/x.sock"},
		{"/dev/fd/3", viewLinks, "/proc/42/fd/3"},
		{"/dev/stdin", viewLinks, "/proc/42/fd/0"},
		{"/dev/stdout", viewLinks, "/proc/42/fd/1"},
		{"/dev/stderr", viewLinks, "/proc/42/fd/2"},
		{"/dev/fd", viewLinks, "/proc/42/fd"},
		{"/dev/fdx/3", viewLinks, "/dev/fdx/3"},
		{"/dev/stdinx", viewLinks, "/dev/stdinx"},
		{"/dev/fd/3", replaced, "/dev/fd/3"},
		{"/dev/stdin", replaced, "/proc/42/fd/0"},
		{"/dev/fd/3", gone, "/dev/fd/3"},
		{"/dev/./fd/3", viewLinks, "/dev/./fd/3"},
		{"dev/fd/3", viewLinks, "dev/fd/3"},
		{"/proc/selfish/fd/3", viewLinks, "/proc/selfish/fd/3"},
		{"/home/u/.ssh/ctl.sock", viewLinks, "/home/u/.ssh/ctl.sock"},
		{"x.sock", viewLinks, "x.sock"},
	} {
		assert.Equal(t, tt.want, threadPath(tt.path, 42, tt.readlink), tt.path)
	}
}

// FuzzThreadPath: whatever path a command connects to, the guard's path
// never names the helper through /proc/self or /proc/thread-self at its
// start, names the command's thread where the path started with one of
// them or a link of the view to them, and is the path itself otherwise.
func FuzzThreadPath(f *testing.F) {
	for _, seed := range []string{"/proc/self/fd/3", "/proc/thread-self/fd/3", "/dev/fd/3", "/dev/stdin", "/dev/stderr/x", "/dev/fdx", "/dev/fd", "x.sock", "/home/u/a.sock", "/proc/self", ""} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, path string) {
		got := threadPath(path, 42, viewLinks)
		if strings.HasPrefix(got, "/proc/self/") || strings.HasPrefix(got, "/proc/thread-self/") {
			t.Fatalf("%q: read as %q, the helper's", path, got)
		}
		viaLink := false
		for _, link := range selfLinks {
			if rest, ok := strings.CutPrefix(path, link); ok && (rest == "" || rest[0] == '/') {
				viaLink = true
			}
		}
		self := strings.HasPrefix(path, "/proc/self/") || strings.HasPrefix(path, "/proc/thread-self/")
		switch {
		case viaLink || self:
			if !strings.HasPrefix(got, "/proc/42/") && got != "/proc/42/fd" {
				t.Fatalf("%q: read as %q, not the command's thread", path, got)
			}
		case got != path:
			t.Fatalf("%q: changed to %q", path, got)
		}
	})
}
