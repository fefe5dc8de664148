package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// claudeBash is a Claude Code PreToolUse event of a Bash call of command
// in dir, as Claude Code sends it.
func claudeBash(t *testing.T, dir, command string) string {
	t.Helper()
	event := map[string]any{
		"session_id": "0b6c1a52-claude", "transcript_path": filepath.Join(dir, ".transcript.jsonl"), "cwd": dir,
		"permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
		"tool_input":  map[string]any{"command": command, "description": "Run it", "timeout": 120000},
		"tool_use_id": "toolu_01",
	}
	b, err := json.Marshal(event)
	require.NoError(t, err)
	return string(b)
}

// gitRepoIn makes dir a repository with one commit, as the agent's own git
// (no user or system configuration) sees it.
func gitRepoIn(t *testing.T, dir string, env []string) {
	t.Helper()
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"}, {"config", "user.name", "a"}, {"config", "user.email", "a@example.com"},
		{"add", "main.go"}, {"commit", "-q", "-m", "one"},
	} {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = dir, append(env, "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %v: %s", args, out)
	}
}

// TestHookConfinesModelCode: the false positives the red team found on
// real workflows (issue 25 item 1, issue 23, round 22). With a "confine"
// section, a git command that runs the repository's own hook, inline code
// of an interpreter (node, python3, perl, ruby), a program of the project found on PATH, and a script whose
// later commands follow project code are answered with the confined
// rewrite, as npm test is; the rewrite, run as the agent runs it, does
// what the command says inside the project and cannot write outside.
// Without the section each is asked about, as before.
func TestHookConfinesModelCode(t *testing.T) {
	writeHook := func(rel string) func(t *testing.T, c confinedProject, env []string) {
		return func(t *testing.T, c confinedProject, env []string) {
			gitRepoIn(t, c.project, env)
			// The hook also tries to change itself, which the user's next
			// commit would run unconfined.
			script := "#!/bin/sh\necho hook ran > inside.txt\necho leaked > '" + c.outside + "/outside.txt' 2>/dev/null\necho tampered >> \"$0\" 2>/dev/null\nexit 0\n"
			p := filepath.Join(c.project, rel)
			require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
			require.NoError(t, os.WriteFile(p, []byte(script), 0o755))
			if !strings.HasPrefix(rel, ".git/") {
				cmd := exec.Command("git", "config", "core.hooksPath", filepath.Dir(rel))
				cmd.Dir, cmd.Env = c.project, env
				out, err := cmd.CombinedOutput()
				require.NoError(t, err, "%s", out)
			}
			require.NoError(t, os.WriteFile(filepath.Join(c.project, "a.txt"), []byte("a\n"), 0o644))
			cmd := exec.Command("git", "add", "a.txt")
			cmd.Dir, cmd.Env = c.project, env
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "%s", out)
		}
	}
	tool := func(t *testing.T, c confinedProject, _ []string) {
		bin := filepath.Join(c.project, "node_modules", ".bin")
		require.NoError(t, os.MkdirAll(filepath.Join(c.project, "node_modules", "mytool"), 0o755))
		require.NoError(t, os.MkdirAll(bin, 0o755))
		script := "#!/bin/sh\necho \"$SANDBOXAUTH_TEST_VALUE\" > inside.txt\necho leaked > '" + c.outside + "/outside.txt' 2>/dev/null\nexit 0\n"
		require.NoError(t, os.WriteFile(filepath.Join(c.project, "node_modules", "mytool", "cli.sh"), []byte(script), 0o755))
		require.NoError(t, os.Symlink("../mytool/cli.sh", filepath.Join(bin, "mytool")))
	}
	gen := func(t *testing.T, c confinedProject, _ []string) {
		script := "#!/bin/sh\necho generated > out.txt\n"
		require.NoError(t, os.WriteFile(filepath.Join(c.project, "gen.sh"), []byte(script), 0o755))
	}
	tests := []struct {
		name    string
		setup   func(t *testing.T, c confinedProject, env []string)
		command string // {{OUTSIDE}} stands for the directory outside
		path    bool   // node_modules/.bin on PATH
		needs   string
		inside  string // what inside.txt (or out.txt) holds after the run
		file    string
	}{
		{"git commit runs the pre-commit hook", writeHook(".git/hooks/pre-commit"), "git commit -q -m x", false, "git", "hook ran\n", "inside.txt"},
		{"git commit runs a hook of core.hooksPath", writeHook("githooks/pre-commit"), "git commit -q -m x", false, "git", "hook ran\n", "inside.txt"},
		{"node -e", nil, `node -e 'const fs = require("fs"); fs.writeFileSync("inside.txt", process.env.SANDBOXAUTH_TEST_VALUE + "\n"); try { fs.writeFileSync("{{OUTSIDE}}/outside.txt", "leaked") } catch (e) {}'`, false, "node", "from the agent\n", "inside.txt"},
		{"python3 -c", nil, `python3 -c 'import os
open("inside.txt", "w").write(os.environ["SANDBOXAUTH_TEST_VALUE"] + "\n")
try:
    open("{{OUTSIDE}}/outside.txt", "w").write("leaked")
except OSError:
    pass'`, false, "python3", "from the agent\n", "inside.txt"},
		{"perl -e", nil, `perl -e 'open(my $f, ">", "inside.txt") or die; print $f "$ENV{SANDBOXAUTH_TEST_VALUE}\n"; close $f; open(my $o, ">", "{{OUTSIDE}}/outside.txt") and print $o "leaked"'`, false, "perl", "from the agent\n", "inside.txt"},
		{"perl -pi -e on a file of the project", func(t *testing.T, c confinedProject, _ []string) {
			require.NoError(t, os.WriteFile(filepath.Join(c.project, "inside.txt"), []byte("from the model\n"), 0o644))
		}, `perl -pi -e 's/model/agent/' inside.txt`, false, "perl", "from the agent\n", "inside.txt"},
		{"ruby -e", nil, `ruby -e 'File.write("inside.txt", ENV["SANDBOXAUTH_TEST_VALUE"] + "\n"); begin; File.write("{{OUTSIDE}}/outside.txt", "leaked"); rescue SystemCallError; end'`, false, "ruby", "from the agent\n", "inside.txt"},
		{"a program of node_modules/.bin on PATH", tool, "mytool", true, "", "from the agent\n", "inside.txt"},
		{"./node_modules/.bin", tool, "./node_modules/.bin/mytool", false, "", "from the agent\n", "inside.txt"},
		{"a later command after project code", gen, "./gen.sh && cat out.txt > copy.txt", false, "", "generated\n", "copy.txt"},
		{"the same in sh -c", gen, `sh -c './gen.sh && cat out.txt > copy.txt'`, false, "", "generated\n", "copy.txt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.needs != "" {
				if _, err := exec.LookPath(tt.needs); err != nil {
					t.Skipf("%s is not installed: %v", tt.needs, err)
				}
			}
			c := newConfinedProject(t)
			env := c.env(t, "SANDBOXAUTH_TEST_VALUE=from the agent")
			if tt.path {
				env = append(env, "PATH="+filepath.Join(c.project, "node_modules", ".bin")+":"+os.Getenv("PATH"))
			}
			if tt.setup != nil {
				tt.setup(t, c, env)
			}
			command := strings.ReplaceAll(tt.command, "{{OUTSIDE}}", c.outside)
			event := claudeBash(t, c.project, command)

			// Without the confine section: asked, as before.
			cfg, err := os.ReadFile(c.config)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(c.config, []byte(`{"policy": "sandbox"}`), 0o644))
			r := runHookBin(t, c.project, env, event, "hook", "--for", "claude-code")
			decision, input := rewriteOf(t, r)
			assert.Equal(t, "ask", decision, "without confinement: %s", r.stdout)
			assert.Nil(t, input)

			// With it: the confined rewrite.
			require.NoError(t, os.WriteFile(c.config, cfg, 0o644))
			r = runHookBin(t, c.project, env, event, "hook", "--for", "claude-code")
			decision, input = rewriteOf(t, r)
			require.Equal(t, "allow", decision, "stdout: %s", r.stdout)
			line, _ := input["command"].(string)
			require.Contains(t, line, " run --config "+shellQuote(c.config)+" --sandbox "+shellQuote(c.project)+" -- bash -c "+shellQuote(command))

			out, rc := shRun(t, c.project, env, line)
			require.Equal(t, 0, rc, "output: %s", out)
			got, err := os.ReadFile(filepath.Join(c.project, tt.file))
			require.NoError(t, err, "the command ran; output: %s", out)
			assert.Equal(t, tt.inside, string(got))
			assert.NoFileExists(t, filepath.Join(c.outside, "outside.txt"), "the confined command wrote outside the project")
			for _, hook := range []string{".git/hooks/pre-commit", "githooks/pre-commit"} {
				if b, err := os.ReadFile(filepath.Join(c.project, hook)); err == nil {
					assert.NotContains(t, string(b), "\ntampered\n", "the confined hook changed %s", hook)
				}
			}
		})
	}
}

