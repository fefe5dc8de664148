package sandboxauth

import (
	"context"
	"os"
	"path/filepath"
	"strconv"

	"github.com/sandboxauth/sandboxauth/auth"
	"github.com/sandboxauth/sandboxauth/internal/classify"
	"github.com/sandboxauth/sandboxauth/toolpolicy"
)

// ForSearch returns a view of a for one search tool call: its reads are
// searches of the contents of the files beneath the directories they name,
// limited to the files whose names match one of patterns (glob patterns as
// the search tool takes them, such as Grep's "glob" or Gemini CLI's
// "include_pattern": "*.go", ".env*", "src/**/*.{ts,tsx}"; none: every
// file).
//
// A search reaches the files beneath the directories it names, so a read
// through the view asks, as a read of that file would, when a read-protected
// file (see ProtectedPath: .env and .env.* by default) exists beneath one of
// them and its name may match a pattern; otherwise it is decided as any
// read. Reads by a grep tool (Grep, grep_search, search_file_content, ... in
// any agent's vocabulary) are searches of every file beneath the
// directories they name even without the view.
//
// Patterns are matched generously, so that a search that could reach a
// protected file is never missed: only the last element of a pattern is
// matched, against the file's base name and without regard to case, and a
// pattern that cannot be read (a "**" in its last element, a negation,
// unbalanced braces) matches every file. Links to directories are not
// followed, as the agents' search tools do not follow them by default
// (Claude Code's Grep runs ripgrep without --follow: anthropics/claude-code
// issue 25317; grep -r and git grep do not follow them either); a
// link to a protected file is found under either name. A search beneath a
// tree of more than 50,000 entries asks: sandboxauth did not look at all
// of them.
//
// a must be an authorizer of this package (or a view or wrapper of one)
// for the patterns to travel; calls through a view of any other
// auth.Authorizer go to it unchanged.
func ForSearch(a auth.Authorizer, patterns ...string) auth.Authorizer {
	return searchView{a: a, patterns: append([]string(nil), patterns...)}
}

type searchView struct {
	a        auth.Authorizer
	patterns []string
}

func (v searchView) IsAuthorizedForRead(requestPermission bool, requestReason, toolName, sandboxDir string, absPath ...string) error {
	return v.authorize(readCall(requestPermission, requestReason, toolName, sandboxDir, absPath))
}

func (v searchView) IsAuthorizedForWrite(requestPermission bool, requestReason, toolName, sandboxDir string, absPath ...string) error {
	return v.authorize(writeCall(requestPermission, requestReason, toolName, sandboxDir, absPath))
}

func (v searchView) IsShellAuthorized(requestPermission bool, requestReason, sandboxDir, cwd string, command []string) error {
	return v.authorize(shellCall(requestPermission, requestReason, sandboxDir, cwd, command))
}

// IsAuthorizedForReadContext is IsAuthorizedForRead under ctx.
func (v searchView) IsAuthorizedForReadContext(ctx context.Context, requestPermission bool, requestReason, toolName, sandboxDir string, absPath ...string) error {
	return v.authorize(withCtx(ctx, readCall(requestPermission, requestReason, toolName, sandboxDir, absPath)))
}

// IsAuthorizedForWriteContext is IsAuthorizedForWrite under ctx.
func (v searchView) IsAuthorizedForWriteContext(ctx context.Context, requestPermission bool, requestReason, toolName, sandboxDir string, absPath ...string) error {
	return v.authorize(withCtx(ctx, writeCall(requestPermission, requestReason, toolName, sandboxDir, absPath)))
}

// IsShellAuthorizedContext is IsShellAuthorized under ctx.
func (v searchView) IsShellAuthorizedContext(ctx context.Context, requestPermission bool, requestReason, sandboxDir, cwd string, command []string) error {
	return v.authorize(withCtx(ctx, shellCall(requestPermission, requestReason, sandboxDir, cwd, command)))
}

func (v searchView) authorize(c *call) error {
	if c.ctx == nil {
		c.ctx = context.Background()
	}
	if c.op == OpRead {
		c.search, c.patterns = true, v.patterns
	}
	return dispatch(v.a, c)
}

// searches reports whether the read c searches the contents of the files
// beneath the directories it names: through ForSearch, or by a grep tool.
func searches(c *call) bool {
	if c.search {
		return true
	}
	n, _ := toolpolicy.Normalize(c.tool)
	return n == "grep"
}

// maxSearchWalk bounds the entries looked at beneath the directories one
// search names; a larger tree asks.
const maxSearchWalk = 50_000

// protectedInSearch returns why the search c must ask because of a
// read-protected file it can reach ("protected path .env: /p/.env, which
// searching /p reaches"), or because it reaches more than limit entries,
// or "". The paths of c are inside the sandbox; pl is their placement.
func protectedInSearch(rules []classify.Protected, c *call, pl *placement, limit int) string {
	if !anyReadRule(rules) {
		return ""
	}
	budget := limit
	for i, dir := range c.paths {
		real := pl.real[i]
		if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
			continue
		}
		w := searchWalk{rules: rules, c: c, root: pl.root, budget: &budget}
		if why := w.dir(dir, real); why != "" {
			if budget < 0 {
				return "searching " + dir + " reaches more than " + strconv.Itoa(limit) +
					" files and directories, too many to check for protected paths (search a smaller directory)"
			}
			return why + ", which searching " + dir + " reaches"
		}
	}
	return ""
}

// anyReadRule reports whether one of rules protects reads.
func anyReadRule(rules []classify.Protected) bool {
	for i := range rules {
		if rules[i].Read {
			return true
		}
	}
	return false
}

// searchWalk looks for read-protected files beneath a directory.
type searchWalk struct {
	rules  []classify.Protected
	c      *call
	root   string // the resolved sandbox
	budget *int   // entries left to look at
}

// dir walks the directory named given (resolved: real) and returns why a
// file beneath it is protected, or "".
func (w searchWalk) dir(given, real string) string {
	entries, err := os.ReadDir(real)
	if err != nil {
		return "" // unreadable: the search cannot read beneath it either
	}
	for _, e := range entries {
		if *w.budget--; *w.budget < 0 {
			return "too many entries"
		}
		if !e.IsDir() && !searchPatternsMatch(w.c.patterns, e.Name()) {
			continue
		}
		g, r := filepath.Join(given, e.Name()), filepath.Join(real, e.Name())
		switch {
		case e.IsDir():
			if why := w.dir(g, r); why != "" {
				return why
			}
			continue
		case e.Type()&os.ModeSymlink != 0:
			target, err := filepath.EvalSymlinks(r)
			if err != nil {
				target = r
			} else if fi, err := os.Stat(target); err == nil && fi.IsDir() {
				continue // links to directories are not followed
			}
			r = target
		}
		if p := classify.ProtectedFor(w.rules, false, w.c.sandboxDir, w.root, g, r); p != nil {
			return "protected path " + p.Pattern + ": " + g
		}
	}
	return ""
}
