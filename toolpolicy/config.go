package toolpolicy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// MaxConfigSize is the largest configuration document ParseConfig reads.
const MaxConfigSize = 8 << 20

// ConfigFile is the JSON shape of a tool policy configuration:
//
//	{
//	  "tools": {
//	    "profile": "coding",
//	    "allow": ["group:fs", "web_*"],
//	    "deny": ["web_fetch"],
//	    "byProvider": {
//	      "openai": {"deny": ["exec"]},
//	      "openai/gpt-5": {"allow": ["group:fs"]}
//	    },
//	    "subagents": {"tools": {"deny": ["group:web"], "allow": ["read"]}}
//	  },
//	  "agents": [
//	    {"id": "reviewer", "tools": {"profile": "minimal", "allow": ["read"], "deny": ["write"]}}
//	  ]
//	}
//
// In every "allow", an absent field does not restrict and [] allows
// nothing. null is rejected everywhere, so that the two cannot be confused.
type ConfigFile struct {
	// Tools is the global section.
	Tools ToolsConfig `json:"tools,omitzero"`
	// Agents holds per-agent sections; ids must be unique.
	Agents []AgentConfig `json:"agents,omitzero"`
}

// ToolsConfig is the global "tools" section.
type ToolsConfig struct {
	// Profile names the global profile; an agent's profile replaces it.
	Profile string `json:"profile,omitzero"`
	// Allow is the global allow list: nil does not restrict, empty allows
	// nothing. It intersects with the profile.
	Allow []string `json:"allow,omitzero"`
	// Deny is the global deny list.
	Deny []string `json:"deny,omitzero"`
	// ByProvider holds provider layers, keyed "provider" or
	// "provider/model"; a model entry replaces its provider's entry.
	ByProvider map[string]RulesConfig `json:"byProvider,omitzero"`
	// Subagents holds the extra rules of every subagent level.
	Subagents *SubagentsConfig `json:"subagents,omitzero"`
}

// RulesConfig is an allow list and a deny list.
type RulesConfig struct {
	// Allow is the allow list: nil does not restrict, empty allows nothing.
	Allow []string `json:"allow,omitzero"`
	// Deny is the deny list.
	Deny []string `json:"deny,omitzero"`
}

// SubagentsConfig is the "tools.subagents" section.
type SubagentsConfig struct {
	// Tools holds the rules added at every subagent level, after the
	// default subagent deny list.
	Tools RulesConfig `json:"tools,omitzero"`
}

// AgentConfig is one entry of "agents".
type AgentConfig struct {
	// ID names the agent. Like tool names, ids are canonicalized: trimmed
	// and lower-cased, so "Coder" in a file and "coder" at run time are the
	// same agent. An id is 1 to 128 bytes of a-z, 0-9, '_', '-', '.' and
	// ':' (before lower-casing A-Z are accepted too); anything else is
	// rejected, and two ids equal once lower-cased are an error.
	ID string `json:"id"`
	// Tools is the agent's own section.
	Tools AgentToolsConfig `json:"tools,omitzero"`
}

// AgentToolsConfig is an agent's "tools" section.
type AgentToolsConfig struct {
	// Profile, if set, replaces the global profile for this agent.
	Profile string `json:"profile,omitzero"`
	// Allow is the agent's allow list; it intersects with the other layers.
	Allow []string `json:"allow,omitzero"`
	// Deny is the agent's deny list.
	Deny []string `json:"deny,omitzero"`
}

// Config is a compiled configuration: every pattern checked and compiled,
// ready to [Config.Resolve] policies. It is immutable and safe for
// concurrent use.
type Config struct {
	reg       *Registry
	file      ConfigFile
	profile   *compiledLayer
	global    *compiledLayer
	providers map[string]compiledLayer
	agents    map[string]agentEntry
	subagent  compiledLayer   // configured rules plus default denies
	written   []compiledLayer // the layers written in the file, in file order, for Lint
}

type agentEntry struct {
	profile *compiledLayer
	layer   *compiledLayer
}

// ParseConfig reads and compiles a JSON configuration under the default
// registry.
func ParseConfig(r io.Reader) (*Config, error) { return NewRegistry().ParseConfig(r) }

// LoadConfig reads and compiles a JSON configuration file under the
// default registry.
func LoadConfig(path string) (*Config, error) { return NewRegistry().LoadConfig(path) }

// LoadConfig reads and compiles a JSON configuration file under a snapshot
// of this registry.
func (r *Registry) LoadConfig(path string) (*Config, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	c, err := r.ParseConfig(f)
	if err != nil {
		return nil, inFile(path, err)
	}
	return c, nil
}

