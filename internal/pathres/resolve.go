package pathres

import (
	"errors"
	"fmt"
)

// MaxLinks is the number of symbolic links that one resolution may follow,
// as Linux's MAXSYMLINKS. Following one more makes [Resolve] return
// [ErrLoop].
const MaxLinks = 40

// ErrLoop reports that resolving a path followed more than [MaxLinks]
// symbolic links: the path contains a symlink loop (or a chain too long for
// the kernel to follow, which the kernel refuses with ELOOP as well).
var ErrLoop = errors.New("too many levels of symbolic links")

// ErrProcLink reports that resolving a path met a symbolic link inside
// /proc (/proc/self, /proc/thread-self, /proc/PID/cwd, /proc/PID/fd/N,
// ...). Such a link names what the resolving process sees: its own
// process, working directory or descriptors. The program that later uses
// the path (a command, another process's tool) sees its own, so no answer
// found here holds for it, and none is given.
var ErrProcLink = errors.New("a symbolic link in /proc names what the resolving process sees, not what the process using the path will")

// Resolve returns the real path of the absolute path p, as the kernel would
// resolve it when opening p, without requiring that p exists. See the
// package documentation for the exact rules. The result is clean and
// absolute. Errors wrap [ErrEmpty], [ErrNUL] or [ErrNotAbsolute] for bad
// input, [ErrLoop] for a symlink loop, [ErrProcLink] for a path that passes
// a symbolic link in /proc, or the *fs.PathError of a failed
// Lstat or Readlink other than "does not exist" and "not a directory"
// (for example EACCES); on error the returned path is "".
//
// On Linux the kernel is asked first (see "Fast path" in the package
// documentation); its answer, when it gives one, is the same path.
func Resolve(p string) (string, error) {
	return resolve(p, true)
}

// resolve is Resolve; kernel false resolves in user space only, which tests
// use to compare the two.
func resolve(p string, kernel bool) (string, error) {
	if err := Validate(p); err != nil {
		return "", err
	}
	if kernel {
		if real, pr := kernelResolve(p, tryAll); pr != notProven {
			return real, nil
		}
	}
	r := resolver{cur: p, maxLinks: MaxLinks}
	if err := r.run(); err != nil {
		return "", resolveError("", p, err)
	}
	return r.result(), nil
}

// resolveError wraps an error of resolver.run for path p; what, if not
// empty, says which path it is ("sandbox root: ").
func resolveError(what, p string, err error) error {
	if errors.Is(err, ErrLoop) {
		return fmt.Errorf("pathres: %s%w (more than %d links followed) resolving %q", what, err, MaxLinks, p)
	}
	return fmt.Errorf("pathres: %sresolving %q: %w", what, p, err)
}

// resolver walks a path component by component. Its state after a prefix of
// the components depends only on that prefix, which lets [Contains] resolve
// the sandbox root once and continue from there for a path beneath it.
//
// Invariants:
//   - cur is the path being walked; cur[pos:] is what is left to walk. When a
//     symlink is followed, cur is rebuilt as target + rest.
//   - cur[:outEnd] is the result so far: "" (meaning "/") or a clean absolute
//     path. It is always a prefix of cur, so that in the common case (a clean
//     path without symlinks) the candidate for the next Lstat and the final
//     result are substrings of the input and cost no allocation.
//   - cur[:realEnd] (realEnd <= outEnd, on a component boundary) is the part
//     of the result that exists and contains no symlink. cur[realEnd:outEnd]
//     are literal components that follow a missing (or non-directory)
//     component; they are never looked up. When ".." pops them all,
//     resolution resumes with Lstat.
type resolver struct {
	cur      string
	pos      int
	outEnd   int
	realEnd  int
	links    int
	maxLinks int
}

// result returns the resolved path once run has succeeded.
func (r *resolver) result() string {
	if r.outEnd == 0 {
		return "/"
	}
	return r.cur[:r.outEnd]
}

// run walks cur[pos:] to its end.
func (r *resolver) run() error {
	for {
		// Skip separators.
		for r.pos < len(r.cur) && r.cur[r.pos] == '/' {
			r.pos++
		}
		if r.pos == len(r.cur) {
			return nil
		}
		end := r.pos
		for end < len(r.cur) && r.cur[end] != '/' {
			end++
		}
		switch r.cur[r.pos:end] {
		case ".":
			r.pos = end
			continue
		case "..":
			// cur[:outEnd] is clean and free of symlinks (or literal), so
			// its lexical parent is its real parent. The parent of "/" is
			// "/".
			i := r.outEnd - 1
			for i > 0 && r.cur[i] != '/' {
				i--
			}
			if i < 0 {
				i = 0
			}
			r.outEnd = i
			if r.realEnd > r.outEnd {
				r.realEnd = r.outEnd
			}
			r.pos = end
			continue
		}

		// An ordinary component. Make cur[:outEnd] + "/" + name contiguous
		// in cur, so that the candidate is a substring.
		if r.pos != r.outEnd+1 {
			// "." or ".." were skipped, or separators were doubled:
			// splice them out. Only unclean input pays this allocation.
			r.cur = r.cur[:r.outEnd] + r.cur[r.pos-1:]
			end -= r.pos - (r.outEnd + 1)
			r.pos = r.outEnd + 1
		}
		if r.outEnd > r.realEnd {
			// Beneath a missing component: keep it literally.
			r.outEnd, r.pos = end, end
			continue
		}
		name := r.cur[:end]
		k, err := lstat(name)
		if err != nil {
			return err
		}
		switch k {
		case kindMissing:
			// Missing, or its parent is not a directory: literal from here.
			r.outEnd, r.pos = end, end
		case kindSymlink:
			if Within("/proc", name) {
				return ErrProcLink
			}
			r.links++
			if r.links > r.maxLinks {
				return ErrLoop
			}
			target, err := readlink(name)
			if err != nil {
				return err
			}
			if target == "" {
				// The kernel fails an empty link with ENOENT: treat the
				// link like a missing component.
				r.outEnd, r.pos = end, end
				continue
			}
			rest := r.cur[end:]
			if target[0] == '/' {
				r.cur = target + rest
				r.outEnd, r.realEnd, r.pos = 0, 0, 0
			} else {
				// Relative to the link's directory, cur[:outEnd].
				r.cur = r.cur[:r.outEnd] + "/" + target + rest
				r.pos = r.outEnd
			}
		default:
			// An existing directory or other file. A non-directory
			// followed by more components makes the next Lstat fail with
			// ENOTDIR, which turns those components literal.
			r.outEnd, r.realEnd, r.pos = end, end, end
		}
	}
}
