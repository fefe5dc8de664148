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
		{"git", "log", "-p"}, {"git", "show", "HEAD"}, {"git", "diff", "HEAD~1"},
		{"git", "cat-file", "-p", "HEAD"}, {"git", "log", "-p", "--", "a.txt"},
	}
	// git diff without revisions compares the index with the work tree,
	// which holds the same .env here, and git diff --cached HEAD with the
	// index: they print nothing of it (see TestGitDiffWorkTree for the
	// cases where they would).
	namesOnly := [][]string{
		{"git", "log", "--oneline"}, {"git", "log", "--stat"}, {"git", "diff", "--stat", "HEAD~1"},
		{"git", "diff", "--name-only", "HEAD~1"},
		{"git", "cat-file", "-t", "HEAD"}, {"git", "status"}, {"git", "ls-files"},
		{"git", "add", "a.txt"}, {"git", "add", "gone.txt"}, // a path naming nothing on disk stages a removal
		{"git", "diff"},
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

// TestRepositoryStubPolicy: a directory in the sandbox shaped like a git
// directory (HEAD, and a commondir or an objects link leading to a
// repository outside) is refused for reading commands too: git -C stub
// log -p prints the other repository's history (verified with git 2.39).
func TestRepositoryStubPolicy(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: these cases need real repositories")
	}
	other := t.TempDir()
	gitIn(t, other, "init", "-q", "-b", "main")
	require.NoError(t, os.WriteFile(filepath.Join(other, "f.txt"), []byte("outside\n"), 0o644))
	gitIn(t, other, "add", "f.txt")
	gitIn(t, other, "commit", "-q", "-m", "one")
	for _, c := range []struct {
		name  string
		setup func(stub string)
	}{
		{"commondir", func(stub string) {
			require.NoError(t, os.WriteFile(filepath.Join(stub, "commondir"), []byte(filepath.Join(other, ".git")+"\n"), 0o644))
		}},
		{"objects link", func(stub string) {
			require.NoError(t, os.MkdirAll(filepath.Join(stub, "refs/heads"), 0o755))
			require.NoError(t, os.Symlink(filepath.Join(other, ".git/objects"), filepath.Join(stub, "objects")))
			head, err := os.ReadFile(filepath.Join(other, ".git/refs/heads/main"))
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(stub, "refs/heads/main"), head, 0o644))
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			sb := newSandbox(t)
			stub := filepath.Join(sb, "stub")
			require.NoError(t, os.MkdirAll(stub, 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(stub, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644))
			c.setup(stub)
			a, ch, err := NewSandboxAuthorizer(NewShellAllowedCommands())
			require.NoError(t, err)
			defer a.Close()
			for _, argv := range [][]string{{"git", "-C", "stub", "log", "-p"}, {"git", "-C", "stub", "log", "--oneline"}, {"git", "-C", "stub", "show", "HEAD"}} {
				ok, err := autoAllowed(t, a, ch, sb, argv)
				assert.False(t, ok, "%q: %v", argv, err)
			}
			ok, err := autoAllowed(t, a, ch, sb, []string{"git", "log", "--oneline"})
			assert.True(t, ok, "the sandbox's own repository is not affected: %v", err)
		})
	}
}

// TestGitDiffWorkTree: git diff without revisions prints a tracked file
// only where the work tree differs from the index (git diff --cached:
// where HEAD differs from the index), so a tracked protected file
// (.env.example) that is unchanged lets it run; a change, a CR, an
// attributes file naming a filter, an intent-to-add entry, copy detection
// from unchanged files or a revision operand makes it ask (each verified
// against git's own output).
func TestGitDiffWorkTree(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: these cases need real repositories")
	}
	for _, c := range []struct {
		name    string
		setup   func(t *testing.T, sb string)
		argv    []string
		allowed bool
	}{
		{"unchanged", nil, []string{"git", "diff"}, true},
		{"unchanged, a path operand", nil, []string{"git", "diff", "a.txt"}, true},
		{"unchanged, diff-files -p", nil, []string{"git", "diff-files", "-p"}, true},
		{"a revision operand", nil, []string{"git", "diff", "HEAD"}, false},
		{"a missing operand may be a revision", nil, []string{"git", "diff", "main"}, false},
		{"--cached, nothing protected staged", func(t *testing.T, sb string) { gitIn(t, sb, "add", "a.txt") }, []string{"git", "diff", "--cached"}, true},
		{"--staged --stat", nil, []string{"git", "diff", "--staged", "--stat"}, true},
		{"--cached, a protected file staged", func(t *testing.T, sb string) {
			require.NoError(t, os.WriteFile(filepath.Join(sb, ".env.example"), []byte("KEY=real\n"), 0o644))
			gitIn(t, sb, "add", ".env.example")
		}, []string{"git", "diff", "--cached"}, false},
		{"--cached, a protected file unstaged from HEAD", func(t *testing.T, sb string) {
			gitIn(t, sb, "rm", "-q", "--cached", ".env.example")
		}, []string{"git", "diff", "--cached"}, false},
		{"--cached with a revision", nil, []string{"git", "diff", "--cached", "HEAD"}, false},
		{"copies from unchanged files", func(t *testing.T, sb string) {
			require.NoError(t, os.WriteFile(filepath.Join(sb, "foo.txt"), []byte("KEY=other\n"), 0o644))
			gitIn(t, sb, "add", "-N", "foo.txt")
		}, []string{"git", "diff", "-C", "--find-copies-harder"}, false},
		{"-C twice", nil, []string{"git", "diff", "-C", "-C"}, false},
		{"changed", func(t *testing.T, sb string) {
			require.NoError(t, os.WriteFile(filepath.Join(sb, ".env.example"), []byte("KEY=real\n"), 0o644))
		}, []string{"git", "diff"}, false},
		{"staged with a CR", func(t *testing.T, sb string) {
			require.NoError(t, os.WriteFile(filepath.Join(sb, ".env.example"), []byte("KEY=x\r\n"), 0o644))
			gitIn(t, sb, "add", ".env.example")
		}, []string{"git", "diff"}, false},
		{"an attributes file naming a filter", func(t *testing.T, sb string) {
			require.NoError(t, os.WriteFile(filepath.Join(sb, ".gitattributes"), []byte("*.example filter=x\n"), 0o644))
		}, []string{"git", "diff"}, false},
		{"intent to add", func(t *testing.T, sb string) {
			gitIn(t, sb, "rm", "-q", "--cached", ".env.example")
			gitIn(t, sb, "add", "-N", "-f", ".env.example")
		}, []string{"git", "diff"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			sb := newSandbox(t)
			require.NoError(t, os.RemoveAll(filepath.Join(sb, ".git")))
			require.NoError(t, os.WriteFile(filepath.Join(sb, ".env.example"), []byte("KEY=changeme\n"), 0o644))
			gitIn(t, sb, "init", "-q", "-b", "main")
			gitIn(t, sb, "add", "-f", ".env.example", "a.txt")
			gitIn(t, sb, "commit", "-q", "-m", "one")
			require.NoError(t, os.WriteFile(filepath.Join(sb, "a.txt"), []byte("changed\n"), 0o644))
			if c.setup != nil {
				c.setup(t, sb)
			}
			a, ch, err := NewSandboxAuthorizer(NewShellAllowedCommands())
			require.NoError(t, err)
			defer a.Close()
			ok, err := autoAllowed(t, a, ch, sb, c.argv)
			assert.Equal(t, c.allowed, ok, "%q: %v", c.argv, err)
		})
	}
}
