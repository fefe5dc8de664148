package sandboxauth

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gitIn runs git in dir with no user or system configuration.
func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@example.com")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %v: %s", args, out)
}

// TestRepositoryTrustRegressions: the repository-trust families, end to
// end through Classify on real repositories: each command is safe before
// the setup a model could have made (or a project could carry), and not
// safe after it. (git branch x and git tag v1 create refs and are not
// safe by their specs; their hooks and stores are covered in
// internal/repotrust.)
func TestRepositoryTrustRegressions(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: these cases need real repositories")
	}
	add := func(p, text string, mode os.FileMode) func(t *testing.T, sb string) string {
		return func(t *testing.T, sb string) string {
			full := filepath.Join(sb, p)
			require.NoError(t, os.MkdirAll(filepath.Dir(full), 0o755))
			f, err := os.OpenFile(full, os.O_CREATE|os.O_APPEND|os.O_WRONLY, mode)
			require.NoError(t, err)
			_, err = f.WriteString(text)
			require.NoError(t, err)
			require.NoError(t, f.Close())
			require.NoError(t, os.Chmod(full, mode))
			return sb
		}
	}
	cases := []struct {
		name  string
		argv  []string
		setup func(t *testing.T, sb string) (sandbox string)
		rule  string
	}{
		{"BOM hides core.fsmonitor", []string{"git", "status"}, func(t *testing.T, sb string) string {
			b, err := os.ReadFile(sb + "/.git/config")
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(sb+"/.git/config", append([]byte("\xef\xbb\xbf"), append(b, "\tfsmonitor = ./m.sh\n"...)...), 0o644))
			return sb
		}, "core.fsmonitor"},
		{"commondir", []string{"git", "log"}, func(t *testing.T, sb string) string {
			other := sb + "/store.git"
			require.NoError(t, os.MkdirAll(other, 0o755))
			gitIn(t, other, "init", "-q", "--bare")
			add("store.git/config", "[core]\n\tpager = ./p.sh\n", 0o644)(t, sb)
			return add(".git/commondir", "../store.git\n", 0o644)(t, sb)
		}, "core.pager"},
		{"alternates", []string{"git", "log"}, add(".git/objects/info/alternates", "/home/someone/r/.git/objects\n", 0o644), "alternates"},
		{"promisor", []string{"git", "log", "-p"}, add(".git/config", "[remote \"origin\"]\n\turl = https://example.com/x\n\tpromisor = true\n", 0o644), "promisor"},
		{"submodule config", []string{"git", "status"}, add(".git/modules/lib/config", "[core]\n\tfsmonitor = ./m.sh\n", 0o644), "core.fsmonitor"},
		{"man.viewer", []string{"git", "help", "log"}, add(".git/config", "[man]\n\tviewer = v\n[man \"v\"]\n\tcmd = ./v.sh\n", 0o644), "man.viewer"},
		{"blame.ignoreRevsFile", []string{"git", "blame", "a.txt"}, add(".git/config", "[blame]\n\tignoreRevsFile = /etc/shadow\n", 0o644), "blame.ignorerevsfile"},
		{"post-index-change hook", []string{"git", "add", "a.txt"}, add(".git/hooks/post-index-change", "#!/bin/sh\n", 0o755), "post-index-change"},
		{"sandbox inside a repository: git add", []string{"git", "add", "a.txt"}, func(t *testing.T, sb string) string {
			require.NoError(t, os.MkdirAll(sb+"/project", 0o755))
			require.NoError(t, os.WriteFile(sb+"/project/a.txt", []byte("a\n"), 0o644))
			return sb + "/project"
		}, "outside the sandbox"},
		{"linked worktree", []string{"git", "add", "a.txt"}, func(t *testing.T, sb string) string {
			wt := filepath.Join(t.TempDir(), "wt")
			gitIn(t, sb, "worktree", "add", "-q", wt)
			wt, err := filepath.EvalSymlinks(wt)
			require.NoError(t, err)
			return wt
		}, "outside the sandbox"},
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
			before, err := s.Classify(CommandSite{SandboxDir: sb}, c.argv)
			require.NoError(t, err)
			require.Equal(t, CommandCheckResultSafe, before.Result, "%q before the setup: %s", c.argv, before.Rule)

			inner := c.setup(t, sb)
			after, err := s.Classify(CommandSite{SandboxDir: inner}, c.argv)
			require.NoError(t, err)
			assert.Equal(t, CommandCheckResultDangerous, after.Result, "%q after the setup: %s", c.argv, after.Rule)
			assert.Contains(t, after.Rule+" "+after.Reason, c.rule, "%q", c.argv)
		})
	}
}
