package sandboxauth

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEscapeIncludeOnHeaderLine: a repository of the project (at the top
// of the walk, and deeper than it) includes a file of its work tree with
// the include written on its header's line, `[include] path = ../inc.cfg`,
// which git reads as any include. The file does not exist; the command
// writes it with a core.fsmonitor, which the user's next git status in
// that repository runs unconfined. The include must be kept read-only (a
// placeholder) or what the command wrote moved aside.
//
//	printf '[core]\n\tfsmonitor = "touch $HOME/pwned; false"\n' > sub/inc.cfg
func TestEscapeIncludeOnHeaderLine(t *testing.T) {
	for _, at := range []string{"sub", "a/b/c/d/e/sub"} {
		t.Run(at, func(t *testing.T) {
			sb := escapeSandbox(t)
			repo := filepath.Join(sb, at)
			require.NoError(t, os.MkdirAll(repo, 0o755))
			c := exec.Command("git", "init", "-q")
			c.Dir, c.Env = repo, append(os.Environ(), gitEnv...)
			out, err := c.CombinedOutput()
			require.NoError(t, err, "%s", out)
			config := filepath.Join(repo, ".git", "config")
			b, err := os.ReadFile(config)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(config, append(b, "[include] path = ../inc.cfg\n"...), 0o644))
			marker := filepath.Join(homeVictimDir(t), "pwned")

			out2, err := runConfined(shIn(sb, `printf '[core]\n\tfsmonitor = "touch `+marker+`; false"\n' > `+at+`/inc.cfg`), protectedPolicy(t, sb))
			t.Logf("confined: %s %v", out2, err)
			t.Logf("git status: %s", userGit(t, repo, "status", "--short"))
			assert.NoFileExists(t, marker, "git status ran the fsmonitor of a file the repository includes from its header's line")
		})
	}
}
