package sandboxauth

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestTopOnlySecretsConfined: the project secrets read-protected at the
// top only (Composer's auth.json, compose's secrets/) are hidden from a
// confined command there, and files of the same names deeper in the tree
// (translations, a package of the code) stay readable.
func TestTopOnlySecretsConfined(t *testing.T) {
	sb := escapeSandbox(t)
	files := map[string]string{
		"auth.json":            `{"github-oauth":{"github.com":"TOPAUTHSECRET"}}`,
		"secrets/db.txt":       "TOPSECRETSDIR",
		"locales/en/auth.json": `{"login":"LOCALESREADABLE"}`,
		"pkg/secrets/code.go":  "package secrets // PKGREADABLE",
	}
	for rel, body := range files {
		write15(t, filepath.Join(sb, rel), body+"\n", 0o644)
	}
	out := runProtected20(t, sb, `cat auth.json secrets/db.txt locales/en/auth.json pkg/secrets/code.go; echo "listing: [$(ls secrets)]"`)
	assert.NotContains(t, out, "TOPAUTHSECRET")
	assert.NotContains(t, out, "TOPSECRETSDIR")
	assert.Contains(t, out, "listing: []", "the hidden secrets/ is listed")
	assert.Contains(t, out, "LOCALESREADABLE")
	assert.Contains(t, out, "PKGREADABLE")
}
