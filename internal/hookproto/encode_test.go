package hookproto

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readAnswer reads an answer the way the agent does and returns what it
// will do ("allow", "ask", "deny", or "none": no objection) and the reason
// it shows, if any.
func readAnswer(t testing.TB, agent string, a Answer) (string, string) {
	t.Helper()
	if a.ExitCode == 2 {
		return "deny", a.Stderr
	}
	require.Equal(t, 0, a.ExitCode, "these agents treat other statuses as hook errors")
	if len(a.Stdout) == 0 {
		return "none", ""
	}
	var v map[string]any
	require.NoError(t, json.Unmarshal(a.Stdout, &v), "stdout is one JSON object: %s", a.Stdout)
	s := func(m map[string]any, k string) string { x, _ := m[k].(string); return x }
	switch agent {
	case "claude-code", "codex":
		h, _ := v["hookSpecificOutput"].(map[string]any)
		require.Equal(t, "PreToolUse", s(h, "hookEventName"))
		return s(h, "permissionDecision"), s(h, "permissionDecisionReason")
	case "gemini-cli":
		return s(v, "decision"), s(v, "reason")
	case "cursor":
		return s(v, "permission"), s(v, "agent_message")
	case "copilot":
		return s(v, "permissionDecision"), s(v, "permissionDecisionReason")
	}
	t.Fatalf("unknown agent %q", agent)
	return "", ""
}

func TestEncode(t *testing.T) {
	// want[agent] is what the agent does with allow, ask and deny from an
	// event that can ask, and with ask from one that cannot.
	want := map[string][4]string{
		"claude-code": {"allow", "ask", "deny", "deny"},
		"codex":       {"none", "deny", "deny", "deny"},
		"gemini-cli":  {"allow", "ask", "deny", "deny"},
		"cursor":      {"allow", "ask", "deny", "deny"},
		"copilot":     {"allow", "ask", "deny", "deny"},
	}
	for _, name := range Names() {
		a := mustAgent(t, name)
		canAsk := name != "codex"
		req := &Request{Agent: name, Event: "E", CanAsk: canAsk}
		for i, d := range []Decision{{Action: Allow}, {Action: Ask, Reason: "why"}, {Action: Deny, Reason: "no"}} {
			got, reason := readAnswer(t, name, a.Encode(req, d))
			assert.Equal(t, want[name][i], got, "%s %v", name, d.Action)
			if got == "deny" || got == "ask" {
				assert.NotEmpty(t, strings.TrimSpace(reason), "%s %v carries a reason", name, d.Action)
			}
		}
		cannot := &Request{Agent: name, Event: "E", CanAsk: false, Kind: KindShell}
		got, reason := readAnswer(t, name, a.Encode(cannot, Decision{Action: Ask, Reason: "rm -rf is dangerous"}))
		assert.Equal(t, want[name][3], got, name)
		assert.Contains(t, reason, "rm -rf is dangerous")
		assert.Contains(t, reason, "cannot ask a person")
		// How to change the policy, for the kind of call refused: a
		// command's safe entry would not let a file be read.
		for kind, advice := range map[Kind]string{
			KindShell:  `{"commands": {"safe": {"add": [`,
			KindRead:   `{"protectedPaths": {"remove": [".env"]}}`,
			KindWrite:  `{"protectedPaths": {"remove": [".env"]}}`,
			KindEdit:   `{"protectedPaths": {"remove": [".env"]}}`,
			KindSearch: `{"protectedPaths": {"remove": [".env"]}}`,
			KindOther:  `a tool policy ("tools")`,
		} {
			_, reason := readAnswer(t, name, a.Encode(&Request{Agent: name, Event: "E", Kind: kind}, Decision{Action: Ask, Reason: "why"}))
			assert.Contains(t, reason, advice, "%s %s", name, kind)
			assert.Contains(t, reason, "~/.config/sandboxauth/config.json", "%s %s", name, kind)
			if kind != KindShell {
				assert.NotContains(t, reason, `"commands"`, "%s %s", name, kind)
			}
		}

		// The question's "needs your approval" becomes a refusal.
		_, reason = readAnswer(t, name, a.Encode(cannot, Decision{Action: Ask, Reason: "sandboxauth: running `rm -rf build` in /p needs your approval: the command is dangerous."}))
		assert.True(t, strings.HasPrefix(reason, "sandboxauth: running `rm -rf build` in /p was refused: the command is dangerous. This "), reason)
		assert.NotContains(t, reason, "needs your approval")

		// Without a decoded event, every answer is a deny, even one that
		// says allow.
		for _, d := range []Decision{{Action: Allow}, {Action: Ask}, {Action: Deny}, {Action: Action(9)}} {
			got, reason := readAnswer(t, name, a.Encode(nil, d))
			assert.Equal(t, "deny", got, "%s %v without an event", name, d.Action)
			assert.NotEmpty(t, reason)
		}
		// An empty reason is never sent with a deny (Codex ignores such a
		// deny).
		got, reason = readAnswer(t, name, a.Encode(req, Decision{Action: Deny, Reason: " "}))
		assert.Equal(t, "deny", got)
		assert.NotEmpty(t, strings.TrimSpace(reason))
	}
}

