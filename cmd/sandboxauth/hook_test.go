package main

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/internal/hookproto"
)

// update rewrites the golden answers of the hook fixtures:
// go test ./cmd/sandboxauth -run TestHookFixtures -update
var update = flag.Bool("update", false, "rewrite the golden files of testdata/hooks")

// hooksDir holds one directory of fixtures per agent: NAME.json (the event,
// with {{PROJECT}} for the project directory), NAME.exit (the exit status)
// and NAME.golden (the golden standard output).
var hooksDir = filepath.Join("..", "..", "testdata", "hooks")

// projectMark stands for the project directory in fixtures, rootMark for
// the directory two levels above it (so that paths that climb out of the
// project have stable names too).
const (
	projectMark = "{{PROJECT}}"
	rootMark    = "{{ROOT}}"
)

// hookProject makes a project directory as the fixtures expect it,
// ROOT/work/project, and a home directory with no sandboxauth
// configuration. Both are resolved, so that messages name them as the hook
// sees them.
func hookProject(t testing.TB) (project, home string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	project = filepath.Join(root, "work", "project")
	require.NoError(t, os.MkdirAll(project, 0o755))
	home = filepath.Join(root, "home")
	require.NoError(t, os.Mkdir(home, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(project, "main.go"), []byte("package main\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(project, ".claude"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(project, ".env"), []byte("TOKEN=x\n"), 0o600))
	return project, home
}

// hookEnv is the environment the agent gives the hook: no terminal, a
// home without configuration, none of the agents' project variables.
func hookEnv(home string, extra ...string) []string {
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "GORACE=" + raceOptions}
	return append(env, extra...)
}

// runHookBin runs the built binary as an agent runs its hook: the event on
// a pipe, no terminal, in dir.
func runHookBin(t *testing.T, dir string, env []string, stdin string, args ...string) result {
	t.Helper()
	return runWith(t, dir, env, stdin, args...)
}

// hookFixture is one fixture file set.
type hookFixture struct {
	agent, name string
	payload     string // with the project mark
	exit        int
	golden      string // path of NAME.golden
}

func loadHookFixtures(t *testing.T) []hookFixture {
	t.Helper()
	var out []hookFixture
	for _, agent := range hookproto.Names() {
		files, err := filepath.Glob(filepath.Join(hooksDir, agent, "*.json"))
		require.NoError(t, err)
		require.NotEmpty(t, files, "no fixtures for %s", agent)
		for _, f := range files {
			name := strings.TrimSuffix(filepath.Base(f), ".json")
			payload, err := os.ReadFile(f)
			require.NoError(t, err)
			exitText, err := os.ReadFile(strings.TrimSuffix(f, ".json") + ".exit")
			require.NoError(t, err, "%s/%s needs a .exit file", agent, name)
			exit, err := strconv.Atoi(strings.TrimSpace(string(exitText)))
			require.NoError(t, err)
			out = append(out, hookFixture{agent, name, string(payload), exit, strings.TrimSuffix(f, ".json") + ".golden"})
		}
	}
	return out
}

// runFixture runs one fixture through the binary with args (the agent's
// hook command after the program name) and checks it against its golden
// answer. It returns the run.
func runFixture(t *testing.T, fx hookFixture, args []string) result {
	t.Helper()
	project, home := hookProject(t)
	r := runHookBin(t, project, hookEnv(home), strings.ReplaceAll(fx.payload, projectMark, project), args...)
	got := strings.ReplaceAll(r.stdout, project, projectMark)
	got = strings.ReplaceAll(got, filepath.Dir(filepath.Dir(project)), rootMark)
	if *update {
		require.NoError(t, os.WriteFile(fx.golden, []byte(got), 0o644))
	}
	want, err := os.ReadFile(fx.golden)
	require.NoError(t, err, "missing golden file; run with -update")
	assert.Equal(t, string(want), got, "stdout of %s/%s", fx.agent, fx.name)
	assert.Equal(t, fx.exit, r.code, "exit status of %s/%s; stderr: %s", fx.agent, fx.name, r.stderr)
	if r.code == 2 {
		assert.Contains(t, r.stderr, "sandboxauth: ", "exit 2 gives the reason on stderr")
	} else {
		assert.Empty(t, r.stderr)
	}
	if r.stdout != "" {
		var v map[string]any
		assert.NoError(t, json.Unmarshal([]byte(r.stdout), &v), "stdout is one JSON object")
	}
	return r
}

func TestHookFixtures(t *testing.T) {
	for _, fx := range loadHookFixtures(t) {
		t.Run(fx.agent+"/"+fx.name, func(t *testing.T) {
			t.Parallel() // each fixture has its own project and home
			runFixture(t, fx, []string{"hook", "--for", fx.agent})
		})
	}
}

// answerAction reads the decision out of an agent's answer, the way the
// agent reads it: "allow", "ask", "deny", or "none" (no objection).
func answerAction(t *testing.T, agent string, r result) string {
	t.Helper()
	if r.code == 2 {
		return "deny" // every one of these agents blocks on exit 2
	}
	require.Equal(t, 0, r.code)
	if strings.TrimSpace(r.stdout) == "" {
		return "none"
	}
	var v map[string]any
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &v))
	field := func(m map[string]any, k string) string { s, _ := m[k].(string); return s }
	switch agent {
	case "claude-code", "codex":
		hso, _ := v["hookSpecificOutput"].(map[string]any)
		return field(hso, "permissionDecision")
	case "gemini-cli":
		return field(v, "decision")
	case "cursor":
		return field(v, "permission")
	case "copilot":
		return field(v, "permissionDecision")
	}
	t.Fatalf("unknown agent %s", agent)
	return ""
}

