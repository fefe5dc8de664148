package pathres

import (
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// Openat2 is openat2(2), tried again when the kernel asks for it: EAGAIN
// (a lookup confined by RESOLVE_BENEATH or RESOLVE_IN_ROOT that a
// concurrent rename or mount could have led astray) or EINTR, up to 16
// times in all. Callers that walk a directory a concurrent program
// changes (a confined command in the same sandbox) would otherwise take a
// transient failure for a missing or unreadable path.
func Openat2(dir int, path string, how *unix.OpenHow) (int, error) {
	for i := 0; ; i++ {
		fd, err := unix.Openat2(dir, path, how)
		if (err != unix.EAGAIN && err != unix.EINTR) || i == 15 {
			return fd, err
		}
	}
}

// OpenBeneathOwned opens rel beneath the directory root as how says, one
// element at a time (so that rel may be longer than PATH_MAX), giving the
// owner back read, write and search permission on each directory on the
// way that refuses it (EACCES): a program confined in a directory can
// take those permissions away from its own directories, which the
// caller, looking after what it left, must still get through. how
// applies to each element.
func OpenBeneathOwned(root int, rel string, how *unix.OpenHow) (int, error) {
	cur, err := unix.Dup(root)
	if err != nil {
		return -1, err
	}
	if rel == "." || rel == "" {
		return cur, nil
	}
	for _, elem := range strings.Split(rel, "/") {
		next, err := Openat2(cur, elem, how)
		if err == unix.EACCES {
			GiveOwnerAccess(cur)
			next, err = Openat2(cur, elem, how)
		}
		unix.Close(cur)
		if err != nil {
			return -1, err
		}
		cur = next
	}
	return cur, nil
}

// GiveOwnerAccess gives the owner of the directory fd (opened O_PATH or
// not) read, write and search permission on it, keeping its other bits.
func GiveOwnerAccess(fd int) {
	var st unix.Stat_t
	if unix.Fstat(fd, &st) == nil {
		_ = unix.Fchmodat(unix.AT_FDCWD, "/proc/self/fd/"+strconv.Itoa(fd), st.Mode&0o7777|0o700, 0)
	}
}
