package toolpolicy

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors. Configuration errors wrap one of them inside a
// [*ConfigError] that names the entry, so callers can test with errors.Is.
var (
	// ErrBlankEntry is a pattern, name, key or id that is empty or only
	// white space.
	ErrBlankEntry = errors.New("blank entry")
	// ErrMalformedPattern is a pattern or tool name outside the syntax
	// described in the package documentation.
	ErrMalformedPattern = errors.New("malformed pattern")
	// ErrUnknownGroup is a "group:NAME" reference to no registered group.
	ErrUnknownGroup = errors.New("unknown group")
	// ErrUnknownProfile is a profile name that is not registered.
	ErrUnknownProfile = errors.New("unknown profile")
	// ErrInvalidConfig is a configuration document that is not valid JSON
	// of the expected shape: unknown or duplicate fields, a null list,
	// wrong types, trailing data, duplicate agent ids or provider keys.
	ErrInvalidConfig = errors.New("invalid tool policy configuration")
	// ErrTooManyLayers is a policy that would have more than [MaxLayers]
	// layers (for example a subagent chain nested too deeply).
	ErrTooManyLayers = errors.New("too many policy layers")
)

// ConfigError is an error in one entry of a configuration or of a layer.
type ConfigError struct {
	// Path names the entry, for example tools.byProvider["openai"].deny[2].
	Path string
	// Err is what is wrong with it; it wraps one of the sentinel errors.
	Err error
	// File names the configuration file, when it was read from one.
	File string
	// Line and Column (1-based, in characters) locate the entry in the
	// document; they are 0 for errors outside a document (such as those
	// of Registry.NewConfig or Registry.Compile).
	Line, Column int
	// Offset is the byte offset of the entry in the document.
	Offset int64
}

// Error returns "FILE:LINE:COLUMN: PATH: ERR", leaving out what is not
// known.
func (e *ConfigError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line == 0 {
			b.WriteString(": ")
		}
	}
	if e.Line > 0 {
		if e.File != "" {
			b.WriteByte(':')
		}
		fmt.Fprintf(&b, "%d:%d: ", e.Line, e.Column)
	}
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns the underlying error.
func (e *ConfigError) Unwrap() error { return e.Err }
