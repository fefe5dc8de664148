package sandboxauth

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/toolpolicy"
)

// A tool policy written in any agent's names decides the shell calls of an
// authorizer that knows what its agent calls the shell tool, and the
// refusal names the tool as the agent called it.
func TestToolPolicyShellToolVocabulary(t *testing.T) {
	f := newFixture(t)
	tests := []struct {
		name     string
		policy   string
		opt      Option
		want     error
		wantTool string // named in the refusal
	}{
		{"deny Bash, Claude Code", `{"tools":{"profile":"coding","deny":["Bash"]}}`, WithToolVocabulary(toolpolicy.AgentClaudeCode), ErrToolNotPermitted, `"Bash"`},
		{"deny exec, Claude Code", `{"tools":{"profile":"coding","deny":["exec"]}}`, WithToolVocabulary(toolpolicy.AgentClaudeCode), ErrToolNotPermitted, `"Bash"`},
		{"deny Bash, Gemini CLI", `{"tools":{"profile":"coding","deny":["Bash"]}}`, WithToolVocabulary(toolpolicy.AgentGeminiCLI), ErrToolNotPermitted, `"run_shell_command"`},
		{"deny shell, Codex", `{"tools":{"profile":"coding","deny":["shell"]}}`, WithToolVocabulary(toolpolicy.AgentCodex), ErrToolNotPermitted, `"shell"`},
		{"deny run_shell_command, OpenClaw", `{"tools":{"profile":"coding","deny":["run_shell_command"]}}`, WithToolVocabulary(toolpolicy.AgentOpenClaw), ErrToolNotPermitted, `"exec"`},
		{"deny exec, named shell tool", `{"tools":{"profile":"coding","deny":["exec"]}}`, WithShellTool("Bash"), ErrToolNotPermitted, `"Bash"`},
		{"deny exec, default name", `{"tools":{"profile":"coding","deny":["exec"]}}`, nil, ErrToolNotPermitted, `"exec"`},
		{"allow Bash only", `{"tools":{"allow":["Bash"]}}`, WithToolVocabulary(toolpolicy.AgentClaudeCode), nil, ""},
		{"allow Read only", `{"tools":{"allow":["Read"]}}`, WithToolVocabulary(toolpolicy.AgentClaudeCode), ErrToolNotPermitted, `"Bash"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := toolpolicy.ParseConfig(strings.NewReader(tt.policy))
			require.NoError(t, err)
			p, err := cfg.Resolve(toolpolicy.Query{})
			require.NoError(t, err)
			fallback, _, err := NewSandboxAuthorizer(testCommands())
			require.NoError(t, err)
			defer fallback.Close()
			var opts []Option
			if tt.opt != nil {
				opts = append(opts, tt.opt)
			}
			a := NewToolPolicyAuthorizer(p, fallback, opts...)
			defer a.Close()
			err = a.IsShellAuthorized(false, "", f.sandbox, f.sandbox, []string{"ls"})
			if tt.want == nil {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, tt.want)
			require.ErrorIs(t, err, ErrDenied)
			assert.Contains(t, err.Error(), "the tool "+tt.wantTool+" is not available")
		})
	}
}

func TestToolPolicyReadsInAgentNames(t *testing.T) {
	f := newFixture(t)
	cfg, err := toolpolicy.ParseConfig(strings.NewReader(`{"tools":{"allow":["read_file","Grep"]}}`))
	require.NoError(t, err)
	p, err := cfg.Resolve(toolpolicy.Query{})
	require.NoError(t, err)
	fallback, _, err := NewSandboxAuthorizer(testCommands())
	require.NoError(t, err)
	defer fallback.Close()
	a := NewToolPolicyAuthorizer(p, fallback, WithToolVocabulary(toolpolicy.AgentClaudeCode))
	defer a.Close()
	assert.NoError(t, a.IsAuthorizedForRead(false, "", "Read", f.sandbox, f.inFile), "Claude Code's Read is Gemini CLI's read_file")
	assert.NoError(t, a.IsAuthorizedForRead(false, "", "grep_search", f.sandbox, f.inFile), "Gemini CLI's grep_search is Claude Code's Grep")
	err = a.IsAuthorizedForWrite(false, "", "Write", f.sandbox, f.inFile)
	require.ErrorIs(t, err, ErrToolNotPermitted)
	assert.Contains(t, err.Error(), `the tool "Write" is not available`)
}

func TestShellToolOptionsFailClosed(t *testing.T) {
	f := newFixture(t)
	p, err := toolpolicy.Compile(toolpolicy.Layer{Name: "l", Allow: []string{"*"}})
	require.NoError(t, err)
	fallback, _, err := NewSandboxAuthorizer(testCommands())
	require.NoError(t, err)
	defer fallback.Close()
	for _, opt := range []Option{WithShellTool("run shell"), WithShellTool(""), WithToolVocabulary("nobody")} {
		a := NewToolPolicyAuthorizer(p, fallback, opt)
		err := a.IsShellAuthorized(false, "", f.sandbox, f.sandbox, []string{"ls"})
		require.ErrorIs(t, err, ErrInvalidConfig)
		assert.NotErrorIs(t, err, ErrDenied)
		a.Close()
	}
}
