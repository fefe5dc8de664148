package hookproto

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzDecode feeds arbitrary bytes to every agent's decoder. Nothing may
// panic; a failure must be an ErrMalformed answered with the agent's
// explicit deny; a success must yield a request the authorizer can decide
// (absolute working and project directories, absolute paths, a known
// kind, a command for shell calls).
func FuzzDecode(f *testing.F) {
	f.Add(uint8(0), []byte(`{"session_id":"s","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`))
	f.Add(uint8(1), []byte(`{"cwd":"/p","hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Update File: a\n*** Move to: ../b\n@@\n-x\n+y\n*** End Patch"}}`))
	f.Add(uint8(2), []byte(`{"cwd":"/p","hook_event_name":"BeforeTool","tool_name":"read_many_files","tool_input":{"include":["**/*.go"],"dir_path":"src"}}`))
	f.Add(uint8(3), []byte(`{"hook_event_name":"beforeReadFile","workspace_roots":["/p"],"file_path":"/p/.env"}`))
	f.Add(uint8(4), []byte(`{"cwd":"/p","toolName":"bash","toolArgs":"{\"command\":\"ls\"}"}`))
	f.Fuzz(func(t *testing.T, which uint8, payload []byte) {
		agents := agents()
		a := agents[int(which)%len(agents)]
		req, err := a.Decode(payload)
		if err != nil {
			require.True(t, errors.Is(err, ErrMalformed), "%v", err)
			require.Nil(t, req)
			got, reason := readAnswer(t, a.Name(), a.Encode(nil, Decision{Action: Deny, Reason: "sandboxauth: " + err.Error()}))
			require.Equal(t, "deny", got)
			require.NotEmpty(t, reason)
			return
		}
		require.True(t, filepath.IsAbs(req.Cwd), req.Cwd)
		require.True(t, filepath.IsAbs(req.ProjectDir), req.ProjectDir)
		for _, p := range req.Paths {
			require.True(t, filepath.IsAbs(p), p)
		}
		switch req.Kind {
		case KindShell:
			require.True(t, req.Command != "" || len(req.Argv) > 0)
		case KindRead, KindWrite, KindEdit, KindSearch:
			require.NotEmpty(t, req.Paths)
		case KindOther:
		default:
			t.Fatalf("unknown kind %q", req.Kind)
		}
		for _, d := range []Decision{{Action: Allow}, {Action: Ask, Reason: "r"}, {Action: Deny, Reason: "r"}} {
			got, _ := readAnswer(t, a.Name(), a.Encode(req, d))
			require.NotEqual(t, "", got)
		}
	})
}
