package repotrust

import (
	"errors"
	"strings"
	"testing"
)

// FuzzParseGitConfig: the parser never panics, fails only with
// ErrConfigSyntax, yields well-formed names, and what it yields, written
// back in the canonical form, parses to the same settings.
func FuzzParseGitConfig(f *testing.F) {
	for _, c := range parseCases {
		f.Add([]byte(c.text))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var got []Setting
		err := ParseGitConfig("f", b, func(s Setting) error {
			got = append(got, s)
			return nil
		})
		if err != nil {
			if !errors.Is(err, ErrConfigSyntax) {
				t.Fatalf("error %v does not wrap ErrConfigSyntax", err)
			}
			return
		}
		var canon strings.Builder
		headers := false
		for _, s := range got {
			if strings.Trim(s.Section, "abcdefghijklmnopqrstuvwxyz0123456789-.") != "" {
				t.Fatalf("section %q", s.Section)
			}
			if s.Key == "" || s.Key[0] < 'a' || s.Key[0] > 'z' || strings.Trim(s.Key, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" {
				t.Fatalf("key %q", s.Key)
			}
			if s.Subsection != "" && !s.HasSubsection {
				t.Fatalf("a subsection %q without HasSubsection", s.Subsection)
			}
			switch {
			case s.HasSubsection:
				canon.WriteString("[" + s.Section + ` "` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s.Subsection) + `"]` + "\n")
				headers = true
			case s.Section != "":
				canon.WriteString("[" + s.Section + "]\n")
				headers = true
			case headers:
				return // a key before any header, after one: no canonical form
			}
			canon.WriteString("\t" + s.Key)
			if s.HasValue {
				canon.WriteString(` = "` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`, "\b", `\b`).Replace(s.Value) + `"`)
			}
			canon.WriteString("\n")
		}
		var again []Setting
		if err := ParseGitConfig("f", []byte(canon.String()), func(s Setting) error {
			again = append(again, s)
			return nil
		}); err != nil {
			t.Fatalf("canonical form %q: %v", canon.String(), err)
		}
		if len(again) != len(got) {
			t.Fatalf("canonical form gives %d settings, not %d", len(again), len(got))
		}
		for i := range got {
			a, g := again[i], got[i]
			if a.Section != g.Section || a.Subsection != g.Subsection || a.HasSubsection != g.HasSubsection || a.Key != g.Key || a.Value != g.Value || a.HasValue != g.HasValue {
				t.Fatalf("setting %d: %+v, then %+v", i, g, a)
			}
		}
	})
}
