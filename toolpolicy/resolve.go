package toolpolicy

import (
	"errors"
	"fmt"
	"strings"
)

// Query selects the layers of a configuration that apply to one agent
// session.
type Query struct {
	// AgentID selects agents[].tools by id, compared in canonical form
	// (trimmed, lower-cased), like the ids in the file. Empty, or an id with
	// no entry, adds no agent layer and keeps the global profile; when the
	// configuration lists agents and this id is not one of them, every
	// [Decision] of the resolved policy says so (Decision.Warning), since a
	// misspelt id silently loses the agent's own deny list.
	AgentID string
	// Provider and Model select tools.byProvider: the key "provider/model"
	// if present, otherwise "provider". Both are trimmed and lower-cased.
	// An empty Provider selects no provider layer.
	Provider string
	// Model is the model id within Provider, e.g. "gpt-5".
	Model string
	// SubagentDepth is the number of subagent levels between the agent and
	// the one asking: 0 for the agent itself, 1 for a subagent it spawned,
	// 2 for a subagent of that subagent, and so on. Each level adds the
	// subagent layer once more.
	SubagentDepth int
}

// Resolve returns the effective policy for q: the profile layer (the
// agent's profile, else the global one), the global layer, the provider
// layer, the agent layer and SubagentDepth subagent layers, intersected.
func (c *Config) Resolve(q Query) (*Policy, error) {
	if q.SubagentDepth < 0 {
		return nil, errors.New("toolpolicy: negative SubagentDepth")
	}
	var agent agentEntry
	hasAgent := false
	unknown := ""
	if strings.TrimSpace(q.AgentID) != "" {
		if id, err := agentKey(q.AgentID); err == nil {
			agent, hasAgent = c.agents[id]
		}
		if !hasAgent && len(c.agents) > 0 {
			unknown = q.AgentID
		}
	}
	var layers []compiledLayer
	switch {
	case hasAgent && agent.profile != nil:
		layers = append(layers, *agent.profile)
	case c.profile != nil:
		layers = append(layers, *c.profile)
	}
	if c.global != nil {
		layers = append(layers, *c.global)
	}
	if l, ok := c.providerLayer(q.Provider, q.Model); ok {
		layers = append(layers, l)
	}
	if hasAgent && agent.layer != nil {
		layers = append(layers, *agent.layer)
	}
	if len(layers)+q.SubagentDepth > MaxLayers {
		return nil, fmt.Errorf("%w: subagent depth %d", ErrTooManyLayers, q.SubagentDepth)
	}
	for i := 1; i <= q.SubagentDepth; i++ {
		l := c.subagent
		l.name = fmt.Sprintf("%s%d", subagentLayerPrefix, i)
		layers = append(layers, l)
	}
	p, err := newPolicy(c.reg, layers)
	if err != nil {
		return nil, err
	}
	if unknown != "" {
		p.warning = fmt.Sprintf("agent id %q is not one of the agents the configuration lists (%s), so no agent layer applies", unknown, strings.Join(c.AgentIDs(), ", "))
	}
	return p, nil
}

// providerLayer looks up "provider/model", then "provider".
func (c *Config) providerLayer(provider, model string) (compiledLayer, bool) {
	p, _ := lowerASCII(provider)
	if p == "" {
		return compiledLayer{}, false
	}
	if m, _ := lowerASCII(model); m != "" {
		if l, ok := c.providers[p+"/"+m]; ok {
			return l, true
		}
	}
	l, ok := c.providers[strings.TrimSuffix(p, "/")]
	return l, ok
}

// Subagent returns the policy of a subagent spawned under parent, using the
// configuration's subagent rules (tools.subagents.tools) and the default
// subagent deny list. It is what Resolve adds for each level of
// SubagentDepth, applied to any parent policy.
func (c *Config) Subagent(parent *Policy) (*Policy, error) {
	if parent == nil {
		return nil, errors.New("toolpolicy: Subagent of a nil policy")
	}
	l := c.subagent
	l.name = fmt.Sprintf("%s%d", subagentLayerPrefix, parent.subagentDepth()+1)
	layers := append(append(make([]compiledLayer, 0, len(parent.layers)+1), parent.layers...), l)
	p, err := newPolicy(parent.reg, layers)
	if err != nil {
		return nil, err
	}
	p.warning = parent.warning
	return p, nil
}
