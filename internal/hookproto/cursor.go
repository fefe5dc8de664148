package hookproto

import (
	"path/filepath"
	"strings"
	"sync"
)

// Cursor, hooks in .cursor/hooks.json.
//
// Checked against Cursor's hooks documentation (https://cursor.com/docs/
// agent/hooks) as summarised by independent integrations
// (cupcake.eqtylab.io/reference/harnesses/cursor, the prisma-airs-cursor-
// hooks API reference): every event carries hook_event_name,
// conversation_id, generation_id and workspace_roots; beforeShellExecution
// adds command and cwd (which may be empty: then the first workspace root
// is the working directory), beforeReadFile adds file_path (absolute) and
// content, preToolUse adds tool_name and tool_input, beforeMCPExecution
// adds tool_name and tool_input. The answer is {"permission":
// "allow"|"deny"|"ask", "user_message": "...", "agent_message": "..."};
// beforeReadFile reads the permission alone and cannot ask (the messages
// are written for it all the same: a reader that ignores them loses
// nothing). A hook entry
// with "failClosed": true blocks the action when the hook fails.
// The documented answer has no field that changes the command, so no
// Cursor request can rewrite.

// cursor is the Cursor protocol.
type cursor struct{}

func (cursor) Name() string { return "cursor" }

// cursorTools returns (built on first use: a hook decodes one agent's events) the map of the tools of Cursor's preToolUse event to what they
// touch. Cursor names the path field differently across tools, so any of
// the usual spellings is read.
var cursorPathKeys = []string{"file_path", "path", "target_file"}

var cursorTools = sync.OnceValue(func() map[string]toolSpec {
	return map[string]toolSpec{
		"Shell":      {kind: KindShell, command: "command", cwdKey: "cwd"},
		"Read":       {kind: KindRead, path: cursorPathKeys},
		"Write":      {kind: KindWrite, path: cursorPathKeys},
		"Edit":       {kind: KindEdit, path: cursorPathKeys},
		"StrReplace": {kind: KindEdit, path: cursorPathKeys},
		"MultiEdit":  {kind: KindEdit, path: cursorPathKeys},
		"Delete":     {kind: KindEdit, path: cursorPathKeys},
		"LS":         {kind: KindRead, path: cursorPathKeys, dirs: []string{"path"}},
		"Glob":       {kind: KindSearch, dirs: []string{"path"}, globs: []string{"pattern", "glob_pattern"}},
		"Grep":       {kind: KindSearch, dirs: []string{"path"}, globs: []string{"glob"}, contents: true},
	}
})

func (c cursor) Decode(payload []byte) (*Request, error) {
	ev, err := object("event", payload)
	if err != nil {
		return nil, err
	}
	event, err := ev.str("hook_event_name")
	if err != nil {
		return nil, err
	}
	req := &Request{Agent: c.Name(), Event: event, CanAsk: event != "beforeReadFile"}
	if req.Session, _, err = ev.optStr("conversation_id"); err != nil {
		return nil, err
	}
	roots, err := ev.strList("workspace_roots")
	if err != nil {
		return nil, err
	}
	cwd, _, err := ev.optStr("cwd")
	if err != nil {
		return nil, err
	}
	if cwd == "" {
		if len(roots) == 0 {
			return nil, malformed("event has neither cwd nor workspace_roots")
		}
		cwd = roots[0]
	}
	if req.Cwd, err = absDir("event.cwd", cwd); err != nil {
		return nil, err
	}
	req.ProjectDir = req.Cwd
	for i, r := range roots {
		root, err := absDir("event.workspace_roots", r)
		if err != nil {
			return nil, err
		}
		if i == 0 || within(root, req.Cwd) {
			req.ProjectDir = root
		}
		if within(root, req.Cwd) {
			break
		}
	}
	switch event {
	case "beforeShellExecution":
		err = toolSpec{kind: KindShell, command: "command"}.apply(req, ev)
		req.Tool = "Shell"
	case "beforeReadFile":
		err = toolSpec{kind: KindRead, path: []string{"file_path"}}.apply(req, ev)
		req.Tool = "Read"
	case "preToolUse", "beforeMCPExecution":
		if req.Tool, err = ev.str("tool_name"); err != nil {
			return nil, err
		}
		if req.Tool == "" {
			return nil, malformed("event.tool_name is empty")
		}
		var in fields
		if in, err = ev.obj("tool_input"); err != nil {
			return nil, err
		}
		if event == "preToolUse" {
			err = specFor(cursorTools(), req.Tool).apply(req, in)
		} else {
			req.Kind = KindOther
		}
	default:
		return nil, malformed("event %q is not one the hook decides (beforeShellExecution, beforeReadFile, preToolUse, beforeMCPExecution)", event)
	}
	if err != nil {
		return nil, err
	}
	return req, nil
}

// within reports whether p is root or lies lexically beneath it.
func within(root, p string) bool {
	return p == root || strings.HasPrefix(p, strings.TrimSuffix(root, string(filepath.Separator))+string(filepath.Separator))
}

func (cursor) Encode(req *Request, d Decision) Answer {
	d = settle(req, d)
	out := map[string]string{"permission": d.Action.String()}
	if d.Action != Allow {
		out["user_message"] = d.Reason
		out["agent_message"] = d.Reason
	}
	return Answer{Stdout: marshal(out)}
}
