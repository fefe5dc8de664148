package sandboxauth

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/confine"
)

// Red-team round 10: false positives. Each test sets up, as the user (not
// confined), a project the way real work does, runs an ordinary command
// confined, and asserts that nothing of the user's was moved aside and that
// the command worked.

// fpGit runs git as the user in dir and fails the test if it fails.
func fpGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	c := exec.Command("git", append([]string{"-c", "protocol.file.allow=always"}, args...)...)
	c.Dir, c.Env = dir, append(os.Environ(), gitEnv...)
	b, err := c.CombinedOutput()
	require.NoError(t, err, "git %v: %s", args, b)
	return string(b)
}

// fpRepo makes a repository at dir with one commit.
func fpRepo(t *testing.T, dir string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(dir, 0o755))
	fpGit(t, dir, "init", "-q")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "f"), []byte("x\n"), 0o644))
	fpGit(t, dir, "add", "f")
	fpGit(t, dir, "commit", "-qm", "init")
}

// quarantined lists what the quarantine moved aside beneath sb.
func quarantined(t *testing.T, sb string) []string {
	t.Helper()
	var out []string
	_ = filepath.WalkDir(sb, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), quarantineSuffix) {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// TestFPSubmoduleProjectRuns: a project with a submodule (git submodule
// add, done by the user) cannot run anything confined: bubblewrap fails
// with "Can't stat fd N: Bad file descriptor". The policy has both
// .git/modules and .git/modules/s1/{config,hooks,branches} read-only; the
// view pins .git/modules (a directory between .git/modules/s1/config and
// the sandbox) and binds it read-only too, and openSources gives both
// uses the same descriptor (byPath), which bubblewrap closes after the
// first bind (--bind-fd), so the second (--ro-bind-fd) fails. Any
// project with a submodule, at any depth, shallow or not.
//
//	git submodule add ../lib s1 && git commit -m s1
//	sandboxauth run --sandbox . -- true   # bwrap: Can't stat fd 21: Bad file descriptor
func TestFPSubmoduleProjectRuns(t *testing.T) {
	sb := escapeSandbox(t)
	src := t.TempDir()
	fpRepo(t, filepath.Join(src, "lib"))
	fpRepo(t, filepath.Join(src, "deep"))
	require.NoError(t, os.WriteFile(filepath.Join(sb, "t"), []byte("t\n"), 0o644))
	fpGit(t, sb, "add", "t")
	fpGit(t, sb, "commit", "-qm", "t")
	fpGit(t, sb, "submodule", "add", "-q", filepath.Join(src, "lib"), "s1")
	fpGit(t, sb, "submodule", "add", "-q", "--depth", "1", "file://"+filepath.Join(src, "deep"), "a/b/c/d/deep")
	fpGit(t, sb, "commit", "-qm", "submodules")
	time.Sleep(1100 * time.Millisecond)

	cmd := shIn(sb, `set -e
git status --short
git submodule status --recursive
git submodule foreach -q --recursive 'git status --short; git log --oneline -1'
cd a/b/c/d/deep && git status --short && git log --oneline -1`)
	require.NoError(t, confine.Run(shIn(sb, "true"), protectedPolicy(t, sb)), "confined `true` in a project with submodules")
	require.NoError(t, confine.Run(cmd, protectedPolicy(t, sb)))
	assert.Empty(t, quarantined(t, sb), "the user's submodules were moved aside")
	assert.Empty(t, userGit(t, sb, "status", "--short"))
}

// TestFPDeepRepositoryBranchSwitch: a repository of the user's deeper than
// the bounded walk (a/b/c/d/r: a vendored project, an example) where the
// confined command switches branches (git checkout -b, git switch -c, git
// checkout --detach: anything that rewrites HEAD). The deep scan takes a
// known git directory whose HEAD changed during the run for one "woken"
// (deepQuarantine) and moves aside its config (the user's remotes and
// settings), hooks and branches, whatever their change times: the
// repository loses its origin remote and its hooks.
//
//	(user) cd a/b/c/d/r && git init && git commit ... && git remote add origin URL; sleep 2
//	sandboxauth run --sandbox . -- ./p.sh    # p.sh: cd a/b/c/d/r && git checkout -b feature
//	=> a/b/c/d/r/.git/config.sandboxauth-quarantine, hooks.sandboxauth-quarantine, branches.sandboxauth-quarantine
func TestFPDeepRepositoryBranchSwitch(t *testing.T) {
	sb := escapeSandbox(t)
	r := filepath.Join(sb, "a/b/c/d/r")
	fpRepo(t, r)
	fpGit(t, r, "remote", "add", "origin", "https://example.invalid/r.git")
	time.Sleep(2200 * time.Millisecond) // older than the policy by more than its slack

	require.NoError(t, confine.Run(shIn(sb, "cd a/b/c/d/r && git checkout -q -b feature"), protectedPolicy(t, sb)))
	assert.Empty(t, quarantined(t, sb), "the user's repository lost its configuration and hooks after a git checkout -b")
	assert.Contains(t, userGit(t, r, "remote", "-v"), "example.invalid", "the user's remote is gone")
	assert.DirExists(t, filepath.Join(r, ".git/hooks"))
}

// TestFPDeepRepositoryChangedJustBefore: the same repository, which the
// user changed (a commit, git remote add, git init) less than a second
// before the policy was made (since = now - 1s): its config and hooks are
// at or after "since", so the deep scan takes them for the command's
// even though the confined command only ran git status.
func TestFPDeepRepositoryChangedJustBefore(t *testing.T) {
	sb := escapeSandbox(t)
	r := filepath.Join(sb, "a/b/c/d/r")
	fpRepo(t, r)
	fpGit(t, r, "remote", "add", "origin", "https://example.invalid/r.git")

	require.NoError(t, confine.Run(shIn(sb, "cd a/b/c/d/r && git status --short"), protectedPolicy(t, sb)))
	assert.Empty(t, quarantined(t, sb), "the user's repository lost its configuration and hooks after a confined git status")
	assert.Contains(t, userGit(t, r, "remote", "-v"), "example.invalid", "the user's remote is gone")
}

// TestFPWorktreeInProjectRuns: the same failure for a project with a git
// worktree of its own inside it (git worktree add wt, by the user):
// .git/worktrees and .git/worktrees/wt/... are both read-only, the view
// pins .git/worktrees and binds it read-only with one shared descriptor,
// and bubblewrap fails ("Can't stat fd N: Bad file descriptor"): nothing
// runs confined in the project at all.
//
//	git worktree add wt -b side
//	sandboxauth run --sandbox . -- true   # bwrap: Can't stat fd 21: Bad file descriptor
func TestFPWorktreeInProjectRuns(t *testing.T) {
	sb := escapeSandbox(t)
	fpRepo(t, sb)
	fpGit(t, sb, "worktree", "add", "-q", "wt", "-b", "side")
	time.Sleep(1100 * time.Millisecond)

	require.NoError(t, confine.Run(shIn(sb, "cd wt && git status --short && git log --oneline -1"), protectedPolicy(t, sb)), "confined git status in the user's worktree")
	assert.Empty(t, quarantined(t, sb), "the user's worktree was moved aside")
}

// TestFPCargoBuild: no Rust project builds confined unless it has its own
// .cargo/config and .cargo/config.toml. Both are protected (cargo's
// configuration) and, missing, get placeholders; but ProtectConfinement
// gives them no entry in Placeholders, so confine makes them empty
// directories, and cargo, which reads .cargo/config in the working
// directory and every parent, stops: "failed to read configuration file
// .cargo/config: Is a directory" (exit 101). An empty file would read as
// no configuration. (rust-toolchain's directory placeholder does not
// stop rustup; .python-version's does not stop pyenv.)
//
//	cargo init . && sandboxauth run --sandbox . -- cargo build --offline
func TestFPCargoBuild(t *testing.T) {
	if _, err := exec.LookPath("cargo"); err != nil {
		t.Fatal("cargo is needed for this test")
	}
	sb := escapeSandbox(t)
	require.NoError(t, os.MkdirAll(filepath.Join(sb, "src"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(sb, "Cargo.toml"), []byte("[package]\nname = \"fp\"\nversion = \"0.1.0\"\nedition = \"2021\"\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(sb, "src/main.rs"), []byte("fn main() {}\n"), 0o644))

	cmd := shIn(sb, "cargo build -q --offline")
	out := &strings.Builder{}
	cmd.Stdout, cmd.Stderr = out, out
	assert.NoError(t, confine.Run(cmd, protectedPolicy(t, sb)), "confined cargo build: %s", out)
	assert.NoDirExists(t, filepath.Join(sb, ".cargo"), "placeholders left behind")
}

// TestFPSubmoduleCommit: once a project with submodules runs at all, no
// git write works inside a submodule: .git/modules is read-only whole
// (its config and hooks are what matters, but the submodules' index,
// HEAD, refs and objects live there too), so a confined `git commit`,
// `git checkout -b` or `git add` in deps/lib fails ("Unable to create
// .git/modules/deps/lib/index.lock: Read-only file system"). Keeping
// .git/modules/NAME/{config,config.worktree,hooks,...} read-only, as
// for the top repository, would be enough.
func TestFPSubmoduleCommit(t *testing.T) {
	sb := escapeSandbox(t)
	src := t.TempDir()
	fpRepo(t, filepath.Join(src, "lib"))
	fpRepo(t, sb)
	fpGit(t, sb, "submodule", "add", "-q", filepath.Join(src, "lib"), "deps/lib")
	fpGit(t, sb, "commit", "-qm", "submodule")
	time.Sleep(1100 * time.Millisecond)

	cmd := shIn(sb, "cd deps/lib && echo y >> f && git commit -qam y && git checkout -q -b wip")
	out := &strings.Builder{}
	cmd.Stdout, cmd.Stderr = out, out
	assert.NoError(t, confine.Run(cmd, protectedPolicy(t, sb)), "confined git commit in a submodule: %s", out)
	assert.Empty(t, quarantined(t, sb))
}
