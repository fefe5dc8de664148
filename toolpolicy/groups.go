package toolpolicy

import (
	"fmt"
	"slices"
	"sort"
	"sync"
)

// defaultGroups returns the built-in groups, built on first use (a
// process that never compiles a policy never builds them). They are
// copied into every Registry and never modified.
var defaultGroups = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		// group:fs and group:runtime are the tools of the vocabulary that
		// touch files and run commands.
		"group:fs":        namesOfKinds(KindRead, KindWrite, KindEdit, KindSearch),
		"group:runtime":   namesOfKinds(KindShell),
		"group:sessions":  {"sessions_list", "sessions_history", "sessions_send", "sessions_spawn"},
		"group:memory":    {"memory_search", "memory_get"},
		"group:web":       {"web_search", "web_fetch"},
		"group:messaging": {"message"},
		// group:platform holds the tools the host platform itself provides.
		"group:platform": {"browser", "canvas", "nodes", "cron", "message", "gateway", "agents_list", "session_status", "image"},
	}
})

// DefaultGroups returns a copy of the built-in groups, keyed by their
// "group:NAME" reference.
func DefaultGroups() map[string][]string {
	m := make(map[string][]string, len(defaultGroups()))
	for k, v := range defaultGroups() {
		m[k] = slices.Clone(v)
	}
	return m
}

// AddGroup defines the group NAME (given as "NAME" or "group:NAME"), or
// replaces its members if it exists, for example to give a plugin's tools
// one name. Members are plain tool names (aliases are resolved; no
// wildcards, no groups); at least one is required and duplicates are
// dropped. Profiles refer to groups by name, so a redefinition is seen by
// every policy built afterwards.
func (r *Registry) AddGroup(name string, members ...string) error {
	key, err := groupKey(name)
	if err != nil {
		return &ConfigError{Path: "group " + quote(name), Err: err}
	}
	if len(members) == 0 {
		return &ConfigError{Path: key, Err: fmt.Errorf("%w: a group needs at least one member", ErrBlankEntry)}
	}
	out := make([]string, 0, len(members))
	for i, m := range members {
		n, err := r.canonicalMember(m)
		if err != nil {
			return &ConfigError{Path: fmt.Sprintf("%s[%d]", key, i), Err: err}
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	r.groups[key] = out
	return nil
}

// Group returns a copy of the members of a group (given as "NAME" or
// "group:NAME") and whether it exists.
func (r *Registry) Group(name string) ([]string, bool) {
	key, err := groupKey(name)
	if err != nil {
		return nil, false
	}
	m, ok := r.groups[key]
	return slices.Clone(m), ok
}

// Groups returns the sorted "group:NAME" references of every group.
func (r *Registry) Groups() []string {
	out := make([]string, 0, len(r.groups))
	for k := range r.groups {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
