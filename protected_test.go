package sandboxauth

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestProtectedPathMatch(t *testing.T) {
	rules, err := compileProtected(DefaultProtectedPaths())
	require.NoError(t, err)
	cases := []struct {
		rel         string
		read, write bool
	}{
		{".env", true, true},
		{"config/.env", true, true},
		{".env.local", true, true},
		{"a/b/.env.production", true, true},
		{".envrc", false, false},
		{"env", false, false},
		{".env/x", false, false},
		{".git/config", false, true},
		{"sub/.git/config", false, true}, // any depth
		{".GIT/config", false, true},     // any letter case
		{".git/configs", false, true},
		{".git/hooks/pre-commit", false, true},
		{".git/hooks", false, true},
		{".git/hooks/a/b", false, true},
		{".git/HEAD", false, true},
		{".git/commondir", false, true},
		{".gitignore", false, false},
		{".ENV", true, true},
		{"main.go", false, false},
	}
	for _, c := range cases {
		var read, write bool
		for i := range rules {
			if rules[i].match(c.rel) {
				read = read || rules[i].src.Read
				write = write || rules[i].src.Write
			}
		}
		assert.Equal(t, c.read, read, "read %s", c.rel)
		assert.Equal(t, c.write, write, "write %s", c.rel)
	}
}

func TestProtectedPathPatternsAreChecked(t *testing.T) {
	bad := []ProtectedPath{
		{Pattern: "", Read: true},
		{Pattern: "/etc/passwd", Read: true},
		{Pattern: "a/../b", Read: true},
		{Pattern: "a//b", Read: true},
		{Pattern: "[", Read: true},
		{Pattern: "secrets/"},
	}
	for _, p := range bad {
		_, err := compileProtected([]ProtectedPath{p})
		assert.ErrorIs(t, err, ErrInvalidConfig, "%+v", p)
		_, _, err = NewSandboxAuthorizer(&ShellAllowedCommands{}, WithProtectedPaths(p))
		assert.ErrorIs(t, err, ErrInvalidConfig, "%+v", p)
	}
	_, err := compileProtected([]ProtectedPath{{Pattern: "secrets/*.pem", Read: true}, {Pattern: "id_*", Write: true}})
	assert.NoError(t, err)
}
