package confine

import (
	"os"

	"golang.org/x/sys/unix"
)

// A standard stream that is one of the caller's files (a terminal, a
// pipe, a file) is passed to the command as the same open file
// description, whose status flags (O_NONBLOCK, O_APPEND, O_ASYNC, ...)
// belong to every process holding it: a command that makes the user's
// terminal non-blocking leaves every program the user's shell starts
// afterwards reading it with EAGAIN. So the starting thread notes the
// flags of each such stream before the command starts and puts them back
// once the sandbox has ended.

// streamFlags are the status flags of one stream's open file
// description, with a descriptor of its own for it (the caller may close
// its file meanwhile).
type streamFlags struct {
	fd    int
	flags int
}

// snapshotStreamFlags returns the status flags of the streams that are
// files.
func snapshotStreamFlags(streams ...any) []streamFlags {
	var out []streamFlags
	for _, s := range streams {
		f, ok := s.(*os.File)
		if !ok || f == nil {
			continue
		}
		fd, err := unix.FcntlInt(f.Fd(), unix.F_DUPFD_CLOEXEC, 3)
		if err != nil {
			continue
		}
		flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
		if err != nil {
			unix.Close(fd)
			continue
		}
		out = append(out, streamFlags{fd: fd, flags: flags})
	}
	return out
}

// restoreStreamFlags puts back the flags in states where they changed,
// and closes the descriptors.
func restoreStreamFlags(states []streamFlags) {
	for _, s := range states {
		if now, err := unix.FcntlInt(uintptr(s.fd), unix.F_GETFL, 0); err == nil && now != s.flags {
			_, _ = unix.FcntlInt(uintptr(s.fd), unix.F_SETFL, s.flags)
		}
		unix.Close(s.fd)
	}
}
