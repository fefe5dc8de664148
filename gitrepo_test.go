package sandboxauth

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPlantedGitRepository: a repository written into the sandbox (a bare
// one, a nested .git) can name programs to run in its config, so a git
// command that would use it is not safe; a gitdir file naming no repository
// is not understood; a .git directory that git does not take as a
// repository (no HEAD, objects, refs) is passed over, as git passes it over.
func TestPlantedGitRepository(t *testing.T) {
	sb := newSandbox(t)
	bare := filepath.Join(sb, "evil")
	for _, d := range []string{"objects", "refs", "sub/deeper"} {
		require.NoError(t, os.MkdirAll(filepath.Join(bare, d), 0o755))
	}
	require.NoError(t, os.WriteFile(filepath.Join(bare, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(bare, "config"), []byte("[core]\n\tfsmonitor = sh p.sh\n"), 0o644))
	nested := filepath.Join(sb, "nested", ".git")
	for _, d := range []string{"objects", "refs"} {
		require.NoError(t, os.MkdirAll(filepath.Join(nested, d), 0o755))
	}
	require.NoError(t, os.WriteFile(filepath.Join(nested, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(nested, "config"), []byte("[diff]\n\texternal = ./d.sh\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(sb, "hollow", ".git"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(sb, "linked"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(sb, "linked", ".git"), []byte("gitdir: /elsewhere\n"), 0o644))

	s := NewShellAllowedCommands()
	s.SetSplitCompound(true)
	cases := []struct {
		cwd  string
		argv []string
		safe bool
	}{
		{sb, []string{"git", "status"}, true},
		{sb + "/internal/config", []string{"git", "log", "--oneline"}, true},
		{sb, []string{"git", "-C", "internal", "status"}, true},
		{sb, []string{"git", "-C", "evil", "status"}, false},
		{bare, []string{"git", "status"}, false},
		{bare + "/sub/deeper", []string{"git", "diff"}, false},
		{sb, []string{"bash", "-c", "cd evil && git status"}, false},
		{sb, []string{"git", "-C", "nested", "log"}, false},
		{sb + "/nested", []string{"git", "status"}, false},
		{sb, []string{"git", "-C", "linked", "status"}, false},
		{sb, []string{"git", "-C", "hollow", "status"}, true},
	}
	for _, c := range cases {
		got, err := s.Classify(CommandSite{SandboxDir: sb, Cwd: c.cwd}, c.argv)
		require.NoError(t, err)
		if c.safe {
			assert.Equal(t, CommandCheckResultSafe, got.Result, "%q in %s: %s", c.argv, c.cwd, got.Rule)
		} else {
			assert.NotEqual(t, CommandCheckResultSafe, got.Result, "%q in %s", c.argv, c.cwd)
		}
	}
	// Writes into .git in any letter case count as writes into .git.
	for _, argv := range [][]string{{"tee", ".GIT/config"}, {"touch", ".Git/hooks/pre-commit"}, {"tee", "sub/.git/config"}} {
		got, err := s.Classify(CommandSite{SandboxDir: sb}, argv)
		require.NoError(t, err)
		assert.NotEqual(t, CommandCheckResultSafe, got.Result, "%q", argv)
	}
}

func TestTarRemoteArchive(t *testing.T) {
	s := NewShellAllowedCommands()
	sb := newSandbox(t)
	for _, argv := range [][]string{
		{"tar", "-tf", "attacker.example:x.tar"},
		{"tar", "tvf", "user@evil.example:/x.tar"},
		{"tar", "-tzf", "git@evil.example:x.tgz"},
		{"tar", "--list", "--file=host:x.tar"},
	} {
		got, err := s.Classify(CommandSite{SandboxDir: sb}, argv)
		require.NoError(t, err)
		assert.NotEqual(t, CommandCheckResultSafe, got.Result, "%q", argv)
	}
	got, err := s.Classify(CommandSite{SandboxDir: sb}, []string{"tar", "-tf", "a.tar"})
	require.NoError(t, err)
	assert.Equal(t, CommandCheckResultSafe, got.Result, got.Rule)
}
