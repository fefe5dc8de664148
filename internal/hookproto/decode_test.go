package hookproto

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func mustAgent(t *testing.T, name string) Agent {
	t.Helper()
	a, ok := Lookup(name)
	require.True(t, ok, name)
	return a
}

func TestDecode(t *testing.T) {
	cases := []struct {
		name, agent, payload string
		want                 Request
	}{
		{"claude bash", "claude-code",
			`{"session_id":"s1","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls","timeout":5}}`,
			Request{Agent: "claude-code", Event: "PreToolUse", Kind: KindShell, Tool: "Bash", Command: "ls", Cwd: "/p", ProjectDir: "/p", Session: "s1", CanAsk: true,
				CanRewrite: true, input: map[string]json.RawMessage{"command": json.RawMessage(`"ls"`), "timeout": json.RawMessage(`5`)}}},
		{"claude relative path resolved against cwd", "claude-code",
			`{"cwd":"/p/sub","hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"../a.go","old_string":"x","new_string":"y"}}`,
			Request{Agent: "claude-code", Event: "PreToolUse", Kind: KindEdit, Tool: "Edit", Paths: []string{"/p/a.go"}, Cwd: "/p/sub", ProjectDir: "/p/sub", CanAsk: true}},
		{"claude grep without path searches cwd", "claude-code",
			`{"cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Grep","tool_input":{"pattern":"TODO"}}`,
			Request{Agent: "claude-code", Event: "PreToolUse", Kind: KindSearch, Tool: "Grep", Paths: []string{"/p"}, Contents: true, Cwd: "/p", ProjectDir: "/p", CanAsk: true}},
		{"claude glob with an absolute pattern", "claude-code",
			`{"cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Glob","tool_input":{"pattern":"/etc/**/*.conf"}}`,
			Request{Agent: "claude-code", Event: "PreToolUse", Kind: KindSearch, Tool: "Glob", Paths: []string{"/p", "/etc"}, Cwd: "/p", ProjectDir: "/p", CanAsk: true}},
		{"claude glob climbing after a wildcard reaches anywhere", "claude-code",
			`{"cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Glob","tool_input":{"pattern":"*/../../x"}}`,
			Request{Agent: "claude-code", Event: "PreToolUse", Kind: KindSearch, Tool: "Glob", Paths: []string{"/p", "/"}, Cwd: "/p", ProjectDir: "/p", CanAsk: true}},
		{"claude mcp tool", "claude-code",
			`{"cwd":"/p","hook_event_name":"PreToolUse","tool_name":"mcp__fs__read","tool_input":{"path":"/etc/passwd"}}`,
			Request{Agent: "claude-code", Event: "PreToolUse", Kind: KindOther, Tool: "mcp__fs__read", Cwd: "/p", ProjectDir: "/p", CanAsk: true}},
		{"codex patch", "codex",
			`{"session_id":"c","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Add File: a\n+x\n*** Delete File: /q/b\n*** End Patch"}}`,
			Request{Agent: "codex", Event: "PreToolUse", Kind: KindEdit, Tool: "apply_patch", Paths: []string{"/p/a", "/q/b"}, Cwd: "/p", ProjectDir: "/p", Session: "c"}},
		{"codex argv", "codex",
			`{"cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":["git","status"]}}`,
			Request{Agent: "codex", Event: "PreToolUse", Kind: KindShell, Tool: "Bash", Argv: []string{"git", "status"}, Cwd: "/p", ProjectDir: "/p"}},
		{"codex shell in its workdir", "codex",
			`{"cwd":"/p","hook_event_name":"PreToolUse","tool_name":"shell","tool_input":{"command":["cat",".ssh/id_rsa"],"workdir":"/root"}}`,
			Request{Agent: "codex", Event: "PreToolUse", Kind: KindShell, Tool: "shell", Argv: []string{"cat", ".ssh/id_rsa"}, Cwd: "/root", ProjectDir: "/p"}},
		{"codex relative workdir", "codex",
			`{"cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls","workdir":"sub"}}`,
			Request{Agent: "codex", Event: "PreToolUse", Kind: KindShell, Tool: "Bash", Command: "ls", Cwd: "/p/sub", ProjectDir: "/p"}},
		{"gemini shell in a directory", "gemini-cli",
			`{"cwd":"/p","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"make","dir_path":"sub"}}`,
			Request{Agent: "gemini-cli", Event: "BeforeTool", Kind: KindShell, Tool: "run_shell_command", Command: "make", Cwd: "/p/sub", ProjectDir: "/p", CanAsk: true}},
		{"gemini grep_search", "gemini-cli",
			`{"cwd":"/p","hook_event_name":"BeforeTool","tool_name":"grep_search","tool_input":{"pattern":"TOKEN","dir_path":"sub","include_pattern":".env*"}}`,
			Request{Agent: "gemini-cli", Event: "BeforeTool", Kind: KindSearch, Tool: "grep_search", Paths: []string{"/p/sub"},
				Contents: true, Patterns: []string{".env*"}, Cwd: "/p", ProjectDir: "/p", CanAsk: true}},
		{"gemini search_file_content, grep_search's earlier name: every directory and pattern key", "gemini-cli",
			`{"cwd":"/p","hook_event_name":"BeforeTool","tool_name":"search_file_content","tool_input":{"pattern":"x","path":"/etc","dir_path":"sub","include":"*.conf","include_pattern":".env"}}`,
			Request{Agent: "gemini-cli", Event: "BeforeTool", Kind: KindSearch, Tool: "search_file_content", Paths: []string{"/etc", "/etc/.env", "/p/sub", "/p/sub/.env"},
				Contents: true, Patterns: []string{"*.conf", ".env"}, Cwd: "/p", ProjectDir: "/p", CanAsk: true}},
		{"gemini read_many_files", "gemini-cli",
			`{"cwd":"/p","hook_event_name":"BeforeTool","tool_name":"read_many_files","tool_input":{"include":["src/**/*.go","../other/*.md"]}}`,
			Request{Agent: "gemini-cli", Event: "BeforeTool", Kind: KindSearch, Tool: "read_many_files", Paths: []string{"/p", "/p/src", "/other"},
				Contents: true, Patterns: []string{"src/**/*.go", "../other/*.md"}, Cwd: "/p", ProjectDir: "/p", CanAsk: true}},
		{"gemini read_many_files with the earlier paths list", "gemini-cli",
			`{"cwd":"/p","hook_event_name":"BeforeTool","tool_name":"read_many_files","tool_input":{"paths":["/etc/*.conf"]}}`,
			Request{Agent: "gemini-cli", Event: "BeforeTool", Kind: KindSearch, Tool: "read_many_files", Paths: []string{"/p", "/etc"},
				Contents: true, Patterns: []string{"/etc/*.conf"}, Cwd: "/p", ProjectDir: "/p", CanAsk: true}},
		{"cursor shell with empty cwd uses the workspace root", "cursor",
			`{"conversation_id":"k","hook_event_name":"beforeShellExecution","workspace_roots":["/p"],"command":"ls","cwd":""}`,
			Request{Agent: "cursor", Event: "beforeShellExecution", Kind: KindShell, Tool: "Shell", Command: "ls", Cwd: "/p", ProjectDir: "/p", Session: "k", CanAsk: true}},
		{"cursor read cannot ask; project is the root holding cwd", "cursor",
			`{"hook_event_name":"beforeReadFile","workspace_roots":["/a","/p"],"cwd":"/p/x","file_path":"/p/x/f"}`,
			Request{Agent: "cursor", Event: "beforeReadFile", Kind: KindRead, Tool: "Read", Paths: []string{"/p/x/f"}, Cwd: "/p/x", ProjectDir: "/p"}},
		{"copilot, every path key is checked", "copilot",
			`{"cwd":"/p","toolName":"edit","toolArgs":{"path":"inside.txt","file_path":"/etc/passwd"}}`,
			Request{Agent: "copilot", Event: "preToolUse", Kind: KindEdit, Tool: "edit", Paths: []string{"/p/inside.txt", "/etc/passwd"}, Cwd: "/p", ProjectDir: "/p", CanAsk: true}},
		{"copilot args as a JSON string", "copilot",
			`{"cwd":"/p","toolName":"bash","toolArgs":"{\"command\":\"ls\"}"}`,
			Request{Agent: "copilot", Event: "preToolUse", Kind: KindShell, Tool: "bash", Command: "ls", Cwd: "/p", ProjectDir: "/p", CanAsk: true}},
		{"copilot create", "copilot",
			`{"cwd":"/p","toolName":"create","toolArgs":{"path":"n.txt","file_text":"x"}}`,
			Request{Agent: "copilot", Event: "preToolUse", Kind: KindWrite, Tool: "create", Paths: []string{"/p/n.txt"}, Cwd: "/p", ProjectDir: "/p", CanAsk: true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := mustAgent(t, c.agent).Decode([]byte(c.payload))
			require.NoError(t, err)
			assert.Equal(t, c.want, *got)
		})
	}
}

