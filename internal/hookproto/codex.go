package hookproto

import (
	"encoding/json"
	"strings"
	"sync"
)

// Codex, PreToolUse hooks in .codex/hooks.json (or config.toml).
//
// Checked against the source of openai/codex (codex-rs/hooks/src/events/
// pre_tool_use.rs and engine/output_parser.rs): the event carries
// session_id, turn_id, cwd, hook_event_name "PreToolUse", tool_name (shell
// calls as "Bash", edits as "apply_patch" with the patch text in
// tool_input.command, MCP tools by name) and tool_input. Only a deny is
// honoured: permissionDecision "deny" with a non-empty
// permissionDecisionReason, or exit 2 with the reason on stderr.
// permissionDecision "allow" (without updatedInput) and "ask" are reported
// as unsupported and the call runs, as it does when the hook crashes,
// times out or exits with another status. So an allow is an empty answer
// (no objection; Codex's own approval flow goes on), an ask is a deny
// saying a person must approve, and a deny is written both as JSON and as
// exit 2 with the reason on stderr.
//
// Rewriting: Codex applies updatedInput with permissionDecision "allow"
// only since openai/codex pull request 20527 ("Support PreToolUse
// updatedInput rewrites", May 2026); earlier versions reject it and the
// call runs as it stands. An older Codex would thus run a command the hook
// meant to confine unconfined, so no Codex request can rewrite
// (Request.CanRewrite is false).

// codex is the Codex protocol.
type codex struct{}

func (codex) Name() string { return "codex" }

// codexTools returns (built on first use: a hook decodes one agent's events) the map of Codex's tools to what they touch. apply_patch is decoded
// separately (its paths are in the patch).
var codexTools = sync.OnceValue(func() map[string]toolSpec {
	return map[string]toolSpec{
		"Bash":        {kind: KindShell, command: "command"},
		"shell":       {kind: KindShell, command: "command"},
		"local_shell": {kind: KindShell, command: "command"},
		"exec":        {kind: KindShell, command: "command"},
	}
})

func (c codex) Decode(payload []byte) (*Request, error) {
	// Decode the shared fields with a table that leaves the tools this
	// function looks into itself as KindOther, then fill them in.
	req, err := decodeClaudeStyle(c.Name(), payload, nil)
	if err != nil {
		return nil, err
	}
	ev, _ := object("event", payload) // decoded once already
	in, _ := ev.obj("tool_input")
	switch {
	case req.Tool == "apply_patch":
		req.Kind = KindEdit
		patch, err := in.str("command")
		if err != nil {
			return nil, err
		}
		files, err := PatchFiles(patch)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			abs, err := resolve("apply_patch file", req.Cwd, f)
			if err != nil {
				return nil, err
			}
			req.Paths = append(req.Paths, abs)
		}
	case codexTools()[req.Tool].kind == KindShell:
		req.Kind = KindShell
		// Codex's shell tools take the directory to run in as workdir;
		// the command runs there, not in the session's cwd.
		wd, ok, err := in.optStr("workdir")
		if err != nil {
			return nil, err
		}
		if ok {
			if req.Cwd, err = resolve("tool_input.workdir", req.Cwd, wd); err != nil {
				return nil, err
			}
		}
		// The command is a script, or an argv.
		if raw, ok := in.m["command"]; ok && strings.HasPrefix(strings.TrimSpace(string(raw)), "[") {
			var argv []string
			if err := json.Unmarshal(raw, &argv); err != nil || len(argv) == 0 {
				return nil, malformed("tool_input.command is neither a string nor a non-empty list of strings")
			}
			req.Argv = argv
			break
		}
		if err := codexTools()[req.Tool].apply(req, in); err != nil {
			return nil, err
		}
	}
	return req, nil
}

func (codex) Encode(req *Request, d Decision) Answer {
	d = settle(req, d)
	if d.Action != Deny {
		return Answer{}
	}
	out := marshal(map[string]any{"hookSpecificOutput": map[string]string{
		"hookEventName":            "PreToolUse",
		"permissionDecision":       "deny",
		"permissionDecisionReason": d.Reason,
	}})
	return Answer{Stdout: out, Stderr: d.Reason, ExitCode: 2}
}
