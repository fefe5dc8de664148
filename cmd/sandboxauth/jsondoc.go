package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// jsonObject is a JSON object that keeps its members in the order they were
// read, so that a settings file rewritten by "hook install" differs from
// the original only by what was added.
type jsonObject struct {
	keys []string
	vals map[string]any // *jsonObject, []any, json.Number, string, bool or nil
}

func newJSONObject() *jsonObject { return &jsonObject{vals: map[string]any{}} }

// get returns the member key.
func (o *jsonObject) get(key string) (any, bool) {
	v, ok := o.vals[key]
	return v, ok
}

// set sets the member key, appending it when new.
func (o *jsonObject) set(key string, v any) {
	if _, ok := o.vals[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.vals[key] = v
}

// parseJSONObject reads a document that must be one JSON object. Duplicate
// keys and trailing data are errors: a file that the agent may read
// differently from this parser is not rewritten.
func parseJSONObject(data []byte) (*jsonObject, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := readJSONValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after the JSON object")
	}
	o, ok := v.(*jsonObject)
	if !ok {
		return nil, errors.New("the file is not a JSON object")
	}
	return o, nil
}

func readJSONValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := newJSONObject()
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key := kt.(string) // object keys are always strings
				if _, dup := o.vals[key]; dup {
					return nil, fmt.Errorf("duplicate key %q at offset %d", key, dec.InputOffset())
				}
				v, err := readJSONValue(dec)
				if err != nil {
					return nil, err
				}
				o.set(key, v)
			}
			_, err := dec.Token() // '}'
			return o, err
		case '[':
			l := []any{}
			for dec.More() {
				v, err := readJSONValue(dec)
				if err != nil {
					return nil, err
				}
				l = append(l, v)
			}
			_, err := dec.Token() // ']'
			return l, err
		}
		return nil, fmt.Errorf("unexpected %v at offset %d", t, dec.InputOffset())
	default:
		return t, nil
	}
}

// encode writes o indented by two spaces, with a final newline.
func (o *jsonObject) encode() []byte {
	var b bytes.Buffer
	writeJSONValue(&b, o, 0)
	b.WriteByte('\n')
	return b.Bytes()
}

func writeJSONValue(b *bytes.Buffer, v any, depth int) {
	indent := strings.Repeat("  ", depth+1)
	switch t := v.(type) {
	case *jsonObject:
		if len(t.keys) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{\n")
		for i, k := range t.keys {
			b.WriteString(indent)
			writeJSONScalar(b, k)
			b.WriteString(": ")
			writeJSONValue(b, t.vals[k], depth+1)
			if i < len(t.keys)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(strings.Repeat("  ", depth) + "}")
	case []any:
		if len(t) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[\n")
		for i, e := range t {
			b.WriteString(indent)
			writeJSONValue(b, e, depth+1)
			if i < len(t)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(strings.Repeat("  ", depth) + "]")
	default:
		writeJSONScalar(b, t)
	}
}

// writeJSONScalar writes a string, number, boolean or null. These always
// encode.
func writeJSONScalar(b *bytes.Buffer, v any) {
	var s bytes.Buffer
	enc := json.NewEncoder(&s)
	enc.SetEscapeHTML(false) // keep "<", ">" and "&" as the file had them
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	b.Write(bytes.TrimSuffix(s.Bytes(), []byte("\n")))
}
