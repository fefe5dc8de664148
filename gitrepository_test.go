package sandboxauth

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSandboxRepositoryConfig: the sandbox's own repository is trusted only
// while its configuration names no program; a sandbox that is itself shaped
// like a bare repository is not trusted at all.
func TestSandboxRepositoryConfig(t *testing.T) {
	s := NewShellAllowedCommands()
	classify := func(sb string, argv ...string) Classification {
		t.Helper()
		c, err := s.Classify(CommandSite{SandboxDir: sb}, argv)
		require.NoError(t, err)
		return c
	}
	write := func(p, text string) {
		t.Helper()
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}

	// A repository layout git accepts: HEAD, objects, refs.
	gitLayout := func(dir string) {
		t.Helper()
		write(dir+"/HEAD", "ref: refs/heads/main\n")
		require.NoError(t, os.MkdirAll(dir+"/objects", 0o755))
		require.NoError(t, os.MkdirAll(dir+"/refs/heads", 0o755))
	}

	sb := newSandbox(t)
	assert.Equal(t, CommandCheckResultSafe, classify(sb, "git", "status").Result)
	write(sb+"/.git/config", "[core]\n\tbare = false\n")
	assert.Equal(t, CommandCheckResultSafe, classify(sb, "git", "status").Result)
	write(sb+"/.git/config", "[core]\n\tfsmonitor = \"sh -c 'touch /tmp/x'\"\n")
	for _, argv := range [][]string{{"git", "status"}, {"git", "diff"}, {"git", "log", "-p"}, {"bash", "-lc", "git status"}} {
		c := classify(sb, argv...)
		assert.Equal(t, CommandCheckResultDangerous, c.Result, "%q", argv)
		assert.Contains(t, c.Rule, "core.fsmonitor", "%q", argv)
	}
	// Commands other than git do not care.
	assert.Equal(t, CommandCheckResultSafe, classify(sb, "ls").Result)

	// A worktree: .git is a file naming the git directory, whose commondir
	// holds the shared configuration.
	wt := newSandbox(t)
	require.NoError(t, os.RemoveAll(wt+"/.git"))
	main := t.TempDir()
	gitLayout(main + "/.git")
	write(main+"/.git/config", "[diff]\n\texternal = ./d.sh\n")
	write(main+"/.git/worktrees/wt/commondir", "../..\n")
	write(main+"/.git/worktrees/wt/HEAD", "ref: refs/heads/wt\n")
	write(wt+"/.git", "gitdir: "+main+"/.git/worktrees/wt\n")
	c := classify(wt, "git", "diff")
	assert.Equal(t, CommandCheckResultDangerous, c.Result)
	assert.Contains(t, c.Rule, "diff.external")
	write(main+"/.git/config", "[core]\n\tbare = false\n")
	assert.Equal(t, CommandCheckResultSafe, classify(wt, "git", "diff").Result)
	// The worktree's store is outside the sandbox: git add writes there.
	c = classify(wt, "git", "add", "a.txt")
	assert.Equal(t, CommandCheckResultDangerous, c.Result)
	assert.Contains(t, c.Rule, "outside the sandbox")
	// config.worktree counts, with extensions.worktreeConfig or without
	// (the worse case).
	write(main+"/.git/worktrees/wt/config.worktree", "[core]\n\tfsmonitor = ./m.sh\n")
	c = classify(wt, "git", "diff")
	assert.Equal(t, CommandCheckResultDangerous, c.Result)
	assert.Contains(t, c.Rule, "core.fsmonitor")
	write(wt+"/.git", "not a gitdir line\n")
	assert.Equal(t, CommandCheckResultDangerous, classify(wt, "git", "diff").Result)

	// No .git, but HEAD, objects, refs and config at the sandbox root:
	// git takes the sandbox itself as a bare repository.
	bare := newSandbox(t)
	require.NoError(t, os.RemoveAll(bare+"/.git"))
	assert.Equal(t, CommandCheckResultSafe, classify(bare, "git", "status").Result)
	write(bare+"/HEAD", "ref: refs/heads/main\n")
	write(bare+"/config", "[core]\n\tfsmonitor = ./x\n")
	assert.Equal(t, CommandCheckResultSafe, classify(bare, "git", "status").Result, "no objects, no refs: not a repository for git")
	gitLayout(bare)
	c = classify(bare, "git", "status")
	assert.Equal(t, CommandCheckResultDangerous, c.Result)
	assert.Contains(t, c.Rule, "core.fsmonitor")
}
