package toolpolicy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
)

// shape is the JSON type a schema node expects.
type shape uint8

const (
	shString  shape = iota + 1 // a non-blank string
	shStrings                  // an array of strings (blank entries are checked later, with their meaning)
	shObject                   // an object with known fields
	shMap                      // an object with arbitrary keys and one value shape
	shArray                    // an array of one element shape
)

// schemaNode describes the expected JSON at one place of the document.
type schemaNode struct {
	shape  shape
	fields map[string]*schemaNode // shObject
	elem   *schemaNode            // shMap, shArray
}

// configSchema is the shape of a configuration document.
var configSchema = func() *schemaNode {
	str := &schemaNode{shape: shString}
	list := &schemaNode{shape: shStrings}
	rules := &schemaNode{shape: shObject, fields: map[string]*schemaNode{"allow": list, "deny": list}}
	agentTools := &schemaNode{shape: shObject, fields: map[string]*schemaNode{"profile": str, "allow": list, "deny": list}}
	tools := &schemaNode{shape: shObject, fields: map[string]*schemaNode{
		"profile":    str,
		"allow":      list,
		"deny":       list,
		"byProvider": {shape: shMap, elem: rules},
		"subagents":  {shape: shObject, fields: map[string]*schemaNode{"tools": rules}},
	}}
	agent := &schemaNode{shape: shObject, fields: map[string]*schemaNode{"id": str, "tools": agentTools}}
	return &schemaNode{shape: shObject, fields: map[string]*schemaNode{
		"tools":  tools,
		"agents": {shape: shArray, elem: agent},
	}}
}()

// checkShape walks a whole JSON document token by token against the
// schema. It catches what decoding into structs would let through or
// report without a location: unknown and duplicate keys (the standard
// decoder keeps the last duplicate silently), null values, wrong types,
// blank ids and profiles, and trailing data. Errors name the entry.
func checkShape(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := walkShape(dec, configSchema, ""); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return shapeErr(dec, data, "", "trailing data after the configuration object")
	}
	return nil
}

func walkShape(dec *json.Decoder, n *schemaNode, path string) error {
	tok, err := dec.Token()
	if err != nil {
		return syntaxErr(path, err)
	}
	where := path
	if where == "" {
		where = "configuration"
	}
	switch n.shape {
	case shString:
		s, ok := tok.(string)
		if !ok {
			return &ConfigError{Path: where, Err: fmt.Errorf("%w: expected a string, found %s", ErrInvalidConfig, describe(tok))}
		}
		if t, ascii := lowerASCII(s); ascii && t == "" {
			return &ConfigError{Path: where, Err: ErrBlankEntry}
		}
		return nil
	case shStrings, shArray:
		if d, ok := tok.(json.Delim); !ok || d != '[' {
			what := "a list"
			if n.shape == shStrings {
				what = "a list of strings"
			}
			return &ConfigError{Path: where, Err: fmt.Errorf("%w: expected %s, found %s", ErrInvalidConfig, what, describe(tok))}
		}
		for i := 0; dec.More(); i++ {
			ep := path + "[" + strconv.Itoa(i) + "]"
			if n.shape == shArray {
				if err := walkShape(dec, n.elem, ep); err != nil {
					return err
				}
				continue
			}
			tok, err := dec.Token()
			if err != nil {
				return syntaxErr(ep, err)
			}
			if _, ok := tok.(string); !ok {
				return &ConfigError{Path: ep, Err: fmt.Errorf("%w: expected a string, found %s", ErrInvalidConfig, describe(tok))}
			}
		}
		_, err := dec.Token() // ']'
		return syntaxErr(where, err)
	default: // shObject, shMap
		if d, ok := tok.(json.Delim); !ok || d != '{' {
			return &ConfigError{Path: where, Err: fmt.Errorf("%w: expected an object, found %s", ErrInvalidConfig, describe(tok))}
		}
		seen := map[string]bool{}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return syntaxErr(where, err)
			}
			key := tok.(string) // the decoder guarantees object keys are strings
			var child *schemaNode
			var cp string
			if n.shape == shMap {
				child, cp = n.elem, path+"["+strconv.Quote(key)+"]"
			} else {
				cp = key
				if path != "" {
					cp = path + "." + key
				}
				child = n.fields[key]
				if child == nil {
					return &ConfigError{Path: where, Err: fmt.Errorf("%w: unknown field %q (known: %s)", ErrInvalidConfig, key, fieldList(n))}
				}
			}
			if seen[key] {
				return &ConfigError{Path: cp, Err: fmt.Errorf("%w: duplicate key %q", ErrInvalidConfig, key)}
			}
			seen[key] = true
			if err := walkShape(dec, child, cp); err != nil {
				return err
			}
		}
		_, err := dec.Token() // '}'
		return syntaxErr(where, err)
	}
}

// fieldList names the known fields of an object node, sorted.
func fieldList(n *schemaNode) string {
	var b bytes.Buffer
	for i, k := range sortedKeys(n.fields) {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(k)
	}
	return b.String()
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

// describe names the JSON type of a token.
func describe(tok json.Token) string {
	switch t := tok.(type) {
	case nil:
		return "null (omit the field instead)"
	case bool:
		return "a boolean"
	case json.Number:
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

// syntaxErr wraps a decoder error (nil stays nil).
func syntaxErr(path string, err error) error {
	if err == nil {
		return nil
	}
	if path == "" {
		path = "configuration"
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &ConfigError{Path: path, Err: fmt.Errorf("%w: unexpected end of input", ErrInvalidConfig)}
	}
	return &ConfigError{Path: path, Err: fmt.Errorf("%w: %v", ErrInvalidConfig, err)}
}

// shapeErr reports an error at the decoder's current position.
func shapeErr(dec *json.Decoder, data []byte, path, msg string) error {
	off := dec.InputOffset()
	line := 1 + bytes.Count(data[:min(int(off), len(data))], []byte("\n"))
	if path == "" {
		path = "configuration"
	}
	return &ConfigError{Path: path, Err: fmt.Errorf("%w: %s (line %d)", ErrInvalidConfig, msg, line)}
}
