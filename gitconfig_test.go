package sandboxauth

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGitConfigScan(t *testing.T) {
	cases := []struct {
		text    string
		setting string // "" when nothing runs
		ok      bool
	}{
		{"[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n", "", true},
		{"[core]\n\tfsmonitor = sh p.sh\n", "core.fsmonitor", true},
		{"[core]\n\tfsmonitor = false\n", "", true},
		{"[core]\n\tfsmonitor = true\n", "", true}, // git's own daemon
		{"[CORE]\n\tFSMonitor = ./x\n", "core.fsmonitor", true},
		{"[core] fsmonitor = ./x\n", "core.fsmonitor", true}, // a key on the header line
		{"[core]\n\tpager = sh -c 'id'\n", "core.pager", true},
		{"[core]\n\tworktree = /home\n", "core.worktree", true},
		{"[diff]\n\texternal = ./d.sh\n", "diff.external", true},
		{"[diff \"bin\"]\n\ttextconv = ./t.sh\n", "diff.bin.textconv", true},
		{"[diff.bin]\n\ttextconv = ./t.sh\n", "diff.bin.textconv", true},
		{"[diff]\n\tcolorMoved = zebra\n", "", true},
		{"[filter \"x\"]\n\tclean = ./c.sh\n", "filter.x.clean", true},
		{"[filter \"lfs\"]\n\tprocess = git-lfs filter-process\n\trequired = true\n", "", true},
		{"[include]\n\tpath = ../cfg\n", "include.path", true},
		{"[includeIf \"gitdir:/\"]\n\tpath = x\n", "includeif.gitdir:/.path", true},
		{"[pager]\n\tlog = ./p.sh\n", "pager.log", true},
		{"[gpg]\n\tprogram = ./g.sh\n", "gpg.program", true},
		{"[log]\n\tshowSignature\n", "log.showsignature", true},
		{"[remote \"origin\"]\n\turl = https://example.com/x.git\n# fsmonitor = x\n; pager = y\n", "", true},
		{"[core\n\tfsmonitor = x\n", "", false},
		{"[diff \"a]b\"] command = ./pwn.sh\n", "diff.a]b.command", true}, // ] inside a quoted subsection
		{"[diff \"a\\\"]b\"]\n\ttextconv = ./t.sh\n", "diff.a\\\"]b.textconv", true},
		{"[filter \"lfs\"]\n\tclean = git-lfs clean -- %f || ./pwn.sh\n", "filter.lfs.clean", true},
		{"[filter \"lfs\"]\n\tclean = git-lfs clean -- %f\n\tsmudge = git-lfs smudge -- %f\n", "", true},
		{"[core]\n\thooksPath = hooks\n", "core.hookspath", true},
		{"[alias]\n\tx = \"!sh \\\n-c id\"\n", "", false}, // a continuation line
	}
	for _, c := range cases {
		setting, found, ok := gitConfigScan([]byte(c.text), nil)
		assert.Equal(t, c.ok, ok, "%q", c.text)
		assert.Equal(t, c.setting != "", found, "%q", c.text)
		assert.Equal(t, c.setting, setting, "%q", c.text)
	}
}

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
	write(main+"/.git/config", "[diff]\n\texternal = ./d.sh\n")
	write(main+"/.git/worktrees/wt/commondir", "../..\n")
	write(wt+"/.git", "gitdir: "+main+"/.git/worktrees/wt\n")
	c := classify(wt, "git", "diff")
	assert.Equal(t, CommandCheckResultDangerous, c.Result)
	assert.Contains(t, c.Rule, "diff.external")
	write(main+"/.git/config", "[core]\n\tbare = false\n")
	assert.Equal(t, CommandCheckResultSafe, classify(wt, "git", "diff").Result)
	// config.worktree counts once extensions.worktreeConfig is on.
	write(main+"/.git/worktrees/wt/config.worktree", "[core]\n\tfsmonitor = ./m.sh\n")
	assert.Equal(t, CommandCheckResultSafe, classify(wt, "git", "diff").Result)
	write(main+"/.git/config", "[extensions]\n\tworktreeConfig = true\n")
	c = classify(wt, "git", "diff")
	assert.Equal(t, CommandCheckResultDangerous, c.Result)
	assert.Contains(t, c.Rule, "core.fsmonitor")
	write(wt+"/.git", "not a gitdir line\n")
	assert.Equal(t, CommandCheckResultDangerous, classify(wt, "git", "diff").Result)

	// No .git, but HEAD and config at the sandbox root: git would take the
	// sandbox itself as a bare repository.
	bare := newSandbox(t)
	require.NoError(t, os.RemoveAll(bare+"/.git"))
	assert.Equal(t, CommandCheckResultSafe, classify(bare, "git", "status").Result)
	write(bare+"/HEAD", "ref: refs/heads/main\n")
	write(bare+"/config", "[core]\n\tfsmonitor = ./x\n")
	c = classify(bare, "git", "status")
	assert.Equal(t, CommandCheckResultDangerous, c.Result)
	assert.Contains(t, c.Rule, "bare repository")
}
