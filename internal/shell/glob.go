package shell

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"
)

// Glob expansion as bash 5 does it with its default options (dotglob,
// nocaseglob, extglob, globstar, nullglob and failglob off, globasciiranges
// on), and as dash does it: the classifier substitutes the names a pattern
// matches into the argv and judges the command the shell would really run.
//
// Each dialect's rules are applied exactly: literal text, backslash
// escapes, *, ?, bracket expressions with negation by ! (and by ^ in bash;
// dash reads a leading ^ as a member), character classes, and in bash
// single-character collating symbols ([.-.]) and equivalence classes of
// non-letters, and ranges.
// A leading dot is matched only by a literal dot, and ** is *. Whatever
// depends on the locale or the shell's version is not guessed: a ? or a
// bracket expression against a name with non-ASCII bytes, a letter range
// that a collation order would read otherwise, a pattern component that
// begins with a dot (bash before 5.2 matches . and .. with .*), a
// multi-character collating element, a backslash inside brackets, or a
// pattern too large to expand. Those return an error wrapping
// [ErrNotExact].

// ErrNotExact is wrapped by the errors of [Expand] and [Match] when the
// shell's answer cannot be computed exactly.
var ErrNotExact = errors.New("glob not expandable exactly")

func notExact(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrNotExact, fmt.Sprintf(format, args...))
}

// GlobLimits bound an expansion.
type GlobLimits struct {
	// Entries is the most directory entries read in all; Matches the most
	// names returned.
	Entries, Matches int
}

// DefaultGlobLimits returns the limits the classifier uses: 4096 directory
// entries, 256 matches.
func DefaultGlobLimits() GlobLimits { return GlobLimits{Entries: 4096, Matches: 256} }

// Expand returns the names pattern matches, relative to dir when the
// pattern is relative, in byte order (the order of the C locale; other
// locales sort otherwise, which the caller must allow for). An empty
// result means no match: the shell then passes the word unchanged.
// pattern is a [Command.Patterns] entry: quoted characters are escaped.
func Expand(dir, pattern string, d Dialect, lim GlobLimits) ([]string, error) {
	if pattern == "" {
		return nil, nil
	}
	if strings.Contains(pattern, "//") || strings.Contains(pattern, `\/`) {
		return nil, notExact("empty or escaped path component")
	}
	comps := strings.Split(pattern, "/")
	prefix := []string{""}
	if comps[0] == "" { // absolute
		prefix = []string{"/"}
		comps = comps[1:]
	}
	e := expander{dir: dir, lim: lim, dialect: d}
	for i, c := range comps {
		last := i == len(comps)-1
		if last && c == "" {
			// A trailing slash keeps the directories.
			var out []string
			for _, p := range prefix {
				if isDir(e.at(p)) {
					out = append(out, p+"/")
				}
			}
			prefix = out
			break
		}
		var next []string
		var err error
		if HasMagic(c) {
			next, err = e.magic(prefix, c, last)
		} else {
			next, err = e.literal(prefix, unescape(c), last)
		}
		if err != nil {
			return nil, err
		}
		prefix = next
		if len(prefix) == 0 {
			return nil, nil
		}
	}
	slices.Sort(prefix)
	return prefix, nil
}

type expander struct {
	dir     string
	dialect Dialect
	lim     GlobLimits
	entries int
}

// at returns the file-system path of an expansion prefix.
func (e *expander) at(p string) string {
	switch {
	case p == "":
		return e.dir
	case p[0] == '/':
		return p
	}
	return e.dir + "/" + p
}

func join(prefix, name string) string {
	switch prefix {
	case "":
		return name
	case "/":
		return "/" + name
	}
	return prefix + "/" + name
}

