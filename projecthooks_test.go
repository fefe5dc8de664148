package sandboxauth

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRepositoryHooksAreProjectCode: a repository's own hooks, inside the
// sandbox (.git/hooks, or a core.hooksPath directory of the project), are
// the project's code: a git command that runs one is labelled project code
// (asked about without confinement, as before; allowed confined), and its
// rule names the hook the subcommand really runs (git stash runs no
// pre-commit hook). A hook outside the sandbox, a subcommand form the lists
// leave to a person (commit --amend, merge), or another problem of the
// repository keeps the command dangerous without the label.
func TestRepositoryHooksAreProjectCode(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: these cases need real repositories")
	}
	outside, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(outside, "hook"), []byte("#!/bin/sh\n"), 0o755))
	hook := func(p string) func(t *testing.T, sb string) {
		return func(t *testing.T, sb string) {
			full := filepath.Join(sb, p)
			require.NoError(t, os.MkdirAll(filepath.Dir(full), 0o755))
			require.NoError(t, os.WriteFile(full, []byte("#!/bin/sh\necho hook\n"), 0o755))
		}
	}
	config := func(text string, then ...func(t *testing.T, sb string)) func(t *testing.T, sb string) {
		return func(t *testing.T, sb string) {
			f, err := os.OpenFile(filepath.Join(sb, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
			require.NoError(t, err)
			_, err = f.WriteString(text)
			require.NoError(t, err)
			require.NoError(t, f.Close())
			for _, s := range then {
				s(t, sb)
			}
		}
	}
	cases := []struct {
		name    string
		setup   func(t *testing.T, sb string)
		argv    []string
		project bool
		rule    string // a part of the rule (or, without the label, of rule and reason)
		notRule string // what the rule must not name
		safe    bool   // the subcommand runs none of the hooks present
	}{
		{"pre-commit: git commit", hook(".git/hooks/pre-commit"), []string{"git", "commit", "-m", "x"}, true, "pre-commit hook", "", false},
		{"pre-commit: git stash", hook(".git/hooks/pre-commit"), []string{"git", "stash"}, true, "git stash", "pre-commit", false},
		{"post-checkout: git stash", hook(".git/hooks/post-checkout"), []string{"git", "stash"}, true, "post-checkout hook", "", false},
		{"pre-commit: git add", hook(".git/hooks/pre-commit"), []string{"git", "add", "a.txt"}, false, "safe: git add", "", true},
		{"post-index-change: git add", hook(".git/hooks/post-index-change"), []string{"git", "add", "a.txt"}, true, "post-index-change hook", "", false},
		{"post-index-change: git status", hook(".git/hooks/post-index-change"), []string{"git", "status"}, true, "post-index-change hook", "", false},
		{"core.hooksPath in the project: git commit", config("[core]\n\thooksPath = hooks\n", hook("hooks/pre-commit")), []string{"git", "commit", "-m", "x"}, true, "core.hookspath", "", false},
		{"core.hooksPath in the project: git log", config("[core]\n\thooksPath = hooks\n", hook("hooks/pre-commit")), []string{"git", "log"}, true, "core.hookspath", "", false},
		{"core.hooksPath outside", config("[core]\n\thooksPath = " + outside + "\n"), []string{"git", "commit", "-m", "x"}, false, "core.hookspath", "", false},
		{"core.hooksPath in ~", config("[core]\n\thooksPath = ~/hooks\n"), []string{"git", "commit", "-m", "x"}, false, "core.hookspath", "", false},
		{"hook linked outside", func(t *testing.T, sb string) {
			require.NoError(t, os.Symlink(filepath.Join(outside, "hook"), filepath.Join(sb, ".git", "hooks", "pre-commit")))
		}, []string{"git", "commit", "-m", "x"}, false, "hook pre-commit", "", false},
		{"pre-commit: git commit --amend", hook(".git/hooks/pre-commit"), []string{"git", "commit", "--amend", "-m", "x"}, false, "", "", false},
		{"pre-merge-commit: git merge", hook(".git/hooks/pre-merge-commit"), []string{"git", "merge", "main"}, false, "", "", false},
		{"pre-commit and core.fsmonitor", config("[core]\n\tfsmonitor = ./m.sh\n", hook(".git/hooks/pre-commit")), []string{"git", "commit", "-m", "x"}, false, "core.fsmonitor", "", false},
	}
	s := NewShellAllowedCommands()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sb, err := filepath.EvalSymlinks(t.TempDir())
			require.NoError(t, err)
			gitIn(t, sb, "init", "-q", "-b", "main")
			require.NoError(t, os.WriteFile(sb+"/a.txt", []byte("a\n"), 0o644))
			gitIn(t, sb, "add", "a.txt")
			gitIn(t, sb, "commit", "-q", "-m", "one")
			c.setup(t, sb)
			got, err := s.Classify(CommandSite{SandboxDir: sb, Cwd: sb}, c.argv)
			require.NoError(t, err)
			if c.safe {
				assert.Equal(t, CommandCheckResultSafe, got.Result, "%q runs none of the hooks: %s", c.argv, got.Rule)
			} else {
				assert.NotEqual(t, CommandCheckResultSafe, got.Result, "%q runs a hook: %s", c.argv, got.Rule)
			}
			assert.Equal(t, c.project, got.ProjectCode, "%q: %s (%s)", c.argv, got.Rule, got.Reason)
			if c.project {
				assert.Equal(t, CommandCheckResultDangerous, got.Result)
			}
			if c.rule != "" {
				assert.Contains(t, got.Rule+" "+got.Reason, c.rule)
			}
			if c.notRule != "" {
				assert.NotContains(t, got.Rule+" "+got.Reason, c.notRule)
			}
		})
	}
}
