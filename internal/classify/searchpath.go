package classify

import (
	"os"
	"path/filepath"
	"sync/atomic"

	"github.com/sandboxauth/sandboxauth/internal/pathres"
)

// A command named without a slash runs whatever program the PATH search
// finds first. When PATH names a directory inside the sandbox (an activated
// .venv/bin, node_modules/.bin, a project's bin/), or a relative directory
// (".", "", "bin", searched from the working directory), a file the model
// wrote can stand in for `ls` or `git`, or for a program that a safe command
// starts itself (gzip for `tar -tzf`, git for `go build`). So, with a
// sandbox known:
//
//   - a relative or empty PATH entry makes no command safe: every file in
//     the working directory could be the program that runs;
//   - a command found in a PATH directory inside the sandbox is a program
//     inside the sandbox ("none"), whatever its name;
//   - writing into such a directory (or creating it) is protected: the
//     authorizers ask, as for .git.
//
// The PATH consulted is this process's, read at each decision: the library
// assumes that the tool runs commands with the environment it inherits.

// SearchPath is one scan of a PATH value against one sandbox.
type SearchPath struct {
	value, sandbox string
	relative       string // the first relative or empty entry, when hasRelative
	hasRelative    bool
	inside         []string // entries inside the sandbox, as written (cleaned) and resolved
}

// SearchPathCache keeps the last scan, so that a PATH value is resolved once
// per sandbox rather than once per decision. Safe for concurrent use; the
// zero value is ready.
type SearchPathCache struct {
	last atomic.Pointer[SearchPath]
}

// Get returns the scan of the current PATH against sandbox (absolute and
// clean).
func (c *SearchPathCache) Get(sandbox string) *SearchPath {
	v := os.Getenv("PATH")
	if p := c.last.Load(); p != nil && p.value == v && p.sandbox == sandbox {
		return p
	}
	p := scanSearchPath(v, sandbox)
	c.last.Store(p)
	return p
}

// scanSearchPath splits value as the PATH search does and keeps what could
// lead into sandbox. An absolute entry counts as inside when it is
// lexically below the sandbox (whatever it resolves to now: a symlink there
// can be replaced) or when it resolves inside.
func scanSearchPath(value, sandbox string) *SearchPath {
	p := &SearchPath{value: value, sandbox: sandbox}
	if value == "" {
		// An empty PATH is one empty entry: the shells search the working
		// directory.
		p.hasRelative = true
		return p
	}
	root, rootErr := pathres.NewRoot(sandbox) // resolved once for every entry
	entries := filepath.SplitList(value)
	for i, e := range entries {
		if e == "" || !filepath.IsAbs(e) {
			if !p.hasRelative {
				p.relative, p.hasRelative = e, true
			}
			continue
		}
		clean := filepath.Clean(e)
		if seenBefore(entries[:i], clean) {
			// The same directory again (PATH set up by several
			// profiles often repeats one): resolving it again would
			// add nothing.
			continue
		}
		if pathres.Within(sandbox, clean) {
			p.add(clean)
		}
		if rootErr != nil {
			continue
		}
		if resolved, inside, err := root.Contains(clean); err == nil && inside {
			p.add(resolved)
		}
	}
	return p
}

// seenBefore reports whether one of the earlier PATH entries is the
// absolute directory clean.
func seenBefore(earlier []string, clean string) bool {
	for _, e := range earlier {
		if filepath.IsAbs(e) && filepath.Clean(e) == clean {
			return true
		}
	}
	return false
}

func (p *SearchPath) add(dir string) {
	for _, d := range p.inside {
		if d == dir {
			return
		}
	}
	p.inside = append(p.inside, dir)
}

// shadow returns the PATH directory inside the sandbox that holds a file
// named name, if any.
func (p *SearchPath) shadow(name string) (string, bool) {
	for _, d := range p.inside {
		if _, err := os.Lstat(d + "/" + name); err == nil {
			return d, true
		}
	}
	return "", false
}

// Holds returns the PATH directory inside the sandbox that a write of any
// of the given paths (absolute) would change: the directory itself, a file
// in it or below it, or one of its ancestors (creating or replacing it).
func (p *SearchPath) Holds(paths ...string) (string, bool) {
	for _, d := range p.inside {
		for _, w := range paths {
			if w != "" && (pathres.Within(d, w) || pathres.Within(w, d)) {
				return d, true
			}
		}
	}
	return "", false
}
