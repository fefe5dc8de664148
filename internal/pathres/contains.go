package pathres

import (
	"fmt"
	"strings"
)

// Contains resolves root and p with [Resolve] and reports whether the
// resolved p is the resolved root or lies beneath it (see [Within]). It
// returns the resolved p.
//
// A tool may clean a path lexically before using it, and filepath.Clean
// disagrees with the kernel about ".." after a symlink: with link ->
// /sb/a/b/c, "/sb/link/../../etc/passwd" is /sb/a/etc/passwd to the kernel
// but /etc/passwd after Clean. So when filepath.Clean(p) != p, Contains also
// resolves filepath.Clean(p) and reports inside only if both are inside;
// resolved is always the kernel's answer. (Only ".." components can make the
// two differ: "." and repeated or trailing slashes are ignored by Resolve
// exactly as by Clean, so the second resolution is skipped for them.)
//
// When p is lexically beneath root, the components they share are resolved
// once: on Linux, when p exists (or only its tail is missing) and has no
// symlink, a single openat2 proves the resolution of both. A non-nil error
// (bad input, [ErrLoop], an unreadable directory) always comes with
// inside == false.
func Contains(root, p string) (resolved string, inside bool, err error) {
	return contains(root, p, true)
}

// Proven answers Contains(root, p) when one kernel call proves the answer,
// and reports ok false otherwise, without resolving anything in user space.
// It is the fast path for a caller that places paths beneath a directory it
// has not resolved yet: on Linux, when p is lexically beneath root and p
// exists (or only its last component is missing) without any symlink, one
// openat2 that walks p refusing symlinks walks root's components too, and
// so proves where both lead. The cost is then one openat2 and one close (two
// of each for a missing tail), with no allocation when root and p are clean.
//
// ok is false when root or p is not a valid absolute path, when p is not
// lexically beneath root, when p passes a symlink, when more than its tail
// is missing, on a kernel without openat2 and on other systems: then call
// [Contains], or [NewRoot] and [Root.Contains], which give the same answer
// the slower way. When ok is true, the resolved root is filepath.Clean(root).
func Proven(root, p string) (resolved string, inside, ok bool) {
	return ProvenFrom(root, p, "")
}

// ProvenFrom is [Proven] for a caller that has already placed dir, the
// directory that holds p's last component, and found that it leads to
// itself (no symlink on its way, as a working directory placed for this
// decision may). When p's walk stops at a missing component, Proven opens
// p's parent to prove that only the last component is missing; ProvenFrom
// takes the earlier placement of dir as that proof, so a missing tail
// costs one openat2 instead of two and a close. The answer is Contains'
// either way: the walk refused every symlink and stopped at a missing
// component, so what follows it is literal (dir too, if it has gone since
// it was placed). Any other dir (or "") changes nothing.
func ProvenFrom(root, p, dir string) (resolved string, inside, ok bool) {
	if checkPath(root) != nil || checkPath(p) != nil || !lexicallyBeneath(root, p) {
		return "", false, false
	}
	real, pr := kernelResolveFrom(p, tryClean|tryMissing, dir)
	if pr != proofClean && pr != proofCleanMissing {
		return "", false, false
	}
	return real, Within(Clean(root), real), true
}

// contains is Contains; kernel false resolves in user space only.
func contains(root, p string, kernel bool) (resolved string, inside bool, err error) {
	if err := Validate(p); err != nil {
		return "", false, err
	}
	real, pr := "", notProven
	if kernel && checkPath(root) == nil {
		real, pr = kernelResolve(p, tryAll)
		if (pr == proofClean || pr == proofCleanMissing) && lexicallyBeneath(root, p) {
			// Opening p without symlinks walked root's components first:
			// root resolves to filepath.Clean(root) (a missing tail of p
			// may include a tail of root, which is then literal in both).
			// proofClean also covers filepath.Clean(p), and
			// proofCleanMissing p has no "..".
			return real, Within(Clean(root), real), nil
		}
	}
	r, err := newRoot(root, kernel)
	if err != nil {
		return "", false, err
	}
	return r.place(p, real, pr)
}

// resolveUnder resolves p, continuing from rr (the finished resolution of
// root) when p is lexically beneath root, so that the shared components are
// looked up only once. The state after a prefix of the components depends
// only on that prefix, so the result is the same as Resolve(p).
func resolveUnder(rr *resolver, root, p string) (string, error) {
	r := resolver{cur: p, maxLinks: MaxLinks}
	if lexicallyBeneath(root, p) {
		r = *rr
		if r.cur != root {
			// root's symlinks were followed, or root was not clean: continue
			// with the rest of p.
			r.cur += p[len(root):]
		} else {
			r.cur = p // same bytes for cur[:pos], no allocation
		}
	}
	if err := r.run(); err != nil {
		return "", resolveError("", p, err)
	}
	return r.result(), nil
}

