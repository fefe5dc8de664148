package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode"

	"github.com/sandboxauth/sandboxauth"
)

// commandsSchema documents the --commands file; it is printed by
// "check --help".
const commandsSchema = `The --commands file adds matchers to the default lists. It is one JSON object
with up to three lists, each of matcher objects:

  {
    "safe":      [{"command": "make", "args": ["test"], "reason": "our test target"}],
    "dangerous": [{"command": "git", "args": ["push"]}],
    "blocked":   [{"command": "terraform"},
                  {"command": "kubectl", "flags": ["--context"], "reason": "no cluster access"}]
  }

A matcher's fields:
  command      the program name, compared with the base name of argv[0]
               (required; one word, no slash)
  args         words that must follow the command exactly (a prefix of argv[1:])
  flags        if present, at least one of these flags must appear
  exceptFlags  the matcher does not match when one of these appears (an
               entry without a leading "-" names an operand word)
  reason       one line shown to people when the matcher decides

Precedence is the library's: safe > blocked > dangerous. Decoding is strict:
unknown fields, duplicate fields, null, wrong types, trailing data, an empty
command and blank flags are errors that name the entry, e.g.
  commands.json: safe[2]: "command" is empty
`

// commandsFile is the decoded --commands file.
type commandsFile struct {
	Safe      []sandboxauth.CommandMatcher
	Dangerous []sandboxauth.CommandMatcher
	Blocked   []sandboxauth.CommandMatcher
}

// apply adds the file's matchers to s.
func (f *commandsFile) apply(s *sandboxauth.ShellAllowedCommands) {
	for _, m := range f.Safe {
		s.AddSafe(m)
	}
	for _, m := range f.Dangerous {
		s.AddDangerous(m)
	}
	for _, m := range f.Blocked {
		s.AddBlocked(m)
	}
}