func TestDecodeRejects(t *testing.T) {
	cases := []struct{ name, agent, payload string }{
		{"not JSON", "claude-code", `{`},
		{"null", "claude-code", `null`},
		{"array", "codex", `[]`},
		{"trailing data", "claude-code", `{"cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}} {}`},
		{"other event", "claude-code", `{"cwd":"/p","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`},
		{"no event name", "codex", `{"cwd":"/p","tool_name":"Bash","tool_input":{"command":"ls"}}`},
		{"relative cwd", "claude-code", `{"cwd":"p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`},
		{"no cwd", "gemini-cli", `{"hook_event_name":"BeforeTool","tool_name":"read_file","tool_input":{"file_path":"a"}}`},
		{"no tool_input", "claude-code", `{"cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash"}`},
		{"tool_input not an object", "claude-code", `{"cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":"ls"}`},
		{"empty command", "claude-code", `{"cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"  "}}`},
		{"command not a string", "gemini-cli", `{"cwd":"/p","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":1}}`},
		{"path with NUL", "claude-code", `{"cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"a\u0000b"}}`},
		{"tilde path", "gemini-cli", `{"cwd":"/p","hook_event_name":"BeforeTool","tool_name":"read_file","tool_input":{"file_path":"~/.ssh/id_rsa"}}`},
		{"codex empty argv", "codex", `{"cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":[]}}`},
		{"codex bad patch", "codex", `{"cwd":"/p","hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"command":"diff --git a b"}}`},
		{"codex workdir not a string", "codex", `{"cwd":"/p","hook_event_name":"PreToolUse","tool_name":"shell","tool_input":{"command":"ls","workdir":["/"]}}`},
		{"codex workdir empty", "codex", `{"cwd":"/p","hook_event_name":"PreToolUse","tool_name":"shell","tool_input":{"command":"ls","workdir":""}}`},
		{"cursor no roots no cwd", "cursor", `{"hook_event_name":"beforeShellExecution","command":"ls"}`},
		{"cursor unknown event", "cursor", `{"hook_event_name":"stop","workspace_roots":["/p"]}`},
		{"cursor relative root", "cursor", `{"hook_event_name":"beforeShellExecution","workspace_roots":["p"],"command":"ls"}`},
		{"copilot no toolArgs", "copilot", `{"cwd":"/p","toolName":"bash"}`},
		{"copilot toolArgs string not an object", "copilot", `{"cwd":"/p","toolName":"bash","toolArgs":"\"ls\""}`},
		{"copilot empty tool", "copilot", `{"cwd":"/p","toolName":"","toolArgs":{}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := mustAgent(t, c.agent).Decode([]byte(c.payload))
			assert.ErrorIs(t, err, ErrMalformed)
		})
	}
}
