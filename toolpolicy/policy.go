package toolpolicy

import (
	"errors"
	"fmt"
	"slices"
)

// MaxLayers is the most layers one policy can have (profile, global,
// provider, agent and subagent layers together).
const MaxLayers = 64

// Layer is one level of a policy before compilation. A nil Allow does not
// restrict; a non-nil empty Allow allows nothing. Deny always wins.
type Layer struct {
	// Name identifies the layer in explanations, e.g. "global" or
	// "agent:reviewer". Empty names become "layer[i]".
	Name string
	// Allow lists the patterns the layer allows, or is nil.
	Allow []string
	// Deny lists the patterns the layer denies.
	Deny []string
}

// compiledLayer is a Layer whose patterns are compiled. allow is nil when
// the layer has no allow list and non-nil (possibly empty) otherwise.
type compiledLayer struct {
	name     string
	allow    []pattern
	deny     []pattern
	subagent bool // added for one level of subagent nesting
}

// Policy is a compiled, effective tool policy: the intersection of its
// layers. It is immutable and safe for concurrent use; a nil *Policy
// allows nothing.
type Policy struct {
	reg    *Registry // snapshot: normalizer, related table, subagent deny
	layers []compiledLayer
	idx    index
	// warning, when set, is added to every Decision (an agent id the
	// configuration does not know).
	warning string
}

// Compile builds a policy from layers, in order, under a snapshot of this
// registry. Every pattern error is reported, each naming its layer and
// entry.
func (r *Registry) Compile(layers ...Layer) (*Policy, error) {
	snap := r.clone()
	cls := make([]compiledLayer, 0, len(layers))
	var errs []error
	for i, l := range layers {
		cl, err := snap.compileLayer(l, i)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		cls = append(cls, cl)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return newPolicy(snap, cls)
}

// Compile builds a policy from layers under the default registry.
func Compile(layers ...Layer) (*Policy, error) {
	return NewRegistry().Compile(layers...)
}

func (r *Registry) compileLayer(l Layer, i int) (compiledLayer, error) {
	name := l.Name
	if name == "" {
		name = fmt.Sprintf("layer[%d]", i)
	}
	return r.compileLayerAt(name, l.Allow, l.Deny, name)
}

// compileLayerAt compiles one layer; path prefixes the entry paths
// (path.allow[i], path.deny[i]).
func (r *Registry) compileLayerAt(name string, allow, deny []string, path string) (compiledLayer, error) {
	cl := compiledLayer{name: name}
	var errs []error
	if allow != nil {
		ps, err := r.compileList(allow, path+".allow")
		errs = append(errs, err)
		cl.allow = append(make([]pattern, 0, len(ps)), ps...)
	}
	ps, err := r.compileList(deny, path+".deny")
	errs = append(errs, err)
	cl.deny = ps
	return cl, errors.Join(errs...)
}

// compileList compiles a list of patterns, naming each failing entry
// path[i]. It reports every error, joined.
func (r *Registry) compileList(list []string, path string) ([]pattern, error) {
	var out []pattern
	var errs []error
	for i, raw := range list {
		origin := fmt.Sprintf("%s[%d]", path, i)
		p, err := r.compilePattern(raw, origin)
		if err != nil {
			errs = append(errs, &ConfigError{Path: origin, Err: err})
			continue
		}
		out = append(out, p)
	}
	return out, errors.Join(errs...)
}

func newPolicy(reg *Registry, layers []compiledLayer) (*Policy, error) {
	if len(layers) > MaxLayers {
		return nil, fmt.Errorf("%w: %d layers, at most %d", ErrTooManyLayers, len(layers), MaxLayers)
	}
	return &Policy{reg: reg, layers: layers, idx: buildIndex(layers, reg.related)}, nil
}

// Allowed reports whether the policy permits the tool. The name is
// normalized first (trim, lower-case, aliases); an invalid name is never
// allowed. Allowed does not allocate for a canonical name.
func (p *Policy) Allowed(tool string) bool {
	if p == nil || !p.idx.anyAllow {
		return false
	}
	name, ok := p.reg.norm.canonical(tool)
	if !ok {
		return false
	}
	return p.idx.allowed(name)
}

// Layers returns the names of the policy's layers, in order.
func (p *Policy) Layers() []string {
	if p == nil {
		return nil
	}
	out := make([]string, len(p.layers))
	for i, l := range p.layers {
		out[i] = l.name
	}
	return out
}

// Normalize returns the canonical form of a tool name under the aliases
// of the registry the policy was built with, and false when it is not a
// valid tool name.
func (p *Policy) Normalize(tool string) (string, bool) {
	if p == nil {
		return defaultNormalizer().canonical(tool)
	}
	return p.reg.norm.canonical(tool)
}

// Subagent returns the policy of a subagent spawned under p: every layer
// of p, then one more layer whose deny list is the registry's default
// subagent deny list plus extra.Deny and whose allow list is extra.Allow.
// The child is the intersection, so it never gains a tool p lacks. An
// empty extra.Name becomes "subagent:N", N counting subagent levels.
func (p *Policy) Subagent(extra Layer) (*Policy, error) {
	if p == nil {
		return nil, errors.New("toolpolicy: Subagent of a nil policy")
	}
	cl, err := p.reg.compileSubagentLayer(extra, p.subagentDepth()+1, "")
	if err != nil {
		return nil, err
	}
	q, err := newPolicy(p.reg, append(slices.Clip(p.layers), cl))
	if err != nil {
		return nil, err
	}
	q.warning = p.warning
	return q, nil
}

// Warning returns what the policy's resolution found suspicious, such as
// an agent id that the configuration does not list, or "".
func (p *Policy) Warning() string {
	if p == nil {
		return ""
	}
	return p.warning
}

// subagentDepth counts the subagent layers of p.
func (p *Policy) subagentDepth() int {
	n := 0
	for _, l := range p.layers {
		if l.subagent {
			n++
		}
	}
	return n
}

// WithCatalogue returns a policy that decides like p, with the verdicts
// for the given tool names computed in advance, so that each of them costs
// one map lookup however many wildcards the policy has. Invalid names are
// skipped. p is not modified.
func (p *Policy) WithCatalogue(names []string) *Policy {
	if p == nil {
		return nil
	}
	q := *p
	q.idx.verdict = make(map[string]bool, len(p.idx.verdict)+len(names))
	for k, v := range p.idx.verdict {
		q.idx.verdict[k] = v
	}
	for _, raw := range names {
		if n, ok := p.reg.norm.canonical(raw); ok {
			q.idx.verdict[n] = p.idx.anyAllow && p.idx.allowed(n)
		}
	}
	return &q
}
