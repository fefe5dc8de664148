// Package auth defines the minimal interface a tool consults before it
// touches the file system or runs a command.
//
// Tool packages depend on this package alone, so that they can be built and
// tested without any policy code. The policies themselves live in the root
// package, github.com/sandboxauth/sandboxauth.
package auth

// An Authorizer answers whether a tool may read or write some paths, or run a
// shell command. A nil error means the call is authorized; any other error
// means it is not, and the error's message is written for the model that made
// the call: what was refused, why, and what it may do instead.
//
// requestPermission is the model asking explicitly for permission, with
// requestReason saying why. A policy may use it to ask a person about a call
// it would otherwise allow (reading a .env file) or refuse (writing outside a
// sandbox), or it may disregard it.
//
// sandboxDir, every path and cwd must be absolute. A read or write call
// with no path names nothing to refuse: it returns nil, and that nil covers
// no path. command is an argv that the tool runs
// directly (as os/exec does), not through a shell, unless command[0] is itself
// a shell given a script.
//
// A nil error is not a guarantee that the operation will succeed: file
// permissions or OS-level sandboxing may still refuse it.
//
// Implementations must be safe for concurrent use. A call may block while a
// person is asked.
type Authorizer interface {
	// IsAuthorizedForRead reports whether toolName may read every path in absPath.
	IsAuthorizedForRead(requestPermission bool, requestReason string, toolName string, sandboxDir string, absPath ...string) error
	// IsAuthorizedForWrite reports whether toolName may write (create, modify
	// or delete) every path in absPath.
	IsAuthorizedForWrite(requestPermission bool, requestReason string, toolName string, sandboxDir string, absPath ...string) error
	// IsShellAuthorized reports whether command may run with working
	// directory cwd.
	IsShellAuthorized(requestPermission bool, requestReason string, sandboxDir string, cwd string, command []string) error
}