// TestHookGitStashNamesItsHooks: git stash runs no pre-commit hook, so the
// question about it (without confinement) does not name one; with a
// post-checkout hook, which git stash --keep-index runs, it names that.
func TestHookGitStashNamesItsHooks(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skipf("git is not installed: %v", err)
	}
	for _, tt := range []struct{ hook, want, notWant string }{
		{"pre-commit", "git stash", "pre-commit"},
		{"post-checkout", "post-checkout", "pre-commit"},
	} {
		t.Run(tt.hook, func(t *testing.T) {
			project, home := hookProject(t)
			env := hookEnv(home, "CLAUDE_PROJECT_DIR="+project, "SHELL=/bin/bash")
			gitRepoIn(t, project, env)
			require.NoError(t, os.WriteFile(filepath.Join(project, ".git", "hooks", tt.hook), []byte("#!/bin/sh\n"), 0o755))
			r := runHookBin(t, project, env, claudeBash(t, project, "git stash"), "hook", "--for", "claude-code")
			require.Equal(t, "ask", answerAction(t, "claude-code", r), r.stdout)
			var v struct {
				HookSpecificOutput struct {
					Reason string `json:"permissionDecisionReason"`
				} `json:"hookSpecificOutput"`
			}
			require.NoError(t, json.Unmarshal([]byte(r.stdout), &v))
			reason := strings.ReplaceAll(v.HookSpecificOutput.Reason, project, "PROJECT")
			assert.Contains(t, reason, tt.want)
			assert.NotContains(t, reason, tt.notWant)
		})
	}
}

