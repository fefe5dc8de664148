package classify

import (
	"slices"
	"strings"
	"sync"

	"github.com/sandboxauth/sandboxauth/internal/programs"
)

// Matcher is the engine's form of the public CommandMatcher (same fields,
// so either converts to the other); its documentation states the matching
// rules.
type Matcher struct {
	Command           string
	CommandArgsPrefix []string
	Flags             []string
	ExceptFlags       []string
	Reason            string
}

// Matches reports whether argv matches m, by the rules the public
// Matcher documents.
func (m Matcher) Matches(argv []string) bool {
	if len(argv) == 0 || m.Command == "" {
		return false
	}
	name := normalizeCommandName(commandBase(argv[0]))
	want := normalizeCommandName(m.Command)
	if name != want && versionless(name) != want {
		return false
	}
	return matchArgs(&m, flagStyleOf(want), argv[1:])
}

// String renders the matcher the way rules name it: `git log (except
// --output, --ext-diff)`, `rm [-r -f ...]`.
func (m Matcher) String() string {
	var b strings.Builder
	m.writeTo(&b)
	return b.String()
}

// writeTo writes String's text to b.
func (m Matcher) writeTo(b *strings.Builder) {
	b.WriteString(m.Command)
	for _, a := range m.CommandArgsPrefix {
		b.WriteByte(' ')
		b.WriteString(a)
	}
	if len(m.Flags) > 0 {
		b.WriteString(" [")
		for i, f := range m.Flags {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(f)
		}
		b.WriteByte(']')
	}
	if len(m.ExceptFlags) > 0 {
		b.WriteString(" (except ")
		for i, f := range m.ExceptFlags {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(f)
		}
		b.WriteByte(')')
	}
}

// rulesOf returns the rule of each of ms on list kind ("safe: git log
// (except --output, ...)"), the texts of all of them in one string, so
// that the default lists are built with one allocation for their rules.
func rulesOf(kind string, ms []Matcher) []string {
	var b strings.Builder
	b.Grow(48 * len(ms))
	ends := make([]int, len(ms))
	for i := range ms {
		b.WriteString(kind)
		b.WriteString(": ")
		ms[i].writeTo(&b)
		ends[i] = b.Len()
	}
	all := b.String()
	out := make([]string, len(ms))
	start := 0
	for i, e := range ends {
		out[i], start = all[start:e], e
	}
	return out
}

// bare reports whether m names a command regardless of its arguments.
func (m *Matcher) bare() bool {
	return len(m.CommandArgsPrefix) == 0 && len(m.Flags) == 0 && len(m.ExceptFlags) == 0
}

// sameMatcher compares everything but Reason. Command is compared after
// normalisation, Flags and ExceptFlags as sets.
func sameMatcher(a, b *Matcher) bool {
	return normalizeCommandName(a.Command) == normalizeCommandName(b.Command) &&
		slices.Equal(a.CommandArgsPrefix, b.CommandArgsPrefix) &&
		sameSet(a.Flags, b.Flags) && sameSet(a.ExceptFlags, b.ExceptFlags)
}

func sameSet(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	for _, x := range b {
		if !slices.Contains(a, x) {
			return false
		}
	}
	return true
}

// Clone returns a deep copy of m.
func (m Matcher) Clone() Matcher {
	m.CommandArgsPrefix = slices.Clone(m.CommandArgsPrefix)
	m.Flags = slices.Clone(m.Flags)
	m.ExceptFlags = slices.Clone(m.ExceptFlags)
	return m
}

// matchArgs matches everything but the command name. args is argv[1:].
func matchArgs(m *Matcher, style flagStyle, args []string) bool {
	if len(args) < len(m.CommandArgsPrefix) {
		return false
	}
	for i, p := range m.CommandArgsPrefix {
		if args[i] != p {
			return false
		}
	}
	rest := args[len(m.CommandArgsPrefix):]
	if len(m.Flags) > 0 && !anyFlag(style, rest, m.Flags, nil) {
		return false
	}
	if len(m.ExceptFlags) > 0 && anyFlag(style, rest, m.ExceptFlags, m.Flags) {
		return false
	}
	return true
}

