package toolpolicy

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAgentIDsAreCanonical(t *testing.T) {
	const js = `{"tools":{"profile":"coding"},"agents":[{"id":"Coder","tools":{"deny":["exec"]}}]}`
	tests := []struct {
		name    string
		agentID string
		tool    string
		allowed bool
		warning bool
	}{
		{"as written", "Coder", "exec", false, false},
		{"lower-cased at run time", "coder", "exec", false, false},
		{"upper-cased at run time", "CODER", "exec", false, false},
		{"surrounding white space", " coder\t", "exec", false, false},
		{"the agent keeps its other tools", "coder", "read", true, false},
		{"another agent is unknown and reported", "coderr", "exec", true, true},
		{"a non-ASCII id is unknown and reported", "cоder", "exec", true, true},
		{"no agent id: no warning", "", "exec", true, false},
	}
	c := mustParse(t, js)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := c.Resolve(Query{AgentID: tt.agentID})
			require.NoError(t, err)
			assert.Equal(t, tt.allowed, p.Allowed(tt.tool))
			d := p.Explain(tt.tool)
			assert.Equal(t, tt.allowed, d.Allowed)
			if tt.warning {
				assert.Contains(t, d.Warning, "is not one of the agents the configuration lists (coder)")
				assert.Contains(t, d.Reason, d.Warning)
				assert.Equal(t, d.Warning, p.Warning())
				sub, err := p.Subagent(Layer{})
				require.NoError(t, err)
				assert.Equal(t, d.Warning, sub.Explain(tt.tool).Warning, "a subagent keeps the warning")
			} else {
				assert.Empty(t, d.Warning)
				assert.NotContains(t, d.Reason, "warning")
			}
			assert.Equal(t, !tt.warning && tt.agentID != "", c.HasAgent(tt.agentID))
		})
	}
	assert.Equal(t, []string{"coder"}, c.AgentIDs())
}

func TestAgentIDsWithoutAgentsListNoWarning(t *testing.T) {
	c := mustParse(t, `{"tools":{"profile":"coding"}}`)
	p, err := c.Resolve(Query{AgentID: "anyone"})
	require.NoError(t, err)
	assert.Empty(t, p.Explain("exec").Warning, "a configuration without agents has nothing to misspell")
}

func TestAgentIDConfigErrors(t *testing.T) {
	tests := []struct {
		name, js, path string
		want           error
	}{
		{"ids equal once lower-cased", `{"agents":[{"id":"Coder"},{"id":"coder"}]}`, "agents[1].id", ErrInvalidConfig},
		{"a space inside", `{"agents":[{"id":"my agent"}]}`, "agents[0].id", ErrMalformedPattern},
		{"non-ASCII", `{"agents":[{"id":"cоder"}]}`, "agents[0].id", ErrMalformedPattern},
		{"a star", `{"agents":[{"id":"c*"}]}`, "agents[0].id", ErrMalformedPattern},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewRegistry().ParseConfig(strings.NewReader(tt.js))
			require.Error(t, err)
			assert.ErrorIs(t, err, tt.want)
			assert.Contains(t, err.Error(), tt.path)
		})
	}
}

func TestRelatedGrantExplainedLayerByLayer(t *testing.T) {
	tests := []struct {
		name   string
		layers []Layer
		want   Decision
	}{
		{"exec in one layer, apply_patch in the other",
			[]Layer{{Name: "global", Allow: []string{"exec"}}, {Name: "agent", Allow: []string{"apply_patch"}}},
			Decision{Tool: "apply_patch", Allowed: true, Layer: "global", Rule: "exec", Kind: RuleRelated, Source: "global.allow[0]"}},
		{"granter denied in another layer",
			[]Layer{{Name: "global", Allow: []string{"exec"}}, {Name: "agent", Deny: []string{"group:runtime"}}},
			Decision{Tool: "apply_patch", Layer: "global", Kind: RuleNotListed}},
		{"granter matched by a wildcard",
			[]Layer{{Name: "global", Allow: []string{"ex*"}}},
			Decision{Tool: "apply_patch", Allowed: true, Layer: "global", Rule: "exec", Kind: RuleRelated, Source: "global.allow[0]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Compile(tt.layers...)
			require.NoError(t, err)
			d := p.Explain("apply_patch")
			assert.Equal(t, p.Allowed("apply_patch"), d.Allowed)
			d.Reason = ""
			assert.Equal(t, tt.want, d)
		})
	}
}