func TestNamesAndLookup(t *testing.T) {
	assert.Equal(t, []string{"claude-code", "codex", "copilot", "cursor", "gemini-cli"}, Names())
	_, ok := Lookup("vim")
	assert.False(t, ok)
}

func TestStricter(t *testing.T) {
	allow, ask, deny := Decision{Action: Allow}, Decision{Action: Ask, Reason: "q"}, Decision{Action: Deny, Reason: "no"}
	odd := Decision{Action: Action(9), Reason: "?"}
	assert.Equal(t, ask, Stricter(allow, ask))
	assert.Equal(t, deny, Stricter(deny, ask))
	assert.Equal(t, deny, Stricter(ask, deny))
	assert.Equal(t, odd, Stricter(ask, odd), "an unknown action counts as a refusal")
	first := Decision{Action: Deny, Reason: "first"}
	assert.Equal(t, first, Stricter(first, deny), "the first of equally strict answers")
}

// TestEncodeRewrite: an allow with a Command is sent to Claude Code's Bash
// tool as updatedInput (the command replaced, every other input field
// kept), and refused by every event that cannot rewrite, and with any
// action but allow, so that the original command never runs in its place.
func TestEncodeRewrite(t *testing.T) {
	bash := []byte(`{"session_id": "s", "cwd": "/p", "hook_event_name": "PreToolUse", "tool_name": "Bash",
"tool_input": {"command": "go test ./...", "description": "Run the tests", "timeout": 60000, "run_in_background": false}}`)
	cc := mustAgent(t, "claude-code")
	req, err := cc.Decode(bash)
	require.NoError(t, err)
	require.True(t, req.CanRewrite)
	a := cc.Encode(req, Decision{Action: Allow, Command: "sandboxauth run -- bash -c 'go test ./...'"})
	require.Equal(t, 0, a.ExitCode)
	var v struct {
		HookSpecificOutput struct {
			PermissionDecision string         `json:"permissionDecision"`
			UpdatedInput       map[string]any `json:"updatedInput"`
		} `json:"hookSpecificOutput"`
	}
	require.NoError(t, json.Unmarshal(a.Stdout, &v))
	assert.Equal(t, "allow", v.HookSpecificOutput.PermissionDecision)
	assert.Equal(t, map[string]any{"command": "sandboxauth run -- bash -c 'go test ./...'", "description": "Run the tests",
		"timeout": float64(60000), "run_in_background": false}, v.HookSpecificOutput.UpdatedInput)

	for _, d := range []Decision{{Action: Ask, Reason: "q", Command: "x"}, {Action: Deny, Reason: "no", Command: "x"}} {
		got, _ := readAnswer(t, "claude-code", cc.Encode(req, d))
		assert.Equal(t, "deny", got, "%v with a command", d.Action)
	}
	assert.NotContains(t, string(cc.Encode(req, Decision{Action: Allow}).Stdout), "updatedInput", "an allow without a command keeps the call's own")

	monitor, err := cc.Decode([]byte(`{"session_id": "s", "cwd": "/p", "hook_event_name": "PreToolUse", "tool_name": "Monitor", "tool_input": {"command": "tail -f log"}}`))
	require.NoError(t, err)
	assert.False(t, monitor.CanRewrite, "only the Bash tool is rewritten")

	for _, name := range Names() {
		if name == "claude-code" {
			continue
		}
		req := &Request{Agent: name, Event: "E", Kind: KindShell, Command: "go test ./...", CanAsk: true}
		got, reason := readAnswer(t, name, mustAgent(t, name).Encode(req, Decision{Action: Allow, Command: "x"}))
		assert.Equal(t, "deny", got, "%s cannot rewrite: the original must not run", name)
		assert.Contains(t, reason, "cannot change the command")
	}
}
