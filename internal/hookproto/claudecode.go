package hookproto

import (
	"encoding/json"
	"sync"
)

// Claude Code, PreToolUse command hooks.
//
// Checked against the hooks reference (https://code.claude.com/docs/en/hooks,
// "PreToolUse", "Exit code 2", "JSON output"): the event on stdin carries
// session_id, cwd, hook_event_name, tool_name and tool_input (file paths
// absolute); the answer is {"hookSpecificOutput": {"hookEventName":
// "PreToolUse", "permissionDecision": "allow"|"deny"|"ask",
// "permissionDecisionReason": "..."}}, whose reason the model reads on a
// deny and the person on an ask. Exit status 2 blocks the call and feeds
// stderr to the model; any other non-zero status is a non-blocking error
// that lets the call run, and stdout is ignored on exit 2. So a deny is
// written both ways: the JSON on stdout, the reason on stderr, exit 2.
// Hooks run with CLAUDE_PROJECT_DIR set to the project root.
//
// Rewriting ("PreToolUse decision control" in the same reference): with
// "permissionDecision": "allow", "updatedInput" replaces the tool's input
// before it runs, without a prompt. The whole input is sent back, the
// command replaced and every other field (description, timeout,
// run_in_background) as the agent sent it. Only the Bash tool is rewritten.

// claudeCode is the Claude Code protocol.
type claudeCode struct{}

func (claudeCode) Name() string { return "claude-code" }

// claudeTools returns (built on first use: a hook decodes one agent's events) the map of Claude Code's built-in tools to what they touch.
var claudeTools = sync.OnceValue(func() map[string]toolSpec {
	return map[string]toolSpec{
		"Bash":         {kind: KindShell, command: "command", rewrite: true},
		"Monitor":      {kind: KindShell, command: "command"},
		"Read":         {kind: KindRead, path: []string{"file_path"}},
		"NotebookRead": {kind: KindRead, path: []string{"notebook_path"}},
		"LS":           {kind: KindRead, path: []string{"path"}},
		"Write":        {kind: KindWrite, path: []string{"file_path"}},
		"Edit":         {kind: KindEdit, path: []string{"file_path"}},
		"MultiEdit":    {kind: KindEdit, path: []string{"file_path"}},
		"NotebookEdit": {kind: KindEdit, path: []string{"notebook_path"}},
		"Glob":         {kind: KindSearch, dirs: []string{"path"}, globs: []string{"pattern"}},
		"Grep":         {kind: KindSearch, dirs: []string{"path"}, globs: []string{"glob"}, contents: true},
	}
})

func (c claudeCode) Decode(payload []byte) (*Request, error) {
	return decodeClaudeStyle(c.Name(), payload, claudeTools())
}

// decodeClaudeStyle decodes the PreToolUse event shared by Claude Code and
// Codex: snake_case fields, tool_input an object.
func decodeClaudeStyle(agent string, payload []byte, tools map[string]toolSpec) (*Request, error) {
	return decodeSnakeCase(agent, "PreToolUse", agent == "claude-code", payload, tools)
}

// decodeSnakeCase decodes the event shape Claude Code, Codex and Gemini
// CLI share: hook_event_name (which must be event), tool_name, cwd,
// session_id and a tool_input object, read with the agent's tools.
func decodeSnakeCase(agent, event string, canAsk bool, payload []byte, tools map[string]toolSpec) (*Request, error) {
	ev, err := object("event", payload)
	if err != nil {
		return nil, err
	}
	name, err := ev.str("hook_event_name")
	if err != nil {
		return nil, err
	}
	if name != event {
		return nil, malformed("event %q is not %s", name, event)
	}
	req := &Request{Agent: agent, Event: event, CanAsk: canAsk}
	if err := ev.header(req, "tool_name", "session_id"); err != nil {
		return nil, err
	}
	in, err := ev.obj("tool_input")
	if err != nil {
		return nil, err
	}
	if err := specFor(tools, req.Tool).apply(req, in); err != nil {
		return nil, err
	}
	return req, nil
}

func (claudeCode) Encode(req *Request, d Decision) Answer {
	d = settle(req, d)
	specific := map[string]any{"hookEventName": "PreToolUse", "permissionDecision": d.Action.String()}
	if d.Reason != "" {
		specific["permissionDecisionReason"] = d.Reason
	}
	if d.Action == Allow && d.Command != "" {
		specific["updatedInput"] = rewrittenInput(req, d.Command)
	}
	out := marshal(map[string]any{"hookSpecificOutput": specific})
	if d.Action == Deny {
		return Answer{Stdout: out, Stderr: d.Reason, ExitCode: 2}
	}
	return Answer{Stdout: out}
}

// rewrittenInput is the tool input of req with its command replaced by
// command and every other member as the agent sent it.
func rewrittenInput(req *Request, command string) map[string]json.RawMessage {
	in := make(map[string]json.RawMessage, len(req.input)+1)
	for k, v := range req.input {
		in[k] = v
	}
	b, _ := json.Marshal(command) // a string always encodes
	in["command"] = b
	return in
}
