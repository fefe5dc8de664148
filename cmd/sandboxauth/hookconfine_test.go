package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth"
	"github.com/sandboxauth/sandboxauth/confine"
	"github.com/sandboxauth/sandboxauth/internal/hookproto"
)

// confineFixtures holds Claude Code PreToolUse events of Bash calls that
// a hook with a "confine" section answers with a rewrite.
var confineFixtures = filepath.Join(hooksDir, "confine")

// confineConfig is a user configuration that opts in to confinement.
const confineConfig = `{"policy": "sandbox", "confine": {}}`

// rewriteOf reads a Claude Code answer: the decision and, for an allow
// that rewrites, the tool input the agent will run instead.
func rewriteOf(t *testing.T, r result) (decision string, input map[string]any) {
	t.Helper()
	require.Equal(t, 0, r.code, "stdout: %s\nstderr: %s", r.stdout, r.stderr)
	var v struct {
		HookSpecificOutput struct {
			PermissionDecision string         `json:"permissionDecision"`
			UpdatedInput       map[string]any `json:"updatedInput"`
		} `json:"hookSpecificOutput"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &v), r.stdout)
	return v.HookSpecificOutput.PermissionDecision, v.HookSpecificOutput.UpdatedInput
}

// confinedProject is a project for the confinement tests: the fixtures'
// project, a directory outside it that the user can write, and the user's
// configuration opting in to confinement.
type confinedProject struct {
	project, home, outside, config string
}

func newConfinedProject(t *testing.T) confinedProject {
	t.Helper()
	if err := confine.Available(); err != nil {
		t.Skipf("this kernel cannot confine commands, so the hook never rewrites: %v", err)
	}
	project, home := hookProject(t)
	outside := filepath.Join(filepath.Dir(filepath.Dir(project)), "outside")
	require.NoError(t, os.Mkdir(outside, 0o755))
	config := filepath.Join(home, ".config", "sandboxauth", "config.json")
	require.NoError(t, os.MkdirAll(filepath.Dir(config), 0o755))
	// The user's own Go build cache, shared on purpose (a sandbox's private
	// copy starts empty, and a cold one builds the standard library).
	gocache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err == nil {
		cfg := `{"policy": "sandbox", "confine": {"writable": [` + strconvQuote(strings.TrimSpace(string(gocache))) + `]}}`
		require.NoError(t, os.WriteFile(config, []byte(cfg), 0o644))
	} else {
		require.NoError(t, os.WriteFile(config, []byte(confineConfig), 0o644))
	}
	return confinedProject{project: project, home: home, outside: outside, config: config}
}

// env is the environment the agent gives the hook and the command: the
// hook tests' own, the project named as Claude Code names it, and the
// user's real Go caches (a cold cache would build the standard library).
func (c confinedProject) env(t *testing.T, extra ...string) []string {
	t.Helper()
	env := hookEnv(c.home, "CLAUDE_PROJECT_DIR="+c.project, "SHELL=/bin/bash", "GOTOOLCHAIN=local",
		"npm_config_update_notifier=false", "npm_config_fund=false", "npm_config_audit=false")
	for _, v := range []string{"GOCACHE", "GOMODCACHE"} {
		out, err := exec.Command("go", "env", v).Output()
		require.NoError(t, err)
		env = append(env, v+"="+strings.TrimSpace(string(out)))
	}
	return append(env, extra...)
}

// shRun runs line as the agent runs a Bash call (sh -c LINE) in dir.
func shRun(t *testing.T, dir string, env []string, line string) (string, int) {
	t.Helper()
	cmd := exec.Command("sh", "-c", line)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out), ee.ExitCode()
	}
	require.NoError(t, err, "%s", out)
	return string(out), 0
}

// TestHookConfinesProjectCode is the acceptance test: with a
// "confine" section, Claude Code's events for `go test ./...`, `npm test`
// and `./build.sh` are answered with an allow that rewrites the command to
// a confined `sandboxauth run`, which, executed as the agent executes it,
// runs the project's code with the agent's environment and cannot write
// outside the project.
func TestHookConfinesProjectCode(t *testing.T) {
	exe, err := filepath.EvalSymlinks(bin)
	require.NoError(t, err)
	tests := []struct {
		fixture string
		setup   func(t *testing.T, c confinedProject)
		needs   string // a program the command runs, or ""
		wantRC  int
	}{
		{"build-sh", func(t *testing.T, c confinedProject) {
			script := "#!/bin/sh\necho \"$SANDBOXAUTH_TEST_VALUE\" > inside.txt\necho leaked > '" + c.outside + "/outside.txt'\n"
			require.NoError(t, os.WriteFile(filepath.Join(c.project, "build.sh"), []byte(script), 0o755))
		}, "", 2},
		{"go-test", func(t *testing.T, c confinedProject) {
			require.NoError(t, os.WriteFile(filepath.Join(c.project, "go.mod"), []byte("module example.com/p\n\ngo 1.24\n"), 0o644))
			test := "package main\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestWrites(t *testing.T) {\n" +
				"\tif err := os.WriteFile(\"inside.txt\", []byte(os.Getenv(\"SANDBOXAUTH_TEST_VALUE\")+\"\\n\"), 0o644); err != nil {\n\t\tt.Fatal(err)\n\t}\n" +
				"\t_ = os.WriteFile(" + strconvQuote(c.outside+"/outside.txt") + ", []byte(\"leaked\"), 0o644)\n}\n"
			require.NoError(t, os.WriteFile(filepath.Join(c.project, "main_test.go"), []byte(test), 0o644))
		}, "go", 0},
		{"npm-test", func(t *testing.T, c confinedProject) {
			pkg := `{"name": "p", "version": "1.0.0", "scripts": {"test": "sh ./test.sh"}}`
			require.NoError(t, os.WriteFile(filepath.Join(c.project, "package.json"), []byte(pkg), 0o644))
			script := "echo \"$SANDBOXAUTH_TEST_VALUE\" > inside.txt\necho leaked > '" + c.outside + "/outside.txt' || true\n"
			require.NoError(t, os.WriteFile(filepath.Join(c.project, "test.sh"), []byte(script), 0o644))
		}, "npm", 0},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			if tt.needs != "" {
				if _, err := exec.LookPath(tt.needs); err != nil {
					t.Skipf("%s is not installed: %v", tt.needs, err)
				}
			}
			if tt.needs == "go" && testing.Short() {
				t.Skip("-short: the confined go test builds with a private, cold build cache (about a minute)")
			}
			c := newConfinedProject(t)
			tt.setup(t, c)
			payload, err := os.ReadFile(filepath.Join(confineFixtures, tt.fixture+".json"))
			require.NoError(t, err)
			var event struct {
				ToolInput map[string]any `json:"tool_input"`
			}
			require.NoError(t, json.Unmarshal(payload, &event))
			env := c.env(t, "SANDBOXAUTH_TEST_VALUE=from the agent's environment")

			r := runHookBin(t, c.project, env, strings.ReplaceAll(string(payload), projectMark, c.project), "hook", "--for", "claude-code")
			decision, input := rewriteOf(t, r)
			require.Equal(t, "allow", decision, "stdout: %s", r.stdout)
			want := shellQuote(exe) + " run --config " + shellQuote(c.config) + " --sandbox " + shellQuote(c.project) +
				" -- bash -c " + shellQuote(event.ToolInput["command"].(string))
			assert.Equal(t, want, input["command"])
			for k, v := range event.ToolInput {
				if k != "command" {
					assert.Equal(t, v, input[k], "the rest of the tool input is the agent's own: %s", k)
				}
			}

			out, rc := shRun(t, c.project, env, input["command"].(string))
			assert.Equal(t, tt.wantRC, rc, "output: %s", out)
			inside, err := os.ReadFile(filepath.Join(c.project, "inside.txt"))
			require.NoError(t, err, "the project's code ran; output: %s", out)
			assert.Equal(t, "from the agent's environment\n", string(inside))
			assert.NoFileExists(t, filepath.Join(c.outside, "outside.txt"), "the confined command wrote outside the project")
		})
	}
}

// strconvQuote quotes s as a Go string literal.
func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestHookConfinedBuildWritesOutsideWhenRunDirectly is the control of
// TestHookConfinesProjectCode: the same build.sh, run as the agent would
// run it without the hook's rewrite, does write outside the project, so
// the confined run's failure to do so is the confinement's doing.
func TestHookConfinedBuildWritesOutsideWhenRunDirectly(t *testing.T) {
	c := newConfinedProject(t)
	script := "#!/bin/sh\necho leaked > '" + c.outside + "/outside.txt'\n"
	require.NoError(t, os.WriteFile(filepath.Join(c.project, "build.sh"), []byte(script), 0o755))
	_, rc := shRun(t, c.project, c.env(t), "./build.sh")
	assert.Equal(t, 0, rc)
	assert.FileExists(t, filepath.Join(c.outside, "outside.txt"))
}

// TestHookRewriteMeansTheOriginal: the rewritten command does what the
// original does. Quotes of every kind, a backslash, a newline and a `$`
// inside single quotes reach the command unchanged; a call made from a
// subdirectory runs there, with the project as sandbox.
func TestHookRewriteMeansTheOriginal(t *testing.T) {
	tests := []struct {
		fixture, cwd, file string
	}{
		{"quoting", "", "quoted.txt"},
		{"subdir-cwd", "sub", "where.txt"},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			c := newConfinedProject(t)
			dir := filepath.Join(c.project, tt.cwd)
			require.NoError(t, os.MkdirAll(dir, 0o755))
			payload, err := os.ReadFile(filepath.Join(confineFixtures, tt.fixture+".json"))
			require.NoError(t, err)
			var event struct {
				ToolInput struct {
					Command string `json:"command"`
				} `json:"tool_input"`
			}
			require.NoError(t, json.Unmarshal(payload, &event))
			env := c.env(t)

			r := runHookBin(t, dir, env, strings.ReplaceAll(string(payload), projectMark, c.project), "hook", "--for", "claude-code")
			decision, input := rewriteOf(t, r)
			require.Equal(t, "allow", decision, "stdout: %s", r.stdout)
			line := input["command"].(string)
			assert.Contains(t, line, " --sandbox "+shellQuote(c.project)+" ")

			out, rc := shRun(t, dir, env, line)
			require.Equal(t, 0, rc, "output: %s", out)
			confined, err := os.ReadFile(filepath.Join(dir, tt.file))
			require.NoError(t, err)
			require.NoError(t, os.Remove(filepath.Join(dir, tt.file)))

			out, rc = shRun(t, dir, env, event.ToolInput.Command)
			require.Equal(t, 0, rc, "output: %s", out)
			direct, err := os.ReadFile(filepath.Join(dir, tt.file))
			require.NoError(t, err)
			assert.Equal(t, string(direct), string(confined))
			assert.NotEmpty(t, strings.TrimSpace(string(direct)))
		})
	}
}

// TestHookDoesNotRewriteWhereItCannotConfine: the hook keeps today's
// answers (project code asked about, or refused where the event cannot
// ask) wherever a rewrite would not be carried out or not be the user's:
// agents whose events do not rewrite, Claude Code's tools other than Bash,
// a "confine" section in the project's own file (which a repository
// ships), and a policy other than Sandbox (run applies Sandbox).
func TestHookDoesNotRewriteWhereItCannotConfine(t *testing.T) {
	claude := func(tool string) string {
		return `{"session_id": "s", "transcript_path": "{{PROJECT}}/.t.jsonl", "cwd": "{{PROJECT}}", "permission_mode": "default",
"hook_event_name": "PreToolUse", "tool_name": "` + tool + `", "tool_input": {"command": "go test ./..."}, "tool_use_id": "toolu_01"}`
	}
	tests := []struct {
		name, agent, payload, user, project string
	}{
		{"codex", "codex", `{"session_id": "s", "turn_id": "t", "cwd": "{{PROJECT}}", "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "go test ./..."}}`, confineConfig, ""},
		{"gemini-cli", "gemini-cli", `{"session_id": "s", "cwd": "{{PROJECT}}", "hook_event_name": "BeforeTool", "tool_name": "run_shell_command", "tool_input": {"command": "go test ./..."}}`, confineConfig, ""},
		{"cursor", "cursor", `{"hook_event_name": "beforeShellExecution", "conversation_id": "c", "generation_id": "g", "workspace_roots": ["{{PROJECT}}"], "command": "go test ./...", "cwd": "{{PROJECT}}"}`, confineConfig, ""},
		{"copilot", "copilot", `{"timestamp": 1, "cwd": "{{PROJECT}}", "toolName": "bash", "toolArgs": {"command": "go test ./..."}}`, confineConfig, ""},
		{"claude-code Monitor", "claude-code", claude("Monitor"), confineConfig, ""},
		{"confine only in the project's file", "claude-code", claude("Bash"), "", `{"confine": {}}`},
		{"permissive policy", "claude-code", claude("Bash"), `{"policy": "permissive", "confine": {}}`, ""},
		{"no confine section", "claude-code", claude("Bash"), `{"policy": "sandbox"}`, ""},
		{"a command no program can receive", "claude-code", strings.Replace(claude("Bash"), "go test ./...", `go test\u0000 ./...`, 1), confineConfig, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newConfinedProject(t)
			if tt.user == "" {
				require.NoError(t, os.Remove(c.config))
			} else {
				require.NoError(t, os.WriteFile(c.config, []byte(tt.user), 0o644))
			}
			if tt.project != "" {
				require.NoError(t, os.WriteFile(filepath.Join(c.project, ".sandboxauth.json"), []byte(tt.project), 0o644))
			}
			r := runHookBin(t, c.project, c.env(t), strings.ReplaceAll(tt.payload, projectMark, c.project), "hook", "--for", tt.agent)
			assert.NotContains(t, r.stdout, "updatedInput")
			assert.NotContains(t, r.stdout, " run --config ")
			if tt.name != "permissive policy" {
				assert.NotEqual(t, "allow", answerAction(t, tt.agent, r), "project code runs unasked only confined; stdout: %s", r.stdout)
			}
		})
	}
}