// literal appends a component without pattern characters. Before the last
// component the shell does not look; the last one must exist (a dangling
// symbolic link is a case the shells treat differently: not exact).
func (e *expander) literal(prefix []string, name string, last bool) ([]string, error) {
	out := make([]string, 0, len(prefix))
	for _, p := range prefix {
		q := join(p, name)
		if !last {
			out = append(out, q)
			continue
		}
		if _, err := os.Lstat(e.at(q)); err != nil {
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, errNotDir) {
				continue
			}
			return nil, notExact("%s: %v", q, err)
		}
		if _, err := os.Stat(e.at(q)); err != nil {
			return nil, notExact("%s is a dangling symbolic link", q)
		}
		out = append(out, q)
	}
	return out, nil
}

var errNotDir = errors.New("not a directory")

// magic matches a component with pattern characters against the entries
// of each prefix directory.
func (e *expander) magic(prefix []string, comp string, last bool) ([]string, error) {
	if comp[0] == '.' || strings.HasPrefix(comp, `\.`) {
		return nil, notExact("a pattern component beginning with a dot matches . and .. in some shells")
	}
	pat, err := compile(comp, e.dialect)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range prefix {
		ents, err := os.ReadDir(e.at(p))
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || isNotDir(err) {
				continue
			}
			return nil, notExact("%s: %v", e.at(p), err)
		}
		e.entries += len(ents)
		if e.entries > e.lim.Entries {
			return nil, notExact("more than %d directory entries to match", e.lim.Entries)
		}
		for _, d := range ents {
			name := d.Name()
			ok, err := pat.match(name)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
			q := join(p, name)
			if !last && !isDir(e.at(q)) {
				continue
			}
			out = append(out, q)
			if len(out) > e.lim.Matches {
				return nil, notExact("more than %d matches", e.lim.Matches)
			}
		}
	}
	return out, nil
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

func isNotDir(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "not a directory")
}

// HasMagic reports whether a pattern component holds an unescaped *, ? or
// [ (which may still match only itself, as an unterminated [ does).
func HasMagic(p string) bool {
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '*', '?', '[':
			return true
		}
	}
	return false
}

func unescape(p string) string {
	if strings.IndexByte(p, '\\') < 0 {
		return p
	}
	var sb strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '\\' && i+1 < len(p) {
			i++
		}
		sb.WriteByte(p[i])
	}
	return sb.String()
}

// Match reports whether name (one path component) matches the pattern
// component pat, with the rules of [Expand].
func Match(pat, name string, d Dialect) (bool, error) {
	if pat == "" || strings.IndexByte(pat, '/') >= 0 {
		return false, notExact("a component must be non-empty and hold no slash")
	}
	if HasMagic(pat) && (pat[0] == '.' || strings.HasPrefix(pat, `\.`)) {
		return false, notExact("a pattern component beginning with a dot matches . and .. in some shells")
	}
	c, err := compile(pat, d)
	if err != nil {
		return false, err
	}
	return c.match(name)
}

// Token kinds of a compiled component.
const (
	tokLit = iota
	tokStar
	tokAny
	tokClass
)

type token struct {
	kind uint8
	lit  byte
	cls  *bracket
}

// bracket is a bracket expression.
type bracket struct {
	negate bool
	items  []item
}

// item is one member of a bracket expression: a single byte (lo == hi), a
// range, or a character class.
type item struct {
	lo, hi byte
	class  string
}

type compiled struct {
	toks   []token
	locale bool // holds ? or a bracket: non-ASCII names are not exact
}

