// Package strictjson checks a JSON document against a small schema while
// keeping the position of every value, so that configuration errors can
// name file:line:column and the key path.
//
// The standard decoder silently keeps the last of two duplicate keys,
// accepts null for any pointer, slice or map, and reports type errors
// without a line. Parse walks the document token by token with
// json.Decoder.Token and json.Decoder.InputOffset instead: unknown keys,
// duplicate keys, null, wrong types, trailing data and syntax errors are
// errors that carry the offending path and its position; every such error
// in the document is reported, not only the first (a syntax error ends
// the walk). Comments (// and /* */) and trailing commas, as in the JSONC
// files of editors and coding agents, are accepted: they are blanked out
// before the walk, keeping every byte's position. Once a document
// has passed Parse it can be decoded with encoding/json into structs that
// mirror the schema, and later checks of the values (an unknown enum value,
// a bad duration) can be located with Doc.Errorf.
package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ErrBlank is a string that is empty or only white space where the schema
// asks for a non-blank one.
var ErrBlank = errors.New("blank value")

// Kind is the JSON type a Node expects.
type Kind uint8

// The kinds of value a Node can describe.
const (
	String  Kind = iota + 1 // a string
	Bool                    // true or false
	Number                  // a number
	Object                  // an object with the keys of Node.Fields only
	Map                     // an object with any keys, each value of Node.Elem
	Array                   // an array, each element of Node.Elem
	Raw                     // an object checked by someone else: only its syntax is checked here
	RawList                 // a list checked by someone else: only its syntax is checked here
)

// Node describes the value expected at one place of a document.
type Node struct {
	Kind Kind
	// NonBlank, for String, rejects an empty or white-space-only string.
	NonBlank bool
	// Fields lists the keys an Object may have.
	Fields map[string]*Node
	// Elem describes the values of a Map and the elements of an Array.
	Elem *Node
	// Reject, when set on a field, makes its presence an error with this
	// message (for keys that are reserved but not supported).
	Reject string
	// Or, when set, is a second shape the value may take: a value whose
	// JSON type is Or's kind is checked against Or instead (a string where
	// an object is expected, say). Or must differ from Kind.
	Or *Node
	// Example, when set, is a value of the right shape written as it
	// would appear in the document ({"command": "make"}, "2m"): an error
	// for a value of another type shows it, so that the reader sees what
	// goes there.
	Example string
}

// Error is a located error. Offset is a byte offset into the document;
// Line and Column are 1-based (columns count characters).
type Error struct {
	Path   string
	Offset int64
	Line   int
	Column int
	Err    error
}

