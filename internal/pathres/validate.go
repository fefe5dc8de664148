package pathres

import (
	"errors"
	"fmt"
	"strings"
)

// Input errors. They report a path that cannot be resolved at all; they are
// not denials, and a caller must never treat them as "inside". The errors
// returned by [Validate], [Resolve] and [Contains] wrap them, so test with
// [errors.Is].
var (
	// ErrEmpty reports an empty path.
	ErrEmpty = errors.New("empty path")
	// ErrNotAbsolute reports a path that does not begin with "/".
	ErrNotAbsolute = errors.New("path is not absolute")
	// ErrNUL reports a path that contains a NUL byte, which no system call
	// accepts and which could truncate the path in C code.
	ErrNUL = errors.New("path contains a NUL byte")
)

// Validate checks that p is a usable absolute path: it must be non-empty,
// contain no NUL byte and begin with "/". The returned error wraps
// [ErrEmpty], [ErrNUL] or [ErrNotAbsolute] (checked in that order) and names
// the path, quoted with %q. Validate does not touch the file system and does
// not require p to be clean.
func Validate(p string) error {
	if err := checkPath(p); err != nil {
		return fmt.Errorf("pathres: %w: %q", err, p)
	}
	return nil
}

// checkPath returns the bare sentinel for a bad path, or nil.
func checkPath(p string) error {
	switch {
	case p == "":
		return ErrEmpty
	case strings.IndexByte(p, 0) >= 0:
		return ErrNUL
	case p[0] != '/':
		return ErrNotAbsolute
	}
	return nil
}
