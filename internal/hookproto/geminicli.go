package hookproto

import "sync"

// Gemini CLI, BeforeTool command hooks in settings.json.
//
// Checked against google-gemini/gemini-cli: docs/hooks/reference.md (the
// event carries session_id, cwd, hook_event_name, timestamp, tool_name and
// tool_input, the model's raw arguments; the answer's "decision" is
// "allow", "deny" (alias "block") or "ask" with a "reason" sent to the
// agent; exit 2 blocks with stderr as the reason; other non-zero statuses
// are warnings and the call goes on), packages/core/src/hooks/
// hookRunner.ts (stdout is parsed as JSON whatever the exit status, and
// stderr only when stdout is empty), packages/core/src/scheduler/
// scheduler.ts (an "ask" forces the confirmation prompt) and
// packages/core/src/tools/definitions/base-declarations.ts (parameter
// names file_path, dir_path, pattern, include). Relative file paths are
// resolved by the tools against the project directory, which is the cwd
// of the event (GEMINI_PROJECT_DIR in the hook's environment). An allow
// cannot skip Gemini's own confirmation: it only says the hook has no objection.
//
// Rewriting: hookSpecificOutput.tool_input "merges with and overrides the
// model's arguments" (docs/hooks/reference.md, BeforeTool). It is not used:
// an allow cannot spare the person Gemini's confirmation anyway, and a
// version without the merge would run the original command unconfined once
// confirmed, so no Gemini CLI request can rewrite and project code is
// asked about.

// geminiCLI is the Gemini CLI protocol.
type geminiCLI struct{}

func (geminiCLI) Name() string { return "gemini-cli" }

// geminiTools returns (built on first use: a hook decodes one agent's events) the map of Gemini CLI's built-in tools to what they touch.
var geminiTools = sync.OnceValue(func() map[string]toolSpec {
	return map[string]toolSpec{
		"run_shell_command": {kind: KindShell, command: "command", cwdKey: "dir_path"},
		"read_file":         {kind: KindRead, path: []string{"file_path"}},
		"list_directory":    {kind: KindRead, path: []string{"dir_path"}},
		"read_many_files":   {kind: KindSearch, dirs: []string{"dir_path"}, globLists: []string{"include", "paths"}, contents: true}, // paths: earlier versions
		"write_file":        {kind: KindWrite, path: []string{"file_path"}},
		"replace":           {kind: KindEdit, path: []string{"file_path"}},
		"glob":              {kind: KindSearch, dirs: []string{"dir_path"}, globs: []string{"pattern"}},
		"grep_search":       {kind: KindSearch, dirs: []string{"dir_path"}, globs: []string{"include_pattern"}, contents: true},
		// search_file_content is grep_search's earlier name, whose parameters
		// were path and include; every spelling present is checked.
		"search_file_content": {kind: KindSearch, dirs: []string{"path", "dir_path"}, globs: []string{"include", "include_pattern"}, contents: true},
	}
})

func (g geminiCLI) Decode(payload []byte) (*Request, error) {
	return decodeSnakeCase(g.Name(), "BeforeTool", true, payload, geminiTools())
}

func (geminiCLI) Encode(req *Request, d Decision) Answer {
	d = settle(req, d)
	switch d.Action {
	case Allow:
		return Answer{Stdout: marshal(map[string]string{"decision": "allow"})}
	case Ask:
		return Answer{Stdout: marshal(map[string]string{"decision": "ask", "reason": d.Reason})}
	}
	return Answer{Stdout: marshal(map[string]string{"decision": "deny", "reason": d.Reason}), Stderr: d.Reason, ExitCode: 2}
}
