package toolpolicy

import (
	"fmt"
	"strings"
)

// Finding is one observation of [Config.Lint]: not an error (the
// configuration is valid), but probably not what was meant.
type Finding struct {
	// Path names the entry, e.g. tools.deny[1].
	Path string
	// Pattern is the entry, normalized.
	Pattern string
	// Message says what is wrong.
	Message string
}

// String returns "PATH: MESSAGE".
func (f Finding) String() string { return f.Path + ": " + f.Message }

// Lint checks the patterns written in the configuration (not the built-in
// profiles or the default subagent deny list) against a catalogue of the
// tool names that exist, and reports, in file order: patterns that match
// no tool of the catalogue, the same pattern twice in one list, and
// catalogue entries that are not valid tool names. A pattern that matches
// nothing is harmless in a deny list but is often a typo; in an allow list
// it grants nothing.
func (c *Config) Lint(catalogue []string) []Finding {
	var out []Finding
	names := make([]string, 0, len(catalogue))
	for i, raw := range catalogue {
		n, ok := c.reg.norm.canonical(raw)
		if !ok {
			out = append(out, Finding{Path: fmt.Sprintf("catalogue[%d]", i), Pattern: raw,
				Message: fmt.Sprintf("%q is not a valid tool name", raw)})
			continue
		}
		names = append(names, n)
	}
	check := func(ps []pattern, list string) {
		seen := map[string]bool{}
		for i := range ps {
			p := &ps[i]
			if strings.HasPrefix(p.origin, defaultSubagentOrigin) {
				continue
			}
			if seen[p.src] {
				out = append(out, Finding{Path: p.origin, Pattern: p.src,
					Message: fmt.Sprintf("%q appears more than once in this %s list", p.src, list)})
			}
			seen[p.src] = true
			matched := false
			for _, n := range names {
				if p.matches(n) {
					matched = true
					break
				}
			}
			if !matched {
				msg := fmt.Sprintf("%q matches no tool in the catalogue", p.src)
				if list == "allow" {
					msg += ", so it allows nothing"
				}
				out = append(out, Finding{Path: p.origin, Pattern: p.src, Message: msg})
			}
		}
	}
	for _, l := range c.written {
		check(l.allow, "allow")
		check(l.deny, "deny")
	}
	return out
}
