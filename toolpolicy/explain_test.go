package toolpolicy

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestExplain(t *testing.T) {
	js := `{
		"tools": {
			"profile": "coding",
			"deny": ["memory_*"],
			"byProvider": {"openai": {"deny": ["group:runtime"]}},
			"subagents": {"tools": {"deny": ["edit"]}}
		},
		"agents": [
			{"id": "a", "tools": {"allow": ["group:fs", "image", "exec", "sessions_*"]}},
			{"id": "b", "tools": {"allow": ["exec", "read"]}},
			{"id": "c", "tools": {"profile": "full", "allow": ["*"], "deny": []}}
		]
	}`
	tests := []struct {
		name string
		q    Query
		tool string
		want Decision
	}{
		{"allowed by a group in the profile", Query{AgentID: "a"}, "READ",
			Decision{Tool: "read", Allowed: true, Layer: "profile:coding", Rule: "group:fs", Kind: RuleGroup, Source: "profile:coding.allow[0]"}},
		{"allowed by an exact name", Query{AgentID: "a"}, "image",
			Decision{Tool: "image", Allowed: true, Layer: "profile:coding", Rule: "image", Kind: RuleExact, Source: "profile:coding.allow[4]"}},
		{"allowed by a wildcard (first layer with an allow list)", Query{AgentID: "c"}, "browser",
			Decision{Tool: "browser", Allowed: true, Layer: "profile:full", Rule: "*", Kind: RuleAll, Source: "profile:full.allow[0]"}},
		{"denied by a wildcard in the global layer", Query{AgentID: "a"}, "memory_get",
			Decision{Tool: "memory_get", Layer: "global", Rule: "memory_*", Kind: RuleWildcard, Source: "tools.deny[0]"}},
		{"denied by a provider group", Query{AgentID: "a", Provider: "openai"}, "bash",
			Decision{Tool: "exec", Layer: "provider:openai", Rule: "group:runtime", Kind: RuleGroup, Source: `tools.byProvider["openai"].deny[0]`}},
		{"deny is reported before a missing allow", Query{AgentID: "b", Provider: "openai"}, "process",
			Decision{Tool: "process", Layer: "provider:openai", Rule: "group:runtime", Kind: RuleGroup, Source: `tools.byProvider["openai"].deny[0]`}},
		{"not in the agent's allow list", Query{AgentID: "a"}, "process",
			Decision{Tool: "process", Layer: "agent:a", Kind: RuleNotListed}},
		{"not in the profile", Query{AgentID: "a"}, "browser",
			Decision{Tool: "browser", Layer: "profile:coding", Kind: RuleNotListed}},
		{"related grant", Query{AgentID: "b"}, "apply_patch",
			Decision{Tool: "apply_patch", Allowed: true, Layer: "agent:b", Rule: "exec", Kind: RuleRelated, Source: "agents[1].tools.allow[0]"}},
		{"default subagent deny", Query{AgentID: "a", SubagentDepth: 1}, "sessions_spawn",
			Decision{Tool: "sessions_spawn", Layer: "subagent:1", Rule: "sessions_spawn", Kind: RuleExact, Source: "default subagent deny[3]"}},
		{"configured subagent deny", Query{AgentID: "a", SubagentDepth: 2}, "edit",
			Decision{Tool: "edit", Layer: "subagent:1", Rule: "edit", Kind: RuleExact, Source: "tools.subagents.tools.deny[0]"}},
		{"invalid name", Query{}, "web fetch",
			Decision{Tool: "web fetch", Kind: RuleInvalidName}},
		{"group reference is not a tool", Query{}, "group:fs",
			Decision{Tool: "group:fs", Kind: RuleInvalidName}},
	}
	c := mustParse(t, js)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := c.Resolve(tt.q)
			if !assert.NoError(t, err) {
				return
			}
			got := p.Explain(tt.tool)
			assert.NotEmpty(t, got.Reason)
			assert.Equal(t, got.Reason, got.String())
			got.Reason = ""
			assert.Equal(t, tt.want, got)
			assert.Equal(t, p.Allowed(tt.tool), got.Allowed)
		})
	}
}

func TestExplainDefaultDeny(t *testing.T) {
	p := mustResolve(t, `{"tools":{"deny":["exec"]}}`, Query{})
	d := p.Explain("read")
	assert.False(t, d.Allowed)
	assert.Equal(t, RuleDefaultDeny, d.Kind)
	assert.Contains(t, d.Reason, "no layer has an allow list")
	// A deny is still reported as the deny it is.
	assert.Equal(t, RuleExact, p.Explain("exec").Kind)
}

func TestExplainReasonNamesLayerAndRule(t *testing.T) {
	p := mustResolve(t, `{"tools":{"profile":"full","byProvider":{"openai":{"deny":["web_*"]}}}}`, Query{Provider: "openai"})
	d := p.Explain("web_fetch")
	assert.Equal(t, `"web_fetch" is denied by layer provider:openai: deny rule "web_*" (tools.byProvider["openai"].deny[0])`, d.Reason)
}

func TestRuleKindString(t *testing.T) {
	assert.Equal(t, "exact", RuleExact.String())
	assert.Equal(t, "related", RuleRelated.String())
	assert.Equal(t, "invalid-name", RuleInvalidName.String())
	assert.Equal(t, "RuleKind(0)", RuleKind(0).String())
	assert.Equal(t, "RuleKind(99)", RuleKind(99).String())
}
