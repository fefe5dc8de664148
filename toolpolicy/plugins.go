package toolpolicy

import (
	"fmt"
	"slices"
)

// pluginsGroup is the group that holds the tools of every plugin.
const pluginsGroup = groupPrefix + "plugins"

// AddPlugin registers the tools a plugin provides, so that policies can
// name them by the plugin's id: after AddPlugin("weather", "forecast",
// "radar"),
//
//   - "group:weather" is a group of forecast and radar;
//   - the plain entry "weather" in an allow or deny list also stands for
//     those tools (it is not read as a tool named "weather");
//   - "group:plugins" holds the tools of every registered plugin.
//
// The id follows the rules of a tool name and is lower-cased. It may not be
// a name the registry already gives a meaning to: an alias, a group other
// than this plugin's own, or a tool listed in a group of another kind.
// Registering the same plugin again replaces its tools. Members follow the
// rules of [Registry.AddGroup]. Configurations and policies built before
// the call are not affected.
func (r *Registry) AddPlugin(id string, tools ...string) error {
	path := "plugin " + quote(id)
	key, err := r.plainName(id)
	if err != nil {
		return &ConfigError{Path: path, Err: err}
	}
	if _, ok := r.aliases[key]; ok {
		return &ConfigError{Path: path, Err: fmt.Errorf("%w: %q is an alias", ErrMalformedPattern, key)}
	}
	if key == "plugins" {
		return &ConfigError{Path: path, Err: fmt.Errorf("%w: %q is the group of every plugin", ErrMalformedPattern, key)}
	}
	if _, exists := r.groups[pluginsGroup]; exists && len(r.plugins) == 0 {
		return &ConfigError{Path: path, Err: fmt.Errorf("%w: %s is already defined, and plugins need it for the tools of every plugin", ErrMalformedPattern, pluginsGroup)}
	}
	group := groupPrefix + key
	if _, exists := r.groups[group]; exists && !r.plugins[key] {
		return &ConfigError{Path: path, Err: fmt.Errorf("%w: %s is already a group that is not this plugin's", ErrMalformedPattern, group)}
	}
	for g, members := range r.groups {
		if g != group && g != pluginsGroup && slices.Contains(members, key) {
			return &ConfigError{Path: path, Err: fmt.Errorf("%w: %q is already a tool (in %s); a plugin id must not name a tool", ErrMalformedPattern, key, g)}
		}
	}
	if err := r.AddGroup(group, tools...); err != nil {
		return err
	}
	r.plugins[key] = true
	var all []string
	for _, id := range sortedKeys(r.plugins) {
		for _, t := range r.groups[groupPrefix+id] {
			if !slices.Contains(all, t) {
				all = append(all, t)
			}
		}
	}
	r.groups[pluginsGroup] = all
	return nil
}

// Plugins returns a copy of the registered plugins: id → tools.
func (r *Registry) Plugins() map[string][]string {
	m := make(map[string][]string, len(r.plugins))
	for k := range r.plugins {
		m[k] = slices.Clone(r.groups[groupPrefix+k])
	}
	return m
}