// ParseConfig reads and compiles a JSON configuration under a snapshot of
// this registry. Decoding is strict (see the package documentation); all
// errors in patterns, groups and profiles are reported together, each
// naming its entry.
func (r *Registry) ParseConfig(rd io.Reader) (*Config, error) {
	data, err := io.ReadAll(io.LimitReader(rd, MaxConfigSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxConfigSize {
		return nil, fmt.Errorf("%w: larger than %d bytes", ErrInvalidConfig, MaxConfigSize)
	}
	doc, err := checkShape(data)
	if err != nil {
		return nil, err
	}
	// The shape is checked: decoding cannot meet an unknown or duplicate
	// key, a null or a wrong type any more.
	var f ConfigFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidConfig, err)
	}
	c, err := r.NewConfig(f)
	if err != nil {
		locate(doc, err)
		return nil, err
	}
	return c, nil
}

// inFile names the file in every *ConfigError of err, or prefixes err
// with it when it holds none.
func inFile(path string, err error) error {
	found := false
	var mark func(error)
	mark = func(e error) {
		var ce *ConfigError
		if errors.As(e, &ce) {
			ce.File = path
			found = true
		}
		if j, ok := e.(interface{ Unwrap() []error }); ok {
			for _, x := range j.Unwrap() {
				mark(x)
			}
		}
	}
	mark(err)
	if !found {
		return fmt.Errorf("%s: %w", path, err)
	}
	return err
}

