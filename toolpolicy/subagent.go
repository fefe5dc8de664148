package toolpolicy

import (
	"fmt"
	"slices"
)

// subagentLayerPrefix starts the name of every subagent layer.
const subagentLayerPrefix = "subagent:"

// defaultSubagentOrigin is the entry path of the default subagent denies.
const defaultSubagentOrigin = "default subagent deny"

// defaultSubagentDeny are the tools a subagent never gets by default: the
// main agent orchestrates sessions, administers the system and
// coordinates status and scheduling.
var defaultSubagentDeny = []string{
	"sessions_list", "sessions_history", "sessions_send", "sessions_spawn",
	"gateway", "agents_list",
	"session_status", "cron",
}

// DefaultSubagentDeny returns a copy of the built-in subagent deny list.
func DefaultSubagentDeny() []string { return slices.Clone(defaultSubagentDeny) }

// SetSubagentDeny replaces the registry's default subagent deny list. The
// patterns are checked now; an empty list removes the default denials.
func (r *Registry) SetSubagentDeny(patterns ...string) error {
	if _, err := r.compileList(patterns, "subagentDeny"); err != nil {
		return err
	}
	r.subagentDeny = slices.Clone(patterns)
	return nil
}

// SubagentDeny returns a copy of the registry's default subagent deny list.
func (r *Registry) SubagentDeny() []string { return slices.Clone(r.subagentDeny) }

// compileSubagentLayer compiles the layer for subagent level depth: the
// registry's default denies, then extra.Deny, and extra.Allow. path
// prefixes the entry paths of extra's lists (the layer name if empty).
func (r *Registry) compileSubagentLayer(extra Layer, depth int, path string) (compiledLayer, error) {
	name := extra.Name
	if name == "" {
		name = fmt.Sprintf("%s%d", subagentLayerPrefix, depth)
	}
	if path == "" {
		path = name
	}
	cl, err := r.compileLayerAt(name, extra.Allow, extra.Deny, path)
	if err != nil {
		return compiledLayer{}, err
	}
	defaults, err := r.compileList(r.subagentDeny, defaultSubagentOrigin)
	if err != nil {
		return compiledLayer{}, err
	}
	cl.deny = append(defaults, cl.deny...)
	cl.subagent = true
	return cl, nil
}