// TestHookConfinedModelCodeStaysInside: the attacks tried on the new
// rewrites, kept. Inline code run through the confined rewrite cannot read
// the user's credentials, change ~/.bashrc (here the home lies in the
// temporary directory, which the confined command sees as its own, empty
// one) or plant a git hook, and a command after project code cannot read a
// credential through a link the project code made.
func TestHookConfinedModelCodeStaysInside(t *testing.T) {
	tests := []struct {
		name, command string
		setup         func(t *testing.T, c confinedProject)
		needs         string
		want          []string // lines the confined run prints
	}{
		{"python3 -c", `python3 -c 'import os
h = os.environ["HOME"]
for what, f in (("read", lambda: open(h + "/.kube/config").read()),
                ("append", lambda: open(h + "/.bashrc", "a").write("pwned")),
                ("hook", lambda: open(".git/hooks/pre-commit", "w").write("x"))):
    try:
        f()
        print(what, "done")
    except OSError as e:
        print(what, "failed")'`, nil, "python3", []string{"read failed", "hook failed"}},
		{"perl -e", `perl -e 'my $h = $ENV{HOME}; my ($k, $b, $g);
print((open($k, "<", "$h/.kube/config") ? "read done" : "read failed"), "\n");
print((open($b, ">>", "$h/.bashrc") ? "append done" : "append failed"), "\n");
print $b "pwned" if $b;
print((open($g, ">", ".git/hooks/pre-commit") ? "hook done" : "hook failed"), "\n");
print <$k> if $k'`, nil, "perl", []string{"read failed", "hook failed"}},
		{"a link made by project code", "./mklink.sh && cat leak", func(t *testing.T, c confinedProject) {
			script := "#!/bin/sh\nln -sf '" + filepath.Join(c.home, ".kube", "config") + "' leak\n"
			require.NoError(t, os.WriteFile(filepath.Join(c.project, "mklink.sh"), []byte(script), 0o755))
		}, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.needs != "" {
				if _, err := exec.LookPath(tt.needs); err != nil {
					t.Skipf("%s is not installed: %v", tt.needs, err)
				}
			}
			c := newConfinedProject(t)
			// A credential the confinement hides in the home, under a name
			// no pattern of the project's read protection matches (the
			// hook would ask about code naming .ssh/id_*, before any
			// confinement).
			require.NoError(t, os.MkdirAll(filepath.Join(c.home, ".kube"), 0o700))
			require.NoError(t, os.WriteFile(filepath.Join(c.home, ".kube", "config"), []byte("SECRET KEY\n"), 0o600))
			require.NoError(t, os.WriteFile(filepath.Join(c.home, ".bashrc"), []byte("export X=1\n"), 0o644))
			require.NoError(t, os.MkdirAll(filepath.Join(c.project, ".git", "hooks"), 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(c.project, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644))
			if tt.setup != nil {
				tt.setup(t, c)
			}
			env := c.env(t)
			r := runHookBin(t, c.project, env, claudeBash(t, c.project, tt.command), "hook", "--for", "claude-code")
			decision, input := rewriteOf(t, r)
			require.Equal(t, "allow", decision, "stdout: %s", r.stdout)
			out, _ := shRun(t, c.project, env, input["command"].(string))
			for _, w := range tt.want {
				assert.Contains(t, out, w)
			}
			assert.NotContains(t, out, "SECRET KEY")
			b, err := os.ReadFile(filepath.Join(c.home, ".bashrc"))
			require.NoError(t, err)
			assert.Equal(t, "export X=1\n", string(b))
			assert.NoFileExists(t, filepath.Join(c.project, ".git", "hooks", "pre-commit"))
		})
	}
}
