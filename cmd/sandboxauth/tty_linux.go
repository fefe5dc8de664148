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

// inBackground reports whether r (a standard stream) is the controlling terminal of this
// process and another process group than this one's is in its
// foreground: this process is a background job of the shell that owns
// the terminal (started with &, or stopped and resumed with bg).
func inBackground(r any) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	fg, err := unix.IoctlGetInt(int(f.Fd()), unix.TIOCGPGRP)
	return err == nil && fg != unix.Getpgrp()
}
