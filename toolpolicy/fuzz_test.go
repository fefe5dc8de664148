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