// TestHookAcceptance checks, for every agent, the six calls the hook must
// get right, by the decision the agent reads (not only by the golden
// text): a safe command runs, curl piped to sh is refused with a reason, a
// dangerous command is asked about (refused where the event cannot ask), a
// read outside the project is refused, an edit inside runs, and an event
// that cannot be read is refused.
func TestHookAcceptance(t *testing.T) {
	want := map[string]map[string]string{
		"claude-code": {"safe": "allow", "curl-pipe-sh": "deny", "dangerous": "ask", "read-outside": "deny", "edit-inside": "allow", "malformed": "deny"},
		"codex":       {"safe": "none", "curl-pipe-sh": "deny", "dangerous": "deny", "read-outside": "deny", "edit-inside": "none", "malformed": "deny"},
		"gemini-cli":  {"safe": "allow", "curl-pipe-sh": "deny", "dangerous": "ask", "read-outside": "deny", "edit-inside": "allow", "malformed": "deny"},
		"cursor":      {"safe": "allow", "curl-pipe-sh": "deny", "dangerous": "ask", "read-outside": "deny", "edit-inside": "allow", "malformed": "deny"},
		"copilot":     {"safe": "allow", "curl-pipe-sh": "deny", "dangerous": "ask", "read-outside": "deny", "edit-inside": "allow", "malformed": "deny"},
	}
	fixtures := map[string]hookFixture{}
	for _, fx := range loadHookFixtures(t) {
		fixtures[fx.agent+"/"+fx.name] = fx
	}
	for _, agent := range hookproto.Names() {
		cases := want[agent]
		require.Len(t, cases, 6, agent)
		names := make([]string, 0, len(cases))
		for n := range cases {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, name := range names {
			t.Run(agent+"/"+name, func(t *testing.T) {
				fx, ok := fixtures[agent+"/"+name]
				require.True(t, ok, "fixture %s/%s is missing", agent, name)
				project, home := hookProject(t)
				r := runHookBin(t, project, hookEnv(home), strings.ReplaceAll(fx.payload, projectMark, project), "hook", "--for", agent)
				assert.Equal(t, cases[name], answerAction(t, agent, r), "stdout: %s\nstderr: %s", r.stdout, r.stderr)
				if d := cases[name]; d == "deny" || d == "ask" {
					assert.Contains(t, r.stdout+r.stderr, "sandboxauth: ", "a refusal or question carries a reason")
				}
			})
		}
	}
}

// TestHookShellIsTheUsersShell: a command line is checked with the
// grammar of the shell the agent runs it in, and with both bash's and
// zsh's when the environment does not settle which (Claude Code runs zsh
// for a user whose shell is fish, where it finds one). zsh reads `>>!` as
// one operator that appends to the next word (here ~/.zshrc, outside the
// project); bash writes to a file named "!" and echoes the rest.
func TestHookShellIsTheUsersShell(t *testing.T) {
	payload := `{"session_id": "s", "transcript_path": "{{PROJECT}}/.t.jsonl", "cwd": "{{PROJECT}}", "permission_mode": "default",
"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "echo x >>! ~/.zshrc"}, "tool_use_id": "toolu_01"}`
	for _, tt := range []struct {
		env  []string
		want string
	}{
		{[]string{"SHELL=/bin/zsh"}, "ask"},
		{[]string{"SHELL=/usr/local/bin/zsh"}, "ask"},
		{[]string{"SHELL=/bin/bash"}, "allow"},
		{[]string{"SHELL=/usr/bin/fish"}, "ask"},
		{[]string{"SHELL="}, "ask"},
		{nil, "ask"},
		{[]string{"SHELL=/bin/bash", "CLAUDE_CODE_SHELL=/bin/zsh"}, "ask"},
		{[]string{"SHELL=/usr/bin/fish", "CLAUDE_CODE_SHELL=/opt/homebrew/bin/bash"}, "allow"},
	} {
		t.Run(strings.Join(tt.env, " "), func(t *testing.T) {
			project, home := hookProject(t)
			r := runHookBin(t, project, hookEnv(home, tt.env...), strings.ReplaceAll(payload, projectMark, project), "hook", "--for", "claude-code")
			assert.Equal(t, tt.want, answerAction(t, "claude-code", r), "stdout: %s\nstderr: %s", r.stdout, r.stderr)
		})
	}
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	assert.Equal(t, []string{"zsh"}, hookShells(env("SHELL", "/opt/homebrew/bin/zsh")))
	assert.Equal(t, []string{"bash"}, hookShells(env("SHELL", "/usr/local/bin/bash")))
	assert.Equal(t, []string{"bash", "zsh"}, hookShells(env("SHELL", "/bin/sh")))
	assert.Equal(t, []string{"bash", "zsh"}, hookShells(env("SHELL", "/usr/bin/fish")))
	assert.Equal(t, []string{"bash"}, hookShells(env("SHELL", "/usr/bin/fish", "CLAUDE_CODE_SHELL", "/bin/bash")))
	assert.Equal(t, "bash", runShell([]string{"bash"}))
	assert.Equal(t, "zsh", runShell([]string{"zsh"}))
}

// TestHookProjectConfigCannotLoosenTheUsers: with both the user's
// configuration and the project's .sandboxauth.json, both decide and the
// stricter answer wins. A project file of `{}` (the defaults) no longer
// drops the user's blocked command and protected directory; a project
// file can still narrow the user's policy.
func TestHookProjectConfigCannotLoosenTheUsers(t *testing.T) {
	bash := func(cmd string) string {
		return `{"session_id": "s", "transcript_path": "{{PROJECT}}/.t.jsonl", "cwd": "{{PROJECT}}", "permission_mode": "default",
"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "` + cmd + `"}, "tool_use_id": "toolu_01"}`
	}
	user := `{"commands": {"blocked": {"add": [{"command": "terraform"}]}}, "protectedPaths": {"add": [{"pattern": "secrets/", "read": true, "write": true}]}}`
	tests := []struct {
		name, project, command, want string
	}{
		{"user alone: blocked", "", "terraform apply", "deny"},
		{"user alone: protected", "", "cat secrets/key", "ask"},
		{"an empty project file keeps the user's block", "{}", "terraform apply", "deny"},
		{"an empty project file keeps the user's protection", "{}", "cat secrets/key", "ask"},
		{"a project file narrows the user's", `{"commands": {"blocked": {"add": [{"command": "ls"}]}}}`, "ls", "deny"},
		{"what both allow runs", "{}", "git status", "allow"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			project, home := hookProject(t)
			require.NoError(t, os.MkdirAll(filepath.Join(project, "secrets"), 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(project, "secrets", "key"), []byte("k"), 0o600))
			cfgDir := filepath.Join(home, ".config", "sandboxauth")
			require.NoError(t, os.MkdirAll(cfgDir, 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(cfgDir, "config.json"), []byte(user), 0o644))
			if tt.project != "" {
				require.NoError(t, os.WriteFile(filepath.Join(project, ".sandboxauth.json"), []byte(tt.project), 0o644))
			}
			r := runHookBin(t, project, hookEnv(home), strings.ReplaceAll(bash(tt.command), projectMark, project), "hook", "--for", "claude-code")
			assert.Equal(t, tt.want, answerAction(t, "claude-code", r), "stdout: %s\nstderr: %s", r.stdout, r.stderr)
		})
	}
}