// HasDotDot reports whether the slash-separated path p (absolute or not)
// has a ".." component, the only kind of component for which
// filepath.Clean and the kernel can disagree, and the one that climbs out
// of the directory a relative path starts from.
func HasDotDot(p string) bool {
	for i := 0; ; {
		j := strings.Index(p[i:], "..")
		if j < 0 {
			return false
		}
		j += i
		if (j == 0 || p[j-1] == '/') && (j+2 == len(p) || p[j+2] == '/') {
			return true
		}
		i = j + 1
	}
}

// A Root is a directory resolved once, against which several paths can be
// placed without resolving it again. Its answer is that of Contains at the
// moment each method is called, except that the root itself is not resolved
// again: a Root is meant to live for one decision, not to be kept. A Root
// is not modified after NewRoot, so its methods may be called concurrently.
type Root struct {
	root   string   // as given
	rr     resolver // the finished resolution of root
	real   string   // rr.result()
	kernel bool     // ask the kernel first (false only in tests)
	// linked is set when root's resolution followed a symlink: a path
	// beneath root then has one too, and opening it refusing symlinks
	// would only fail.
	linked bool
}

// NewRoot validates and resolves root. On Linux, a root that exists and
// has no symlink is resolved with one openat2 (see "Fast path" in the
// package documentation); any other is resolved in user space, as before.
// Errors are those of [Resolve], prefixed with "sandbox root: ".
func NewRoot(root string) (*Root, error) {
	return newRoot(root, true)
}

// newRoot is NewRoot; kernel false resolves root and, later, every path in
// user space only.
func newRoot(root string, kernel bool) (*Root, error) {
	if err := checkPath(root); err != nil {
		return nil, fmt.Errorf("pathres: sandbox root: %w: %q", err, root)
	}
	r := &Root{root: root, kernel: kernel}
	if kernel {
		// Only the proof that root exists without symlinks gives the
		// state from which the user-space resolver can continue for a
		// path beneath root; otherwise resolve root in user space.
		if real, pr := kernelResolve(root, tryClean); pr == proofClean {
			r.rr, r.real = cleanState(root, real), real
			return r, nil
		}
	}
	r.rr = resolver{cur: root, maxLinks: MaxLinks}
	if err := r.rr.run(); err != nil {
		return nil, resolveError("sandbox root: ", root, err)
	}
	r.real = r.rr.result()
	r.linked = r.rr.links > 0
	return r, nil
}

// Real returns the resolved root.
func (r *Root) Real() string { return r.real }

// Contains is the package-level Contains with this root: it validates and
// resolves p and reports whether p (and, when p has a ".." component, its
// lexically cleaned form) lies in the root. resolved is the kernel's answer.
func (r *Root) Contains(p string) (resolved string, inside bool, err error) {
	if err := Validate(p); err != nil {
		return "", false, err
	}
	real, pr := "", notProven
	if r.kernel {
		real, pr = kernelResolve(p, r.tiersFor(p))
	}
	return r.place(p, real, pr)
}

// place finishes Contains for a valid p, given what the kernel answered
// for p: when pr is notProven, p is resolved in user space.
func (r *Root) place(p, real string, pr proof) (resolved string, inside bool, err error) {
	resolved = real
	if pr == notProven {
		if resolved, err = resolveUnder(&r.rr, r.root, p); err != nil {
			return "", false, err
		}
	}
	if !Within(r.real, resolved) {
		return resolved, false, nil
	}
	// proofClean covers filepath.Clean(p) as well: it exists without
	// symlinks and resolves to resolved.
	if HasDotDot(p) && pr != proofClean {
		clean, err := r.resolve(Clean(p))
		if err != nil {
			return resolved, false, err
		}
		if !Within(r.real, clean) {
			return resolved, false, nil
		}
	}
	return resolved, true, nil
}

// tiersFor returns the kernel resolutions worth trying for p: not those
// that refuse symlinks when p is beneath a root that has one.
func (r *Root) tiersFor(p string) tiers {
	if r.linked && lexicallyBeneath(r.root, p) {
		return tryFollow
	}
	return tryAll
}

// resolve resolves p, asking the kernel first and otherwise continuing
// from the root's resolution.
func (r *Root) resolve(p string) (string, error) {
	if r.kernel {
		if real, pr := kernelResolve(p, r.tiersFor(p)); pr != notProven {
			return real, nil
		}
	}
	return resolveUnder(&r.rr, r.root, p)
}
