package toolpolicy

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/sandboxauth/sandboxauth/internal/strictjson"
)

// configSchema returns the shape of a configuration document. It is built
// on each use, so no schema value is shared between callers.
func configSchema() *strictjson.Node {
	str := &strictjson.Node{Kind: strictjson.String, NonBlank: true}
	list := &strictjson.Node{Kind: strictjson.Array, Elem: &strictjson.Node{Kind: strictjson.String}}
	rules := &strictjson.Node{Kind: strictjson.Object, Fields: map[string]*strictjson.Node{"allow": list, "deny": list}}
	agentTools := &strictjson.Node{Kind: strictjson.Object, Fields: map[string]*strictjson.Node{"profile": str, "allow": list, "deny": list}}
	tools := &strictjson.Node{Kind: strictjson.Object, Fields: map[string]*strictjson.Node{
		"profile":    str,
		"allow":      list,
		"deny":       list,
		"byProvider": {Kind: strictjson.Map, Elem: rules},
		"subagents":  {Kind: strictjson.Object, Fields: map[string]*strictjson.Node{"tools": rules}},
	}}
	agent := &strictjson.Node{Kind: strictjson.Object, Fields: map[string]*strictjson.Node{"id": str, "tools": agentTools}}
	return &strictjson.Node{Kind: strictjson.Object, Fields: map[string]*strictjson.Node{
		"tools":  tools,
		"agents": {Kind: strictjson.Array, Elem: agent},
	}}
}

// checkShape walks a whole JSON document token by token against the
// schema. It catches what decoding into structs would let through or
// report without a location: unknown and duplicate keys (the standard
// decoder keeps the last duplicate silently), null values, wrong types,
// blank ids and profiles, and trailing data. Errors are *ConfigError
// naming the entry and its line and column.
func checkShape(data []byte) (*strictjson.Doc, error) {
	doc, err := strictjson.Parse(data, configSchema())
	if err != nil {
		var se *strictjson.Error
		if !errors.As(err, &se) {
			return nil, fmt.Errorf("%w: %v", ErrInvalidConfig, err)
		}
		kind := ErrInvalidConfig
		if errors.Is(se.Err, strictjson.ErrBlank) {
			kind = ErrBlankEntry
		}
		return nil, &ConfigError{Path: se.Path, Offset: se.Offset, Line: se.Line, Column: se.Column,
			Err: fmt.Errorf("%w: %v", kind, se.Err)}
	}
	return doc, nil
}

// locate sets the position of every *ConfigError in err (a single one or
// an errors.Join of them) from the document's index of values.
func locate(doc *strictjson.Doc, err error) {
	var ce *ConfigError
	if errors.As(err, &ce) && ce.Line == 0 {
		le := doc.Errorf(ce.Path, nil)
		ce.Offset, ce.Line, ce.Column = le.Offset, le.Line, le.Column
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			locate(doc, e)
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
