package pathres

import (
	"fmt"
	"path/filepath"
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
// once. A non-nil error (bad input, [ErrLoop], an unreadable directory)
// always comes with inside == false.
func Contains(root, p string) (resolved string, inside bool, err error) {
	if err := Validate(p); err != nil {
		return "", false, err
	}
	r, err := NewRoot(root)
	if err != nil {
		return "", false, err
	}
	return r.Contains(p)
}

// resolveUnder resolves p, continuing from rr (the finished resolution of
// root) when p is lexically beneath root, so that the shared components are
// looked up only once. The state after a prefix of the components depends
// only on that prefix, so the result is the same as Resolve(p).
func resolveUnder(rr *resolver, root, p string) (string, error) {
	r := resolver{cur: p, maxLinks: MaxLinks}
	if n := len(root); strings.HasPrefix(p, root) && (len(p) == n || p[n] == '/' || root[n-1] == '/') {
		r = *rr
		if r.cur != root {
			// root's symlinks were followed: continue with the rest of p.
			r.cur += p[n:]
		} else {
			r.cur = p // same bytes for cur[:pos], no allocation
		}
	}
	if err := r.run(); err != nil {
		return "", resolveError("", p, err)
	}
	return r.result(), nil
}

// hasDotDot reports whether p has a ".." component, the only kind of
// component for which filepath.Clean and the kernel can disagree.
func hasDotDot(p string) bool {
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
// again: a Root is meant to live for one decision, not to be kept.
type Root struct {
	root string   // as given
	rr   resolver // the finished resolution of root
	real string   // rr.result()
}

// NewRoot validates and resolves root.
func NewRoot(root string) (*Root, error) {
	if err := checkPath(root); err != nil {
		return nil, fmt.Errorf("pathres: sandbox root: %w: %q", err, root)
	}
	r := &Root{root: root, rr: resolver{cur: root, maxLinks: MaxLinks}}
	if err := r.rr.run(); err != nil {
		return nil, resolveError("sandbox root: ", root, err)
	}
	r.real = r.rr.result()
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
	resolved, err = resolveUnder(&r.rr, r.root, p)
	if err != nil {
		return "", false, err
	}
	if !Within(r.real, resolved) {
		return resolved, false, nil
	}
	if hasDotDot(p) {
		clean, err := resolveUnder(&r.rr, r.root, filepath.Clean(p))
		if err != nil {
			return resolved, false, err
		}
		if !Within(r.real, clean) {
			return resolved, false, nil
		}
	}
	return resolved, true, nil
}
