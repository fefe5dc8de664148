package sandboxauth

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEscapeWorktreeGitdirFileRepair: a linked worktree's git directory
// (.git/worktrees/NAME) is now kept like a nested repository's, its
// gitdir file (the path of the worktree's .git file, which git worktree
// repair, move and remove act on) writable. The command points it at a
// .git file outside the sandbox: another linked worktree of the user's,
// of another repository. The user's next git worktree repair in the
// project rewrites that file (".git file incorrect") to point at the
// project's repository: a write outside the sandbox, and the user's
// other checkout now runs with the project's git directory.
//
//	echo "$HOME/elsewhere/other/.git" > .git/worktrees/wt2/gitdir
func TestEscapeWorktreeGitdirFileRepair(t *testing.T) {
	sb := escapeSandbox(t)
	git := func(dir string, args ...string) {
		c := exec.Command("git", args...)
		c.Dir, c.Env = dir, append(os.Environ(), gitEnv...)
		out, err := c.CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	git(sb, "commit", "-q", "--allow-empty", "-m", "i")
	git(sb, "worktree", "add", "-q", "wt2")
	victim := homeVictimDir(t)
	git(victim, "init", "-q", "main")
	git(filepath.Join(victim, "main"), "commit", "-q", "--allow-empty", "-m", "i")
	git(filepath.Join(victim, "main"), "worktree", "add", "-q", "../other")
	dotgit := filepath.Join(victim, "other", ".git")
	before, err := os.ReadFile(dotgit)
	require.NoError(t, err)

	out, err := runConfined11(t, sb, `echo '`+dotgit+`' > .git/worktrees/wt2/gitdir`)
	t.Logf("confined: %s %v", out, err)
	t.Logf("git worktree repair: %s", userGit(t, sb, "worktree", "repair"))
	after, err := os.ReadFile(dotgit)
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after), "the user's git worktree repair rewrote a .git file outside the sandbox, named by the command")
}

// runConfined11 runs script in the sandbox sb under the protected policy.
func runConfined11(t *testing.T, sb, script string) (string, error) {
	t.Helper()
	return runConfined(shIn(sb, script), protectedPolicy(t, sb))
}

// TestEscapeReflogLinkOutside: git appends to the reflogs (logs/HEAD,
// logs/refs/heads/BRANCH) of a git directory by opening them, following
// a symbolic link, and creates them when missing. The command replaces a
// reflog with a link to a file outside the sandbox; the quarantine keeps
// no such link (links are looked at only for the private caches). The
// user's next git commit appends a line to the victim file (any file the
// user may write: ~/.bashrc, ~/.ssh/authorized_keys), or creates it. A
// linked worktree's git directory (.git/worktrees/NAME, writable since
// this round, like a submodule's .git/modules/NAME) does the same for a
// commit in the linked worktree; the top's .git/logs always did.
//
//	ln -sf $HOME/victim .git/worktrees/wt2/logs/HEAD
//	ln -sf $HOME/victim-top .git/logs/HEAD
func TestEscapeReflogLinkOutside(t *testing.T) {
	sb := escapeSandbox(t)
	git := func(dir string, args ...string) {
		c := exec.Command("git", args...)
		c.Dir, c.Env = dir, append(os.Environ(), gitEnv...)
		out, err := c.CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	git(sb, "commit", "-q", "--allow-empty", "-m", "i")
	git(sb, "worktree", "add", "-q", "wt2")
	victim := homeVictimDir(t)
	wtVictim, topVictim := filepath.Join(victim, "wt"), filepath.Join(victim, "top")

	out, err := runConfined11(t, sb, `set -e
ln -sf '`+wtVictim+`' .git/worktrees/wt2/logs/HEAD
ln -sf '`+topVictim+`' .git/logs/HEAD`)
	require.NoError(t, err, "%s", out)
	git(filepath.Join(sb, "wt2"), "commit", "-q", "--allow-empty", "-m", "in the linked worktree")
	git(sb, "commit", "-q", "--allow-empty", "-m", "at the top")
	assert.NoFileExists(t, wtVictim, "a commit in a linked worktree wrote a file outside the sandbox through its reflog")
	assert.NoFileExists(t, topVictim, "a commit at the top wrote a file outside the sandbox through its reflog")
}

// TestEscapeCommitMessageLinkOutside: git commit writes the message to
// .git/COMMIT_EDITMSG (in a linked worktree's or a submodule's git
// directory too) with fopen("w"), following a symbolic link. The command
// makes it a link to a file outside the sandbox; the user's next git
// commit overwrites that file with the commit message (verified as root
// and as an unprivileged user).
//
//	ln -sf $HOME/victim .git/COMMIT_EDITMSG
func TestEscapeCommitMessageLinkOutside(t *testing.T) {
	sb := escapeSandbox(t)
	git := func(dir string, args ...string) {
		c := exec.Command("git", args...)
		c.Dir, c.Env = dir, append(os.Environ(), gitEnv...)
		out, err := c.CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	git(sb, "commit", "-q", "--allow-empty", "-m", "i")
	git(sb, "worktree", "add", "-q", "wt2")
	victim := homeVictimDir(t)
	top, wt := filepath.Join(victim, "top"), filepath.Join(victim, "wt")
	require.NoError(t, os.WriteFile(top, []byte("precious\n"), 0o644))
	require.NoError(t, os.WriteFile(wt, []byte("precious\n"), 0o644))

	out, err := runConfined11(t, sb, `set -e
ln -sf '`+top+`' .git/COMMIT_EDITMSG
ln -sf '`+wt+`' .git/worktrees/wt2/COMMIT_EDITMSG`)
	require.NoError(t, err, "%s", out)
	git(sb, "commit", "-q", "--allow-empty", "-m", "at the top")
	git(filepath.Join(sb, "wt2"), "commit", "-q", "--allow-empty", "-m", "in the linked worktree")
	for _, p := range []string{top, wt} {
		b, _ := os.ReadFile(p)
		assert.Equal(t, "precious\n", string(b), "the user's git commit overwrote %s, outside the sandbox, through COMMIT_EDITMSG", p)
	}
}