// anyFlag reports whether any of flags occurs in args. exact lists long
// options the program is known to have (the matcher's own Flags): an
// argument naming one of them exactly is that option, not an abbreviation of
// a longer one, as getopt_long decides (tar's --list is not
// --listed-incremental).
func anyFlag(style flagStyle, args, flags, exact []string) bool {
	for _, a := range args {
		if a == "--" && style != styleSingleDash {
			// Operands follow; only operand words are still looked for.
			return anyOperandWord(args, flags)
		}
		for _, f := range flags {
			if argHasFlag(style, a, f) && !exactOther(style, a, f, exact) {
				return true
			}
		}
	}
	return false
}

// exactOther reports whether the getopt_long option a names, exactly, one of
// exact other than f.
func exactOther(style flagStyle, a, f string, exact []string) bool {
	if style != styleGNU || len(exact) == 0 || !strings.HasPrefix(a, "--") {
		return false
	}
	name := a
	if i := strings.IndexAny(a, "= "); i >= 0 {
		name = a[:i]
	}
	return name != f && slices.Contains(exact, name)
}

func anyOperandWord(args, flags []string) bool {
	for _, a := range args {
		for _, f := range flags {
			if !strings.HasPrefix(f, "-") && a == f {
				return true
			}
		}
	}
	return false
}

// argHasFlag reports whether the single argument a carries flag f.
func argHasFlag(style flagStyle, a, f string) bool {
	if f == "" {
		return false
	}
	if f[0] != '-' {
		return a == f // an operand word
	}
	if a == f {
		return true
	}
	if len(a) < 2 || a[0] != '-' {
		return false
	}
	switch style {
	case styleSingleDash:
		return strings.HasPrefix(a, f) && len(a) > len(f) && a[len(f)] == ' '
	case styleGo:
		an := strings.TrimPrefix(a[1:], "-")
		fn := strings.TrimLeft(f, "-")
		return an == fn || (strings.HasPrefix(an, fn) && len(an) > len(fn) && (an[len(fn)] == '=' || an[len(fn)] == ' '))
	}
	// getopt_long style.
	if strings.HasPrefix(f, "--") {
		if !strings.HasPrefix(a, "--") || len(a) == 2 {
			return false
		}
		name := a
		if i := strings.IndexAny(a, "= "); i >= 0 {
			name = a[:i]
		}
		// Exact, --f=value, "--f value", or an abbreviation of f.
		return name == f || (len(name) > 2 && strings.HasPrefix(f, name))
	}
	if len(f) == 2 {
		// A short option: alone, with an attached value, or in a bundle.
		if strings.HasPrefix(a, "--") {
			return false
		}
		return strings.IndexByte(a[1:], f[1]) >= 0
	}
	// A long option with a single dash (-name).
	return strings.HasPrefix(a, f) && len(a) > len(f) && (a[len(f)] == '=' || a[len(f)] == ' ')
}

// flagStyle is how a program parses its options.
type flagStyle uint8

const (
	styleGNU        flagStyle = iota // getopt_long: bundles, --long, abbreviations
	styleSingleDash                  // find: -name, no bundling
	styleGo                          // Go's flag package: -name or --name, no bundling
)

// flagStyleOf returns how the program name reads options, as far as
// matchers care (programs.MatcherSyntax).
func flagStyleOf(name string) flagStyle {
	switch programs.MatcherSyntax(name) {
	case programs.Find:
		return styleSingleDash
	case programs.GoFlag, programs.GoTool:
		return styleGo
	}
	return styleGNU
}

// commandBase returns the base name of argv[0]: the text after its last
// slash.
func commandBase(arg0 string) string {
	if i := strings.LastIndexByte(arg0, '/'); i >= 0 {
		return arg0[i+1:]
	}
	return arg0
}

// normalizeCommandName lower-cases ASCII letters and drops a trailing
// ".exe". It does not allocate when name is already normal.
func normalizeCommandName(name string) string {
	if len(name) > 4 && strings.EqualFold(name[len(name)-4:], ".exe") {
		name = name[:len(name)-4]
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; 'A' <= c && c <= 'Z' {
			return strings.ToLower(name)
		}
	}
	return name
}

// versionless strips a version suffix: python3.12 → python, pip3 → pip,
// node18 → node. Names that are only digits and dots stay as they are.
func versionless(name string) string {
	i := len(name)
	for i > 0 && (name[i-1] == '.' || (name[i-1] >= '0' && name[i-1] <= '9')) {
		i--
	}
	if i == 0 || i == len(name) {
		return name
	}
	return strings.TrimSuffix(name[:i], "-")
}

