package toolpolicy

import (
	"fmt"
	"slices"
	"strings"
)

// Registry holds the vocabulary that patterns and configurations refer to:
// aliases, groups, profiles, related-tool grants and the default subagent
// deny list. [NewRegistry] returns one holding copies of the defaults; the
// package-level functions use such a copy. Configure a registry before
// using it: its methods are not safe for concurrent mutation. Configs and
// policies take a snapshot of the registry when they are built, so later
// changes to the registry do not affect them.
type Registry struct {
	norm         *normalizer
	aliases      map[string]string
	groups       map[string][]string // "group:name" → canonical members
	profiles     map[string]Profile
	related      map[string][]string // granted tool → tools that grant it
	plugins      map[string]bool     // plugin ids; their tools are group:ID
	subagentDeny []string
}

// NewRegistry returns a registry holding copies of the default aliases,
// groups, profiles, related-tool grants and subagent deny list.
func NewRegistry() *Registry {
	r := &Registry{
		aliases:      DefaultAliases(),
		groups:       DefaultGroups(),
		profiles:     DefaultProfiles(),
		related:      map[string][]string{},
		plugins:      map[string]bool{},
		subagentDeny: DefaultSubagentDeny(),
	}
	r.norm = newNormalizer(r.aliases)
	for _, g := range defaultRelated {
		r.related[g.granted] = append(r.related[g.granted], g.granter)
	}
	return r
}

// clone returns a deep copy, used as the immutable snapshot of a config or
// policy.
func (r *Registry) clone() *Registry {
	c := &Registry{
		norm:         r.norm, // immutable once built
		aliases:      cloneStringMap(r.aliases),
		groups:       make(map[string][]string, len(r.groups)),
		profiles:     make(map[string]Profile, len(r.profiles)),
		related:      make(map[string][]string, len(r.related)),
		plugins:      make(map[string]bool, len(r.plugins)),
		subagentDeny: slices.Clone(r.subagentDeny),
	}
	for k := range r.plugins {
		c.plugins[k] = true
	}
	for k, v := range r.groups {
		c.groups[k] = slices.Clone(v)
	}
	for k, v := range r.profiles {
		c.profiles[k] = v.clone()
	}
	for k, v := range r.related {
		c.related[k] = slices.Clone(v)
	}
	return c
}

// Normalize returns the canonical form of a tool name under this
// registry's aliases, and false when name is not a valid tool name.
func (r *Registry) Normalize(name string) (string, bool) {
	return r.norm.canonical(name)
}

// AddAlias makes alias stand for the canonical tool name canonical. Both
// are normalized; an alias may not name another alias's target chain (the
// canonical name must not itself be an alias), and an alias cannot be a
// name that other aliases point to.
func (r *Registry) AddAlias(alias, canonical string) error {
	a, err := r.plainName(alias)
	if err != nil {
		return &ConfigError{Path: "alias " + quote(alias), Err: err}
	}
	c, err := r.plainName(canonical)
	if err != nil {
		return &ConfigError{Path: "alias " + quote(alias), Err: err}
	}
	if a == c {
		return &ConfigError{Path: "alias " + quote(alias), Err: fmt.Errorf("%w: alias of itself", ErrMalformedPattern)}
	}
	if _, ok := r.aliases[c]; ok {
		return &ConfigError{Path: "alias " + quote(alias), Err: fmt.Errorf("%w: target %q is itself an alias", ErrMalformedPattern, c)}
	}
	for from, to := range r.aliases {
		if to == a {
			return &ConfigError{Path: "alias " + quote(alias), Err: fmt.Errorf("%w: %q is the target of alias %q", ErrMalformedPattern, a, from)}
		}
	}
	r.aliases[a] = c
	r.norm = newNormalizer(r.aliases)
	return nil
}

// plainName lower-cases and validates a tool name without resolving
// aliases.
func (r *Registry) plainName(s string) (string, error) {
	l, ok := lowerASCII(s)
	if !ok {
		return "", fmt.Errorf("%w %q: non-ASCII character", ErrMalformedPattern, s)
	}
	if err := validName(l); err != nil {
		return "", err
	}
	return l, nil
}

// canonicalMember normalizes a group member or related-tool name: a plain
// tool name, aliases resolved, no wildcard and no group.
func (r *Registry) canonicalMember(s string) (string, error) {
	if _, err := r.plainName(s); err != nil {
		return "", err
	}
	n, _ := r.norm.canonical(s)
	return n, nil
}

// quote renders s as a Go string literal, used in entry paths.
func quote(s string) string { return fmt.Sprintf("%q", s) }

// groupKey returns "group:NAME" for name given with or without the prefix.
func groupKey(name string) (string, error) {
	l, ok := lowerASCII(name)
	if !ok {
		return "", fmt.Errorf("%w %q: non-ASCII character", ErrMalformedPattern, name)
	}
	base := strings.TrimPrefix(l, groupPrefix)
	if base == "" {
		return "", ErrBlankEntry
	}
	for i := 0; i < len(base); i++ {
		if alphaIndex[base[i]] < 0 {
			return "", fmt.Errorf("%w: character %q is not allowed in a group name", ErrMalformedPattern, base[i])
		}
	}
	return groupPrefix + base, nil
}
