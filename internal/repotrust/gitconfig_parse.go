package repotrust

import (
	"errors"
	"fmt"
	"strings"
)

// Setting is one "key = value" line of a git configuration file, with the
// key split as git splits it: Section and Key lower-case, Subsection as
// written (lower-case too in the old "[section.sub]" form).
type Setting struct {
	Section    string
	Subsection string
	// HasSubsection is true when the header names a subsection, an empty
	// one included ("[core.]" or `[core ""]` is section core, subsection
	// "": git's core..hookspath, not core.hookspath).
	HasSubsection bool
	Key           string
	// Value is the value after git's unquoting; HasValue is false for a
	// key written without "=" (a boolean true).
	Value    string
	HasValue bool
	// File, Line and Column locate the key.
	File         string
	Line, Column int
}

// Name returns the setting's dotted name, "section.subsection.key".
func (s Setting) Name() string {
	switch {
	case s.HasSubsection || s.Subsection != "":
		return s.Section + "." + s.Subsection + "." + s.Key
	case s.Section == "":
		return s.Key // a key before any section header
	}
	return s.Section + "." + s.Key
}

// Where returns "file:line:column".
func (s Setting) Where() string {
	return fmt.Sprintf("%s:%d:%d", s.File, s.Line, s.Column)
}

// ErrConfigSyntax is wrapped by every error of ParseGitConfig.
var ErrConfigSyntax = errors.New("git configuration not understood")

// ParseGitConfig reads git configuration text as git itself does: an
// optional UTF-8 byte order mark, comments (# and ;), section headers
// ("[core]", `[remote "origin"]`, the old "[branch.main]", with dots
// anywhere: "[.x]" is section "", subsection "x"; `[ "x"]` too), keys
// before any header (section ""), a key on the header's line, keys
// without a value, double quotes, the escapes \n \t \b \\ \" and
// backslash-newline continuations (a backslash at the very end of the
// text ends the value), a NUL byte in a value (which ends the value for
// git's readers, C strings), CR LF line ends. It calls fn for each setting
// in order. Text git would reject (an unknown escape, an unterminated
// quote or header, an empty header, a NUL byte elsewhere, a partial byte
// order mark) is an error wrapping ErrConfigSyntax, naming
// file:line:column.
func ParseGitConfig(file string, b []byte, fn func(Setting) error) error {
	p := configParser{file: file, b: b, line: 1, col: 0, sub: -1}
	return p.parse(fn)
}

type configParser struct {
	file      string
	b         []byte
	i         int
	line, col int
	eof       bool
	section   string // "section" or "section.subsection", as git builds it
	sub       int    // index of the subsection's dot in section, or -1
}

// next returns the next character as git's get_next_char does: CR LF is
// LF, and the end of the text is a final LF with eof set.
func (p *configParser) next() byte {
	if p.i >= len(p.b) {
		p.eof = true
		return '\n'
	}
	c := p.b[p.i]
	p.i++
	if c == '\r' && p.i < len(p.b) && p.b[p.i] == '\n' {
		c = '\n'
		p.i++
	}
	if c == '\n' {
		p.line++
		p.col = 0
	} else {
		p.col++
	}
	return c
}

