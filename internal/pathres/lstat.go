package pathres

import (
	"io/fs"
	"os"
	"syscall"
)

// kind is what lstat found at a path.
type kind uint8

const (
	kindMissing kind = iota // does not exist, or a prefix is not a directory
	kindSymlink
	kindOther // a directory or any other file
)

// lstat classifies name without following a final symlink. "Does not exist"
// and "not a directory" are not errors: they make the component missing.
//
// It calls syscall.Lstat (available on Linux and macOS alike) with a Stat_t
// on the stack instead of os.Lstat, which allocates a FileInfo and wraps
// every error: this is the hot path, one call per component. Other errors
// are returned as *fs.PathError, as os.Lstat would.
func lstat(name string) (kind, error) {
	var st syscall.Stat_t
	for {
		err := syscall.Lstat(name, &st)
		switch err {
		case nil:
			if uint32(st.Mode)&syscall.S_IFMT == syscall.S_IFLNK {
				return kindSymlink, nil
			}
			return kindOther, nil
		case syscall.EINTR:
			continue
		case syscall.ENOENT, syscall.ENOTDIR:
			return kindMissing, nil
		}
		return kindMissing, &fs.PathError{Op: "lstat", Path: name, Err: err}
	}
}

// readlink returns the target of the symlink name.
func readlink(name string) (string, error) {
	return os.Readlink(name)
}
