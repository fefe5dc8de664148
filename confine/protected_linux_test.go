package confine

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gitRepo makes a repository in dir with one commit and a pre-commit hook
// that leaves a mark inside the repository, and returns git's environment
// for it (an author, no user or system configuration).
func gitRepo(t *testing.T, dir string) []string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	env := append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"add", "."},
		{"commit", "-qm", "first"},
	} {
		if args[0] == "add" {
			require.NoError(t, os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644))
		}
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %v: %s", args, out)
	}
	hook := filepath.Join(dir, ".git", "hooks", "pre-commit")
	require.NoError(t, os.WriteFile(hook, []byte("#!/bin/sh\necho ran >> \"$(git rev-parse --show-toplevel)/hook-ran\"\n"), 0o755))
	return env
}

// repoReadOnly is what a policy keeps read-only for a repository at sb.
func repoReadOnly(sb string) []string {
	return []string{
		filepath.Join(sb, ".git", "config"), filepath.Join(sb, ".git", "hooks"),
		filepath.Join(sb, ".git", "commondir"), filepath.Join(sb, ".vscode"),
		filepath.Join(sb, ".github", "hooks"),
	}
}

// TestReadOnlyPaths: the protected files of a repository and the editor's
// settings cannot be changed, replaced, moved away or created, existing or
// not, while git's everyday work (add, commit running the repository's own
// hook, a new branch, stash) goes on; placeholders are gone afterwards.
func TestReadOnlyPaths(t *testing.T) {
	sb, _, p := dirs(t)
	env := gitRepo(t, sb)
	p.ReadOnly = repoReadOnly(sb)
	p.Placeholders = map[string]string{filepath.Join(sb, ".git", "commondir"): ".\n"}
	config, err := os.ReadFile(filepath.Join(sb, ".git", "config"))
	require.NoError(t, err)
	hooks := func() []string {
		e, err := os.ReadDir(filepath.Join(sb, ".git", "hooks"))
		require.NoError(t, err)
		var names []string
		for _, x := range e {
			names = append(names, x.Name())
		}
		return names
	}
	before := hooks()

	for _, tc := range []struct{ name, script string }{
		{"fsmonitor in the config", "git config core.fsmonitor 'touch /tmp/x'"},
		{"append to the config", "printf '[core]\\n\\tfsmonitor = evil\\n' >> .git/config"},
		{"replace the config by rename", "cp .git/config c && echo '[core] fsmonitor=evil' >> c && mv -f c .git/config"},
		{"remove the config", "rm -f .git/config"},
		{"a new hook", "printf '#!/bin/sh\\nevil\\n' > .git/hooks/post-checkout && chmod +x .git/hooks/post-checkout"},
		{"change the existing hook", "echo evil >> .git/hooks/pre-commit"},
		{"remove the hooks", "rm -rf .git/hooks"},
		{"move the repository away", "mv .git .git-old"},
		{"move the hooks away", "mv .git/hooks .git/hooks-old"},
		{"a commondir", "echo /elsewhere > .git/commondir"},
		{"editor tasks", "mkdir -p .vscode && echo '{}' > .vscode/tasks.json"},
		{"move the editor placeholder away", "mv .vscode v2 && mkdir .vscode && echo x > .vscode/tasks.json"},
		{"hooks of an agent", "mkdir -p .github/hooks && echo x > .github/hooks/h.json"},
		{"replace the parent of a protected path", "mv .github g2 && mkdir -p .github/hooks && echo x > .github/hooks/h.json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command("/bin/sh", "-c", tc.script)
			cmd.Dir, cmd.Env = sb, env
			out, err := runCmd(t, cmd, p)
			require.Error(t, err, "it worked: %s", out)
			got, rerr := os.ReadFile(filepath.Join(sb, ".git", "config"))
			require.NoError(t, rerr)
			require.Equal(t, string(config), string(got))
			require.Equal(t, before, hooks())
			require.NoFileExists(t, filepath.Join(sb, ".git", "commondir"), "the placeholder must be gone")
			require.NoDirExists(t, filepath.Join(sb, ".git-old"))
			require.NoDirExists(t, filepath.Join(sb, ".vscode"), "the placeholder must be gone")
			require.NoDirExists(t, filepath.Join(sb, "v2"))
			require.NoDirExists(t, filepath.Join(sb, ".github"))
		})
	}

	// Everyday git work still works, the repository's own hook runs
	// (confined), and nothing is left behind.
	cmd := exec.Command("/bin/sh", "-c", `set -e
rm -f c
echo b > b.txt
git add b.txt
git commit -qm second
git checkout -qb topic
echo c > a.txt
git stash -q
git checkout -q main
git stash pop -q
git status --short`)
	cmd.Dir, cmd.Env = sb, env
	out, err := runCmd(t, cmd, p)
	require.NoError(t, err, out)
	assert.Equal(t, " M a.txt\n?? hook-ran\n", out)
	assert.FileExists(t, filepath.Join(sb, "hook-ran"))
	assert.NoDirExists(t, filepath.Join(sb, ".vscode"))
	assert.NoDirExists(t, filepath.Join(sb, ".github"))
	got, err := os.ReadFile(filepath.Join(sb, ".git", "config"))
	require.NoError(t, err)
	assert.Equal(t, string(config), string(got))
}