// Error returns "LINE:COLUMN: PATH: ERR" (without the path when it is
// empty).
func (e *Error) Error() string {
	if e.Path == "" {
		return fmt.Sprintf("%d:%d: %v", e.Line, e.Column, e.Err)
	}
	return fmt.Sprintf("%d:%d: %s: %v", e.Line, e.Column, e.Path, e.Err)
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Doc is a document that passed Parse, with the position of every key and
// value.
type Doc struct {
	data  []byte          // the document as plain JSON (see StripComments)
	text  []byte          // the document as given, for lines and columns
	value map[string]span // path → value
}

type span struct{ start, end int64 }

// Parse checks data, JSON with comments and trailing commas allowed,
// against root. The error, if any, is an *Error, or several joined with
// errors.Join (each an *Error, in the order of the document).
func Parse(data []byte, root *Node) (*Doc, error) {
	d := &Doc{data: StripComments(data), text: data, value: map[string]span{}}
	dec := json.NewDecoder(bytes.NewReader(d.data))
	dec.UseNumber()
	w := walker{d: d, dec: dec}
	if err := w.walk(root, ""); err != nil {
		return nil, errors.Join(append(w.errs, err)...)
	}
	if len(w.errs) == 1 {
		return nil, w.errs[0]
	}
	if len(w.errs) > 1 {
		return nil, errors.Join(w.errs...)
	}
	end := d.skip(dec.InputOffset(), "")
	if _, err := dec.Token(); err != io.EOF {
		return nil, d.errAt(end, "", errors.New("trailing data after the configuration object"))
	}
	return d, nil
}

// Data returns the document as plain JSON: comments and trailing commas
// blanked out, every other byte where it was. encoding/json decodes it.
func (d *Doc) Data() []byte { return d.data }

// Raw returns the bytes of the value at path, or nil.
func (d *Doc) Raw(path string) []byte {
	s, ok := d.value[path]
	if !ok {
		return nil
	}
	return d.data[s.start:s.end]
}

// Has reports whether the document holds a value at path.
func (d *Doc) Has(path string) bool {
	_, ok := d.value[path]
	return ok
}

// Errorf returns an *Error located at the value at path (or, failing that,
// at its nearest recorded ancestor). err is wrapped as given.
func (d *Doc) Errorf(path string, err error) *Error {
	for p := path; ; {
		if s, ok := d.value[p]; ok {
			return d.errAt(s.start, path, err)
		}
		parent := parentPath(p)
		if parent == p {
			return d.errAt(0, path, err)
		}
		p = parent
	}
}

// LineColumn converts a byte offset into a 1-based line and column.
func (d *Doc) LineColumn(off int64) (line, col int) {
	return LineColumn(d.text, off)
}

// LineColumn converts a byte offset of data into a 1-based line and column
// (counting characters).
func LineColumn(data []byte, off int64) (line, col int) {
	off = max(0, min(off, int64(len(data))))
	before := data[:off]
	line = 1 + bytes.Count(before, []byte("\n"))
	start := bytes.LastIndexByte(before, '\n') + 1
	return line, 1 + utf8.RuneCount(before[start:])
}

func (d *Doc) errAt(off int64, path string, err error) *Error {
	line, col := d.LineColumn(off)
	return &Error{Path: path, Offset: off, Line: line, Column: col, Err: err}
}

// skip moves off past white space and the separators ':' and ','.
func (d *Doc) skip(off int64, seps string) int64 {
	for off < int64(len(d.data)) {
		c := d.data[off]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || strings.IndexByte(seps, c) >= 0 {
			off++
			continue
		}
		break
	}
	return off
}

// parentPath strips the last element of a path: "a.b[2]" → "a.b",
// "a.b" → "a", "a" → "".
func parentPath(p string) string {
	if p == "" {
		return ""
	}
	if strings.HasSuffix(p, "]") {
		if i := strings.LastIndexByte(p, '['); i >= 0 {
			return p[:i]
		}
	}
	if i := strings.LastIndexByte(p, '.'); i >= 0 {
		return p[:i]
	}
	return ""
}

type walker struct {
	d    *Doc
	dec  *json.Decoder
	errs []error // the errors after which the walk went on
}

// skipRest consumes the rest of a value whose first token was tok: up to
// the matching end of an object or list.
func (w *walker) skipRest(path string, tok json.Token) error {
	depth := 0
	if d, ok := tok.(json.Delim); ok && (d == '{' || d == '[') {
		depth = 1
	}
	for depth > 0 {
		t, err := w.dec.Token()
		if err != nil {
			return w.syntax(path, err)
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
	return nil
}

// soft records err, a mistake the walk can go past, and skips the rest of
// the value that began with tok.
func (w *walker) soft(err *Error, path string, tok json.Token) error {
	w.errs = append(w.errs, err)
	return w.skipRest(path, tok)
}

// fits reports whether tok begins a value of kind k.
func fits(k Kind, tok json.Token) bool {
	switch k {
	case String:
		_, ok := tok.(string)
		return ok
	case Bool:
		_, ok := tok.(bool)
		return ok
	case Number:
		_, ok := tok.(json.Number)
		return ok
	case Object, Map:
		return tok == json.Delim('{')
	case Array:
		return tok == json.Delim('[')
	}
	return false
}

// kindName names what a value of kind k is, for an error message.
func kindName(k Kind) string {
	switch k {
	case String:
		return "a string"
	case Bool:
		return "true or false"
	case Number:
		return "a number"
	case Object, Map:
		return "an object"
	case Array:
		return "a list"
	}
	return "a value"
}

// syntax turns a decoder error into a located error.
func (w *walker) syntax(path string, err error) error {
	off := w.d.skip(w.dec.InputOffset(), "")
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		off = se.Offset
		err = fmt.Errorf("invalid JSON: %v", se)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		off = int64(len(w.d.data))
		err = errors.New("unexpected end of the document")
	}
	return w.d.errAt(off, path, err)
}

func (w *walker) walk(n *Node, path string) error {
	start := w.d.skip(w.dec.InputOffset(), ":,")
	if n.Kind == Raw || n.Kind == RawList {
		var raw json.RawMessage
		if err := w.dec.Decode(&raw); err != nil {
			return w.syntax(path, err)
		}
		want, what := byte('{'), "an object"
		if n.Kind == RawList {
			want, what = '[', "a list"
		}
		if raw[0] != want {
			var tok json.Token = string(raw)
			switch raw[0] {
			case 'n':
				tok = nil
			case 't', 'f':
				tok = true
			case '[', '{':
				tok = json.Delim(raw[0])
			case '"':
			default:
				tok = json.Number(raw)
			}
			return w.d.errAt(start, path, fmt.Errorf("expected %s, found %s", what+suchAs(n), Describe(tok)))
		}
		w.d.value[path] = span{start, w.dec.InputOffset()}
		return nil
	}
	tok, err := w.dec.Token()
	if err != nil {
		return w.syntax(path, err)
	}
	if n.Or != nil && !fits(n.Kind, tok) {
		if !fits(n.Or.Kind, tok) {
			return w.soft(w.d.errAt(start, path, fmt.Errorf("expected %s%s or %s%s, found %s", kindName(n.Kind), suchAs(n), kindName(n.Or.Kind), suchAs(n.Or), Describe(tok))), path, tok)
		}
		n = n.Or
	}
	before := len(w.errs)
	if err := w.value(n, path, tok, start); err != nil {
		return err
	}
	if len(w.errs) == before {
		w.d.value[path] = span{start, w.dec.InputOffset()}
	}
	return nil
}

func (w *walker) value(n *Node, path string, tok json.Token, start int64) error {
	bad := func(want string) error {
		return w.soft(w.d.errAt(start, path, fmt.Errorf("expected %s, found %s", want+suchAs(n), foundQuoted(n.Kind, tok))), path, tok)
	}
	switch n.Kind {
	case String:
		s, ok := tok.(string)
		if !ok {
			return bad("a string")
		}
		if n.NonBlank && strings.TrimSpace(s) == "" {
			w.errs = append(w.errs, w.d.errAt(start, path, ErrBlank))
		}
	case Bool:
		if _, ok := tok.(bool); !ok {
			return bad("true or false")
		}
	case Number:
		if _, ok := tok.(json.Number); !ok {
			return bad("a number")
		}
	case Array:
		if tok != json.Delim('[') {
			if n.Elem != nil && n.Elem.Kind == String {
				return bad("a list of strings")
			}
			return bad("a list")
		}
		for i := 0; w.dec.More(); i++ {
			if err := w.walk(n.Elem, path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
		if _, err := w.dec.Token(); err != nil {
			return w.syntax(path, err)
		}
	case Object, Map:
		if tok != json.Delim('{') {
			return bad("an object")
		}
		seen := map[string]bool{}
		for w.dec.More() {
			keyAt := w.d.skip(w.dec.InputOffset(), ",")
			kt, err := w.dec.Token()
			if err != nil {
				return w.syntax(path, err)
			}
			key := kt.(string) // the decoder only yields strings as keys
			var child *Node
			var cp string
			if n.Kind == Map {
				child, cp = n.Elem, path+"["+strconv.Quote(key)+"]"
			} else {
				cp = key
				if path != "" {
					cp = path + "." + key
				}
				child = n.Fields[key]
				if child == nil {
					if err := w.skipValue(cp); err != nil {
						return err
					}
					w.errs = append(w.errs, w.d.errAt(keyAt, cp, unknownField(n, key)))
					continue
				}
				if child.Reject != "" {
					if err := w.skipValue(cp); err != nil {
						return err
					}
					w.errs = append(w.errs, w.d.errAt(keyAt, cp, errors.New(child.Reject)))
					continue
				}
			}
			if seen[key] {
				if err := w.skipValue(cp); err != nil {
					return err
				}
				w.errs = append(w.errs, w.d.errAt(keyAt, cp, fmt.Errorf("duplicate field %q", key)))
				continue
			}
			seen[key] = true
			if err := w.walk(child, cp); err != nil {
				return err
			}
		}
		if _, err := w.dec.Token(); err != nil {
			return w.syntax(path, err)
		}
	default:
		return w.d.errAt(start, path, fmt.Errorf("schema has no kind at %q", path))
	}
	return nil
}

// skipValue consumes the next value whole.
func (w *walker) skipValue(path string) error {
	tok, err := w.dec.Token()
	if err != nil {
		return w.syntax(path, err)
	}
	return w.skipRest(path, tok)
}

// KnownKeys lists the keys of an Object node, sorted and comma-separated.
func KnownKeys(n *Node) string {
	var keys []string
	for _, k := range slices.Sorted(maps.Keys(n.Fields)) {
		if n.Fields[k].Reject == "" {
			keys = append(keys, k)
		}
	}
	return strings.Join(keys, ", ")
}

// Describe names the JSON type of a token for an error message.
func Describe(tok json.Token) string {
	switch t := tok.(type) {
	case nil:
		return "null (omit the key instead)"
	case bool:
		return "a boolean"
	case json.Number, float64:
		return "a number"
	case string:
		return "a string"
	case json.Delim:
		if t == '[' {
			return "a list"
		}
		return "an object"
	}
	return fmt.Sprintf("%v", tok)
}
