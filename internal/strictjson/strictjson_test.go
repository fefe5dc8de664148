package strictjson

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func testSchema() *Node {
	str := &Node{Kind: String, NonBlank: true}
	return &Node{Kind: Object, Fields: map[string]*Node{
		"name":  str,
		"on":    {Kind: Bool},
		"n":     {Kind: Number},
		"list":  {Kind: Array, Elem: &Node{Kind: String}},
		"items": {Kind: Array, Elem: &Node{Kind: Object, Fields: map[string]*Node{"id": str}}},
		"byKey": {Kind: Map, Elem: &Node{Kind: Bool}},
		"raw":   {Kind: Raw},
		"raws":  {Kind: RawList},
		"gone":  {Reject: "gone is reserved"},
	}}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, doc  string
		path       string
		line, col  int
		msg        string
		isBlankErr bool
	}{
		{"unknown key", "{\n  \"nam\": 1}", "nam", 2, 3, `unknown field "nam": did you mean "name"? (known fields: byKey, items, list, n, name, on, raw, raws)`, false},
		{"misspelled key, letters swapped", `{"nmae": "a"}`, "nmae", 1, 2, `unknown field "nmae": did you mean "name"?`, false},
		{"misspelled key, another case", `{"ByKey": {}}`, "ByKey", 1, 2, `unknown field "ByKey": did you mean "byKey"?`, false},
		{"unknown key like none", `{"colour": 1}`, "colour", 1, 2, `unknown field "colour" (known fields:`, false},
		{"no rejected key is suggested", `{"gonee": 1}`, "gonee", 1, 2, `unknown field "gonee" (known fields:`, false},
		{"quoted boolean", `{"on": "true"}`, "on", 1, 8, `expected true or false, found the string "true": write true without the quotes`, false},
		{"quoted number", `{"n": "30"}`, "n", 1, 7, `expected a number, found the string "30": write 30 without the quotes`, false},
		{"duplicate key", `{"on": true, "on": false}`, "on", 1, 14, `duplicate field "on"`, false},
		{"duplicate map key", `{"byKey": {"a": true, "a": true}}`, `byKey["a"]`, 1, 23, `duplicate field "a"`, false},
		{"null", `{"name": null}`, "name", 1, 10, "expected a string, found null (omit the key instead)", false},
		{"blank", `{"name": "  "}`, "name", 1, 10, "blank value", true},
		{"wrong elem", `{"list": ["a", 1]}`, "list[1]", 1, 16, "expected a string, found a number", false},
		{"list of strings", `{"list": "a"}`, "list", 1, 10, "expected a list of strings, found a string", false},
		{"nested", "{\"items\": [{\"id\": \"a\"},\n {\"id\": \"b\", \"x\": 1}]}", "items[1].x", 2, 14, `unknown field "x"`, false},
		{"bool", `{"on": "yes"}`, "on", 1, 8, "expected true or false, found a string", false},
		{"number", `{"n": true}`, "n", 1, 7, "expected a number, found a boolean", false},
		{"raw not object", `{"raw": [1]}`, "raw", 1, 9, "expected an object, found a list", false},
		{"raw list not list", `{"raws": {}}`, "raws", 1, 10, "expected a list, found an object", false},
		{"raw null", `{"raw": null}`, "raw", 1, 9, "expected an object, found null", false},
		{"rejected", `{"gone": 1}`, "gone", 1, 2, "gone is reserved", false},
		{"trailing", `{} x`, "", 1, 4, "", false},
		{"syntax", `{"on": tru}`, "on", 1, 9, "invalid JSON", false},
		{"eof", `{"list": [`, "list", 1, 11, "unexpected end of the document", false},
		{"columns count characters", "{\"name\": \"é\", \"ü\": 1}", "ü", 1, 15, `unknown field "ü"`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.doc), testSchema())
			require.Error(t, err)
			var se *Error
			require.True(t, errors.As(err, &se), "%T", err)
			assert.Equal(t, tt.path, se.Path)
			assert.Equal(t, [2]int{tt.line, tt.col}, [2]int{se.Line, se.Column}, err.Error())
			assert.Contains(t, se.Err.Error(), tt.msg)
			assert.Equal(t, tt.isBlankErr, errors.Is(err, ErrBlank))
		})
	}
}

