package toolpolicy

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestVocabularyIsOneConsistentTable(t *testing.T) {
	kinds := []Kind{KindRead, KindWrite, KindEdit, KindShell, KindSearch, KindOther}
	owner := map[string]string{} // lower-cased alias → canonical name
	for _, tn := range Vocabulary() {
		n, ok := Normalize(tn.Name)
		require.True(t, ok, tn.Name)
		assert.Equal(t, tn.Name, n, "a canonical name is not an alias")
		assert.Contains(t, kinds, tn.Kind, tn.Name)
		assert.NotEmpty(t, tn.Aliases, tn.Name)
		for agent, names := range tn.Aliases {
			assert.Contains(t, Agents(), agent)
			for _, a := range names {
				got, ok := Normalize(a)
				require.True(t, ok, a)
				assert.Equal(t, tn.Name, got, "%s's %q", agent, a)
				if prev, seen := owner[strings.ToLower(a)]; seen {
					assert.Equal(t, prev, tn.Name, "alias %q names two tools", a)
				}
				owner[strings.ToLower(a)] = tn.Name
				assert.Equal(t, tn.Kind, KindOf(a), a)
			}
		}
	}
}

func TestVocabularyAgentsNames(t *testing.T) {
	tests := []struct {
		agent     Agent
		canonical string
		want      string
		ok        bool
	}{
		{AgentClaudeCode, "exec", "Bash", true},
		{AgentClaudeCode, "bash", "Bash", true},
		{AgentGeminiCLI, "exec", "run_shell_command", true},
		{AgentCodex, "exec", "shell", true},
		{AgentOpenClaw, "exec", "exec", true},
		{AgentClaudeCode, "edit", "Edit", true},
		{AgentGeminiCLI, "edit", "replace", true},
		{AgentCodex, "apply_patch", "apply_patch", true},
		{AgentCodex, "read", "", false},
		{AgentClaudeCode, "no_such_tool", "", false},
		{Agent("nobody"), "exec", "", false},
		{AgentClaudeCode, "", "", false},
	}
	for _, tt := range tests {
		got, ok := AgentToolName(tt.agent, tt.canonical)
		assert.Equal(t, tt.ok, ok, "%s %s", tt.agent, tt.canonical)
		assert.Equal(t, tt.want, got, "%s %s", tt.agent, tt.canonical)
	}
	assert.Equal(t, KindShell, KindOf("run_shell_command"))
	assert.Equal(t, KindSearch, KindOf("Grep"))
	assert.Equal(t, KindOther, KindOf("sessions_spawn"))
	assert.Equal(t, KindOther, KindOf("not a name"))
}

// A policy written with one agent's names applies to every agent's names
// for the same tool.
func TestVocabularyPolicyInAgentNames(t *testing.T) {
	c, err := ParseConfig(strings.NewReader(`{"tools":{"profile":"coding","deny":["Bash","Write"]}}`))
	require.NoError(t, err)
	p, err := c.Resolve(Query{})
	require.NoError(t, err)
	for _, name := range []string{"Bash", "bash", "exec", "run_shell_command", "shell", "Write", "write_file", "write"} {
		assert.False(t, p.Allowed(name), name)
	}
	for _, name := range []string{"Read", "read_file", "read_many_files", "Edit", "replace", "Glob", "Grep", "grep_search", "LS", "list_directory", "NotebookEdit"} {
		assert.True(t, p.Allowed(name), name)
	}
	d := p.Explain("run_shell_command")
	assert.Equal(t, "exec", d.Tool)
	assert.Equal(t, "tools.deny[0]", d.Source)
}

func TestVocabularyIsCopied(t *testing.T) {
	v := Vocabulary()
	v[0].Aliases[AgentClaudeCode][0] = "changed"
	v[0].Name = "changed"
	assert.Equal(t, "read", Vocabulary()[0].Name)
	assert.Equal(t, "Read", Vocabulary()[0].Aliases[AgentClaudeCode][0])
}
