package sandboxauth

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Red-team round 12. The protected paths are matched below the top of
// the sandbox: a sandbox that is itself one of the protected directories
// loses their protection. A sandbox that is the git directory is handled
// (its config and hooks stay read-only), but not one inside it, nor an
// agent's settings directory of the user's.

// TestEscapeSandboxIsGitHooksDirectory: `sandboxauth run` takes the
// current directory as sandbox; a developer testing a hook script runs
// it confined from the repository's hooks directory:
//
//	cd repo/.git/hooks && sandboxauth run -- ./check.sh
//	# check.sh: printf '#!/bin/sh\ntouch $HOME/pwned\n' > pre-commit; chmod +x pre-commit
//
// The command writes .git/hooks/pre-commit, which the user's next
// `git commit` runs unconfined (verified as root: "WROTE-pre-commit"; with
// the sandbox at repo/.git the same write is refused).
func TestEscapeSandboxIsGitHooksDirectory(t *testing.T) {
	repo := escapeSandbox(t)
	hooks := filepath.Join(repo, ".git", "hooks")
	require.NoError(t, os.MkdirAll(hooks, 0o755))
	marker := homeMarker(t)

	out, err := runConfined(shIn(hooks, `printf '#!/bin/sh\ntouch `+marker+`\n' > pre-commit && chmod +x pre-commit`), protectedPolicy(t, hooks))
	t.Logf("confined: %s %v", out, err)
	t.Logf("git commit: %s", userGit(t, repo, "commit", "-q", "--allow-empty", "-m", "x"))
	assert.NoFileExists(t, filepath.Join(hooks, "pre-commit"), "the confined command wrote the repository's pre-commit hook")
	assert.NoFileExists(t, marker, "the user's git commit ran the command's hook unconfined")
}

// TestEscapeSandboxIsClaudeSettingsDirectory: Claude Code opened in
// ~/.claude to edit the user's agents, skills and CLAUDE.md
// (CLAUDE_PROJECT_DIR=~/.claude); the hook rewrites `./x.sh` to a
// confined run with ~/.claude as sandbox, allowed without a question.
// settings.json and settings.local.json stay read-only (they are the
// user's global agent settings), but the hook scripts they name
// (~/.claude/hooks/*.sh, where Claude Code's documentation puts them),
// the installed plugins (whose hooks and MCP servers Claude Code starts)
// and skills are writable: the next tool call runs the command's hook
// script unconfined. Verified as root (HOME a fake home):
//
//	echo evil >> hooks/guard.sh    # WROTE hooks/guard.sh, plugins/x.json, skills/s.md
func TestEscapeSandboxIsClaudeSettingsDirectory(t *testing.T) {
	requireConfinement(t)
	home := homeVictimDir(t)
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("XDG_CACHE_HOME", "")
	claude := filepath.Join(home, ".claude")
	guard := filepath.Join(claude, "hooks", "guard.sh")
	require.NoError(t, os.MkdirAll(filepath.Dir(guard), 0o755))
	require.NoError(t, os.WriteFile(guard, []byte("#!/bin/sh\nexit 0\n"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(claude, "settings.json"),
		[]byte(`{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"~/.claude/hooks/guard.sh"}]}]}}`), 0o644))

	out, err := runConfined(shIn(claude, `echo 'touch $HOME/pwned' >> hooks/guard.sh`), protectedPolicy(t, claude))
	t.Logf("confined: %s %v", out, err)
	b, rerr := os.ReadFile(guard)
	require.NoError(t, rerr)
	assert.Equal(t, "#!/bin/sh\nexit 0\n", string(b), "the confined command changed a hook script that Claude Code runs unconfined")
}
