package classify

import (
	"path"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProtectedCheapTestsKeepMatches: the cheap tests before path.Match
// (the last element's literal prefix, suffix and longest infix) never
// turn a match away, for patterns that begin and end with a wildcard
// among them, and turn away names that lack the infix.
func TestProtectedCheapTestsKeepMatches(t *testing.T) {
	tests := []struct {
		pattern, name string
		want          bool
	}{
		{"*.jks *copy*", "release.jks copy", true},
		{"*.jks *copy*", "release.jks (copy)", true},
		{"*.jks *copy*", "release.jks another copy 2", true},
		{"*.jks *copy*", "main.go", false},
		{"*.jks.sw?", ".x.jks.swp", true},
		{"*.jks.sw?", "x.jks.sw", false},
		{"*service-account*.json", "my-service-account-key.json", true},
		{"*service-account*.json", "package.json", false},
		{"*-firebase-adminsdk-*.json", "app-firebase-adminsdk-x1.json", true},
		{"?*.env", "prod.env", true},
		{"?*.env", ".env", false}, // .env is its own rule
		{"?*.env", "env", false},
		{"a?b*c", "axbyyc", true},
		{"[ab]*x*", "bqxq", true}, // a class: no infix
		{`\**x*`, "*yxz", true},   // an escape: no infix
	}
	for _, tt := range tests {
		r, err := CompileProtected(tt.pattern, true, false)
		require.NoError(t, err, tt.pattern)
		want, _ := path.Match(tt.pattern, tt.name)
		require.Equal(t, tt.want, want, "the table's own answer for %q against %q", tt.pattern, tt.name)
		assert.Equal(t, want, r.Match(tt.name), "%q against %q", tt.pattern, tt.name)
		assert.Equal(t, want, r.MatchesLast(tt.name), "%q against %q", tt.pattern, tt.name)
	}
}

// FuzzProtectedCheapTests: whatever the pattern and the name, a rule
// matches a name (one element) exactly when path.Match does.
func FuzzProtectedCheapTests(f *testing.F) {
	for _, s := range [][2]string{{"*.jks *copy*", "a.jks copy"}, {"?*.env", "prod.env"}, {"*a*b*", "xaxbx"},
		{"[a-c]*z", "bz"}, {`\*x*`, "*xy"}, {"copy*of *.p8", "copy of k.p8"}, {"*?*", "ab"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, name string) {
		if strings.ContainsAny(pattern+name, "/\x00") || strings.TrimSpace(pattern) != pattern || pattern == "" ||
			pattern == "." || pattern == ".." || name == "" {
			return
		}
		r, err := CompileProtected(pattern, true, false)
		if err != nil {
			return
		}
		want, _ := path.Match(strings.ToLower(pattern), strings.ToLower(name))
		if got := r.Match(name); got != want {
			t.Fatalf("%q against %q: Match %v, path.Match %v", pattern, name, got, want)
		}
	})
}