// TestParseErrorsShowExamples: a value of the wrong type is answered with
// the node's example of what goes there, for every kind of node.
func TestParseErrorsShowExamples(t *testing.T) {
	id := &Node{Kind: Object, Fields: map[string]*Node{"id": {Kind: String}}, Example: `{"id": "a"}`}
	schema := &Node{Kind: Object, Fields: map[string]*Node{
		"obj":  id,
		"raw":  {Kind: Raw, Example: `{"k": 1}`},
		"or":   {Kind: Object, Fields: id.Fields, Example: id.Example, Or: &Node{Kind: String, Example: `"a"`}},
		"dur":  {Kind: String, Example: `"2m"`},
		"list": {Kind: Array, Elem: id, Example: `[{"id": "a"}]`},
	}}
	tests := []struct{ doc, want string }{
		{`{"obj": "a"}`, `obj: expected an object such as {"id": "a"}, found a string`},
		{`{"raw": [1]}`, `raw: expected an object such as {"k": 1}, found a list`},
		{`{"or": 1}`, `or: expected an object such as {"id": "a"} or a string such as "a", found a number`},
		{`{"dur": 120}`, `dur: expected a string such as "2m", found a number`},
		{`{"list": {"id": "a"}}`, `list: expected a list such as [{"id": "a"}], found an object`},
		{`{"list": ["a"]}`, `list[0]: expected an object such as {"id": "a"}, found a string`},
	}
	for _, tt := range tests {
		_, err := Parse([]byte(tt.doc), schema)
		require.Error(t, err, tt.doc)
		assert.Contains(t, err.Error(), tt.want, tt.doc)
	}
}

func TestParsePositionsAndRaw(t *testing.T) {
	doc := "{\n  \"items\": [\n    {\"id\": \"a\"},\n    {\"id\": \"b\"}\n  ],\n  \"raw\": {\"x\": [1, 2]}\n}"
	d, err := Parse([]byte(doc), testSchema())
	require.NoError(t, err)
	e := d.Errorf("items[1].id", errors.New("bad"))
	assert.Equal(t, "4:12: items[1].id: bad", e.Error())
	e = d.Errorf("items[1].missing", errors.New("bad"))
	assert.Equal(t, [2]int{4, 5}, [2]int{e.Line, e.Column}, "located at the nearest ancestor")
	assert.Equal(t, `{"x": [1, 2]}`, string(d.Raw("raw")))
	assert.Nil(t, d.Raw("nothing"))
	assert.True(t, d.Has("items[0]"))
	assert.False(t, d.Has("items[2]"))
}

func TestParentPath(t *testing.T) {
	for in, want := range map[string]string{
		"a.b[2]":         "a.b",
		"a.b":            "a",
		"a":              "",
		"":               "",
		`m["k"].x`:       `m["k"]`,
		`m["k"]`:         "m",
		"list[0][1]":     "list[0]",
		"tools.allow[0]": "tools.allow",
	} {
		assert.Equal(t, want, parentPath(in), in)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{`{}`, `{"items":[{"id":"a"}]}`, `{"raw":{"a":[1,{"b":null}]}}`, `{"on":true,"on":true}`, "{\"byKey\":{\"\\u00e9\":false}}", `[`, `{"list":["a",`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Parse(data, testSchema())
		if err != nil {
			var se *Error
			require.True(t, errors.As(err, &se))
			require.GreaterOrEqual(t, se.Line, 1)
			require.GreaterOrEqual(t, se.Column, 1)
			require.LessOrEqual(t, se.Offset, int64(len(data)))
			return
		}
		require.True(t, d.Has(""))
	})
}
