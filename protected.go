package sandboxauth

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/sandboxauth/sandboxauth/internal/pathres"
)

// A ProtectedPath names sensitive paths inside the sandbox: a read or write
// of one asks a person even where the policy would allow it. (A writable
// .git/config, for example, turns a harmless `git status` into code
// execution through core.fsmonitor.)
//
// Pattern is slash-separated and relative to the sandbox:
//   - a pattern without a slash matches a base name at any depth (".env",
//     ".env.*");
//   - a pattern with a slash matches from the sandbox root (".git/config"),
//     unless it begins with "**/", which makes it match at any depth
//     ("**/.cargo/config.toml" matches sub/.cargo/config.toml too);
//   - a trailing slash matches the directory and everything below it
//     (".git/hooks/").
//
// Each element is matched with path.Match, so '*', '?' and character classes
// work within one element, without regard to letter case (.GIT is .git on
// case-insensitive file systems). A path matches when its resolved form or the form
// the tool gave matches, so neither a symlink to a protected file nor a
// symlink named like one slips through.
type ProtectedPath struct {
	Pattern string
	Read    bool // reads of matching paths ask
	Write   bool // writes of matching paths ask
}

// DefaultProtectedPaths returns the protected paths every Sandbox and
// Permissive authorizer starts with:
//
//   - writes anywhere in a .git directory at any depth: its config, hooks,
//     commondir or alternates make later git commands run programs;
//   - reads and writes of .env and .env.* files at any depth: secrets;
//   - writes to configuration that makes other programs run code or grant
//     permissions without asking anybody again: editor and IDE settings
//     (.vscode/, .idea/: tasks run on opening, executable paths, an
//     assistant's auto-approval), coding-agent settings (.claude/, .cursor/,
//     .gemini/, .codex/, .github/hooks/, .mcp.json: hooks, MCP servers,
//     permission lists) and sandboxauth's own project policy
//     (.sandboxauth.json), so that an agent cannot switch its guard off,
//     git hook directories (.husky/, .githooks/) and cargo's configuration
//     (.cargo/config.toml, .cargo/config: a rustc wrapper or runner that even
//     `cargo metadata` would run), and the files that choose which
//     toolchain a version manager's shim runs (rust-toolchain and
//     rust-toolchain.toml, whose path names a directory of programs;
//     .python-version, .tool-versions, mise.toml and its variants, whose
//     settings can run scripts). All of them match at any depth.
//
// The slice is new on each call; callers may change it and pass it to
// WithProtectedPaths.
func DefaultProtectedPaths() []ProtectedPath {
	return []ProtectedPath{
		{Pattern: ".git/", Write: true},
		{Pattern: ".env", Read: true, Write: true},
		{Pattern: ".env.*", Read: true, Write: true},
		{Pattern: ".vscode/", Write: true},
		{Pattern: ".idea/", Write: true},
		{Pattern: ".claude/", Write: true},
		{Pattern: ".cursor/", Write: true},
		{Pattern: ".gemini/", Write: true},
		{Pattern: ".codex/", Write: true},
		{Pattern: ".mcp.json", Write: true},
		{Pattern: "**/.github/hooks/", Write: true},
		{Pattern: ".sandboxauth.json", Write: true},
		{Pattern: ".husky/", Write: true},
		{Pattern: ".githooks/", Write: true},
		{Pattern: "**/.cargo/config.toml", Write: true},
		{Pattern: "**/.cargo/config", Write: true},
		{Pattern: "rust-toolchain", Write: true},
		{Pattern: "rust-toolchain.toml", Write: true},
		{Pattern: ".python-version", Write: true},
		{Pattern: ".tool-versions", Write: true},
		{Pattern: "mise.toml", Write: true},
		{Pattern: ".mise.toml", Write: true},
		{Pattern: "mise.local.toml", Write: true},
		{Pattern: ".mise.local.toml", Write: true},
	}
}

// WithProtectedPaths replaces the default protected paths with ps. With no
// argument, nothing is protected. A malformed pattern is an error naming it.
func WithProtectedPaths(ps ...ProtectedPath) Option {
	return func(o *options) error {
		compiled, err := compileProtected(ps)
		if err != nil {
			return err
		}
		o.protected = compiled
		return nil
	}
}

// protectedRule is a compiled ProtectedPath.
type protectedRule struct {
	src      ProtectedPath
	elems    []string // pattern elements
	anyDepth bool     // no slash: match the base name at any depth
	subtree  bool     // trailing slash: match below too
}

