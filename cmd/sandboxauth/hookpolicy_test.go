package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/confine"
	"github.com/sandboxauth/sandboxauth/internal/hookproto"
)

// claudeEvent is a Claude Code PreToolUse event.
func claudeEvent(cwd, tool string, input map[string]any) string {
	b, _ := json.Marshal(map[string]any{"session_id": "s", "cwd": cwd, "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": input})
	return string(b)
}

// claudeDecision runs a Claude Code event through the binary and returns
// the permissionDecision and its reason.
func claudeDecision(t *testing.T, dir string, env []string, event string, args ...string) (string, string, result) {
	t.Helper()
	r := runHookBin(t, dir, env, event, append([]string{"hook", "--for", "claude-code"}, args...)...)
	var v struct {
		Out struct {
			Decision string `json:"permissionDecision"`
			Reason   string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &v), "stdout: %s\nstderr: %s", r.stdout, r.stderr)
	if v.Out.Decision == "deny" {
		assert.Equal(t, 2, r.code, "a Claude Code deny exits 2")
	} else {
		assert.Equal(t, 0, r.code)
	}
	return v.Out.Decision, v.Out.Reason, r
}

const rmBuildSafe = `{"commands": {"safe": {"add": [{"command": "rm", "args": ["-rf", "build"], "reason": "our clean step"}]}}}`

func TestHookConfigFiles(t *testing.T) {
	rm := func(p string) string { return claudeEvent(p, "Bash", map[string]any{"command": "rm -rf build"}) }

	t.Run("defaults", func(t *testing.T) {
		project, home := hookProject(t)
		d, _, _ := claudeDecision(t, project, hookEnv(home), rm(project))
		assert.Equal(t, "ask", d)
	})
	t.Run("--config", func(t *testing.T) {
		project, home := hookProject(t)
		cfg := filepath.Join(home, "policy.json")
		require.NoError(t, os.WriteFile(cfg, []byte(rmBuildSafe), 0o644))
		d, _, _ := claudeDecision(t, project, hookEnv(home), rm(project), "--config", cfg)
		assert.Equal(t, "allow", d)
	})
	t.Run("project file narrows", func(t *testing.T) {
		project, home := hookProject(t)
		require.NoError(t, os.WriteFile(filepath.Join(project, ".sandboxauth.json"), []byte(`{"commands": {"blocked": {"add": [{"command": "terraform", "reason": "no infrastructure changes here"}]}}}`), 0o644))
		d, reason, _ := claudeDecision(t, project, hookEnv(home), claudeEvent(project, "Bash", map[string]any{"command": "terraform apply"}))
		assert.Equal(t, "deny", d)
		assert.Contains(t, reason, "no infrastructure changes here")
	})
	t.Run("project file cannot widen", func(t *testing.T) {
		project, home := hookProject(t)
		path := filepath.Join(project, ".sandboxauth.json")
		require.NoError(t, os.WriteFile(path, []byte("{\"commands\": {\"safe\": {\"add\": [\n  {\"command\": \"curl\", \"overrideBlocked\": true}]}},\n \"policy\": \"permissive\"}"), 0o644))
		d, reason, _ := claudeDecision(t, project, hookEnv(home), claudeEvent(project, "Bash", map[string]any{"command": "ls"}))
		assert.Equal(t, "deny", d, "a repository's own policy file must not let curl run")
		assert.Contains(t, reason, path+":2:3: commands.safe.add[0]: adds a safe command")
		assert.Contains(t, reason, path+`:3:12: policy: the policy "permissive" allows more than "sandbox"`)
		assert.Contains(t, reason, "may only narrow the defaults")
		// Where the entry may go instead, as a path the user can open.
		assert.Contains(t, reason, "put this in the user's "+filepath.Join(home, ".config", "sandboxauth", "config.json")+" or pass --config")
	})
	t.Run("confine: project code runs rewritten to a confined run", func(t *testing.T) {
		if err := confine.Available(); err != nil {
			t.Skipf("this kernel cannot confine, so the hook does not rewrite: %v", err)
		}
		project, home := hookProject(t)
		cfg := filepath.Join(home, "policy.json")
		require.NoError(t, os.WriteFile(cfg, []byte(`{"confine": {"network": false}}`), 0o644))
		d, _, r := claudeDecision(t, project, hookEnv(home), claudeEvent(project, "Bash", map[string]any{"command": "go test ./..."}), "--config", cfg)
		assert.Equal(t, "allow", d)
		assert.Contains(t, r.stdout, `"updatedInput":{"command":`)
		assert.Contains(t, r.stdout, " run --config '"+cfg+"' --sandbox '"+project+"' -- bash -c 'go test ./...'")
	})
	t.Run("user file", func(t *testing.T) {
		project, home := hookProject(t)
		cfg := filepath.Join(home, ".config", "sandboxauth", "config.json")
		require.NoError(t, os.MkdirAll(filepath.Dir(cfg), 0o755))
		require.NoError(t, os.WriteFile(cfg, []byte(rmBuildSafe), 0o644))
		d, _, _ := claudeDecision(t, project, hookEnv(home), rm(project))
		assert.Equal(t, "allow", d)
	})
	t.Run("the project file comes before the user's", func(t *testing.T) {
		project, home := hookProject(t)
		cfg := filepath.Join(home, ".config", "sandboxauth", "config.json")
		require.NoError(t, os.MkdirAll(filepath.Dir(cfg), 0o755))
		require.NoError(t, os.WriteFile(cfg, []byte(rmBuildSafe), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(project, ".sandboxauth.json"), []byte(`{}`), 0o644))
		d, _, _ := claudeDecision(t, project, hookEnv(home), rm(project))
		assert.Equal(t, "ask", d)
	})
	t.Run("a broken file refuses every call, naming the file and the key", func(t *testing.T) {
		project, home := hookProject(t)
		path := filepath.Join(project, ".sandboxauth.json")
		require.NoError(t, os.WriteFile(path, []byte("{\n  \"commands\": {\"blocked\": {\"add\": [{\"command\": \"ls\", \"colour\": 1}]}}\n}"), 0o644))
		d, reason, r := claudeDecision(t, project, hookEnv(home), claudeEvent(project, "Bash", map[string]any{"command": "ls"}))
		assert.Equal(t, "deny", d)
		assert.Contains(t, reason, path+":2:54: commands.blocked.add[0].colour: unknown field")
		assert.Contains(t, r.stderr, "could not be loaded")
		// The worst fact first: nothing runs until a person acts.
		assert.True(t, strings.HasPrefix(reason, "sandboxauth: every tool call is refused until a person fixes the hook's configuration"), reason)
		assert.Contains(t, reason, "retrying will not help")
	})
	t.Run("a tool policy decides under the agent's names", func(t *testing.T) {
		project, home := hookProject(t)
		cfg := filepath.Join(home, "policy.json")
		require.NoError(t, os.WriteFile(cfg, []byte(`{"tools": {"profile": "coding", "deny": ["run_shell_command"]}}`), 0o644))
		d, reason, _ := claudeDecision(t, project, hookEnv(home), claudeEvent(project, "Bash", map[string]any{"command": "ls"}), "--config", cfg)
		assert.Equal(t, "deny", d, "Gemini CLI's name of the shell tool is Claude Code's Bash")
		assert.Contains(t, reason, `the tool "Bash" is not available`)
		d, _, _ = claudeDecision(t, project, hookEnv(home), claudeEvent(project, "WebFetch", map[string]any{"url": "https://example.com"}), "--config", cfg)
		assert.Equal(t, "deny", d, "a tool the policy does not give is refused, not asked about")
		d, _, _ = claudeDecision(t, project, hookEnv(home), claudeEvent(project, "Read", map[string]any{"file_path": filepath.Join(project, "main.go")}), "--config", cfg)
		assert.Equal(t, "allow", d)
	})
	t.Run("a project file cannot set a tool policy", func(t *testing.T) {
		project, home := hookProject(t)
		path := filepath.Join(project, ".sandboxauth.json")
		require.NoError(t, os.WriteFile(path, []byte(`{"tools": {"profile": "full"}}`), 0o644))
		d, reason, _ := claudeDecision(t, project, hookEnv(home), claudeEvent(project, "WebFetch", map[string]any{"url": "https://example.com"}))
		assert.Equal(t, "deny", d)
		assert.Contains(t, reason, path+":1:11: tools: sets a tool policy")
	})
	t.Run("a missing --config refuses", func(t *testing.T) {
		project, home := hookProject(t)
		d, reason, _ := claudeDecision(t, project, hookEnv(home), claudeEvent(project, "Bash", map[string]any{"command": "ls"}), "--config", filepath.Join(home, "nope.json"))
		assert.Equal(t, "deny", d)
		assert.Contains(t, reason, "nope.json")
	})
}

