package repotrust

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGitCommand: the hooks and writes of each subcommand form.
func TestGitCommand(t *testing.T) {
	cases := []struct {
		args   []string
		hook   string // a hook it runs ("" for none checked)
		noHook string // a hook it does not run
		writes bool
	}{
		{[]string{"status"}, "post-index-change", "reference-transaction", false},
		{[]string{"log", "-p"}, "", "post-index-change", false},
		{[]string{"add", "."}, "post-index-change", "pre-commit", true},
		{[]string{"branch"}, "", "reference-transaction", false},
		{[]string{"branch", "-a"}, "", "reference-transaction", false},
		{[]string{"branch", "x"}, "reference-transaction", "post-index-change", true},
		{[]string{"branch", "--list", "x*"}, "", "reference-transaction", false},
		{[]string{"tag", "v1"}, "reference-transaction", "", true},
		{[]string{"tag", "-l", "v*"}, "", "reference-transaction", false},
		{[]string{"commit", "-m", "x"}, "pre-commit", "", true},
		{[]string{"remote", "-v"}, "", "post-checkout", false},
		{[]string{"remote", "add", "x", "y"}, "post-checkout", "", true},
		{[]string{"config", "--get", "user.name"}, "", "post-checkout", false},
		{[]string{"config", "--local", "--list"}, "", "post-checkout", false},
		{[]string{"config", "user.name", "x"}, "post-checkout", "", true},
		{[]string{"worktree", "list"}, "", "post-checkout", false},
		{[]string{"worktree", "add", "../x"}, "post-checkout", "", true},
		{[]string{"stash", "list"}, "", "post-index-change", false},
		{[]string{"stash"}, "post-index-change", "pre-commit", true},
		{[]string{"stash", "-u"}, "post-checkout", "pre-commit", true},
		{[]string{"stash", "push", "--keep-index"}, "post-checkout", "commit-msg", true},
		{[]string{"stash", "pop"}, "post-index-change", "pre-commit", true},
		{[]string{"stash", "branch", "b"}, "post-checkout", "pre-commit", true},
		{[]string{"stash", "drop"}, "reference-transaction", "post-checkout", true},
		{[]string{"stash", "frobnicate"}, "pre-commit", "", true},
		{[]string{"restore", "a"}, "post-checkout", "pre-commit", true},
		{[]string{"merge", "x"}, "pre-merge-commit", "pre-commit", true},
		{[]string{"rebase", "main"}, "pre-rebase", "pre-push", true},
		{[]string{"cherry-pick", "x"}, "prepare-commit-msg", "pre-rebase", true},
		{[]string{"am", "x.patch"}, "applypatch-msg", "pre-commit", true},
		{[]string{"reset", "--hard"}, "reference-transaction", "pre-commit", true},
		{[]string{"push"}, "pre-push", "", true},
		{[]string{"frobnicate"}, "pre-auto-gc", "", true},
	}
	for _, c := range cases {
		cmd := GitCommand(c.args)
		if c.hook != "" {
			assert.True(t, cmd.runs(c.hook), "git %v runs %s", c.args, c.hook)
		}
		if c.noHook != "" {
			assert.False(t, cmd.runs(c.noHook), "git %v does not run %s", c.args, c.noHook)
		}
		assert.Equal(t, c.writes, cmd.Writes, "git %v", c.args)
	}
}

// TestDecideNamesTheHookRun: the reason names a hook the subcommand runs
// (git stash runs no pre-commit hook, so a repository with only that one
// lets it pass here), and for a subcommand not known to run only some
// hooks it says so rather than claim the hook runs.
func TestDecideNamesTheHookRun(t *testing.T) {
	f := &Facts{Found: true, Hooks: []Hook{{Name: "pre-commit", Path: "/r/.git/hooks/pre-commit"}}}
	ok, _, _ := f.Decide(GitCommand([]string{"stash"}), nil)
	assert.True(t, ok, "git stash runs no pre-commit hook")
	ok, subject, reason := f.Decide(GitCommand([]string{"commit", "-m", "x"}), nil)
	assert.False(t, ok)
	assert.Equal(t, "hook pre-commit", subject)
	assert.Equal(t, "git commit runs the pre-commit hook (/r/.git/hooks/pre-commit), a program in the repository", reason)
	ok, _, reason = f.Decide(GitCommand([]string{"frobnicate"}), nil)
	assert.False(t, ok)
	assert.Contains(t, reason, "git frobnicate is not known to leave any hook alone, so it may run the pre-commit hook")

	own := f.Judge(GitCommand([]string{"commit"}), nil, func(h Hook) bool { return true })
	assert.True(t, own.OK)
	require.NotNil(t, own.Hook)
	assert.Equal(t, "pre-commit", own.Hook.Name)
	assert.Nil(t, f.Judge(GitCommand([]string{"stash"}), nil, func(h Hook) bool { return true }).Hook, "git stash runs no pre-commit hook")
}
