package sandboxauth

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/confine"
)

// TestEscapeDeepScanDigestSwapAcrossRuns: the deep scan judges a known
// git directory by digests of what git obeys, taken when each run's
// policy is made and after its command ends; each run compares only its
// own two. Two runs of the same sandbox pass a changed configuration
// between them. The project holds a repository deeper than the walk
// (a/b/c/d/e/f, the user's). Run A appends a core.fsmonitor to its
// config, then run B's policy is made (its digest "before" is the
// changed config). A writes the original config back and ends: A's
// digests before and after agree. B writes the fsmonitor config again
// and ends: B's digests before and after agree. Nothing is moved aside;
// the user's git status there runs the fsmonitor unconfined.
//
//	a.sh: cp $g/config /tmp/orig; printf '\tfsmonitor = "touch $HOME/pwned; false"\n' >> $g/config
//	      (B's policy is made) ; cat /tmp/orig > $g/config
//	b.sh: wait for A's end; printf '\tfsmonitor = ...' >> $g/config   (the same bytes as A's)
func TestEscapeDeepScanDigestSwapAcrossRuns(t *testing.T) {
	sb := escapeSandbox(t)
	marker := homeMarker(t)
	repo := filepath.Join(sb, "a/b/c/d/e/f")
	require.NoError(t, os.MkdirAll(repo, 0o755))
	out, err := exec.Command("git", "init", "-q", repo).CombinedOutput()
	require.NoError(t, err, "%s", out)
	g := "a/b/c/d/e/f/.git"
	line := `printf '\tfsmonitor = "touch ` + marker + `; false"\n' >> ` + g + `/config`

	a := shIn(sb, `set -e
cp `+g+`/config /tmp/orig
`+line+`
touch ready-a
while [ ! -e go-a ]; do sleep 0.05; done
cat /tmp/orig > `+g+`/config`)
	require.NoError(t, confine.Start(a, protectedPolicy(t, sb)))
	waitFile(t, filepath.Join(sb, "ready-a"))

	b := shIn(sb, `set -e
touch ready-b
while [ ! -e a-ended ]; do sleep 0.05; done
`+line)
	require.NoError(t, confine.Start(b, protectedPolicy(t, sb)))
	waitFile(t, filepath.Join(sb, "ready-b"))
	require.NoError(t, os.WriteFile(filepath.Join(sb, "go-a"), nil, 0o644))
	require.NoError(t, a.Wait())
	require.NoError(t, os.WriteFile(filepath.Join(sb, "a-ended"), nil, 0o644))
	require.NoError(t, b.Wait())

	cfg, _ := os.ReadFile(filepath.Join(repo, ".git/config"))
	t.Logf("config after both runs:\n%s", cfg)
	t.Logf("git status in a/b/c/d/e/f: %s", userGit(t, repo, "status", "--short"))
	assert.NoFileExists(t, marker, "git status in a deep repository ran an fsmonitor that two runs passed between them")
}

// TestEscapeDeepScanDigestSwapNewRepository: the same swap with no
// repository of the user's: run A makes a new repository deep in the
// project (a/b/c/d/e/f/.git, core.fsmonitor), run B's policy is made
// (to B it is a known git directory, its config's digest taken), and A
// removes HEAD and config before it ends: to A's scan after the run the
// directory is no git directory, and not one "but for an entry" either
// (that needs a config), so nothing is moved aside or put in the ledger.
// B writes HEAD and config back, byte for byte, and ends: a known git
// directory whose config did not change. The user's git status there
// runs the fsmonitor unconfined.
//
//	a.sh: git init -q $d; printf '\tfsmonitor = "touch $HOME/pwned; false"\n' >> $d/.git/config; cp $d/.git/config $d/.git/HEAD /tmp/
//	      (B's policy is made); rm $d/.git/HEAD $d/.git/config; cp /tmp/config /tmp/HEAD $d/   # kept for B
//	b.sh: wait for A's end; mv $d/config $d/HEAD $d/.git/
func TestEscapeDeepScanDigestSwapNewRepository(t *testing.T) {
	sb := escapeSandbox(t)
	marker := homeMarker(t)
	d := "a/b/c/d/e/f"
	a := shIn(sb, `set -e
d=`+d+`
mkdir -p $d/.git/objects $d/.git/refs/heads
echo 'ref: refs/heads/main' > $d/.git/HEAD
printf '[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tfsmonitor = "touch `+marker+`; false"\n' > $d/.git/config
touch ready-a
while [ ! -e go-a ]; do sleep 0.05; done
cp $d/.git/config $d/.git/HEAD $d/
rm $d/.git/HEAD $d/.git/config`)
	require.NoError(t, confine.Start(a, protectedPolicy(t, sb)))
	waitFile(t, filepath.Join(sb, "ready-a"))

	b := shIn(sb, `set -e
d=`+d+`
touch ready-b
while [ ! -e a-ended ]; do sleep 0.05; done
cat $d/config > $d/.git/config
cat $d/HEAD > $d/.git/HEAD
rm $d/config $d/HEAD`)
	require.NoError(t, confine.Start(b, protectedPolicy(t, sb)))
	waitFile(t, filepath.Join(sb, "ready-b"))
	require.NoError(t, os.WriteFile(filepath.Join(sb, "go-a"), nil, 0o644))
	require.NoError(t, a.Wait())
	require.NoError(t, os.WriteFile(filepath.Join(sb, "a-ended"), nil, 0o644))
	require.NoError(t, b.Wait())

	repo := filepath.Join(sb, d)
	out, _ := exec.Command("ls", "-la", filepath.Join(repo, ".git")).CombinedOutput()
	t.Logf("%s", out)
	t.Logf("git status in %s: %s", d, userGit(t, repo, "status", "--short"))
	assert.NoFileExists(t, marker, "git status in a directory of the project ran the fsmonitor of a repository two runs made between them")
}

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
	c := shIn(sb, script)
	var b bytes.Buffer
	c.Stdout, c.Stderr = &b, &b
	require.NoError(t, confine.Start(c, protectedPolicy(t, sb)))
	err := c.Wait()
	return b.String(), err
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
