package sandboxauth

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGitContentsPolicy: under the Sandbox policy, git forms that print
// file contents run without asking while neither the index nor the history
// holds a protected path, and are asked about once either does; forms that
// print names, counts or messages only run either way.
func TestGitContentsPolicy(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: these cases need real repositories")
	}
	contents := [][]string{
		{"git", "log", "-p"}, {"git", "show", "HEAD"}, {"git", "diff", "HEAD~1"}, {"git", "diff", "--cached"},
		{"git", "diff"}, {"git", "cat-file", "-p", "HEAD"}, {"git", "log", "-p", "--", "a.txt"},
	}
	namesOnly := [][]string{
		{"git", "log", "--oneline"}, {"git", "log", "--stat"}, {"git", "diff", "--stat", "HEAD~1"},
		{"git", "diff", "--name-only", "HEAD~1"},
		{"git", "cat-file", "-t", "HEAD"}, {"git", "status"}, {"git", "ls-files"},
	}
	for _, c := range []struct {
		name      string
		setup     func(t *testing.T, sb string)
		protected bool // the index or the history holds .env
	}{
		{"clean history", nil, false},
		{"clean history, packed", func(t *testing.T, sb string) { gitIn(t, sb, "gc", "-q") }, false},
		{".env committed and removed", func(t *testing.T, sb string) {
			require.NoError(t, os.WriteFile(filepath.Join(sb, ".env"), []byte("K=1\n"), 0o644))
			gitIn(t, sb, "add", "-f", ".env")
			gitIn(t, sb, "commit", "-q", "-m", "secret")
			gitIn(t, sb, "rm", "-q", "--cached", ".env")
			gitIn(t, sb, "commit", "-q", "-m", "forget")
		}, true},
		{".env committed and removed, packed", func(t *testing.T, sb string) {
			require.NoError(t, os.WriteFile(filepath.Join(sb, "sub", ".env.local"), []byte("K=1\n"), 0o644))
			gitIn(t, sb, "add", "-f", "sub/.env.local")
			gitIn(t, sb, "commit", "-q", "-m", "secret")
			gitIn(t, sb, "rm", "-q", "--cached", "sub/.env.local")
			gitIn(t, sb, "commit", "-q", "-m", "forget")
			gitIn(t, sb, "gc", "-q")
		}, true},
		{".env staged only", func(t *testing.T, sb string) {
			require.NoError(t, os.WriteFile(filepath.Join(sb, ".env"), []byte("K=1\n"), 0o644))
			gitIn(t, sb, "add", "-f", ".env")
		}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			sb := newSandbox(t)
			require.NoError(t, os.RemoveAll(filepath.Join(sb, ".git")))
			gitIn(t, sb, "init", "-q", "-b", "main")
			gitIn(t, sb, "add", "a.txt", "main.go")
			gitIn(t, sb, "commit", "-q", "-m", "one")
			require.NoError(t, os.WriteFile(filepath.Join(sb, "a.txt"), []byte("y\n"), 0o644))
			gitIn(t, sb, "commit", "-q", "-a", "-m", "two")
			if c.setup != nil {
				c.setup(t, sb)
			}
			a, ch, err := NewSandboxAuthorizer(NewShellAllowedCommands())
			require.NoError(t, err)
			defer a.Close()
			for _, argv := range contents {
				ok, err := autoAllowed(t, a, ch, sb, argv)
				assert.Equal(t, !c.protected, ok, "%q: %v", argv, err)
			}
			for _, argv := range namesOnly {
				ok, err := autoAllowed(t, a, ch, sb, argv)
				assert.True(t, ok, "%q: %v", argv, err)
			}
		})
	}
}
