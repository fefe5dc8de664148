package sandboxauth

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEditorCopiesMatch: the copies editors, file managers and tools keep
// beside a read-protected file are read-protected with it, and names that
// only begin with it are not.
func TestEditorCopiesMatch(t *testing.T) {
	rules, err := compileProtected([]ProtectedPath{{Pattern: ".env", Read: true}, {Pattern: "config/master.key", Read: true}})
	require.NoError(t, err)
	for _, c := range []struct {
		rel  string
		read bool
	}{
		{".env", true}, {".env~", true}, {".env.~2~", true}, {"#.env#", true}, {".env.swp", true},
		{"..env.un~", true}, {".env.bak", true}, {".env.orig", true}, {".env,v", true},
		{".env (copy)", true}, {".env (another copy)", true}, {".env (1)", true}, {".env copy", true},
		{".env copy 2", true}, {".env - Copy", true}, {".env - Copy (2)", true}, {"Copy of .env", true},
		{"copy of .env", true}, {"Copy (2) of .env", true}, {"app/.env (copy)", true},
		{"config/master.key (copy)", true}, {"config/Copy of master.key", true}, {"config/.master.key.un~", true},
		{"config/master.key,v", true},
		// Not copies.
		{".env.example", false}, {".env.un~", false}, {".env,", false}, {".envrc", false},
		{".env example", false}, {"Copy of .env.example", false}, {"master.key (copy)", false},
		{"config/master.key.pub", false},
	} {
		read := false
		for i := range rules {
			read = read || rules[i].Match(c.rel) && rules[i].Read
		}
		assert.Equal(t, c.read, read, "%s", c.rel)
	}
}
