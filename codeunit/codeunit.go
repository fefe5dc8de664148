// Package codeunit defines CodeUnit: the set of directories an agent works
// on, used by the root package's CodeUnit authorizer to confine reads and
// writes to one part of a repository.
//
// A code unit starts as its base directory alone. IncludeDir adds a directory
// whose parent is already included, either alone or with its whole subtree.
// An included directory includes itself and the non-directory entries directly
// in it (its files, and names that do not exist yet), but not the contents of
// its subdirectories, which must be included in their turn.
//
// Membership is decided on real paths: every directory is resolved when it
// is included and every queried path when it is queried, with symbolic links
// followed as the kernel follows them. A path reached through a link that
// leads out of the unit is not included, and neither is a path whose lexically
// cleaned form (filepath.Clean) leads out of it.
//
// A CodeUnit is safe for concurrent use.
package codeunit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"github.com/sandboxauth/sandboxauth/internal/pathres"
)

// ErrNotIncludable is returned by IncludeDir for a directory whose parent is
// not included.
var ErrNotIncludable = errors.New("parent directory not in the code unit")

// A CodeUnit is a named set of directories. Create one with NewCodeUnit.
type CodeUnit struct {
	name    string
	baseDir string // as given, cleaned
	base    string // resolved

	mu   sync.RWMutex
	dirs map[string]bool // resolved directory -> whole subtree included
}

// NewCodeUnit returns a code unit named name that includes absBaseDir (and
// the files directly in it) and nothing else. absBaseDir must be an absolute
// path; it need not exist yet.
func NewCodeUnit(name, absBaseDir string) (*CodeUnit, error) {
	if err := pathres.Validate(absBaseDir); err != nil {
		return nil, fmt.Errorf("codeunit %q: base directory: %w", name, err)
	}
	base, err := pathres.Resolve(absBaseDir)
	if err != nil {
		return nil, fmt.Errorf("codeunit %q: base directory %q cannot be resolved: %w", name, absBaseDir, err)
	}
	return &CodeUnit{
		name:    name,
		baseDir: filepath.Clean(absBaseDir),
		base:    base,
		dirs:    map[string]bool{base: false},
	}, nil
}

// Name returns the name given to NewCodeUnit.
func (u *CodeUnit) Name() string { return u.name }

// BaseDir returns the base directory given to NewCodeUnit, cleaned.
func (u *CodeUnit) BaseDir() string { return u.baseDir }

// IncludeDir adds the absolute directory dir to the unit, with its whole
// subtree when includeSubtree is true. The parent of dir must already be
// included (or dir must lie in an included subtree); otherwise IncludeDir
// returns an error matching ErrNotIncludable and changes nothing. Including a
// directory twice is not an error; includeSubtree only ever widens.
func (u *CodeUnit) IncludeDir(dir string, includeSubtree bool) error {
	if err := pathres.Validate(dir); err != nil {
		return fmt.Errorf("codeunit %q: %w", u.name, err)
	}
	r, err := pathres.Resolve(dir)
	if err != nil {
		return fmt.Errorf("codeunit %q: %q cannot be resolved: %w", u.name, dir, err)
	}
	if info, err := os.Stat(r); err == nil && !info.IsDir() {
		return fmt.Errorf("codeunit %q: %q is not a directory", u.name, dir)
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if sub, ok := u.dirs[r]; ok {
		u.dirs[r] = sub || includeSubtree
		return nil
	}
	if u.inSubtree(r) {
		if includeSubtree {
			u.dirs[r] = true
		}
		return nil
	}
	if _, ok := u.dirs[filepath.Dir(r)]; !ok {
		return fmt.Errorf("codeunit %q: cannot include %q: %w; include %q first", u.name, dir, ErrNotIncludable, filepath.Dir(dir))
	}
	u.dirs[r] = includeSubtree
	return nil
}

// IncludeEntireSubtree includes every directory below the base directory.
func (u *CodeUnit) IncludeEntireSubtree() error {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.dirs[u.base] = true
	return nil
}

// Dirs returns the included directories, resolved and sorted, each with a
// trailing "/..." when its whole subtree is included.
func (u *CodeUnit) Dirs() []string {
	u.mu.RLock()
	defer u.mu.RUnlock()
	out := make([]string, 0, len(u.dirs))
	for d, sub := range u.dirs {
		if sub {
			d = filepath.Join(d, "...")
		}
		out = append(out, d)
	}
	sort.Strings(out)
	return out
}

// Includes reports whether path is in the unit. path must be absolute; any
// other input, and any path that cannot be resolved (a symlink loop), is not
// included.
func (u *CodeUnit) Includes(path string) bool {
	if pathres.Validate(path) != nil {
		return false
	}
	if !u.includesResolved(path) {
		return false
	}
	if c := filepath.Clean(path); c != path {
		return u.includesResolved(c)
	}
	return true
}

func (u *CodeUnit) includesResolved(path string) bool {
	r, err := pathres.Resolve(path)
	if err != nil {
		return false
	}
	u.mu.RLock()
	defer u.mu.RUnlock()
	if _, ok := u.dirs[r]; ok || u.inSubtree(r) {
		return true
	}
	if _, ok := u.dirs[filepath.Dir(r)]; !ok {
		return false
	}
	// A direct entry of an included directory: files yes, directories no.
	info, err := os.Stat(r)
	if err != nil {
		return errors.Is(err, fs.ErrNotExist)
	}
	return !info.IsDir()
}

// inSubtree reports whether the resolved path r lies strictly below a
// directory included with its subtree. u.mu must be held.
func (u *CodeUnit) inSubtree(r string) bool {
	for d := filepath.Dir(r); ; d = filepath.Dir(d) {
		if sub, ok := u.dirs[d]; ok && sub {
			return true
		}
		if d == "/" || d == "." || d == filepath.Dir(d) {
			return false
		}
	}
}