// TestHookConfigThatCannotBeExaminedDenies: a user configuration that
// exists but cannot be examined (here its directory is a file) is never
// skipped: every call is refused until a person fixes it.
func TestHookConfigThatCannotBeExaminedDenies(t *testing.T) {
	project, home := hookProject(t)
	require.NoError(t, os.MkdirAll(filepath.Join(home, ".config"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(home, ".config", "sandboxauth"), []byte("not a directory"), 0o644))
	payload := `{"session_id": "s", "transcript_path": "{{PROJECT}}/.t.jsonl", "cwd": "{{PROJECT}}", "permission_mode": "default",
"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "git status"}, "tool_use_id": "toolu_01"}`
	r := runHookBin(t, project, hookEnv(home), strings.ReplaceAll(payload, projectMark, project), "hook", "--for", "claude-code")
	assert.Equal(t, "deny", answerAction(t, "claude-code", r), "stdout: %s\nstderr: %s", r.stdout, r.stderr)
	assert.Contains(t, r.stdout+r.stderr, "configuration")
}

// TestHookUsersSafeEntryIsFinal: a safe entry the user adds for a
// project-code command (go test) decides in the hook too: Codex, which
// cannot ask a person, lets it run, where without the entry it refuses.
func TestHookUsersSafeEntryIsFinal(t *testing.T) {
	payload := func(cmd string) string {
		return `{"session_id": "019a-codex", "turn_id": "turn-1", "transcript_path": null, "cwd": "{{PROJECT}}", "hook_event_name": "PreToolUse",
"model": "gpt-5-codex", "permission_mode": "default", "tool_name": "Bash", "tool_input": {"command": "` + cmd + `"}, "tool_use_id": "call_1"}`
	}
	tests := []struct {
		name, user, command, want string
	}{
		{"without the entry go test is refused", "", "go test ./...", "deny"},
		{"the user's entry lets go test run", `{"commands": {"safe": {"add": [{"command": "go", "args": ["test"]}]}}}`, "go test ./...", "none"},
		{"the entry covers nothing else", `{"commands": {"safe": {"add": [{"command": "go", "args": ["test"]}]}}}`, "go build ./...", "deny"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			project, home := hookProject(t)
			if tt.user != "" {
				cfgDir := filepath.Join(home, ".config", "sandboxauth")
				require.NoError(t, os.MkdirAll(cfgDir, 0o755))
				require.NoError(t, os.WriteFile(filepath.Join(cfgDir, "config.json"), []byte(tt.user), 0o644))
			}
			r := runHookBin(t, project, hookEnv(home), strings.ReplaceAll(payload(tt.command), projectMark, project), "hook", "--for", "codex")
			assert.Equal(t, tt.want, answerAction(t, "codex", r), "stdout: %s\nstderr: %s", r.stdout, r.stderr)
		})
	}
}

