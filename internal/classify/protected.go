package classify

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/sandboxauth/sandboxauth/internal/copyname"
	"github.com/sandboxauth/sandboxauth/internal/pathres"
)

// Protected is a compiled protected path (the public ProtectedPath): a
// slash-separated pattern relative to the sandbox, matched element by
// element with path.Match without regard to letter case; without a slash
// (or after a leading "**/") at any depth, after a leading "./" at the top
// only. A path matches when it or one
// of the directories above it matches: a pattern that names a directory
// (.env made a directory, .env.d matching .env.*) protects everything
// below it, whether or not it ends in a slash. A rule made by Copies
// matches the copies of what the pattern's last element matches instead
// (see copyname.Of), and everything below them.
type Protected struct {
	// Pattern is the pattern as given.
	Pattern string
	// Read and Write say which accesses it protects.
	Read, Write bool

	elems    []string // pattern elements
	literal  []bool   // elems[i] has no wildcard or escape: compared with ==
	anyDepth bool     // no slash: match the base name at any depth
	subtree  bool     // trailing slash (matching below holds for every pattern)
	copies   bool     // the last element matches the copies of its matches
	// lastPrefix and lastSuffix are what every name the last element
	// matches begins and ends with (its text before the first wildcard,
	// and after a last "*" with no other wildcard behind it): a cheap
	// first test before path.Match.
	lastPrefix, lastSuffix string
	// lastInfix is the longest run of literal text between wildcards of
	// the last element, which every name it matches holds ("copy" for
	// "*.jks *copy*"): a second cheap test, for the patterns that begin
	// and end with a wildcard. Empty for an element with a character
	// class or an escape.
	lastInfix string
}

// ErrProtectsNothing is CompileProtected's error for a well-formed pattern
// that protects neither reads nor writes.
var ErrProtectsNothing = errors.New("protects neither reads nor writes")