// compile reads a pattern component.
func compile(p string, d Dialect) (*compiled, error) {
	if d != Bash && d != POSIX {
		return nil, notExact("%v glob patterns are not modelled", d)
	}
	c := &compiled{}
	for i := 0; i < len(p); i++ {
		switch ch := p[i]; ch {
		case '\\':
			if i+1 >= len(p) {
				return nil, notExact("backslash at the end of a pattern")
			}
			i++
			c.toks = append(c.toks, token{kind: tokLit, lit: p[i]})
		case '*':
			if n := len(c.toks); n == 0 || c.toks[n-1].kind != tokStar {
				c.toks = append(c.toks, token{kind: tokStar})
			}
		case '?':
			c.toks = append(c.toks, token{kind: tokAny})
			c.locale = true
		case '[':
			b, n, err := parseBracket(p[i+1:], d)
			if err != nil {
				return nil, err
			}
			if b == nil {
				// Unterminated: the [ is an ordinary character.
				c.toks = append(c.toks, token{kind: tokLit, lit: '['})
				continue
			}
			c.toks = append(c.toks, token{kind: tokClass, cls: b})
			c.locale = true
			i += n
		default:
			c.toks = append(c.toks, token{kind: tokLit, lit: ch})
		}
	}
	return c, nil
}

