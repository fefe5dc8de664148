package sandboxauth

import (
	"errors"
	"strings"

	"github.com/sandboxauth/sandboxauth/internal/pathres"
)

// placement says where a call's paths lie relative to its sandbox.
type placement struct {
	root    string   // the sandbox directory, resolved
	real    []string // each path, resolved ("" when it could not be)
	outside []string // the paths (as given) that are not inside root
	where   []string // where each outside path leads, or why it could not be resolved
}

// checkDir validates an absolute directory argument (the sandbox or a
// working directory). what names it in the error.
func checkDir(what, dir string) error {
	if err := pathres.Validate(dir); err != nil {
		return invalid(ErrInvalidPath, "sandboxauth: %s %q is not usable: %v; pass an absolute path", what, dir, errors.Unwrap(err))
	}
	return nil
}

// checkPaths validates the paths of a read or write.
func checkPaths(paths []string) error {
	for _, p := range paths {
		if err := pathres.Validate(p); err != nil {
			return invalid(ErrInvalidPath, "sandboxauth: path %q is not usable: %v; pass absolute paths only", p, errors.Unwrap(err))
		}
	}
	return nil
}

// checkArgv validates a shell command.
func checkArgv(argv []string) error {
	if len(argv) == 0 || argv[0] == "" {
		return invalid(ErrEmptyCommand, "sandboxauth: the shell command is empty or names no program; pass the program and its arguments as argv")
	}
	for i, w := range argv {
		if strings.IndexByte(w, 0) >= 0 {
			return invalid(ErrInvalidCommand, "sandboxauth: argument %d of the command contains a NUL byte, which no program can receive", i)
		}
	}
	return nil
}

// validateCall checks that c is well formed without resolving anything: an
// absolute sandbox, absolute paths, a non-empty argv and an absolute (or
// empty) working directory.
func validateCall(c *call) error {
	if err := checkDir("sandbox directory", c.sandboxDir); err != nil {
		return err
	}
	if c.op != OpShell {
		return checkPaths(c.paths)
	}
	if err := checkArgv(c.argv); err != nil {
		return err
	}
	if c.cwd != "" {
		return checkDir("working directory", c.cwd)
	}
	return nil
}

// place validates sandboxDir and paths and resolves them, the sandbox once.
// A path that cannot be resolved (a symlink loop, an unreadable directory)
// counts as outside: nothing proves it is inside. A path is inside only when
// both its kernel resolution and the resolution of its lexically cleaned form
// lie in the resolved sandbox, so that a tool which cleans paths before use
// cannot be led out either.
//
// A path beneath the sandbox that has no symlink is placed with one kernel
// call that proves the sandbox's resolution too (pathres.Proven); the
// sandbox is resolved on its own only for the other paths.
func place(sandboxDir string, paths []string) (placement, error) {
	if err := checkDir("sandbox directory", sandboxDir); err != nil {
		return placement{}, err
	}
	if err := checkPaths(paths); err != nil {
		return placement{}, err
	}
	pl := placement{real: make([]string, len(paths))}
	var root *pathres.Root
	resolveRoot := func() (err error) {
		if root == nil {
			if root, err = newRoot(sandboxDir); err == nil {
				pl.root = root.Real()
			}
		}
		return err
	}
	for i, p := range paths {
		r, in, ok := pathres.Proven(sandboxDir, p)
		if ok {
			if pl.root == "" {
				pl.root = pathres.Clean(sandboxDir)
			}
		} else {
			if err := resolveRoot(); err != nil {
				return placement{}, err
			}
			var err error
			if r, in, err = root.Contains(p); err != nil {
				pl.outside = append(pl.outside, p)
				pl.where = append(pl.where, "unresolvable: "+err.Error())
				continue
			}
		}
		if !in {
			if pathres.Within(pl.root, r) {
				r += ", but its cleaned form leads outside"
			}
			pl.outside = append(pl.outside, p)
			pl.where = append(pl.where, r)
			continue
		}
		pl.real[i] = r
	}
	if pl.root == "" { // no paths: the sandbox must still resolve
		if err := resolveRoot(); err != nil {
			return placement{}, err
		}
	}
	return pl, nil
}

// newRoot resolves the sandbox directory, or says why it cannot be.
func newRoot(sandboxDir string) (*pathres.Root, error) {
	root, err := pathres.NewRoot(sandboxDir)
	if err != nil {
		return nil, invalid(ErrInvalidPath, "sandboxauth: sandbox directory %q cannot be resolved: %v", sandboxDir, err)
	}
	return root, nil
}

// placedDir is the working directory of a shell call, placed against the
// sandbox once, by whichever needs it first: the classifier, when it
// resolves a path beneath the directory with the one kernel call that
// proves where the directory leads too (ProvenBeneath), or place. It
// belongs to one call and is not safe for concurrent use.
type placedDir struct {
	sandbox, dir string // as given
	done         bool   // placed (or failed to be)
	err          error  // why the sandbox could not be resolved
	root         string // the sandbox, resolved
	resolved     string // where dir leads, when inside
	inside       bool
}

// place places the directory, unless that is done; the error is place's
// (the sandbox cannot be resolved).
func (d *placedDir) place() error {
	if d.done {
		return d.err
	}
	d.done = true
	pl, err := place(d.sandbox, []string{d.dir})
	if err != nil {
		d.err = err
		return err
	}
	d.root = pl.root
	if len(pl.outside) == 0 {
		d.resolved, d.inside = pl.real[0], true
	}
	return nil
}

// Path is the directory as given (classify.WorkDir).
func (d *placedDir) Path() string { return d.dir }

// Place places the directory, unless that is done, and returns what
// place found (classify.WorkDir).
func (d *placedDir) Place() (resolved, root string, inside bool, err error) {
	err = d.place()
	return d.resolved, d.root, d.inside, err
}

// Placed returns the directory when it has been placed inside the sandbox
// and leads to itself (classify.WorkDir).
func (d *placedDir) Placed() (string, bool) {
	if !d.done || d.err != nil || !d.inside || d.resolved != d.dir {
		return "", false
	}
	return d.dir, true
}

// ProvenBeneath records what pathres.Proven(sandbox, p) proved about the
// directory when p lies strictly beneath it: the kernel walked every
// component of the directory, refusing symlinks, and found it a directory
// (a later component followed), so the directory leads to its cleaned
// form and the sandbox to its own, as place would have found. The proof
// rests on two facts pathres.Proven relies on: the kernel does not walk
// through a component that is not a directory (ENOTDIR, which Proven does
// not accept), and a missing tail is accepted only when p's parent opens
// as a directory, so the directory, a strict prefix of p, exists.
func (d *placedDir) ProvenBeneath(p string) {
	n := len(d.dir)
	if d.done || len(p) < n+2 || p[:n] != d.dir || p[n] != '/' || p[n+1] == '/' {
		return
	}
	d.done = true
	d.root, d.resolved = pathres.Clean(d.sandbox), pathres.Clean(d.dir)
	d.inside = pathres.Within(d.root, d.resolved)
	if !d.inside {
		d.resolved = ""
	}
}
