package hookproto

import (
	"encoding/json"
	"strings"
	"sync"
)

// GitHub Copilot CLI, preToolUse hooks in .github/hooks/*.json.
//
// Checked against the Copilot CLI hooks reference (https://docs.github.com/
// en/copilot/reference/copilot-cli-reference/cli-hooks-reference) and the
// Copilot SDK's pre-tool-use hook page: the event carries timestamp, cwd,
// toolName and toolArgs (an object, or the arguments as a JSON string); the
// answer is {"permissionDecision": "allow"|"deny"|"ask",
// "permissionDecisionReason": "..."}, and empty output means the default
// behaviour. Exit 2, crashes and other non-zero statuses deny the call;
// a timeout lets it run. The shell tools are "bash" and "powershell"; the
// file tools take "path".
// The CLI's hooks reference documents no field that changes the tool's
// arguments (modifiedArgs belongs to the SDK's in-process hook), so no
// Copilot request can rewrite.

// copilot is the Copilot CLI protocol.
type copilot struct{}

func (copilot) Name() string { return "copilot" }

// copilotTools returns (built on first use: a hook decodes one agent's events) the map of Copilot CLI's tools, by lower-cased name, to what they
// touch.
var copilotTools = sync.OnceValue(func() map[string]toolSpec {
	return map[string]toolSpec{
		"bash":        {kind: KindShell, command: "command"},
		"view":        {kind: KindRead, path: []string{"path", "file_path"}},
		"read":        {kind: KindRead, path: []string{"path", "file_path"}},
		"create":      {kind: KindWrite, path: []string{"path", "file_path"}},
		"write":       {kind: KindWrite, path: []string{"path", "file_path"}},
		"edit":        {kind: KindEdit, path: []string{"path", "file_path"}},
		"str_replace": {kind: KindEdit, path: []string{"path", "file_path"}},
		"glob":        {kind: KindSearch, dirs: []string{"path"}, globs: []string{"pattern"}},
		"grep":        {kind: KindSearch, dirs: []string{"path"}, globs: []string{"glob"}, contents: true},
	}
})

func (c copilot) Decode(payload []byte) (*Request, error) {
	ev, err := object("event", payload)
	if err != nil {
		return nil, err
	}
	req := &Request{Agent: c.Name(), Event: "preToolUse", CanAsk: true}
	if err := ev.header(req, "toolName", "sessionId"); err != nil {
		return nil, err
	}
	if !ev.has("toolArgs") {
		return nil, malformed("event.toolArgs is missing")
	}
	raw := ev.m["toolArgs"]
	if strings.HasPrefix(strings.TrimSpace(string(raw)), "\"") {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, malformed("event.toolArgs is not a JSON string")
		}
		raw = json.RawMessage(s)
	}
	in, err := object("toolArgs", raw)
	if err != nil {
		return nil, err
	}
	if err := specFor(copilotTools(), strings.ToLower(req.Tool)).apply(req, in); err != nil {
		return nil, err
	}
	return req, nil
}

func (copilot) Encode(req *Request, d Decision) Answer {
	d = settle(req, d)
	out := map[string]string{"permissionDecision": d.Action.String()}
	if d.Action != Allow {
		out["permissionDecisionReason"] = d.Reason
	}
	return Answer{Stdout: marshal(out)}
}