// CompileProtected compiles a pattern that protects reads, writes or
// both. The error says what is wrong with the pattern, without naming it.
func CompileProtected(pattern string, read, write bool) (Protected, error) {
	pat := strings.TrimSpace(pattern)
	if pat == "" || strings.HasPrefix(pat, "/") || strings.Contains(pat, "\x00") {
		return Protected{}, errors.New("the pattern must be a non-empty path relative to the sandbox")
	}
	if !read && !write {
		return Protected{}, ErrProtectsNothing
	}
	pat = strings.ToLower(pat)
	r := Protected{Pattern: pattern, Read: read, Write: write, subtree: strings.HasSuffix(pat, "/")}
	pat = strings.TrimSuffix(pat, "/")
	// "./" anchors a pattern without another slash at the top of the
	// sandbox; "**/" lets one with slashes match at any depth.
	anchored := false
	if rest, ok := strings.CutPrefix(pat, "./"); ok {
		pat, anchored = rest, true
		if strings.HasPrefix(pat, "**/") {
			return Protected{}, errors.New(`"./" (at the top) and "**/" (at any depth) contradict each other`)
		}
	}
	r.anyDepth = !anchored && !strings.Contains(pat, "/")
	if rest, ok := strings.CutPrefix(pat, "**/"); ok {
		pat, r.anyDepth = rest, true
	}
	r.elems = strings.Split(pat, "/")
	r.literal = make([]bool, len(r.elems))
	for i, e := range r.elems {
		if e == "" || e == "." || e == ".." {
			return Protected{}, errors.New(`empty, "." or ".." elements are not allowed`)
		}
		if _, err := path.Match(e, ""); err != nil {
			return Protected{}, fmt.Errorf("%v", err)
		}
		r.literal[i] = !strings.ContainsAny(e, `*?[\`)
	}
	last := r.elems[len(r.elems)-1]
	if i := strings.IndexAny(last, `*?[\`); i >= 0 {
		r.lastPrefix = last[:i]
		if j := strings.LastIndexByte(last, '*'); j >= 0 && !strings.ContainsAny(last[j+1:], `*?[]\`) {
			r.lastSuffix = last[j+1:]
		}
		r.lastInfix = literalInfix(last)
	}
	return r, nil
}

// Copies returns the rule that protects the copies of the files and
// directories r protects (NAME~, #NAME#, NAME.bak, NAME-backup, "NAME
// (copy)", "Copy of NAME", NAME.tar.gz, ...: see copyname.Of) for reads,
// and false for a rule that protects no reads. Its Pattern names r's:
// "copies of .env". The confinement hides such copies beside what it
// hides by the same definition, so that a copy the command cannot read
// is one the read protection asks about.
func (r Protected) Copies() (Protected, bool) {
	if !r.Read || r.copies {
		return Protected{}, false
	}
	c := r
	c.Pattern, c.Write, c.copies = "copies of "+r.Pattern, false, true
	return c, true
}

// literalInfix returns the longest run of text between the wildcards of a
// path.Match element that has no character class or escape ("" for one
// that has).
func literalInfix(elem string) string {
	if strings.ContainsAny(elem, `[\`) {
		return ""
	}
	longest := ""
	for _, run := range strings.FieldsFunc(elem, func(c rune) bool { return c == '*' || c == '?' }) {
		if len(run) > len(longest) {
			longest = run
		}
	}
	return longest
}

// Match reports whether rel (slash-separated, relative to the sandbox) is
// protected by r, for either access.
func (r *Protected) Match(rel string) bool {
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

// matchElems is Match for a path already split by protectedElems: the
// pattern matches the path or one of the directories above it.
func (r *Protected) matchElems(elems []string) bool {
	if !r.lastMayMatch(elems) {
		return false
	}
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

// lastMayMatch is a cheap first test of matchElems: the pattern's last
// element must match one of the path's elements where a match can end
// (the element at the pattern's depth for a pattern anchored at the
// top, any as deep or deeper for one that matches at any depth; what
// lies below a match is covered too). Most rules turn most paths away
// here, before the element-by-element match.
func (r *Protected) lastMayMatch(elems []string) bool {
	last := len(r.elems) - 1
	if len(elems) <= last {
		return false
	}
	candidates := elems[last:]
	if !r.anyDepth {
		candidates = candidates[:1]
	}
	for _, e := range candidates {
		switch {
		case r.copies:
			if r.mayBeCopy(e) {
				return true
			}
		case r.literal[last]:
			if e == r.elems[last] {
				return true
			}
		case r.lastMayBe(e):
			return true
		}
	}
	return false
}

// matchAt reports whether the pattern matches elems from their first
// element: exactly, or as a prefix (what lies below a match).
func (r *Protected) matchAt(elems []string) bool {
	if len(elems) < len(r.elems) {
		return false
	}
	last := len(r.elems) - 1
	for i, pe := range r.elems {
		if i == last && r.copies {
			if !r.copyOfLast(elems[i]) {
				return false
			}
			continue
		}
		if r.literal[i] {
			if pe != elems[i] {
				return false
			}
			continue
		}
		// The cheap test of MatchesLastLower first: most names fail it,
		// and path.Match costs far more.
		if i == last && !r.lastMayBe(elems[i]) {
			return false
		}
		if ok, _ := path.Match(pe, elems[i]); !ok {
			return false
		}
	}
	return true
}

// ProtectedFor returns the first rule protecting a path for a write
// (write true) or a read, or nil. given is the path as the tool named it
// (absolute), real its resolved form; sandboxDir and root are the sandbox
// as given and resolved. Both forms are matched, so neither a symlink to a
// protected file nor a symlink named like one slips through.
func ProtectedFor(rules []Protected, write bool, sandboxDir, root, given, real string) *Protected {
	var rels [2][]string
	var bufs [2][elemsOnStack]string
	n := 0
	givenRel, givenOK := relInside(pathres.Clean(sandboxDir), pathres.Clean(given))
	if givenOK {
		rels[n], n = protectedElems(givenRel, bufs[n][:0]), n+1
	}
	if rel, ok := relInside(pathres.Clean(root), pathres.Clean(real)); ok && (!givenOK || rel != givenRel) {
		rels[n], n = protectedElems(rel, bufs[n][:0]), n+1
	}
	for i := range rules {
		rule := &rules[i]
		if write && !rule.Write || !write && !rule.Read {
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

// lastMayBe is the cheap first test of a name against the pattern's last
// element when it has wildcards: the text every name it matches begins
// and ends with, and its longest literal run. path.Match costs far more,
// and most names fail here.
func (r *Protected) lastMayBe(name string) bool {
	return strings.HasPrefix(name, r.lastPrefix) && strings.HasSuffix(name, r.lastSuffix) && strings.Contains(name, r.lastInfix)
}

// lastMatches reports whether the lower-case name matches the pattern's
// last element itself.
func (r *Protected) lastMatches(name string) bool {
	last := len(r.elems) - 1
	if r.literal[last] {
		return r.elems[last] == name
	}
	if !r.lastMayBe(name) {
		return false
	}
	ok, _ := path.Match(r.elems[last], name)
	return ok
}

// copyOfLast reports whether the lower-case name is a copy (copyname.Of)
// of a name the pattern's last element matches, or a copy of such a copy
// (#.env-backup#, ..env-backup.un~): the confinement hides the copies
// beside every path it hides, copies included.
func (r *Protected) copyOfLast(name string) bool {
	if !r.mayBeCopy(name) {
		return false
	}
	if len(name) > maxNameLen {
		// No file has such a name, and telling costs the square of
		// its length: taken for a copy.
		return true
	}
	_, ok := copyname.Of(name, r.lastOrCopyOfIt)
	return ok
}

// maxNameLen is the longest name of a directory entry (NAME_MAX on Linux
// and the BSDs).
const maxNameLen = 255

// lastOrCopyOfIt reports whether the lower-case name matches the
// pattern's last element or is a copy of a name that does (one level:
// what the confinement hides beside a hidden path is not looked at for
// copies again).
func (r *Protected) lastOrCopyOfIt(name string) bool {
	if r.lastMatches(name) {
		return true
	}
	if !r.mayBeCopy(name) {
		return false
	}
	_, ok := copyname.Of(name, r.lastMatches)
	return ok
}

// mayBeCopy is a cheap first test of copyOfLast: a copy holds the
// original's name, and so the text the last element begins and ends
// with.
func (r *Protected) mayBeCopy(name string) bool {
	last := len(r.elems) - 1
	if r.literal[last] {
		return len(name) > len(r.elems[last]) && strings.Contains(name, r.elems[last])
	}
	return strings.Contains(name, r.lastPrefix) && strings.Contains(name, r.lastSuffix)
}

// AtTop returns the path the pattern names at the top of the sandbox
// (slash-separated, lower-cased as the pattern is matched), and whether
// every element is literal, so that the path can be named before it
// exists. A pattern that matches at any depth names this path at the top
// too.
func (r *Protected) AtTop() (rel string, literal bool) {
	literal = !r.copies
	for _, l := range r.literal {
		literal = literal && l
	}
	return strings.Join(r.elems, "/"), literal
}

// AnyDepth reports whether the pattern matches below the top of the
// sandbox too.
func (r *Protected) AnyDepth() bool { return r.anyDepth }

// MatchesLast reports whether name matches the pattern's last element:
// a path ending in name can match the pattern itself (not a path below a
// subtree it names) only if it does. It is a cheap first test for a walk
// over many names that does not descend into what it matched.
func (r *Protected) MatchesLast(name string) bool {
	return r.MatchesLastLower(strings.ToLower(name))
}

// MatchesLastLower is MatchesLast for a name already in lower case, for a
// walk that tests each name against many patterns.
func (r *Protected) MatchesLastLower(name string) bool {
	if r.copies {
		return r.copyOfLast(name)
	}
	return r.lastMatches(name)
}

// ProtectedDefaults returns sandboxauth.DefaultProtectedPaths compiled, from
// a table generated from them (protecteddefaults.go: the root package's
// TestProtectedDefaultsTable fails when it is stale), so that no process
// compiles them: every authorizer starts from these rules. The rules are
// shared and must not be changed; the slice's capacity is its length, so an
// append copies.
func ProtectedDefaults() []Protected {
	return defaultRules[:len(defaultRules):len(defaultRules)]
}