// TestPlaceholdersOutliveConcurrentRuns: a placeholder stays while any
// confined command of the sandbox runs, and goes with the last.
func TestPlaceholdersOutliveConcurrentRuns(t *testing.T) {
	sb, _, p := dirs(t)
	p.ReadOnly = []string{filepath.Join(sb, ".vscode")}
	long := exec.Command("/bin/sh", "-c", "read -r _ || true")
	long.Dir = sb
	stdin, err := long.StdinPipe()
	require.NoError(t, err)
	require.NoError(t, Start(long, p))
	require.DirExists(t, filepath.Join(sb, ".vscode"), "the placeholder while a command runs")
	out, err := sh(t, p, sb, "mkdir .vscode/x")
	require.Error(t, err, out)
	require.DirExists(t, filepath.Join(sb, ".vscode"), "the short run ended, the long one still relies on it")
	stdin.Close()
	require.NoError(t, long.Wait())
	require.NoDirExists(t, filepath.Join(sb, ".vscode"), "the last run removes it")
}

// TestReadOnlyPathsExisting: an existing protected directory and file keep
// their contents, and a file the user keeps there is not removed.
func TestReadOnlyPathsExisting(t *testing.T) {
	sb, _, p := dirs(t)
	require.NoError(t, os.MkdirAll(filepath.Join(sb, ".vscode"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(sb, ".vscode", "settings.json"), []byte("{}"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(sb, ".mcp.json"), []byte("{}"), 0o644))
	p.ReadOnly = []string{filepath.Join(sb, ".vscode"), filepath.Join(sb, ".mcp.json")}
	for _, script := range []string{
		"echo '{\"x\":1}' > .vscode/settings.json",
		"echo x > .vscode/tasks.json",
		"rm -rf .vscode",
		"echo '{\"mcpServers\":{}}' > .mcp.json",
		"rm .mcp.json",
		"mv .mcp.json m",
	} {
		out, err := sh(t, p, sb, script)
		require.Error(t, err, "%s: %s", script, out)
	}
	b, err := os.ReadFile(filepath.Join(sb, ".vscode", "settings.json"))
	require.NoError(t, err)
	assert.Equal(t, "{}", string(b))
	b, err = os.ReadFile(filepath.Join(sb, ".mcp.json"))
	require.NoError(t, err)
	assert.Equal(t, "{}", string(b))
	entries, err := os.ReadDir(filepath.Join(sb, ".vscode"))
	require.NoError(t, err)
	assert.Len(t, entries, 1)
	assert.NoFileExists(t, filepath.Join(sb, "m"))
	// Reads stay possible.
	out, err := sh(t, p, sb, "cat .mcp.json .vscode/settings.json")
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(out, "{}{}"), out)
}

// runCmd runs cmd confined by p and returns its combined output.
func runCmd(t *testing.T, cmd *exec.Cmd, p Policy) (string, error) {
	t.Helper()
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	err := Run(cmd, p)
	require.NotErrorIs(t, err, ErrUnavailable)
	return out.String(), err
}