func TestHookProjectDirFromEnvironment(t *testing.T) {
	project, home := hookProject(t)
	sub := filepath.Join(project, "sub")
	require.NoError(t, os.Mkdir(sub, 0o755))
	read := claudeEvent(sub, "Read", map[string]any{"file_path": "../main.go"})

	// Without CLAUDE_PROJECT_DIR the event's cwd is the sandbox.
	d, _, _ := claudeDecision(t, sub, hookEnv(home), read)
	assert.Equal(t, "deny", d)
	// With it, the project root is.
	d, _, _ = claudeDecision(t, sub, hookEnv(home, "CLAUDE_PROJECT_DIR="+project), read)
	assert.Equal(t, "allow", d)
	// A relative value is ignored, never trusted.
	d, _, _ = claudeDecision(t, sub, hookEnv(home, "CLAUDE_PROJECT_DIR=.."), read)
	assert.Equal(t, "deny", d)
}

func TestHookUsageErrorsBlock(t *testing.T) {
	project, home := hookProject(t)
	for _, args := range [][]string{{"hook"}, {"hook", "--for", "vim"}, {"hook", "--for", "codex", "extra"}, {"hook", "--bogus"}} {
		r := runHookBin(t, project, hookEnv(home), "{}", args...)
		assert.Equal(t, exitDeny, r.code, "%v: a misconfigured hook must block, not exit 1 or 3", args)
		assert.NotEmpty(t, r.stderr)
	}
	r := runHookBin(t, project, hookEnv(home), "", "hook", "--help")
	assert.Equal(t, 0, r.code)
	assert.Contains(t, r.stdout, "never fails open")
}

// panicAgent is a protocol whose decoder panics.
type panicAgent struct{ hookproto.Agent }

func (panicAgent) Decode([]byte) (*hookproto.Request, error) { panic("decoder bug") }

func TestHookRecoversFromPanics(t *testing.T) {
	for _, name := range hookproto.Names() {
		a, _ := hookproto.Lookup(name)
		ans := hookAnswer(strings.NewReader("{}"), panicAgent{a}, "")
		reason := ans.Stderr + string(ans.Stdout)
		assert.Contains(t, reason, "internal error", name)
		assert.Contains(t, reason, "decoder bug", name)
		switch name {
		case "claude-code", "codex", "gemini-cli":
			assert.Equal(t, 2, ans.ExitCode, name)
		default:
			assert.Contains(t, string(ans.Stdout), `"deny"`, name)
		}
	}
}
