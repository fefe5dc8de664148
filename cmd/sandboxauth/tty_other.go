//go:build !linux

package main

import "io"

// isTTY reports whether r is a terminal. Where run cannot confine anyway,
// a character device is taken for one.
func isTTY(r io.Reader) bool { return isTerminal(r) }
