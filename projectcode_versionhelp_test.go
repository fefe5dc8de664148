package sandboxauth

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/internal/programs"
)

// TestLoneVersionOrHelpRunsProjectCodeForReal: the installed pytest,
// flake8 and pylint run the project's code (conftest.py, local plugins,
// the rcfile's init-hook) for a lone --version or --help, and
// RunsProjectCode says so. Each is run, unconfined, in a throwaway
// project whose code only writes a marker there; a missing program is
// skipped (CI installs Debian's python3-pytest, flake8 and pylint).
func TestLoneVersionOrHelpRunsProjectCodeForReal(t *testing.T) {
	for _, args := range [][]string{{"pytest", "--version"}, {"pytest", "--help"}, {"flake8", "--version"}, {"flake8", "--help"}, {"pylint", "--help"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			path, err := exec.LookPath(args[0])
			if err != nil {
				t.Skipf("%s is not installed (Debian: python3-pytest, flake8, pylint)", args[0])
			}
			dir := t.TempDir()
			marker := filepath.Join(dir, "ran")
			code := `open("` + marker + `", "w").write("ran")`
			files := map[string]string{
				"conftest.py": code + "\n",
				".flake8":     "[flake8:local-plugins]\nextension =\n    ABC = evilplug:Plugin\npaths = .\n",
				"evilplug.py": code + "\nclass Plugin:\n    name = \"evil\"\n    version = \"1\"\n    def __init__(self, tree): pass\n    def run(self): return iter(())\n",
				".pylintrc":   "[MAIN]\ninit-hook='" + code + "'\n",
			}
			for name, body := range files {
				require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
			}
			cmd := exec.Command(path, args[1:]...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
			out, _ := cmd.CombinedOutput()
			assert.FileExists(t, marker, "%v did not run the project's code: %.300s", args, out)
			what, known := programs.RunsProjectCode(args[0], args[1:])
			assert.True(t, known)
			assert.NotEmpty(t, what, "%v runs the project's code, yet is not project code", args)
		})
	}
}
