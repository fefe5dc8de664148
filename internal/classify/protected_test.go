package classify

import (
	"path"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProtectedMatch covers the element kinds a pattern can have: literal
// ones (compared as strings), wildcards, classes and escapes (path.Match),
// at the root or at any depth, with and without a subtree: every pattern
// matches what lies below its matches too.
func TestProtectedMatch(t *testing.T) {
	tests := []struct {
		pattern string
		rel     string
		want    bool
	}{
		{".env", ".env", true},
		{".env", "a/b/.env", true},
		{".env", ".ENV", true},
		{".env", ".envrc", false},
		{".env", ".env/x", true}, // a directory named .env: everything in it (round 25b)
		{".env", "a/.env/b/x", true},
		{".env.*", "config/.env.d/prod", true},
		{"**/.cargo/config.toml", ".cargo/config.toml/x", true},
		{"web/.env", "web/.env/x", true},
		{"web/.env", "sub/web/.env/x", false},
		{".env", ".envx/x", false},
		{".env", "x/.env", true},
		{".env.*", ".env.local", true},
		{".env.*", "x/.env.local", true},
		{".env.*", ".env", false},
		{".git/", ".git", true},
		{".git/", ".git/hooks/pre-commit", true},
		{".git/", "sub/.git/config", true}, // a trailing slash alone does not anchor it
		{"web/.git/", "web/.git/config", true},
		{"web/.git/", "sub/web/.git/config", false}, // an inner slash anchors it to the sandbox
		{"**/.cargo/config.toml", "a/b/.cargo/config.toml", true},
		{"**/.cargo/config.toml", ".cargo/config.toml.bak", false},
		{"secret[0-9].txt", "secret7.txt", true},
		{"secret[0-9].txt", "secretx.txt", false},
		{"data?/keys", "data1/keys", true},
		{"data?/keys", "data12/keys", false},
		{`a\*b`, "a*b", true}, // an escaped star is literal for path.Match
		{`a\*b`, "axxb", false},
		{"a*b", "a*b", true},
		{"a*b", "axxb", true},
		{"./auth.json", "auth.json", true}, // "./" anchors a name at the top
		{"./auth.json", "locales/en/auth.json", false},
		{"./secrets/", "secrets/db.txt", true},
		{"./secrets/", "pkg/secrets/x.go", false},
		{"./*.key", "server.key", true},
		{"./*.key", "a/server.key", false},
	}
	for _, tt := range tests {
		r, err := CompileProtected(tt.pattern, true, false)
		require.NoError(t, err, tt.pattern)
		assert.Equal(t, tt.want, r.Match(tt.rel), "%q against %q", tt.pattern, tt.rel)
	}
}

func TestCompileProtectedRefuses(t *testing.T) {
	for _, p := range []string{"", "  ", "/etc/passwd", "a//b", "./**/a", "././a", "./", "a/../b", "[", "a\x00b"} {
		_, err := CompileProtected(p, true, true)
		assert.Error(t, err, "%q", p)
	}
	_, err := CompileProtected(".env", false, false)
	assert.ErrorIs(t, err, ErrProtectsNothing)
}

// TestMatchesLastPrefilter: the cheap test of a pattern's last element
// (its text before the first wildcard and after a last "*") never turns
// away a name that path.Match would match, and MatchesLast agrees with
// path.Match on the lower-case name.
func TestMatchesLastPrefilter(t *testing.T) {
	patterns := []string{".env.*", "*.code-workspace", "lefthook-local.*", ".lefthook*/", "kilo.json*", "**/config/credentials/*.key",
		"a*a", "x?y*", "[ab]*.conf", "*rc", "*", "pre*mid*post", "\\*lit*", "f[*]x*"}
	names := []string{".env.local", ".env", ".ENV.prod", "x.code-workspace", ".code-workspace", "lefthook-local.yml", ".lefthook-ci", "kilo.json",
		"kilo.jsonc", "x.key", "a", "aa", "aba", "xzy", "xzyq", "a.conf", "c.conf", "bashrc", "rc", "premidpost", "pre-mid-post", "prepost",
		"*lit", "*litx", "f*x", "f*xy", "fax"}
	for _, pat := range patterns {
		r, err := CompileProtected(pat, false, true)
		require.NoError(t, err, pat)
		last := r.elems[len(r.elems)-1]
		for _, name := range names {
			want, _ := path.Match(last, strings.ToLower(name))
			assert.Equal(t, want, r.MatchesLast(name), "%s against %s", pat, name)
		}
	}
}

// TestProtectedCopies: a copies rule matches the copies of what its
// pattern matches and the copies of those copies (round 25b: the
// confinement hides #.env-backup# beside the .env-backup it hides),
// what lies below them, and nothing else; telling costs no allocation,
// and a long name of separators costs no more than a few thousand tests.
func TestProtectedCopies(t *testing.T) {
	env, err := CompileProtected(".env", true, true)
	require.NoError(t, err)
	c, ok := env.Copies()
	require.True(t, ok)
	assert.Equal(t, "copies of .env", c.Pattern)
	assert.False(t, c.Write)
	for rel, want := range map[string]bool{
		".env-backup": true, "#.env-backup#": true, "..env-backup.un~": true, ".env-backup.swp": true,
		"copy of .env-backup": true, "a/.env_old/x": true, ".env.bak.gz": true,
		".env": false, ".env-example": false, "#.env-example#": false, ".envrc": false, "x.bak": false,
	} {
		assert.Equal(t, want, c.Match(rel), "%s", rel)
	}
	_, ok = c.Copies()
	assert.False(t, ok, "a copies rule has no copies rule")
	w, err := CompileProtected(".git/", false, true)
	require.NoError(t, err)
	_, ok = w.Copies()
	assert.False(t, ok, "a rule for writes only has no copies rule")
	rules := []Protected{c}
	for _, p := range []string{"/p/.env-backup", "/p/#.env-backup#", "/p/main.go", "/p/.env-example"} {
		assert.Zero(t, testing.AllocsPerRun(50, func() { ProtectedFor(rules, false, "/p", "/p", p, p) }), "%s", p)
	}
	start := time.Now()
	assert.True(t, c.Match(".env"+strings.Repeat("-x", 50_000)), "a name longer than any file's is taken for a copy")
	assert.False(t, c.Match("main"+strings.Repeat("-x", 50_000)))
	assert.False(t, c.Match(".env"+strings.Repeat("-x", 125)), "a name of 254 bytes is told")
	assert.Less(t, time.Since(start), 2*time.Second, "long names are not told at a quadratic cost")
}
