package repotrust

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGitCommandHooksAgainstGit runs real git in a repository where every
// hook is present and writes its name to a log, and checks that each hook
// a subcommand ran is one GitCommand says it may run. A hook missing from
// a subcommand's list would let the classifier take a repository's hook
// for one the command never runs (git restore runs post-checkout).
func TestGitCommandHooksAgainstGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skipf("git is not installed: %v", err)
	}
	dir := t.TempDir()
	repo := filepath.Join(dir, "r")
	log := filepath.Join(dir, "hooks.log")
	git := func(args ...string) ([]string, error) {
		require.NoError(t, os.WriteFile(log, nil, 0o644))
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir, "GIT_EDITOR=true",
			"GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@example.com")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Logf("git %v: %s", args, out)
		}
		b, rerr := os.ReadFile(log)
		require.NoError(t, rerr)
		ran := strings.Fields(string(b))
		sort.Strings(ran)
		return slices.Compact(ran), err
	}
	require.NoError(t, os.MkdirAll(repo, 0o755))
	_, err := git("init", "-q", "-b", "main")
	require.NoError(t, err)
	for _, h := range allHooks() {
		if strings.HasPrefix(h, "p4-") || h == "fsmonitor-watchman" || h == "sendemail-validate" {
			continue
		}
		script := "#!/bin/sh\necho " + h + " >> '" + log + "'\n"
		require.NoError(t, os.WriteFile(filepath.Join(repo, ".git", "hooks", h), []byte(script), 0o755))
	}
	write := func(name, text string) {
		require.NoError(t, os.WriteFile(filepath.Join(repo, name), []byte(text), 0o644))
	}
	patches := filepath.Join(dir, "patches")
	steps := []struct {
		prepare func()
		args    []string
	}{
		{func() { write("a", "a\n") }, []string{"add", "a"}},
		{nil, []string{"commit", "-q", "-m", "a"}},
		{nil, []string{"status"}},
		{func() { write("a", "b\n") }, []string{"stash"}},
		{nil, []string{"stash", "list"}},
		{nil, []string{"stash", "show"}},
		{nil, []string{"stash", "apply"}},
		{nil, []string{"stash", "push", "-q"}},
		{nil, []string{"stash", "pop"}},
		{func() { write("b", "b\n") }, []string{"add", "b"}},
		{func() { write("a", "c\n") }, []string{"stash", "push", "--keep-index"}},
		{nil, []string{"stash", "pop", "--index"}},
		{nil, []string{"stash", "-u"}},
		{nil, []string{"stash", "drop"}},
		{func() { write("a", "d\n") }, []string{"stash", "create"}},
		{nil, []string{"stash"}},
		{nil, []string{"stash", "branch", "sb"}},
		{nil, []string{"commit", "-q", "-am", "sb"}},
		{nil, []string{"stash", "clear"}},
		{nil, []string{"checkout", "-q", "main"}},
		{nil, []string{"switch", "-q", "-c", "x"}},
		{func() { write("x", "x\n") }, []string{"add", "x"}},
		{nil, []string{"commit", "-q", "-m", "x"}},
		{nil, []string{"checkout", "-q", "main"}},
		{func() { write("m", "m\n") }, []string{"add", "m"}},
		{nil, []string{"commit", "-q", "-m", "m"}},
		{nil, []string{"merge", "-q", "--no-ff", "-m", "merge x", "x"}},
		{func() { write("a", "e\n") }, []string{"restore", "a"}},
		{nil, []string{"checkout", "-q", "x", "--", "x"}},
		{nil, []string{"switch", "-q", "sb"}},
		{nil, []string{"rebase", "-q", "main"}},
		{nil, []string{"switch", "-q", "-c", "pick", "main"}},
		{func() { write("p", "p\n") }, []string{"add", "p"}},
		{nil, []string{"commit", "-q", "-m", "p"}},
		{nil, []string{"switch", "-q", "sb"}},
		{nil, []string{"cherry-pick", "pick"}},
		{nil, []string{"revert", "--no-edit", "HEAD"}},
		{nil, []string{"commit", "-q", "--amend", "-m", "amended"}},
		{nil, []string{"format-patch", "-q", "-1", "-o", patches}},
		{nil, []string{"reset", "-q", "--hard", "HEAD~1"}},
		{nil, []string{"am", "-q", filepath.Join(patches, "0001-amended.patch")}},
		{nil, []string{"mv", "x", "y"}},
		{nil, []string{"rm", "-q", "--cached", "y"}},
		{nil, []string{"branch", "nb"}},
		{nil, []string{"tag", "t1"}},
	}
	ranAny := map[string]bool{}
	for _, s := range steps {
		if s.prepare != nil {
			s.prepare()
		}
		ran, err := git(s.args...)
		require.NoError(t, err, "git %v", s.args)
		cmd := GitCommand(s.args)
		for _, h := range ran {
			ranAny[h] = true
			assert.True(t, cmd.runs(h), "git %v ran the %s hook, which GitCommand does not list (%v)", s.args, h, cmd.Hooks)
		}
	}
	// The test saw the hooks it is about run at all.
	for _, h := range []string{"pre-commit", "post-checkout", "pre-merge-commit", "post-merge", "post-rewrite", "applypatch-msg", "reference-transaction", "post-index-change"} {
		assert.True(t, ranAny[h], "no step ran %s", h)
	}
}