// isASCIIName reports whether name has only printable ASCII characters.
func isASCIIName(name string) bool {
	for i := 0; i < len(name); i++ {
		if name[i] < 0x21 || name[i] > 0x7e {
			return false
		}
	}
	return true
}

// lookAlikes maps letters that render like Latin ones to those letters, so
// that a blocked command spelled with Cyrillic or Greek look-alikes is still
// recognised as blocked. A non-ASCII name is never safe either way. It is built on first use.
var lookAlikes = sync.OnceValue(func() map[rune]rune {
	return map[rune]rune{
		'а': 'a', 'в': 'b', 'с': 'c', 'ԁ': 'd', 'е': 'e', 'һ': 'h', 'і': 'i', 'ј': 'j',
		'к': 'k', 'ӏ': 'l', 'м': 'm', 'о': 'o', 'р': 'p', 'ԛ': 'q', 'ѕ': 's', 'т': 't',
		'ս': 'u', 'ѵ': 'v', 'ԝ': 'w', 'х': 'x', 'у': 'y', 'г': 'r', 'п': 'n',
		'А': 'a', 'В': 'b', 'С': 'c', 'Е': 'e', 'Н': 'h', 'І': 'i', 'Ј': 'j', 'К': 'k',
		'М': 'm', 'О': 'o', 'Р': 'p', 'Ѕ': 's', 'Т': 't', 'Х': 'x', 'У': 'y',
		'α': 'a', 'ο': 'o', 'ρ': 'p', 'ν': 'v', 'τ': 't', 'ι': 'i', 'κ': 'k', 'χ': 'x',
		'Α': 'a', 'Β': 'b', 'Ε': 'e', 'Η': 'h', 'Ι': 'i', 'Κ': 'k', 'Μ': 'm', 'Ν': 'n',
		'Ο': 'o', 'Ρ': 'p', 'Τ': 't', 'Χ': 'x', 'Υ': 'y', 'Ζ': 'z',
		'ı': 'i', 'ℓ': 'l', 'ⅰ': 'i', 'ⅼ': 'l', 'ｃ': 'c', 'ｕ': 'u', 'ｒ': 'r', 'ｌ': 'l',
		'\u00a0': ' ', 'ſ': 's',
	}
})

// foldLookAlikes maps look-alike letters to ASCII, lower-cases the result
// and drops characters that render as nothing (zero-width, soft hyphen).
func foldLookAlikes(name string) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case r == '\u200b' || r == '\u200c' || r == '\u200d' || r == '\u2060' || r == '\ufeff' || r == '\u00ad':
			continue
		case r >= 'Ａ' && r <= 'Ｚ':
			r = r - 'Ａ' + 'a'
		case r >= 'ａ' && r <= 'ｚ':
			r = r - 'ａ' + 'a'
		}
		if a, ok := lookAlikes()[r]; ok {
			r = a
		}
		b.WriteRune(r)
	}
	return normalizeCommandName(b.String())
}

// Overlaps reports whether some argv could match both matchers: the same
// command (or one a versioned name of the other) and argument prefixes of
// which one extends the other. Flags are not considered, so the answer
// errs on the side of a conflict.
func (a Matcher) Overlaps(b Matcher) bool {
	na, nb := normalizeCommandName(a.Command), normalizeCommandName(b.Command)
	if na != nb && versionless(na) != nb && versionless(nb) != na {
		return false
	}
	n := min(len(a.CommandArgsPrefix), len(b.CommandArgsPrefix))
	return slices.Equal(a.CommandArgsPrefix[:n], b.CommandArgsPrefix[:n])
}

// Selects reports whether a removal entry sel selects the list entry m: the
// same command and, for each of args, flags and exceptFlags that the
// removal gives, the same value.
func (sel Matcher) Selects(m Matcher) bool {
	if normalizeCommandName(sel.Command) != normalizeCommandName(m.Command) {
		return false
	}
	if sel.CommandArgsPrefix != nil && !slices.Equal(sel.CommandArgsPrefix, m.CommandArgsPrefix) {
		return false
	}
	if sel.Flags != nil && !sameSet(sel.Flags, m.Flags) {
		return false
	}
	if sel.ExceptFlags != nil && !sameSet(sel.ExceptFlags, m.ExceptFlags) {
		return false
	}
	return true
}
