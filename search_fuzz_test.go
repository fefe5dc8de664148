package sandboxauth

import (
	"path"
	"strings"
	"testing"
)

// FuzzSearchPatterns: matching a search's patterns never panics, and never
// says no where the pattern's last element, read as path.Match reads it,
// matches the name: the check errs towards a question, never towards a
// missed protected file. (Braces and "[!...]" mean alternatives and a
// negated class to the search tools, and are checked by
// TestSearchPatternsMatch instead.)
func FuzzSearchPatterns(f *testing.F) {
	for _, s := range [][2]string{
		{"*.go", ".env"}, {".env*", ".env"}, {"*.{go,ts}", "x.ts"}, {"{a,{b,c}}", "c"},
		{"src/**/*.ts", "a.ts"}, {"[!a]env", ".env"}, {"[a-", "a"}, {`\{x\}`, "{x}"},
		{"!*.go", ".env"}, {"{", "x"}, {"}", "x"}, {"{,}", ""}, {"*.{a,b}{c,d}{e,f}", "x.ace"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, name string) {
		if strings.Contains(name, "/") {
			return // a base name
		}
		got := searchPatternsMatch([]string{pattern}, name)
		last := pattern
		if i := strings.LastIndexByte(pattern, '/'); i >= 0 {
			last = pattern[i+1:]
		}
		if strings.ContainsAny(last, "{}") || strings.Contains(last, "[!") {
			return // alternatives and glob-negated classes, which path.Match reads otherwise
		}
		if ok, err := path.Match(strings.ToLower(last), strings.ToLower(name)); err == nil && ok && !got {
			t.Fatalf("%q matches %q, but the check says the search cannot read it", pattern, name)
		}
	})
}
