package toolpolicy

import (
	"fmt"
	"strings"
	"sync"
)

// MaxNameLen is the longest canonical tool name, in bytes.
const MaxNameLen = 128

// maxPatternLen is the longest pattern, in bytes, including its stars.
const maxPatternLen = 256

// groupPrefix starts every group reference; no tool name may start with it.
const groupPrefix = "group:"

// nameAlphabet lists the bytes a canonical tool name may contain.
const nameAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789_-.:"

// alphaIndex maps a byte of nameAlphabet to its position (0..39) and any
// other byte to -1.
var alphaIndex = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	for i := 0; i < len(nameAlphabet); i++ {
		t[nameAlphabet[i]] = int8(i)
	}
	return t
}()

// alphabetSize is len(nameAlphabet).
const alphabetSize = len(nameAlphabet)

// defaultAliases returns the map of an alias to the canonical name it
// stands for: the agents' tool names of the vocabulary (see [Vocabulary])
// and a few generic spellings. It is built on first use, copied into every
// Registry and never modified.
var defaultAliases = sync.OnceValue(vocabularyAliases)

// DefaultAliases returns a copy of the built-in aliases (alias → canonical
// name): "bash" and every agent's own name of a tool of the [Vocabulary],
// lower-cased, such as "run_shell_command" → "exec", "read_file" → "read",
// "replace" → "edit", "notebookedit" → "notebook_edit".
func DefaultAliases() map[string]string {
	return cloneStringMap(defaultAliases())
}

// normalizer turns raw tool names into canonical ones. It is built from a
// registry's alias table and is immutable afterwards.
type normalizer struct {
	aliases map[string]string
	// aliasFirst marks the first bytes of alias keys, so that most names
	// skip the alias lookup.
	aliasFirst [256]bool
}

func newNormalizer(aliases map[string]string) *normalizer {
	n := &normalizer{aliases: cloneStringMap(aliases)}
	for a := range n.aliases {
		n.aliasFirst[a[0]] = true
	}
	return n
}

// lowerASCII trims surrounding ASCII white space and lower-cases ASCII
// letters. It reports false when s holds a non-ASCII byte, which no tool
// name may contain (Unicode case folding could otherwise turn a foreign
// letter into an ASCII one). It does not allocate when s is already
// trimmed and lower-case.
func lowerASCII(s string) (string, bool) {
	s = strings.Trim(s, " \t\r\n\v\f")
	upper := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return "", false
		}
		if 'A' <= c && c <= 'Z' {
			upper = true
		}
	}
	if !upper {
		return s, true
	}
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + ('a' - 'A')
		}
	}
	return string(b), true
}

// canonical returns the canonical form of name and whether it is a valid
// tool name. It is the single normalizer behind every lookup: Allowed,
// Explain, filtering, pattern compilation and lint all call it.
func (n *normalizer) canonical(name string) (string, bool) {
	// Fast path: already canonical bytes, no surrounding space.
	fast := len(name) > 0 && len(name) <= MaxNameLen
	if fast {
		for i := 0; i < len(name); i++ {
			if alphaIndex[name[i]] < 0 {
				fast = false
				break
			}
		}
	}
	if !fast {
		var ok bool
		name, ok = lowerASCII(name)
		if !ok || validName(name) != nil {
			return "", false
		}
	}
	if n.aliasFirst[name[0]] {
		if c, ok := n.aliases[name]; ok {
			name = c
		}
	}
	if strings.HasPrefix(name, groupPrefix) {
		return "", false
	}
	return name, true
}

// validName reports why s, already trimmed and lower-cased, is not a
// canonical tool name, or nil when it is one.
func validName(s string) error {
	if s == "" {
		return ErrBlankEntry
	}
	if len(s) > MaxNameLen {
		return fmt.Errorf("%w: longer than %d bytes", ErrMalformedPattern, MaxNameLen)
	}
	for i := 0; i < len(s); i++ {
		if alphaIndex[s[i]] < 0 {
			return fmt.Errorf("%w: character %q is not allowed in a tool name (use a-z, 0-9, '_', '-', '.', ':')", ErrMalformedPattern, s[i])
		}
	}
	if strings.HasPrefix(s, groupPrefix) {
		return fmt.Errorf("%w: a tool name cannot start with %q", ErrMalformedPattern, groupPrefix)
	}
	return nil
}

// Normalize returns the canonical form of a tool name under the default
// aliases, and false when name is not a valid tool name. Registries with
// their own aliases have [Registry.Normalize].
func Normalize(name string) (string, bool) {
	return defaultNormalizer().canonical(name)
}

// defaultNormalizer returns the normalizer of the default aliases, built
// on first use and never modified.
var defaultNormalizer = sync.OnceValue(func() *normalizer { return newNormalizer(defaultAliases()) })

func cloneStringMap(m map[string]string) map[string]string {
	c := make(map[string]string, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}
