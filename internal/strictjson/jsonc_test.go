package strictjson

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStripComments: comments and trailing commas become spaces, with
// every other byte (line breaks included) where it was; strings are left
// alone; what is not a trailing comma after a value stays for the reader.
func TestStripComments(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"a": 1} // note`, `{"a": 1}        `},
		{"{\"a\": 1, // one\n\"b\": 2}", "{\"a\": 1,       \n\"b\": 2}"},
		{`{"a": /* x */ 1}`, `{"a":         1}`},
		{"/* a\nb */{}", "    \n    {}"},
		{`{"a": [1, 2,], "b": 3,}`, `{"a": [1, 2 ], "b": 3 }`},
		{"{\"a\": [1, // c\n]}", "{\"a\": [1      \n]}"},
		{`{"a": "http://x/*y*/", "b": "\"//"}`, `{"a": "http://x/*y*/", "b": "\"//"}`},
		{`[,]`, `[,]`},
		{`{"a": [1,,]}`, `{"a": [1,,]}`},
		{`{"a": 1 /* open`, `{"a": 1 /* open`},
	}
	for _, tt := range tests {
		got := StripComments([]byte(tt.in))
		assert.Equal(t, tt.want, string(got), tt.in)
		assert.Len(t, got, len(tt.in))
	}
}

// TestParseJSONC: a document with comments and trailing commas parses,
// errors after a comment are located in the document as written, and Raw
// and Data give plain JSON.
func TestParseJSONC(t *testing.T) {
	doc := "{\n  // the name\n  \"name\": \"x\", /* é */ \"raw\": {\"a\": 1,},\n  \"list\": [\"a\",],\n}"
	d, err := Parse([]byte(doc), testSchema())
	require.NoError(t, err)
	assert.Equal(t, `{"a": 1 }`, string(d.Raw("raw")))
	assert.Len(t, d.Data(), len(doc))
	e := d.Errorf("raw", errors.New("bad"))
	assert.Equal(t, "3:31: raw: bad", e.Error(), "columns count the characters of the document as written")

	_, err = Parse([]byte("{\n  /* c */ \"nam\": 1,\n}"), testSchema())
	var se *Error
	require.True(t, errors.As(err, &se))
	assert.Equal(t, [2]int{2, 11}, [2]int{se.Line, se.Column})
}

// TestParseReportsEveryError: every type error, unknown and duplicate key
// of a document is reported, in order, not only the first.
func TestParseReportsEveryError(t *testing.T) {
	doc := "{\n\"name\": 1,\n\"on\": \"yes\",\n\"nam\": {\"x\": [1]},\n\"items\": [{\"id\": 2}, {\"id\": \"ok\"}, 3],\n\"on\": true,\n\"list\": [\"a\", {}]\n}"
	_, err := Parse([]byte(doc), testSchema())
	require.Error(t, err)
	j, ok := err.(interface{ Unwrap() []error })
	require.True(t, ok, "%T", err)
	var got []string
	for _, e := range j.Unwrap() {
		var se *Error
		require.True(t, errors.As(e, &se))
		got = append(got, se.Error())
	}
	assert.Equal(t, []string{
		"2:9: name: expected a string, found a number",
		"3:7: on: expected true or false, found a string",
		`4:1: nam: unknown field "nam": did you mean "name"? (known fields: byKey, items, list, n, name, on, raw, raws)`,
		"5:18: items[0].id: expected a string, found a number",
		"5:36: items[2]: expected an object, found a number",
		`6:1: on: duplicate field "on"`,
		"7:15: list[1]: expected a string, found an object",
	}, got)
}

// TestParseOr: a node with Or takes either shape, and names both when the
// value has neither.
func TestParseOr(t *testing.T) {
	schema := &Node{Kind: Object, Fields: map[string]*Node{
		"add": {Kind: Array, Elem: &Node{Kind: Object, Fields: map[string]*Node{"pattern": {Kind: String}}, Or: &Node{Kind: String, NonBlank: true}}},
	}}
	d, err := Parse([]byte(`{"add": ["a/", {"pattern": "b"}]}`), schema)
	require.NoError(t, err)
	assert.True(t, d.Has("add[0]"))
	assert.True(t, d.Has("add[1].pattern"))

	_, err = Parse([]byte(`{"add": [true, " ", {"x": 1}]}`), schema)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "add[0]: expected an object or a string, found a boolean")
	assert.Contains(t, err.Error(), "add[1]: blank value")
	assert.Contains(t, err.Error(), `add[2].x: unknown field "x"`)
}