// TestHookProjectConfigPlaceholder: while a confined run of the project
// runs (a dev server), a missing .sandboxauth.json is an empty directory,
// the run's placeholder; the hook read it as a configuration and refused
// every call ("is a directory"). It now counts as missing; a directory
// with something in it is still an error.
func TestHookProjectConfigPlaceholder(t *testing.T) {
	payload := `{"session_id": "s", "transcript_path": "{{PROJECT}}/.t.jsonl", "cwd": "{{PROJECT}}", "permission_mode": "default",
"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "git status"}, "tool_use_id": "toolu_01"}`
	for _, tt := range []struct {
		name, inside, want string
	}{
		{"an empty directory: the placeholder", "", "allow"},
		{"a directory with a file in it", "x", "deny"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			project, home := hookProject(t)
			dir := filepath.Join(project, ".sandboxauth.json")
			require.NoError(t, os.Mkdir(dir, 0o755))
			if tt.inside != "" {
				require.NoError(t, os.WriteFile(filepath.Join(dir, tt.inside), nil, 0o644))
			}
			r := runHookBin(t, project, hookEnv(home), strings.ReplaceAll(payload, projectMark, project), "hook", "--for", "claude-code")
			assert.Equal(t, tt.want, answerAction(t, "claude-code", r), "stdout: %s\nstderr: %s", r.stdout, r.stderr)
		})
	}
}
