package pathres

import (
	"errors"
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
func lstat(name string) (kind, error) {
	fi, err := os.Lstat(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return kindMissing, nil
		}
		return kindMissing, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return kindSymlink, nil
	}
	return kindOther, nil
}

// readlink returns the target of the symlink name.
func readlink(name string) (string, error) {
	return os.Readlink(name)
}