// loadCommandsFile reads and strictly decodes a --commands file. Errors
// start with the file's name.
func loadCommandsFile(path string) (*commandsFile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f, err := parseCommandsFile(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// parseCommandsFile decodes a --commands document token by token, so that
// every error can name its entry and nothing the schema does not describe
// (unknown or duplicate fields, null, trailing data) is accepted.
func parseCommandsFile(data []byte) (*commandsFile, error) {
	p := &jsonParser{dec: json.NewDecoder(bytes.NewReader(data)), data: data}
	f := &commandsFile{}
	err := p.object("", func(key, path string) error {
		var list *[]sandboxauth.CommandMatcher
		switch key {
		case "safe":
			list = &f.Safe
		case "dangerous":
			list = &f.Dangerous
		case "blocked":
			list = &f.Blocked
		default:
			return fmt.Errorf("unknown field %q (want \"safe\", \"dangerous\" or \"blocked\")", key)
		}
		return p.array(path, func(i int, path string) error {
			m, err := p.matcher(path)
			if err != nil {
				return err
			}
			*list = append(*list, m)
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	if _, err := p.dec.Token(); err != io.EOF {
		return nil, p.located(errors.New("unexpected data after the JSON object"))
	}
	return f, nil
}

// jsonParser walks a JSON document with a json.Decoder's tokens.
type jsonParser struct {
	dec  *json.Decoder
	data []byte
}

// located prefixes err with the line and column the decoder has reached.
func (p *jsonParser) located(err error) error {
	var se *json.SyntaxError
	off := p.dec.InputOffset()
	if errors.As(err, &se) {
		off = se.Offset
	}
	if off > int64(len(p.data)) {
		off = int64(len(p.data))
	}
	line := 1 + bytes.Count(p.data[:off], []byte("\n"))
	col := int(off) - bytes.LastIndexByte(p.data[:off], '\n')
	return fmt.Errorf("line %d, column %d: %w", line, col, err)
}

// token returns the next token; syntax errors are located.
func (p *jsonParser) token() (json.Token, error) {
	t, err := p.dec.Token()
	if err == io.EOF {
		return nil, p.located(errors.New("unexpected end of the document"))
	}
	if err != nil {
		return nil, p.located(err)
	}
	return t, nil
}

// at names path in an error ("safe[2]: ..."), or nothing at the top level.
func at(path string, err error) error {
	if err == nil || path == "" {
		return err
	}
	return fmt.Errorf("%s: %w", path, err)
}

// describeToken names the JSON type of t for an error.
func describeToken(t json.Token) string {
	switch v := t.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case float64, json.Number:
		return "a number"
	case string:
		return "a string"
	case json.Delim:
		if v == '{' {
			return "an object"
		}
		if v == '[' {
			return "an array"
		}
	}
	return fmt.Sprintf("%v", t)
}

// object reads an object, calling field for each key with the key's path.
func (p *jsonParser) object(path string, field func(key, path string) error) error {
	t, err := p.token()
	if err != nil {
		return at(path, err)
	}
	if t != json.Delim('{') {
		return at(path, fmt.Errorf("want an object, got %s", describeToken(t)))
	}
	seen := map[string]bool{}
	for p.dec.More() {
		t, err := p.token()
		if err != nil {
			return at(path, err)
		}
		key := t.(string) // object keys are always strings
		sub := key
		if path != "" {
			sub = path + "." + key
		}
		if seen[key] {
			return at(path, fmt.Errorf("duplicate field %q", key))
		}
		seen[key] = true
		if err := field(key, sub); err != nil {
			return err
		}
	}
	_, err = p.token() // '}'
	return at(path, err)
}

// array reads an array, calling elem for each element with its path.
func (p *jsonParser) array(path string, elem func(i int, path string) error) error {
	t, err := p.token()
	if err != nil {
		return at(path, err)
	}
	if t != json.Delim('[') {
		return at(path, fmt.Errorf("want a list, got %s", describeToken(t)))
	}
	for i := 0; p.dec.More(); i++ {
		if err := elem(i, fmt.Sprintf("%s[%d]", path, i)); err != nil {
			return err
		}
	}
	_, err = p.token() // ']'
	return at(path, err)
}

// str reads a string.
func (p *jsonParser) str(path string) (string, error) {
	t, err := p.token()
	if err != nil {
		return "", at(path, err)
	}
	s, ok := t.(string)
	if !ok {
		return "", at(path, fmt.Errorf("want a string, got %s", describeToken(t)))
	}
	return s, nil
}

// stringList reads a list of strings; blank says whether "" or white space
// alone is an acceptable element.
func (p *jsonParser) stringList(path string, blankOK bool) ([]string, error) {
	out := []string{}
	err := p.array(path, func(i int, path string) error {
		s, err := p.str(path)
		if err != nil {
			return err
		}
		if !blankOK && strings.TrimSpace(s) == "" {
			return at(path, errors.New("blank entry"))
		}
		out = append(out, s)
		return nil
	})
	return out, err
}

// matcher reads one matcher object and checks it.
func (p *jsonParser) matcher(path string) (sandboxauth.CommandMatcher, error) {
	var m sandboxauth.CommandMatcher
	hasCommand := false
	err := p.object(path, func(key, sub string) error {
		var err error
		switch key {
		case "command":
			hasCommand = true
			m.Command, err = p.str(sub)
		case "args":
			m.CommandArgsPrefix, err = p.stringList(sub, true)
		case "flags":
			m.Flags, err = p.stringList(sub, false)
		case "exceptFlags":
			m.ExceptFlags, err = p.stringList(sub, false)
		case "reason":
			m.Reason, err = p.str(sub)
		default:
			err = at(path, fmt.Errorf("unknown field %q (want \"command\", \"args\", \"flags\", \"exceptFlags\" or \"reason\")", key))
		}
		return err
	})
	if err != nil {
		return m, err
	}
	switch {
	case !hasCommand:
		return m, at(path, errors.New(`"command" is missing`))
	case strings.TrimSpace(m.Command) == "":
		return m, at(path, errors.New(`"command" is empty`))
	case strings.ContainsFunc(m.Command, unicode.IsSpace):
		return m, at(path, fmt.Errorf(`"command" %q contains white space: name the program only and put its arguments in "args"`, m.Command))
	case strings.Contains(m.Command, "/"):
		return m, at(path, fmt.Errorf(`"command" %q contains a slash: name the program, not its path (it is compared with the base name of argv[0])`, m.Command))
	case strings.ContainsRune(m.Reason, '\n'):
		return m, at(path, errors.New(`"reason" must be one line`))
	}
	return m, nil
}

// buildCommands returns the default command lists, extended by the
// --commands file at path (if any), with per-segment analysis set to split.
func buildCommands(path string, split bool) (*sandboxauth.ShellAllowedCommands, error) {
	commands := sandboxauth.NewShellAllowedCommands()
	if path != "" {
		f, err := loadCommandsFile(path)
		if err != nil {
			return nil, err
		}
		f.apply(commands)
	}
	commands.SetSplitCompound(split)
	return commands, nil
}