func TestShellQuote(t *testing.T) {
	for _, s := range []string{"", "plain", "it's", "''", `a\'b`, "new\nline", `$HOME "x" $(id) ` + "`id`", "!event", "\t*?[x]"} {
		out, err := exec.Command("sh", "-c", "printf %s "+shellQuote(s)).Output()
		require.NoError(t, err, s)
		assert.Equal(t, s, string(out), "sh reads the quoted word back as it was")
		out, err = exec.Command("bash", "-c", "printf %s "+shellQuote(s)).Output()
		require.NoError(t, err, s)
		assert.Equal(t, s, string(out), "bash reads the quoted word back as it was")
	}
}

// TestHookConfinementNeedsTheKernel: where the machine cannot confine, the
// hook does not rewrite (its answers are those without a confine
// section), whatever the configuration says; where it can, a Claude Code
// Bash call with the user's confine section is rewritten.
func TestHookConfinementNeedsTheKernel(t *testing.T) {
	project, home := hookProject(t)
	file := filepath.Join(home, "config.json")
	require.NoError(t, os.WriteFile(file, []byte(confineConfig), 0o644))
	cfg, err := loadConfig(file)
	require.NoError(t, err)
	req := &hookproto.Request{Agent: "claude-code", Kind: hookproto.KindShell, Tool: "Bash", Command: "go test ./...",
		Cwd: project, ProjectDir: project, CanRewrite: true}
	files, cfgs := []hookConfig{{path: file}}, []*sandboxauth.Config{cfg}

	unavailable := func() error { return fmt.Errorf("no bwrap: %w", confine.ErrUnavailable) }
	assert.Nil(t, hookConfinementFor(files, cfgs, req, unavailable))

	available := func() error { return nil }
	c := hookConfinementFor(files, cfgs, req, available)
	require.NotNil(t, c)
	assert.Equal(t, file, c.config)
	assert.Equal(t, project, c.policy.Sandbox)
	// The hook runs nothing: it neither walks nor scans the project
	// (ProtectConfinement, which run does when it runs the command).
	assert.Empty(t, c.policy.ReadOnly)
	assert.Empty(t, c.policy.Placeholders)
	assert.Nil(t, c.policy.AfterExit)

	notRewritable := *req
	notRewritable.CanRewrite = false
	assert.Nil(t, hookConfinementFor(files, cfgs, &notRewritable, available))
	argv := *req
	argv.Command, argv.Argv = "", []string{"go", "test", "./..."}
	assert.Nil(t, hookConfinementFor(files, cfgs, &argv, available), "an argv is not a script the rewrite can quote")
	assert.Nil(t, hookConfinementFor([]hookConfig{{path: file, fromProject: true}}, cfgs, req, available), "the project's own file")
}

