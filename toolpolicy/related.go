package toolpolicy

import (
	"fmt"
	"slices"
)

// relatedGrant says that allowing granter also allows granted.
type relatedGrant struct{ granter, granted string }

// defaultRelated is the built-in related-tool table: exec can already
// change files, so allowing it also allows apply_patch.
var defaultRelated = []relatedGrant{
	{granter: "exec", granted: "apply_patch"},
}

// DefaultRelated returns a copy of the built-in related-tool grants, as a
// map from granting tool to the tools it grants.
func DefaultRelated() map[string][]string {
	m := map[string][]string{}
	for _, g := range defaultRelated {
		m[g.granter] = append(m[g.granter], g.granted)
	}
	return m
}

// AddRelated records that a policy allowing granter directly also allows
// granted, unless some layer denies granted. Grants are one level deep:
// they do not chain.
func (r *Registry) AddRelated(granter, granted string) error {
	path := fmt.Sprintf("related %q → %q", granter, granted)
	g, err := r.canonicalMember(granter)
	if err != nil {
		return &ConfigError{Path: path, Err: err}
	}
	t, err := r.canonicalMember(granted)
	if err != nil {
		return &ConfigError{Path: path, Err: err}
	}
	if g == t {
		return &ConfigError{Path: path, Err: fmt.Errorf("%w: a tool cannot grant itself", ErrMalformedPattern)}
	}
	if !slices.Contains(r.related[t], g) {
		r.related[t] = append(r.related[t], g)
	}
	return nil
}

// Related returns a copy of the related-tool table of this registry, as a
// map from granting tool to the tools it grants.
func (r *Registry) Related() map[string][]string {
	m := map[string][]string{}
	for t, gs := range r.related {
		for _, g := range gs {
			m[g] = append(m[g], t)
		}
	}
	for _, v := range m {
		slices.Sort(v)
	}
	return m
}
