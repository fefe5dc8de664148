package sandboxauth

import "github.com/sandboxauth/sandboxauth/toolpolicy"

// WithShellTool names the agent's shell tool as the agent calls it, such as
// "Bash" (Claude Code), "run_shell_command" (Gemini CLI), "shell" (Codex)
// or "exec" (OpenClaw). NewToolPolicyAuthorizer judges shell calls, which
// carry no tool name, as calls of this tool, and names it so in its
// refusals. The name goes through the tool policy's normalizer, so it must
// be a valid tool name; see toolpolicy.Vocabulary for the known ones.
func WithShellTool(name string) Option {
	return func(o *options) error {
		if _, ok := toolpolicy.Normalize(name); !ok {
			return invalid(ErrInvalidConfig, "sandboxauth: WithShellTool(%q): not a valid tool name (use the name the agent gives its shell tool, such as Bash or run_shell_command)", name)
		}
		o.shellTool = name
		return nil
	}
}

// WithToolVocabulary is WithShellTool with the shell tool of a known agent:
// WithToolVocabulary(toolpolicy.AgentClaudeCode) names it "Bash".
func WithToolVocabulary(agent toolpolicy.Agent) Option {
	return func(o *options) error {
		name, ok := toolpolicy.AgentToolName(agent, ShellToolName)
		if !ok {
			return invalid(ErrInvalidConfig, "sandboxauth: WithToolVocabulary(%q): not an agent of the vocabulary (known: %v)", agent, toolpolicy.Agents())
		}
		o.shellTool = name
		return nil
	}
}