// TestHookDoesNotConfineInTheHomeDirectory: Claude Code started in the
// home directory names it as the project. A confined run there could
// change the user's shell start-up files and settings (and run refuses
// such a sandbox), so the hook does not rewrite: ./setup.sh is asked
// about, as without a "confine" section.
func TestHookDoesNotConfineInTheHomeDirectory(t *testing.T) {
	c := newConfinedProject(t)
	require.NoError(t, os.WriteFile(filepath.Join(c.home, "setup.sh"), []byte("#!/bin/sh\necho PWNED >> ~/.bashrc\n"), 0o755))
	payload, err := os.ReadFile(filepath.Join(confineFixtures, "build-sh.json"))
	require.NoError(t, err)
	line := strings.ReplaceAll(strings.ReplaceAll(string(payload), projectMark, c.home), "./build.sh", "./setup.sh")
	env := hookEnv(c.home, "CLAUDE_PROJECT_DIR="+c.home, "SHELL=/bin/bash")
	r := runHookBin(t, c.home, env, line, "hook", "--for", "claude-code")
	decision, input := rewriteOf(t, r)
	assert.NotEqual(t, "allow", decision, "stdout: %s", r.stdout)
	assert.Nil(t, input, "the command was rewritten: %s", r.stdout)

	// And run, asked directly, refuses the home directory as sandbox.
	out, rc := shRun(t, c.home, env, shellQuote(bin)+" run --config "+shellQuote(c.config)+" --sandbox "+shellQuote(c.home)+" -- ./setup.sh")
	assert.Equal(t, exitRunRefused, rc, out)
	assert.Contains(t, out, "home directory")
	assert.NoFileExists(t, filepath.Join(c.home, ".bashrc"))
}