func compileProtected(ps []ProtectedPath) ([]protectedRule, error) {
	out := make([]protectedRule, 0, len(ps))
	for i, p := range ps {
		pat := strings.TrimSpace(p.Pattern)
		if pat == "" || strings.HasPrefix(pat, "/") || strings.Contains(pat, "\x00") {
			return nil, invalid(ErrInvalidConfig, "sandboxauth: protected path %d (%q): the pattern must be a non-empty path relative to the sandbox", i, p.Pattern)
		}
		if !p.Read && !p.Write {
			return nil, invalid(ErrInvalidConfig, "sandboxauth: protected path %d (%q) protects neither reads nor writes", i, p.Pattern)
		}
		pat = strings.ToLower(pat)
		r := protectedRule{src: p, subtree: strings.HasSuffix(pat, "/")}
		pat = strings.TrimSuffix(pat, "/")
		r.anyDepth = !strings.Contains(pat, "/")
		if rest, ok := strings.CutPrefix(pat, "**/"); ok {
			pat, r.anyDepth = rest, true
		}
		r.elems = strings.Split(pat, "/")
		for _, e := range r.elems {
			if e == "" || e == "." || e == ".." {
				return nil, invalid(ErrInvalidConfig, "sandboxauth: protected path %d (%q): empty, \".\" or \"..\" elements are not allowed", i, p.Pattern)
			}
			if _, err := path.Match(e, ""); err != nil {
				return nil, invalid(ErrInvalidConfig, "sandboxauth: protected path %d (%q): %v", i, p.Pattern, err)
			}
		}
		out = append(out, r)
	}
	return out, nil
}

// match reports whether rel (slash-separated, relative to the sandbox) is
// protected by r.
func (r *protectedRule) match(rel string) bool {
	var buf [elemsOnStack]string
	return r.matchElems(protectedElems(rel, buf[:0]))
}

// elemsOnStack is how many elements of a path protectedElems can split into
// a caller's array without allocating; deeper paths allocate.
const elemsOnStack = 16

// protectedElems splits a relative path into the lower-cased elements the
// rules match, once for all rules, appending them to buf[:0].
func protectedElems(rel string, buf []string) []string {
	rel = strings.ToLower(rel) // rel itself when it has no upper case
	elems := buf[:0]
	for {
		i := strings.IndexByte(rel, '/')
		if i < 0 {
			return append(elems, rel)
		}
		elems = append(elems, rel[:i])
		rel = rel[i+1:]
	}
}

// matchElems is match for a path already split by protectedElems.
func (r *protectedRule) matchElems(elems []string) bool {
	if !r.anyDepth {
		return r.matchAt(elems)
	}
	for i := range elems {
		if r.matchAt(elems[i:]) {
			return true
		}
	}
	return false
}

// matchAt reports whether the pattern matches elems from their first
// element: exactly, or as a prefix when the pattern names a subtree.
func (r *protectedRule) matchAt(elems []string) bool {
	if len(elems) < len(r.elems) || (len(elems) > len(r.elems) && !r.subtree) {
		return false
	}
	for i, pe := range r.elems {
		if ok, _ := path.Match(pe, elems[i]); !ok {
			return false
		}
	}
	return true
}

// protectedHit returns the first rule protecting one of paths for op, and
// that path, or nil. pl is the paths' placement; they are all inside.
func protectedHit(rules []protectedRule, op Operation, sandboxDir string, pl *placement, paths []string) (*protectedRule, string) {
	if len(rules) == 0 {
		return nil, ""
	}
	for i, p := range paths {
		if r := protectedRuleFor(rules, op, sandboxDir, pl.root, p, pl.real[i]); r != nil {
			return r, p
		}
	}
	return nil, ""
}

// protectedRuleFor returns the first rule protecting a path for op, or nil.
// given is the path as the tool named it (absolute), real its resolved form;
// sandboxDir and root are the sandbox as given and resolved. Both forms are
// matched, so neither a symlink to a protected file nor a symlink named like
// one slips through.
func protectedRuleFor(rules []protectedRule, op Operation, sandboxDir, root, given, real string) *protectedRule {
	var rels [2][]string
	var bufs [2][elemsOnStack]string
	n := 0
	givenRel, givenOK := relInside(filepath.Clean(sandboxDir), filepath.Clean(given))
	if givenOK {
		rels[n], n = protectedElems(givenRel, bufs[n][:0]), n+1
	}
	if rel, ok := relInside(filepath.Clean(root), filepath.Clean(real)); ok && (!givenOK || rel != givenRel) {
		rels[n], n = protectedElems(rel, bufs[n][:0]), n+1
	}
	for i := range rules {
		rule := &rules[i]
		if (op == OpRead && !rule.src.Read) || (op == OpWrite && !rule.src.Write) {
			continue
		}
		for _, elems := range rels[:n] {
			if rule.matchElems(elems) {
				return rule
			}
		}
	}
	return nil
}

// relInside returns p relative to root when p is strictly below root. Both
// are clean absolute paths (as filepath.Clean and pathres leave them); the
// result shares p's memory.
func relInside(root, p string) (string, bool) {
	if len(p) == len(root) || !pathres.Within(root, p) {
		return "", false
	}
	if root == "/" {
		return p[1:], true
	}
	return p[len(root)+1:], true
}
