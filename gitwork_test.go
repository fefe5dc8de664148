package sandboxauth

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGitWorkInTheProject: git's writes inside the project that discard
// no uncommitted work and rewrite no history (restoring or unstaging named
// paths, git rm --cached, git revert, a fast-forward) are project code, as
// git commit is: asked about without confinement, as before, and run
// confined with it. The forms that discard work or move the branch keep
// the lists' answer; git reset of a lone operand is project code only when
// the operand names a file of the work tree (git then reads it as a path,
// or refuses it when it is a revision too), judged on the file system as
// it will be: not after a segment that may have removed the file.
func TestGitWorkInTheProject(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: these cases need a real repository")
	}
	outside, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	sb, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	gitIn(t, sb, "init", "-q", "-b", "main")
	require.NoError(t, os.WriteFile(filepath.Join(sb, "f.txt"), []byte("a\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(sb, "src"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(sb, "src", "g.txt"), []byte("g\n"), 0o644))
	gitIn(t, sb, "add", ".")
	gitIn(t, sb, "commit", "-q", "-m", "one")
	gitIn(t, sb, "branch", "topic")
	require.NoError(t, os.WriteFile(filepath.Join(outside, "v"), []byte("victim\n"), 0o644))
	require.NoError(t, os.Symlink(filepath.Join(outside, "v"), filepath.Join(sb, "outlink")))
	s := NewShellAllowedCommands()
	s.SetSplitCompound(true)
	tests := []struct {
		argv    []string
		project bool
	}{
		{[]string{"git", "restore", "f.txt"}, true},
		{[]string{"git", "restore", "--staged", "f.txt"}, true},
		{[]string{"git", "restore", "--source=HEAD", "--", "src/g.txt"}, true},
		{[]string{"git", "checkout", "--", "f.txt"}, true},
		{[]string{"git", "reset", "f.txt"}, true},
		{[]string{"git", "reset", "src"}, true},
		{[]string{"git", "reset", "-q", "--", "f.txt"}, true},
		{[]string{"git", "reset", "HEAD", "f.txt"}, true},
		{[]string{"git", "reset"}, true},
		{[]string{"git", "reset", "HEAD"}, true},
		{[]string{"git", "rm", "--cached", "f.txt"}, true},
		{[]string{"git", "rm", "-q", "f.txt"}, true},
		{[]string{"git", "revert", "--no-edit", "HEAD"}, true},
		{[]string{"git", "merge", "--ff-only", "topic"}, true},
		{[]string{"bash", "-c", "git reset f.txt && git restore f.txt"}, true},
		// Asked, confined or not: what discards work, moves the branch or
		// joins histories, a path outside.
		{[]string{"git", "reset", "topic"}, false},   // a branch: moves main to it
		{[]string{"git", "reset", "HEAD~1"}, false},  // no such file: a revision
		{[]string{"git", "reset", "missing"}, false}, // neither: git refuses, but it is no file here
		{[]string{"git", "reset", "--hard"}, false},  // discards every change
		{[]string{"git", "reset", "--soft", "HEAD~1"}, false},
		{[]string{"git", "checkout", "--", "."}, false},
		{[]string{"git", "restore", "."}, false},
		{[]string{"git", "rm", "-f", "f.txt"}, false},
		{[]string{"git", "rm", "-r", "--cached", "src"}, false},
		{[]string{"git", "merge", "topic"}, false},
		{[]string{"git", "merge", "--ff-only", "--no-ff", "topic"}, false},
		{[]string{"git", "revert", "--skip"}, false},
		{[]string{"git", "restore", filepath.Join(outside, "x")}, false},
		{[]string{"git", "reset", "../x"}, false},
		// The red team's candidates of round 22, tried through the hook:
		// another work tree or repository, a path that leads outside.
		{[]string{"git", "--work-tree=" + outside, "restore", "f.txt"}, false},
		{[]string{"git", "--git-dir=.git", "--work-tree=" + outside, "checkout", "--", "f.txt"}, false},
		{[]string{"env", "GIT_WORK_TREE=" + outside, "git", "restore", "f.txt"}, false},
		{[]string{"env", "GIT_DIR=" + outside, "git", "reset", "f.txt"}, false},
		{[]string{"git", "-c", "core.hooksPath=" + outside, "reset", "f.txt"}, false},
		{[]string{"git", "restore", "--source=HEAD", "--", "outlink"}, false},
		{[]string{"git", "reset", "outlink"}, false},
		{[]string{"git", "rm", "--cached", "outlink"}, false},
		{[]string{"bash", "-c", "git restore f.txt && cat " + filepath.Join(outside, "v")}, false},
		// The file may be gone when git runs: rm topic && git reset topic
		// moves the branch.
		{[]string{"bash", "-c", "rm f.txt && git reset f.txt"}, false},
		{[]string{"bash", "-c", "mv f.txt h.txt; git reset f.txt"}, false},
	}
	for _, tt := range tests {
		c, err := s.Classify(CommandSite{SandboxDir: sb, Cwd: sb}, tt.argv)
		require.NoError(t, err)
		assert.Equal(t, CommandCheckResultDangerous, c.Result, "%q: %s", tt.argv, c.Rule)
		assert.Equal(t, tt.project, c.ProjectCode, "%q: %s (%s)", tt.argv, c.Rule, c.Reason)
	}
}
