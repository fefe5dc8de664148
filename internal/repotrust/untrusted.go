package repotrust

import (
	"fmt"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// ReadUntrusted reads a file that a confined command could have planted:
// without following a final symbolic link (to /dev/zero, say), without
// blocking on a FIFO, and only when it is a regular file of at most limit
// bytes. A missing file is an error matching fs.ErrNotExist.
func ReadUntrusted(path string, limit int64) ([]byte, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	f := os.NewFile(uintptr(fd), path)
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > limit {
		return nil, fmt.Errorf("%s is not a regular file of at most %d bytes", path, limit)
	}
	return io.ReadAll(io.LimitReader(f, limit))
}
