package sandboxauth

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/confine"
)

// TestEscape13NestedSandboxSwap: runs are grouped by their sandbox's
// path, so a run whose sandbox is a directory of another running run's
// sandbox (a monorepo: the dev server from the top, `cd web && sandboxauth
// run -- make` beside it: run's sandbox is the current directory) is in
// another group, with a baseline of its own taken while the first run's
// command is changing the shared directory. The round-11 swap comes back
// across the two groups: run A (sandbox SB) appends a core.fsmonitor to
// the config of a repository of the user's deep in SB/sub; run B (sandbox
// SB/sub) begins (its "before" holds the changed config); A writes the
// original config back and ends (nothing changed for A); B writes the
// fsmonitor again and ends (nothing changed for B). The user's git status
// there runs it unconfined.
func TestEscape13NestedSandboxSwap(t *testing.T) {
	sb := escapeSandbox(t)
	marker := homeMarker(t)
	sub := filepath.Join(sb, "sub")
	repo := filepath.Join(sub, "a/b/c/d/e/f")
	require.NoError(t, os.MkdirAll(repo, 0o755))
	out, err := exec.Command("git", "init", "-q", repo).CombinedOutput()
	require.NoError(t, err, "%s", out)
	g := "sub/a/b/c/d/e/f/.git"
	line := `printf '\tfsmonitor = "touch ` + marker + `; false"\n' >> `

	a := shIn(sb, `set -e
cp `+g+`/config /tmp/orig
`+line+g+`/config
touch ready-a
while [ ! -e go-a ]; do sleep 0.05; done
cat /tmp/orig > `+g+`/config`)
	require.NoError(t, confine.Start(a, protectedPolicy(t, sb)))
	waitFile(t, filepath.Join(sb, "ready-a"))

	b := shIn(sub, `set -e
touch ready-b
while [ ! -e a-ended ]; do sleep 0.05; done
`+line+`a/b/c/d/e/f/.git/config`)
	require.NoError(t, confine.Start(b, protectedPolicy(t, sub)))
	waitFile(t, filepath.Join(sub, "ready-b"))
	require.NoError(t, os.WriteFile(filepath.Join(sb, "go-a"), nil, 0o644))
	require.NoError(t, a.Wait())
	require.NoError(t, os.WriteFile(filepath.Join(sub, "a-ended"), nil, 0o644))
	require.NoError(t, b.Wait())

	cfg, _ := os.ReadFile(filepath.Join(repo, ".git/config"))
	t.Logf("config after both runs:\n%s", cfg)
	t.Logf("git status: %s", userGit(t, repo, "status", "--short"))
	assert.NoFileExists(t, marker, "git status ran an fsmonitor that a run and a run of a directory of its sandbox passed between them")
}
