package sandboxauth

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadGitConfigPaths: the hooks directory and the includes that
// readGitConfigPaths finds are those git itself reads from the same text
// (asked with git config --file), whatever form the text takes.
func TestReadGitConfigPaths(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed: the readings cannot be compared with git's")
	}
	for _, text := range []string{
		"[core]\n\thooksPath = hooks\n[include]\n\tpath = a.cfg\n",
		"[include] path = one-line.cfg\n[core] hooksPath = one-line-hooks\n",
		"[include]path=tight.cfg\n[core]hookspath=tight-hooks",
		"[Include]\n\tPATH = upper.cfg\n[CORE]\n\tHooksPath = upper-hooks\n",
		"[include]\n\tpath = \"quoted name.cfg\"\n",
		"[include]\n\tpath = a\\\nb.cfg\n",
		"[include]\n\tpath = x.cfg ; a comment\n[core]\n\thooksPath = h # another\n",
		"[includeIf \"gitdir:~/\"]\n\tpath = cond.cfg\n",
		"[includeIf \"onbranch:main\"] path = branch.cfg\n",
		"\ufeff[core]\n\thooksPath = bom-hooks\n",
		"[core]\r\n\thooksPath = crlf-hooks\r\n",
		"[core]\n\thooksPath = first\n\thooksPath = last\n",
		"[include]\n\tpath = \"a\\\"q.cfg\"\n",
		"# [core] hooksPath = commented\n[user]\n\tname = x\n",
	} {
		dir := t.TempDir()
		config := filepath.Join(dir, "config")
		require.NoError(t, os.WriteFile(config, []byte(text), 0o644))
		ask := func(key string, all bool) []string {
			args := []string{"config", "--file", config, "--no-includes", "--get", key}
			if all {
				args[4] = "--get-all"
			}
			cmd := exec.Command(git, args...)
			cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
			out, err := cmd.Output()
			if err != nil {
				var exit *exec.ExitError
				require.ErrorAs(t, err, &exit, "%q", text)
				return nil // not set
			}
			return strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		}
		got := readGitConfigPaths(config)
		hooks := ask("core.hooksPath", false)
		if len(hooks) == 0 {
			assert.Empty(t, got.hooksPath, "%q", text)
		} else {
			assert.Equal(t, hooks[0], got.hooksPath, "%q", text)
		}
		var includes []string
		includes = append(includes, ask("include.path", true)...)
		cmd := exec.Command(git, "config", "--file", config, "--no-includes", "--get-regexp", `^includeif\..*\.path$`)
		if out, err := cmd.Output(); err == nil {
			for _, line := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
				_, v, _ := strings.Cut(line, " ")
				includes = append(includes, v)
			}
		}
		assert.ElementsMatch(t, includes, got.includes, "%q", text)
	}
}
