//go:build !linux

package main

import "io"

// isTTY reports whether r is a terminal. Where run cannot confine anyway,
// a character device is taken for one.
func isTTY(r io.Reader) bool { return isTerminal(r) }

// inBackground reports whether this process is a background job of the
// terminal r. Where run cannot confine anyway, it never is.
func inBackground(any) bool { return false }
