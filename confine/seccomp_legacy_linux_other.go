//go:build linux && !amd64

package confine

// legacyModeSetters: the architectures other than x86-64 built here have
// only the *at forms of the calls that set a file's mode.
var legacyModeSetters = [...]modeSetter{}
