package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHookConfinePathDirsEverywhere: the cases found attacking round
// 25b's fix of the PATH shadows, each run through the hook's rewrite as
// the agent runs it: a git the confined command plants in a directory of
// the project that is on the user's PATH from some working directory, or
// once direnv loads .envrc, is moved aside after the run, so that the
// user's later git there does not run it unconfined. Each escaped before
// the fix (verified with the hook's rewrite run by bash as root).
func TestHookConfinePathDirsEverywhere(t *testing.T) {
	for _, tc := range []struct {
		name    string
		entry   string // the PATH entry the agent and the user have ("" for none)
		envrc   string // the project's .envrc ("" for none)
		pkgrc   string // packages/api/.envrc ("" for none)
		runIn   string // the agent's working directory
		plantIn string // where the command plants git
		laterIn string // the user's later working directory ("..": above the project)
		later   string // the user's later PATH entry, "P/" the project
		extra   string // more of the command's script
	}{
		{name: "dot, planted deep", entry: ".", runIn: ".", plantIn: "a/b/c", laterIn: "a/b/c"},
		{name: "tilde-plus bin from a subdirectory", entry: "~+/bin", runIn: "sub", plantIn: "bin", laterIn: "."},
		{name: "entry through the project from above it", entry: "project/bin", runIn: ".", plantIn: "bin", laterIn: ".."},
		{name: "dot-bin a link the command made", entry: "./bin", runIn: "sub", plantIn: "sub/real", laterIn: ".", extra: "cd .. && ln -s sub/real bin\n"},
		{name: "envrc PATH_add of a command substitution", envrc: `PATH_add "$(pwd)/tools"`, runIn: ".", plantIn: "tools", laterIn: ".", later: "P/tools"},
		{name: "envrc PATH_add of a pattern", envrc: "PATH_add tools/*", runIn: ".", plantIn: "tools/x", laterIn: ".", later: "P/tools/x"},
		{name: "envrc PATH_add of a brace expansion", envrc: "PATH_add {tools,bin}", runIn: ".", plantIn: "tools", laterIn: ".", later: "P/tools"},
		{name: "a package's envrc", pkgrc: "PATH_add bin", runIn: ".", plantIn: "packages/api/bin", laterIn: "packages/api", later: "P/packages/api/bin"},
		{name: "envrc layout php", envrc: "layout php", runIn: ".", plantIn: "vendor/bin", laterIn: ".", later: "P/vendor/bin"},
		{name: "envrc layout ruby", envrc: "layout ruby", runIn: ".", plantIn: ".direnv/bin", laterIn: ".", later: "P/.direnv/bin"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newConfinedProject(t)
			for _, d := range []string{"sub", "src"} {
				require.NoError(t, os.MkdirAll(filepath.Join(c.project, d), 0o755))
			}
			if tc.pkgrc != "" {
				require.NoError(t, os.MkdirAll(filepath.Join(c.project, "packages", "api"), 0o755))
				require.NoError(t, os.WriteFile(filepath.Join(c.project, "packages", "api", ".envrc"), []byte(tc.pkgrc+"\n"), 0o644))
			}
			if tc.envrc != "" {
				require.NoError(t, os.WriteFile(filepath.Join(c.project, ".envrc"), []byte(tc.envrc+"\n"), 0o644))
			}
			path := os.Getenv("PATH")
			if tc.entry != "" {
				path = tc.entry + string(os.PathListSeparator) + path
			}
			env := c.env(t, "PATH="+path)
			mark := filepath.Join(c.outside, "PWNED")
			runIn := filepath.Join(c.project, tc.runIn)
			script := plantGit(t, filepath.Join(c.project, tc.plantIn), mark) + tc.extra
			require.NoError(t, os.WriteFile(filepath.Join(runIn, "p.sh"), []byte(script), 0o755))

			out, rc := hookRunFrom(t, c, env, runIn, "./p.sh")
			require.Equal(t, 0, rc, "output: %s", out)

			laterPath := path
			if tc.later != "" {
				laterPath = filepath.Join(c.project, tc.later[len("P/"):]) + string(os.PathListSeparator) + path
			}
			later := exec.Command("bash", "-c", "git --version") // bash expands ~ and ~+ on PATH
			later.Dir, later.Env = filepath.Join(c.project, tc.laterIn), append(env, "PATH="+laterPath)
			_, _ = later.CombinedOutput()
			assert.NoFileExists(t, mark, "a git the confined command planted in %s ran unconfined", tc.plantIn)
		})
	}
}
