package confine

import (
	"bytes"
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
