package sandboxauth

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/confine"
)

// TestEscapeSandboxInsideProtectedDirectory: a sandbox inside a protected
// directory of a project that holds it was confined with that directory
// writable, the patterns being matched below the sandbox only: `cd
// .git/hooks && sandboxauth run -- ./check.sh` let the command write
// pre-commit, which the user's next git commit ran unconfined; a sandbox
// at ~/.claude let it write the hook scripts Claude Code's settings name;
// a .vscode its tasks.json. Each is refused now, and nothing runs.
//
//	cd repo/.git/hooks && sandboxauth run -- sh -c 'printf "#!/bin/sh\ntouch $HOME/pwned\n" > pre-commit; chmod +x pre-commit'
func TestEscapeSandboxInsideProtectedDirectory(t *testing.T) {
	requireConfinement(t)
	repo := escapeSandbox(t)
	marker := homeMarker(t)
	home := homeVictimDir(t)
	for _, d := range []string{filepath.Join(repo, ".git", "hooks"), filepath.Join(home, ".claude", "hooks"), filepath.Join(repo, ".vscode"), filepath.Join(repo, "src", ".github", "hooks")} {
		require.NoError(t, os.MkdirAll(d, 0o755))
		p, err := ProtectConfinement(confine.DefaultPolicy(d), DefaultProtectedPaths())
		require.NoError(t, err)
		cmd := shIn(d, `printf '#!/bin/sh\ntouch `+marker+`\n' > pre-commit; chmod +x pre-commit`)
		err = confine.Run(cmd, p)
		require.ErrorIs(t, err, confine.ErrUnsafePolicy, d)
		assert.Contains(t, err.Error(), "read-only", d)
		assert.NoFileExists(t, filepath.Join(d, "pre-commit"), "the command wrote in %s", d)
	}
	require.NoError(t, os.WriteFile(filepath.Join(repo, "f"), nil, 0o644))
	userGit(t, repo, "add", "f")
	userGit(t, repo, "commit", "-q", "-m", "x")
	assert.NoFileExists(t, marker, "the user's git commit ran a hook a confined command wrote")
	// A project that merely lies beside such directories is confined.
	ok := filepath.Join(repo, "src")
	p, err := ProtectConfinement(confine.DefaultPolicy(ok), DefaultProtectedPaths())
	require.NoError(t, err)
	out, err := runConfined(shIn(ok, `touch made`), p)
	require.NoError(t, err, out)
	assert.FileExists(t, filepath.Join(ok, "made"))
}