func (p *configParser) errorf(format string, a ...any) error {
	return fmt.Errorf("%w: %s:%d:%d: %s", ErrConfigSyntax, p.file, p.line, p.col, fmt.Sprintf(format, a...))
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isKeyChar(c byte) bool {
	return isAlpha(c) || c >= '0' && c <= '9' || c == '-'
}
func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func (p *configParser) parse(fn func(Setting) error) error {
	const bom = "\xef\xbb\xbf"
	if len(p.b) > 0 && p.b[0] == bom[0] {
		if !strings.HasPrefix(string(p.b[:min(3, len(p.b))]), bom) {
			return p.errorf("partial UTF-8 byte order mark")
		}
		p.i = 3
	}
	comment := false
	for {
		c := p.next()
		switch {
		case c == '\n':
			if p.eof {
				return nil
			}
			comment = false
		case comment || isSpace(c):
		case c == '#' || c == ';':
			comment = true
		case c == '[':
			if err := p.header(); err != nil {
				return err
			}
		case c == 0:
			return p.errorf("NUL byte")
		case !isAlpha(c):
			return p.errorf("unexpected character %q", c)
		default:
			line, col := p.line, p.col
			s, err := p.setting(c)
			if err != nil {
				return err
			}
			s.File, s.Line, s.Column = p.file, line, col
			if err := fn(s); err != nil {
				return err
			}
		}
	}
}

// header reads a section header after its '['.
func (p *configParser) header() error {
	var name []byte
	p.sub = -1
	for {
		c := p.next()
		switch {
		case p.eof:
			return p.errorf("unterminated section header")
		case c == ']':
			if len(name) == 0 {
				return p.errorf("empty section name")
			}
			p.section = string(name)
			if i := strings.IndexByte(p.section, '.'); i >= 0 {
				// The old form: section, a dot, subsection (either may
				// be empty, as git takes them).
				p.sub = i
			}
			return nil
		case isSpace(c):
			return p.extendedHeader(name)
		case !isKeyChar(c) && c != '.':
			return p.errorf("invalid character %q in section name", c)
		default:
			name = append(name, lower(c))
		}
	}
}

// extendedHeader reads `"subsection"]` after `[section `.
func (p *configParser) extendedHeader(name []byte) error {
	c := p.next()
	for isSpace(c) {
		if c == '\n' {
			return p.errorf("unterminated section header")
		}
		c = p.next()
	}
	if c != '"' {
		return p.errorf("expected a quoted subsection name")
	}
	dot := len(name)
	name = append(name, '.')
	for {
		c = p.next()
		if c == '\n' {
			return p.errorf("unterminated subsection name")
		}
		if c == '"' {
			break
		}
		if c == '\\' {
			if c = p.next(); c == '\n' {
				return p.errorf("unterminated subsection name")
			}
		}
		if c == 0 {
			return p.errorf("NUL byte")
		}
		name = append(name, c)
	}
	if p.next() != ']' {
		return p.errorf("expected ] after the subsection name")
	}
	p.section = string(name)
	p.sub = dot
	return nil
}

// setting reads a key (its first letter is first) and its value.
func (p *configParser) setting(first byte) (Setting, error) {
	key := []byte{lower(first)}
	var c byte
	for {
		c = p.next()
		if p.eof || !isKeyChar(c) {
			break
		}
		key = append(key, lower(c))
	}
	for c == ' ' || c == '\t' {
		c = p.next()
	}
	s := Setting{Key: string(key)}
	if p.sub >= 0 {
		s.Section, s.Subsection, s.HasSubsection = p.section[:p.sub], p.section[p.sub+1:], true
	} else {
		s.Section = p.section
	}
	if c == '\n' {
		return s, nil
	}
	if c != '=' {
		return s, p.errorf("invalid key %q", s.Name())
	}
	v, err := p.value()
	if err != nil {
		return s, err
	}
	s.Value, s.HasValue = v, true
	return s, nil
}

// value reads a value after '=', as git's parse_value does.
func (p *configParser) value() (string, error) {
	var v []byte
	quote, comment, space := false, false, 0
	cut := -1 // where a NUL byte ended the value for git's readers
	end := func() (string, error) {
		if quote {
			return "", p.errorf("unterminated quoted value")
		}
		if cut >= 0 {
			v = v[:cut]
		}
		return string(v), nil
	}
	for {
		c := p.next()
		if c == '\n' {
			return end()
		}
		if comment {
			continue
		}
		if isSpace(c) && !quote {
			if len(v) > 0 {
				space++
			}
			continue
		}
		if !quote && (c == ';' || c == '#') {
			comment = true
			continue
		}
		for ; space > 0; space-- {
			v = append(v, ' ')
		}
		switch c {
		case 0:
			if cut < 0 {
				cut = len(v)
			}
		case '\\':
			switch c = p.next(); c {
			case '\n':
				if p.eof {
					return end() // git reads the end of the text as a line end
				}
				continue
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'n':
				c = '\n'
			case '\\', '"':
			default:
				return "", p.errorf("unknown escape \\%c in value", c)
			}
			v = append(v, c)
		case '"':
			quote = !quote
		default:
			v = append(v, c)
		}
	}
}
