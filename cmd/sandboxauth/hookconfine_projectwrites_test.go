package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHookConfinesProjectWrites: the red team's false positives of round
// 22, driven through the binary with Claude Code events. With a "confine"
// section, git's writes inside the project that discard no work (restore,
// checkout -- FILE, reset of the index, rm --cached, revert, merge
// --ff-only) and a script whose later commands read what an earlier one
// wrote into the project (echo hi > f && cat f) are answered with the
// confined rewrite; without the section each is asked about, as before.
// The rewrite, run as the agent runs it, does what the command says, and
// the repository's hooks it runs cannot write outside the project nor
// change themselves.
func TestHookConfinesProjectWrites(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skipf("git is not installed: %v", err)
	}
	git := func(t *testing.T, dir string, env []string, args ...string) string {
		t.Helper()
		// The test's own git runs none of the hooks the test plants.
		cmd := exec.Command("git", append([]string{"-c", "core.hooksPath=/dev/null"}, args...)...)
		cmd.Dir, cmd.Env = dir, append(env, "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %v: %s", args, out)
		return strings.TrimSpace(string(out))
	}
	// repo: a repository with f.txt committed and a branch topic one
	// commit ahead; the test then adds hooks that every one of these
	// commands may run, each trying to write outside and to change itself.
	repo := func(t *testing.T, c confinedProject, env []string) {
		gitRepoIn(t, c.project, env)
		require.NoError(t, os.WriteFile(filepath.Join(c.project, "f.txt"), []byte("committed\n"), 0o644))
		git(t, c.project, env, "add", "f.txt")
		git(t, c.project, env, "commit", "-q", "-m", "two")
		git(t, c.project, env, "checkout", "-q", "-b", "topic")
		require.NoError(t, os.WriteFile(filepath.Join(c.project, "t.txt"), []byte("topic\n"), 0o644))
		git(t, c.project, env, "add", "t.txt")
		git(t, c.project, env, "commit", "-q", "-m", "topic")
		git(t, c.project, env, "checkout", "-q", "main")
	}
	modified := func(t *testing.T, c confinedProject, env []string) {
		repo(t, c, env)
		require.NoError(t, os.WriteFile(filepath.Join(c.project, "f.txt"), []byte("changed\n"), 0o644))
	}
	staged := func(t *testing.T, c confinedProject, env []string) {
		modified(t, c, env)
		git(t, c.project, env, "add", "f.txt")
	}
	content := func(want string) func(t *testing.T, c confinedProject, env []string) {
		return func(t *testing.T, c confinedProject, _ []string) {
			got, err := os.ReadFile(filepath.Join(c.project, "f.txt"))
			require.NoError(t, err)
			assert.Equal(t, want, string(got))
		}
	}
	nothingStaged := func(t *testing.T, c confinedProject, env []string) {
		assert.Empty(t, git(t, c.project, env, "diff", "--cached", "--name-only"))
		content("changed\n")(t, c, env)
	}
	tests := []struct {
		name    string
		setup   func(t *testing.T, c confinedProject, env []string)
		command string
		check   func(t *testing.T, c confinedProject, env []string)
	}{
		{"git restore FILE", modified, "git restore f.txt", content("committed\n")},
		{"git checkout -- FILE", modified, "git checkout -- f.txt", content("committed\n")},
		{"git reset FILE", staged, "git reset -q f.txt", nothingStaged},
		{"git restore --staged FILE", staged, "git restore --staged f.txt", nothingStaged},
		{"git rm --cached FILE", repo, "git rm -q --cached f.txt", func(t *testing.T, c confinedProject, env []string) {
			assert.Equal(t, "D  f.txt\n?? f.txt", git(t, c.project, env, "status", "--porcelain", "--", "f.txt"))
			content("committed\n")(t, c, env)
		}},
		{"git revert", repo, "git revert --no-edit HEAD", func(t *testing.T, c confinedProject, env []string) {
			assert.NoFileExists(t, filepath.Join(c.project, "f.txt"))
			assert.Contains(t, git(t, c.project, env, "log", "-1", "--format=%s"), "Revert")
		}},
		{"git merge --ff-only", repo, "git merge -q --ff-only topic", func(t *testing.T, c confinedProject, env []string) {
			assert.Equal(t, git(t, c.project, env, "rev-parse", "topic"), git(t, c.project, env, "rev-parse", "HEAD"))
			assert.FileExists(t, filepath.Join(c.project, "t.txt"))
		}},
		{"a redirection into the project, then a read", nil, "echo hi > f && cat f > copy.txt", func(t *testing.T, c confinedProject, _ []string) {
			got, err := os.ReadFile(filepath.Join(c.project, "copy.txt"))
			require.NoError(t, err)
			assert.Equal(t, "hi\n", string(got))
		}},
		{"the same in sh -c, appending", nil, `sh -c 'printf "a\n" >> f; printf "b\n" >> f; wc -l < f > copy.txt'`, func(t *testing.T, c confinedProject, _ []string) {
			got, err := os.ReadFile(filepath.Join(c.project, "copy.txt"))
			require.NoError(t, err)
			assert.Equal(t, "2\n", string(got))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newConfinedProject(t)
			env := c.env(t)
			if tt.setup != nil {
				tt.setup(t, c, env)
				for _, h := range []string{"post-index-change", "reference-transaction", "post-checkout", "post-merge", "pre-commit", "commit-msg"} {
					script := "#!/bin/sh\nbasename \"$0\" >> .git/hooks-ran\necho leaked > '" + c.outside + "/outside.txt' 2>/dev/null\necho tampered >> \"$0\" 2>/dev/null\nexit 0\n"
					require.NoError(t, os.WriteFile(filepath.Join(c.project, ".git", "hooks", h), []byte(script), 0o755))
				}
			}
			event := claudeBash(t, c.project, tt.command)

			// Without the confine section: asked, as before.
			cfg, err := os.ReadFile(c.config)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(c.config, []byte(`{"policy": "sandbox"}`), 0o644))
			r := runHookBin(t, c.project, env, event, "hook", "--for", "claude-code")
			decision, input := rewriteOf(t, r)
			assert.Equal(t, "ask", decision, "without confinement: %s", r.stdout)
			assert.Nil(t, input)

			// With it: the confined rewrite, which does what the command says.
			require.NoError(t, os.WriteFile(c.config, cfg, 0o644))
			r = runHookBin(t, c.project, env, event, "hook", "--for", "claude-code")
			decision, input = rewriteOf(t, r)
			require.Equal(t, "allow", decision, "stdout: %s", r.stdout)
			line, _ := input["command"].(string)
			require.Contains(t, line, " run --config "+shellQuote(c.config)+" --sandbox "+shellQuote(c.project)+" -- bash -c "+shellQuote(tt.command))
			out, rc := shRun(t, c.project, env, line)
			require.Equal(t, 0, rc, "output: %s", out)
			tt.check(t, c, env)
			if tt.setup != nil {
				ran, err := os.ReadFile(filepath.Join(c.project, ".git", "hooks-ran"))
				require.NoError(t, err, "no hook ran in the confined run")
				t.Logf("hooks run confined: %s", strings.Fields(string(ran)))
			}
			assert.NoFileExists(t, filepath.Join(c.outside, "outside.txt"), "a confined hook wrote outside the project")
			hooks, _ := filepath.Glob(filepath.Join(c.project, ".git", "hooks", "*"))
			for _, h := range hooks {
				b, err := os.ReadFile(h)
				require.NoError(t, err)
				assert.NotContains(t, string(b), "\ntampered\n", "the confined hook changed %s", h)
			}
		})
	}
}
