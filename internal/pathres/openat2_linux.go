package pathres

import "golang.org/x/sys/unix"

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