// NewConfig compiles a configuration built in code, under a snapshot of
// this registry. An empty Profile means "not set" here; everything else is
// checked as ParseConfig checks it.
func (r *Registry) NewConfig(f ConfigFile) (*Config, error) {
	f = f.clone()
	reg := r.clone()
	c := &Config{reg: reg, file: f, providers: map[string]compiledLayer{}, agents: map[string]agentEntry{}}
	var errs []error
	add := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	t := f.Tools
	if t.Profile != "" {
		l, err := reg.compileProfile(t.Profile, "tools.profile")
		add(err)
		c.profile = l
	}
	if t.Allow != nil || len(t.Deny) > 0 {
		l, err := reg.compileLayerAt("global", t.Allow, t.Deny, "tools")
		add(err)
		c.global = &l
		c.written = append(c.written, l)
	}
	for _, key := range sortedKeys(t.ByProvider) {
		path := "tools.byProvider[" + quote(key) + "]"
		norm, err := providerKey(key)
		if err != nil {
			add(&ConfigError{Path: path, Err: err})
			continue
		}
		if _, dup := c.providers[norm]; dup {
			add(&ConfigError{Path: path, Err: fmt.Errorf("%w: provider key %q appears twice (keys are compared lower-cased)", ErrInvalidConfig, norm)})
			continue
		}
		rc := t.ByProvider[key]
		l, err := reg.compileLayerAt("provider:"+norm, rc.Allow, rc.Deny, path)
		add(err)
		c.providers[norm] = l
		c.written = append(c.written, l)
	}
	var sub RulesConfig
	if t.Subagents != nil {
		sub = t.Subagents.Tools
	}
	sl, err := reg.compileSubagentLayer(Layer{Allow: sub.Allow, Deny: sub.Deny}, 1, "tools.subagents.tools")
	add(err)
	c.subagent = sl
	if t.Subagents != nil {
		c.written = append(c.written, sl)
	}
	for i, a := range f.Agents {
		path := fmt.Sprintf("agents[%d]", i)
		if strings.TrimSpace(a.ID) == "" {
			add(&ConfigError{Path: path + ".id", Err: ErrBlankEntry})
			continue
		}
		if a.ID != strings.TrimSpace(a.ID) {
			add(&ConfigError{Path: path + ".id", Err: fmt.Errorf("%w: id %q has surrounding white space", ErrMalformedPattern, a.ID)})
			continue
		}
		id, err := agentKey(a.ID)
		if err != nil {
			add(&ConfigError{Path: path + ".id", Err: err})
			continue
		}
		if _, dup := c.agents[id]; dup {
			add(&ConfigError{Path: path + ".id", Err: fmt.Errorf("%w: agent id %q appears twice (ids are compared lower-cased)", ErrInvalidConfig, a.ID)})
			continue
		}
		var e agentEntry
		if a.Tools.Profile != "" {
			l, err := reg.compileProfile(a.Tools.Profile, path+".tools.profile")
			add(err)
			e.profile = l
		}
		if a.Tools.Allow != nil || len(a.Tools.Deny) > 0 {
			l, err := reg.compileLayerAt("agent:"+id, a.Tools.Allow, a.Tools.Deny, path+".tools")
			add(err)
			e.layer = &l
			c.written = append(c.written, l)
		}
		c.agents[id] = e
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return c, nil
}

// compileProfile compiles the layer of a named profile; path names the
// field that named it.
func (r *Registry) compileProfile(name, path string) (*compiledLayer, error) {
	l, err := r.profileLayer(name, path)
	if err != nil {
		return nil, err
	}
	cl, err := r.compileLayerAt(l.Name, l.Allow, l.Deny, l.Name)
	if err != nil {
		return nil, &ConfigError{Path: path, Err: err}
	}
	return &cl, nil
}

// providerKey normalizes a byProvider key: trimmed, lower-cased,
// "provider" or "provider/model" with both parts non-empty.
func providerKey(key string) (string, error) {
	k, ok := lowerASCII(key)
	if !ok {
		return "", fmt.Errorf("%w: non-ASCII character in provider key %q", ErrMalformedPattern, key)
	}
	if k == "" {
		return "", ErrBlankEntry
	}
	for i := 0; i < len(k); i++ {
		if c := k[i]; c <= ' ' || c == '*' || c == 0x7f {
			return "", fmt.Errorf("%w: provider key %q contains %q (keys are exact, no wildcards)", ErrMalformedPattern, key, c)
		}
	}
	if prov, model, found := strings.Cut(k, "/"); found && (prov == "" || model == "") {
		return "", fmt.Errorf("%w: provider key %q must be \"provider\" or \"provider/model\"", ErrMalformedPattern, key)
	}
	return k, nil
}

// File returns a copy of the configuration as decoded.
func (c *Config) File() ConfigFile { return c.file.clone() }

// AgentIDs returns the canonical ids of the configured agents, in file
// order.
func (c *Config) AgentIDs() []string {
	out := make([]string, len(c.file.Agents))
	for i, a := range c.file.Agents {
		out[i], _ = agentKey(a.ID)
	}
	return out
}

// HasAgent reports whether the configuration has an entry for the agent
// id, compared in canonical form (trimmed, lower-cased).
func (c *Config) HasAgent(id string) bool {
	k, err := agentKey(id)
	if err != nil {
		return false
	}
	_, ok := c.agents[k]
	return ok
}

// agentKey canonicalizes an agent id: trimmed, ASCII lower-cased, and made
// of the characters of a tool name.
func agentKey(id string) (string, error) {
	k, ok := lowerASCII(id)
	if !ok {
		return "", fmt.Errorf("%w: agent id %q holds a non-ASCII character", ErrMalformedPattern, id)
	}
	if k == "" {
		return "", ErrBlankEntry
	}
	if len(k) > MaxNameLen {
		return "", fmt.Errorf("%w: agent id longer than %d bytes", ErrMalformedPattern, MaxNameLen)
	}
	for i := 0; i < len(k); i++ {
		if alphaIndex[k[i]] < 0 {
			return "", fmt.Errorf("%w: agent id %q contains %q (use a-z, 0-9, '_', '-', '.', ':')", ErrMalformedPattern, id, k[i])
		}
	}
	return k, nil
}

func (f ConfigFile) clone() ConfigFile {
	out := f
	out.Tools.Allow = slices.Clone(f.Tools.Allow)
	out.Tools.Deny = slices.Clone(f.Tools.Deny)
	if f.Tools.ByProvider != nil {
		out.Tools.ByProvider = make(map[string]RulesConfig, len(f.Tools.ByProvider))
		for k, v := range f.Tools.ByProvider {
			out.Tools.ByProvider[k] = RulesConfig{Allow: slices.Clone(v.Allow), Deny: slices.Clone(v.Deny)}
		}
	}
	if f.Tools.Subagents != nil {
		s := *f.Tools.Subagents
		s.Tools = RulesConfig{Allow: slices.Clone(s.Tools.Allow), Deny: slices.Clone(s.Tools.Deny)}
		out.Tools.Subagents = &s
	}
	if f.Agents != nil {
		out.Agents = make([]AgentConfig, len(f.Agents))
		for i, a := range f.Agents {
			a.Tools.Allow = slices.Clone(a.Tools.Allow)
			a.Tools.Deny = slices.Clone(a.Tools.Deny)
			out.Agents[i] = a
		}
	}
	return out
}
