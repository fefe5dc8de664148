package confine

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCopiesBesideHiddenPaths: the copies verified with sandboxauth run
// (round 22a's answers): Vim's swap of a dot file, Emacs's auto-save and
// numbered backups, a backup of a whole hidden directory, Neovim's swap
// directory; and, for a policy's own hidden file inside the sandbox, its
// backup there. A name that begins with a hidden one without being a
// copy (NAME.example) stays readable.
func TestCopiesBesideHiddenPaths(t *testing.T) {
	requireConfinement(t)
	home := fakeHome(t)
	t.Setenv("GOCACHE", home+"/.cache/go-build")
	assertSecretsHidden(t, home, map[string]string{
		".netrc.swp":           "NETRCSWAPSECRET",
		"#.git-credentials#":   "GITCREDAUTOSAVESECRET",
		".pgpass.~2~":          "PGPASSNUMBEREDSECRET",
		".ssh.bak/id_rsa":      "SSHDIRBACKUPSECRET",
		".aws.old/credentials": "AWSDIRBACKUPSECRET",
		".local/state/nvim/swap/%home%u%proj%.env.swp": "NVIMSWAPSECRET",
	})

	sb, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	for name, body := range map[string]string{".secret": "S", ".secret~": "SANDBOXBACKUPSECRET", ".secret.example": "EXAMPLEVISIBLE"} {
		require.NoError(t, os.WriteFile(filepath.Join(sb, name), []byte(body), 0o600))
	}
	p := Policy{Sandbox: sb, Hidden: []string{filepath.Join(sb, ".secret")}}
	out, _ := sh(t, p, sb, "cat .secret~; cat .secret.example")
	assert.NotContains(t, out, "SANDBOXBACKUPSECRET", "the backup of a hidden file of the sandbox was readable")
	assert.Contains(t, out, "EXAMPLEVISIBLE", "a file that is no copy was hidden")
}
