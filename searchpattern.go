package sandboxauth

import (
	"path"
	"strings"
)

// maxBraceAlternatives bounds the expansion of a search pattern's braces;
// a pattern with more alternatives matches every file.
const maxBraceAlternatives = 256

// searchPatternsMatch reports whether a search limited to patterns (none:
// every file) may read a file named name (a base name). It errs towards
// yes, never towards no: only each pattern's last element is matched, on
// the base name and without regard to case, and a pattern it cannot read
// (a negation such as "!*.go", which only excludes, a "**" in the last
// element, unbalanced or too many braces, a malformed class) matches.
// Character classes may be negated with "!" as in globs ("[!a]") or "^".
func searchPatternsMatch(patterns []string, name string) bool {
	if len(patterns) == 0 {
		return true
	}
	name = strings.ToLower(name)
	for _, p := range patterns {
		pieces := searchPatternPieces(p)
		if len(pieces) == 0 {
			return true // no glob at all: every file
		}
		for _, piece := range pieces {
			if searchPatternMatches(piece, name) {
				return true
			}
		}
	}
	return false
}

// searchPatternPieces returns the globs a search tool's pattern parameter
// stands for, the whole pattern among them: Claude Code's Grep splits its
// glob on white space and, in a piece without braces, on commas, and
// passes each piece to ripgrep as its own --glob ("*.go,.env" searches
// .env). A pattern of only white space and commas is no glob at all, and
// none is returned.
func searchPatternPieces(p string) []string {
	var out []string
	for _, raw := range strings.Fields(p) {
		if strings.Contains(raw, "{") && strings.Contains(raw, "}") {
			out = append(out, raw)
			continue
		}
		for _, piece := range strings.Split(raw, ",") {
			if piece != "" {
				out = append(out, piece)
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return append(out, p)
}

// searchPatternMatches reports whether one pattern may match the lower-case
// base name; see searchPatternsMatch.
func searchPatternMatches(pattern, name string) bool {
	if strings.HasPrefix(pattern, "!") {
		return true
	}
	alts, ok := expandBraces(strings.ToLower(pattern))
	if !ok {
		return true
	}
	for _, alt := range alts {
		last := alt
		if i := strings.LastIndexByte(alt, '/'); i >= 0 {
			last = alt[i+1:]
		}
		if last == "" || strings.Contains(last, "**") {
			return true // a directory, or any depth: every file beneath
		}
		last = strings.ReplaceAll(last, "[!", "[^")
		if m, err := path.Match(last, name); err != nil || m {
			return true
		}
	}
	return false
}

// expandBraces returns the alternatives of a glob with {a,b} groups
// (nested too), or false when its braces are unbalanced or expand to more
// than maxBraceAlternatives patterns. A brace escaped with a backslash is
// literal.
func expandBraces(p string) ([]string, bool) {
	open := -1
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '{':
			open = i
		case '}':
			if open < 0 {
				return nil, false
			}
			return expandGroup(p, open, i)
		}
	}
	if open >= 0 {
		return nil, false
	}
	return []string{p}, true
}

// expandGroup expands the innermost group p[open:close+1] and then the
// rest of the pattern.
func expandGroup(p string, open, close int) ([]string, bool) {
	var out []string
	for _, alt := range strings.Split(p[open+1:close], ",") {
		more, ok := expandBraces(p[:open] + alt + p[close+1:])
		if !ok {
			return nil, false
		}
		out = append(out, more...)
		if len(out) > maxBraceAlternatives {
			return nil, false
		}
	}
	return out, true
}
