package toolpolicy

import (
	"strings"
	"testing"
)

// FuzzCompileMatch checks pattern compilation and matching: nothing
// panics; a pattern that does not compile makes the whole policy fail
// (it is never dropped); a compiled wildcard matches exactly what the
// reference matcher says, through both the linear and the indexed path;
// deny always wins.
func FuzzCompileMatch(f *testing.F) {
	for _, s := range [][2]string{
		{"fs_*", "fs_read"}, {"*test*", "unit_test_runner"}, {"a*b*c", "abcbc"}, {"*", "exec"},
		{"exec", "BASH"}, {"group:fs", "apply-patch"}, {"e*", "apply_patch"}, {"**", "x"},
		{"", "read"}, {"group:fz", "read"}, {"*_read", "_read"}, {"ab*ba", "aba"},
	} {
		f.Add(s[0], s[1])
	}
	reg := NewRegistry()
	f.Fuzz(func(t *testing.T, raw, tool string) {
		pt, err := reg.compilePattern(raw, "fuzz")
		if _, perr := reg.Compile(Layer{Allow: []string{raw}}); (err == nil) != (perr == nil) {
			t.Fatalf("compilePattern err=%v but Compile err=%v", err, perr)
		}
		name, valid := reg.Normalize(tool)
		if err != nil {
			return
		}
		if !valid {
			name = ""
		}
		matched := valid && pt.matches(name)
		switch pt.kind {
		case patWildcard:
			if valid && matched != refMatch(pt.src, name) {
				t.Fatalf("pattern %q name %q: match=%v reference=%v", pt.src, name, matched, !matched)
			}
			if strings.Contains(pt.src, "**") {
				t.Fatalf("compiled %q", pt.src)
			}
		case patAll:
			if valid != matched {
				t.Fatalf("* must match every valid name")
			}
		case patExact:
			if matched != (valid && name == pt.names[0]) {
				t.Fatalf("exact %q name %q", pt.src, name)
			}
		}

		// Deny always wins, whatever else allows.
		denyAll, err := reg.Compile(Layer{Allow: []string{"*", raw}, Deny: []string{raw}})
		if err != nil {
			t.Fatal(err)
		}
		if denyAll.Allowed(tool) && matched {
			t.Fatalf("deny %q did not win for %q", raw, tool)
		}
		if denyAll.Allowed(tool) != (valid && !matched) {
			t.Fatalf("allow * deny %q, tool %q: Allowed=%v", raw, tool, denyAll.Allowed(tool))
		}

		// The indexed path agrees with the pattern alone, and Explain agrees.
		allowOnly, err := reg.Compile(Layer{Allow: []string{raw}})
		if err != nil {
			t.Fatal(err)
		}
		want := matched || (valid && name == "apply_patch" && pt.matches("exec"))
		if got := allowOnly.Allowed(tool); got != want {
			t.Fatalf("allow %q, tool %q: Allowed=%v want %v", raw, tool, got, want)
		}
		if d := allowOnly.Explain(tool); d.Allowed != want {
			t.Fatalf("allow %q, tool %q: Explain=%+v want %v", raw, tool, d, want)
		}
	})
}

// FuzzParseConfig checks the strict decoder: nothing panics, and a
// document that parses resolves to policies whose Allowed and Explain
// agree, and whose subagents never gain a tool.
func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{
		`{}`,
		`{"tools":{"profile":"coding","deny":["memory_*"],"byProvider":{"openai":{"deny":["exec"]},"openai/gpt-5":{"allow":[]}},"subagents":{"tools":{"deny":["write"]}}},"agents":[{"id":"a","tools":{"profile":"full","allow":["*"],"deny":["e*"]}}]}`,
		`{"tools":{"allow":[""]}}`,
		`{"tools":{"allow":null}}`,
		`{"tools":{"deny":["a"],"deny":["b"]}}`,
		`{"tools":{}} {}`,
		`{"agents":[{"id":"a"},{"id":"a"}]}`,
	} {
		f.Add(s, "exec")
	}
	f.Fuzz(func(t *testing.T, doc, tool string) {
		c, err := ParseConfig(strings.NewReader(doc))
		if err != nil {
			if c != nil {
				t.Fatal("config and error")
			}
			return
		}
		ids := append(c.AgentIDs(), "")
		for _, id := range ids {
			for _, prov := range []string{"", "openai"} {
				p, err := c.Resolve(Query{AgentID: id, Provider: prov, Model: "gpt-5"})
				if err != nil {
					t.Fatal(err)
				}
				child, err := c.Subagent(p)
				if err != nil {
					t.Fatal(err)
				}
				for _, n := range []string{tool, "exec", "apply_patch", "read", "sessions_spawn"} {
					a := p.Allowed(n)
					if a != p.Explain(n).Allowed {
						t.Fatalf("Allowed and Explain disagree on %q", n)
					}
					if child.Allowed(n) && !a {
						t.Fatalf("subagent gained %q", n)
					}
				}
			}
		}
	})
}
