package toolpolicy

import (
	"fmt"
	"strings"
)

// patternKind tells how a compiled pattern matches.
type patternKind uint8

const (
	patAll      patternKind = iota + 1 // "*"
	patExact                           // one canonical name
	patGroup                           // the members of a group
	patWildcard                        // literal segments separated by '*'
)

// pattern is one compiled entry of an allow or deny list.
type pattern struct {
	src    string // the entry as written
	origin string // where it came from, e.g. tools.deny[2]
	kind   patternKind
	names  []string // patExact: the name; patGroup: the members
	wild   wildcard // patWildcard only
}

// wildcard is a pattern with at least one '*', split into the literal
// before the first star, the literals between stars, and the literal
// after the last star. Any of prefix and suffix may be empty; middle
// literals never are (adjacent stars are rejected).
type wildcard struct {
	prefix string
	middle []string
	suffix string
	minLen int // len(prefix)+len(suffix)+sum(len(middle))
}

// compileWildcard splits p, which contains at least one '*', no "**", and
// is not "*" alone.
func compileWildcard(p string) wildcard {
	parts := strings.Split(p, "*")
	w := wildcard{prefix: parts[0], suffix: parts[len(parts)-1]}
	if len(parts) > 2 {
		w.middle = parts[1 : len(parts)-1]
	}
	w.minLen = len(w.prefix) + len(w.suffix)
	for _, m := range w.middle {
		w.minLen += len(m)
	}
	return w
}

// match reports whether name matches the wildcard. The prefix and suffix
// are anchored; the middle literals are found left to right, each at its
// leftmost position after the previous one, which is exact for patterns
// whose only metacharacter is '*'.
func (w *wildcard) match(name string) bool {
	if len(name) < w.minLen ||
		!strings.HasPrefix(name, w.prefix) ||
		!strings.HasSuffix(name, w.suffix) {
		return false
	}
	return w.matchMiddle(name)
}

// matchMiddle checks the middle literals, assuming the prefix, suffix and
// length have been checked.
func (w *wildcard) matchMiddle(name string) bool {
	rest := name[len(w.prefix) : len(name)-len(w.suffix)]
	for _, m := range w.middle {
		i := strings.Index(rest, m)
		if i < 0 {
			return false
		}
		rest = rest[i+len(m):]
	}
	return true
}

// compilePattern compiles one raw entry. The error, if any, wraps one of
// the sentinel errors and describes the entry; the caller adds its path.
func (r *Registry) compilePattern(raw, origin string) (pattern, error) {
	s, ok := lowerASCII(raw)
	if !ok {
		return pattern{}, fmt.Errorf("%w %q: non-ASCII character", ErrMalformedPattern, raw)
	}
	if s == "" {
		return pattern{}, ErrBlankEntry
	}
	p := pattern{src: s, origin: origin}
	if strings.HasPrefix(s, groupPrefix) {
		if strings.Contains(s, "*") {
			return pattern{}, fmt.Errorf("%w %q: a group reference cannot contain '*'", ErrMalformedPattern, raw)
		}
		members, ok := r.groups[s]
		if !ok {
			return pattern{}, fmt.Errorf("%w %q", ErrUnknownGroup, s)
		}
		p.kind = patGroup
		p.names = members
		return p, nil
	}
	if len(s) > maxPatternLen {
		return pattern{}, fmt.Errorf("%w: longer than %d bytes", ErrMalformedPattern, maxPatternLen)
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != '*' && alphaIndex[c] < 0 {
			return pattern{}, fmt.Errorf("%w %q: character %q is not allowed (use a-z, 0-9, '_', '-', '.', ':' and '*')", ErrMalformedPattern, raw, c)
		}
	}
	if strings.Contains(s, "**") {
		return pattern{}, fmt.Errorf("%w %q: adjacent wildcards (\"**\"); '*' already matches any run of characters", ErrMalformedPattern, raw)
	}
	switch {
	case s == "*":
		p.kind = patAll
	case strings.Contains(s, "*"):
		p.kind = patWildcard
		p.wild = compileWildcard(s)
	case r.plugins[s]:
		// A plugin id names the plugin's tools.
		p.kind = patGroup
		p.names = r.groups[groupPrefix+s]
	default:
		name, ok := r.norm.canonical(s)
		if !ok {
			if err := validName(s); err != nil {
				return pattern{}, fmt.Errorf("%q: %w", raw, err)
			}
			return pattern{}, fmt.Errorf("%w %q", ErrMalformedPattern, raw)
		}
		p.kind = patExact
		p.names = []string{name}
	}
	return p, nil
}

// matches reports whether the compiled pattern matches a canonical name,
// by a plain scan. The policy's index gives the same answers faster; this
// form serves Explain, lint and tests.
func (p *pattern) matches(name string) bool {
	switch p.kind {
	case patAll:
		return true
	case patWildcard:
		return p.wild.match(name)
	default:
		for _, n := range p.names {
			if n == name {
				return true
			}
		}
		return false
	}
}

// kindOf maps a pattern kind to the rule kind reported by Explain.
func (k patternKind) ruleKind() RuleKind {
	switch k {
	case patAll:
		return RuleAll
	case patExact:
		return RuleExact
	case patGroup:
		return RuleGroup
	default:
		return RuleWildcard
	}
}