// classes are the character class names bash and dash both know, with
// their ASCII members (every locale agrees on ASCII; a non-ASCII name is
// not matched against a bracket expression). It is built on first use.
var classes = sync.OnceValue(func() map[string]func(byte) bool {
	return map[string]func(byte) bool{
		"alnum":  func(c byte) bool { return isAlpha(c) || isDigit(c) },
		"alpha":  isAlpha,
		"blank":  func(c byte) bool { return c == ' ' || c == '\t' },
		"cntrl":  func(c byte) bool { return c < 32 || c == 127 },
		"digit":  isDigit,
		"graph":  func(c byte) bool { return c > 32 && c < 127 },
		"lower":  func(c byte) bool { return 'a' <= c && c <= 'z' },
		"print":  func(c byte) bool { return c >= 32 && c < 127 },
		"punct":  func(c byte) bool { return c > 32 && c < 127 && !isAlpha(c) && !isDigit(c) },
		"space":  func(c byte) bool { return c == ' ' || ('\t' <= c && c <= '\r') },
		"upper":  func(c byte) bool { return 'A' <= c && c <= 'Z' },
		"xdigit": func(c byte) bool { return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' },
	}
})

func isAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// parseBracket reads a bracket expression after its [. It returns nil and
// no error when the expression is not terminated, and otherwise the number
// of bytes read (up to and including the closing ]).
func parseBracket(s string, d Dialect) (*bracket, int, error) {
	b := &bracket{}
	i := 0
	if i < len(s) && (s[i] == '!' || s[i] == '^' && d == Bash) {
		b.negate = true
		i++
	}
	first := true
	for ; i < len(s); i++ {
		ch := s[i]
		if ch == ']' && !first {
			return b, i + 1, nil
		}
		first = false
		switch {
		case ch == '\\':
			return nil, 0, notExact("backslash inside a bracket expression")
		case ch >= 0x80:
			return nil, 0, notExact("non-ASCII character inside a bracket expression")
		case ch == '[' && i+1 < len(s) && (s[i+1] == ':' || s[i+1] == '=' || s[i+1] == '.'):
			kind := s[i+1]
			end := strings.Index(s[i+2:], string(kind)+"]")
			if end < 0 {
				return nil, 0, notExact("unterminated [%c in a bracket expression", kind)
			}
			name := s[i+2 : i+2+end]
			i += 2 + end + 1
			if kind != ':' && d != Bash {
				return nil, 0, notExact("[%c%c] in a bracket expression is not read as bash reads it", kind, kind)
			}
			if kind == ':' {
				if _, ok := classes()[name]; !ok {
					return nil, 0, notExact("character class %q", name)
				}
				b.items = append(b.items, item{class: name})
				continue
			}
			if len(name) != 1 || name[0] >= 0x80 || name[0] < 0x20 {
				return nil, 0, notExact("collating element [%c%s%c]", kind, name, kind)
			}
			if kind == '=' {
				// An equivalence class holds the accented forms of a
				// letter in most locales.
				if isAlpha(name[0]) {
					return nil, 0, notExact("equivalence class of a letter")
				}
				b.items = append(b.items, item{lo: name[0], hi: name[0]})
				continue
			}
			if err := b.member(s, &i, name[0]); err != nil {
				return nil, 0, err
			}
		default:
			if err := b.member(s, &i, ch); err != nil {
				return nil, 0, err
			}
		}
	}
	return nil, 0, nil
}

// member adds the single character lo, read just before s[*i+1], or the
// range lo-hi when a - and an end follow.
func (b *bracket) member(s string, i *int, lo byte) error {
	j := *i + 1
	if j+1 < len(s) && s[j] == '-' && s[j+1] != ']' {
		hi := s[j+1]
		if hi == '\\' || hi >= 0x80 || hi == '[' {
			return notExact("unusual range end %q", hi)
		}
		if !(isDigit(lo) && isDigit(hi) || isLowerPair(lo, hi) || isUpperPair(lo, hi)) {
			// A range between a letter and something else spans a
			// different set in each collation order.
			return notExact("range %c-%c", lo, hi)
		}
		b.items = append(b.items, item{lo: lo, hi: hi})
		*i = j + 1
		return nil
	}
	b.items = append(b.items, item{lo: lo, hi: lo})
	return nil
}

func isLowerPair(a, b byte) bool { return 'a' <= a && a <= 'z' && 'a' <= b && b <= 'z' }
func isUpperPair(a, b byte) bool { return 'A' <= a && a <= 'Z' && 'A' <= b && b <= 'Z' }

// has reports whether c is a member.
func (b *bracket) has(c byte) (bool, error) {
	in := false
	for _, it := range b.items {
		if it.class != "" {
			if classes()[it.class](c) {
				in = true
			}
			continue
		}
		if it.lo <= c && c <= it.hi {
			in = true
			continue
		}
		// In a collation order that puts each upper-case letter after its
		// lower-case one (aAbB...), a letter range also holds letters of
		// the other case; bash before 5.0 reads ranges that way.
		if it.lo != it.hi && isAlpha(c) && isAlpha(it.lo) {
			k, lo, hi := collKey(c), collKey(it.lo), collKey(it.hi)
			if lo <= k && k <= hi {
				return false, notExact("letter range %c-%c and %q", it.lo, it.hi, c)
			}
		}
	}
	return in != b.negate, nil
}

// collKey orders letters as aAbB...zZ.
func collKey(c byte) int {
	if 'a' <= c && c <= 'z' {
		return 2 * int(c-'a')
	}
	return 2*int(c-'A') + 1
}

// match matches a whole name.
func (c *compiled) match(name string) (bool, error) {
	if name == "" || name == "." || name == ".." {
		return false, nil
	}
	if name[0] == '.' && (len(c.toks) == 0 || c.toks[0].kind != tokLit || c.toks[0].lit != '.') {
		return false, nil // a leading dot is matched only by a literal dot
	}
	if c.locale {
		for i := 0; i < len(name); i++ {
			if name[i] >= 0x80 {
				return false, notExact("? or [...] against the non-ASCII name %q depends on the locale", name)
			}
		}
	}
	return matchToks(c.toks, name)
}

// matchToks is a backtracking matcher with a single star fallback
// position, linear in practice.
func matchToks(toks []token, s string) (bool, error) {
	ti, si := 0, 0
	starT, starS := -1, 0
	for si < len(s) || ti < len(toks) {
		if ti < len(toks) {
			t := toks[ti]
			switch t.kind {
			case tokStar:
				starT, starS = ti, si
				ti++
				continue
			case tokLit:
				if si < len(s) && s[si] == t.lit {
					ti++
					si++
					continue
				}
			case tokAny:
				if si < len(s) {
					ti++
					si++
					continue
				}
			case tokClass:
				if si < len(s) {
					ok, err := t.cls.has(s[si])
					if err != nil {
						return false, err
					}
					if ok {
						ti++
						si++
						continue
					}
				}
			}
		}
		if starT >= 0 && starS < len(s) {
			starS++
			ti, si = starT+1, starS
			continue
		}
		return false, nil
	}
	return true, nil
}
