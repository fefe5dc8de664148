package hookproto_test

import (
	"fmt"

	"github.com/sandboxauth/sandboxauth/internal/hookproto"
)

// A hook decodes the agent's event, decides it, and encodes the decision in
// the agent's protocol. Codex cannot ask from PreToolUse, so an ask
// becomes a deny (exit status 2) that says a person must decide, and how
// to change the policy.
func ExampleLookup() {
	agent, _ := hookproto.Lookup("codex")
	req, err := agent.Decode([]byte(`{"session_id":"s","cwd":"/src/app","hook_event_name":"PreToolUse",
		"tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Update File: main.go\n@@\n-a\n+b\n*** Update File: .mcp.json\n@@\n-a\n+b\n*** End Patch"}}`))
	if err != nil {
		ans := agent.Encode(nil, hookproto.Decision{Action: hookproto.Deny, Reason: err.Error()})
		fmt.Println(ans.ExitCode)
		return
	}
	fmt.Println(req.Kind, req.Paths)
	ans := agent.Encode(req, hookproto.Decision{Action: hookproto.Ask, Reason: "sandboxauth: apply_patch (edit) on /src/app/.mcp.json needs your approval: protected path .mcp.json"})
	fmt.Println(ans.ExitCode)
	fmt.Println(ans.Stderr)
	// Output:
	// edit [/src/app/main.go /src/app/.mcp.json]
	// 2
	// sandboxauth: apply_patch (edit) on /src/app/.mcp.json was refused: protected path .mcp.json. This codex hook event (PreToolUse) cannot ask a person, and sandboxauth asks a person about such calls. A person can do it themselves, or let such calls run by removing the protected path's pattern in the user's policy file (sandboxauth/config.json in the user configuration directory, ~/.config/sandboxauth/config.json on Linux), for example {"protectedPaths": {"remove": [".env"]}}; `sandboxauth defaults protected` lists the patterns. Continue without it, or stop and say what you need.
}
