package main

import (
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// isTTY reports whether r is a terminal (not merely a character device
// such as /dev/null).
func isTTY(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}
