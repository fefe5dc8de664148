package toolpolicy

import (
	"fmt"
	"slices"
	"sort"
	"sync"
)

// Profile is a named preset: an allow list and a deny list that form the
// first layer of a policy. A nil Allow does not restrict (so a profile
// with neither list grants nothing by itself); use []string{"*"} to allow
// every tool.
type Profile struct {
	// Allow is the profile's allow list, or nil.
	Allow []string
	// Deny is the profile's deny list.
	Deny []string
}

func (p Profile) clone() Profile {
	return Profile{Allow: slices.Clone(p.Allow), Deny: slices.Clone(p.Deny)}
}

// defaultProfiles returns the built-in profiles, built on first use and
// copied into every Registry.
var defaultProfiles = sync.OnceValue(func() map[string]Profile {
	return map[string]Profile{
		"minimal":   {Allow: []string{"session_status"}},
		"coding":    {Allow: []string{"group:fs", "group:runtime", "group:sessions", "group:memory", "image"}},
		"messaging": {Allow: []string{"group:messaging", "sessions_list", "sessions_history", "sessions_send", "session_status"}},
		"full":      {Allow: []string{"*"}},
	}
})

// DefaultProfiles returns a copy of the built-in profiles: minimal,
// coding, messaging and full.
func DefaultProfiles() map[string]Profile {
	m := make(map[string]Profile, len(defaultProfiles()))
	for k, v := range defaultProfiles() {
		m[k] = v.clone()
	}
	return m
}

// AddProfile defines the profile name, or replaces it. Its patterns are
// checked against the registry as it is now (groups must exist).
func (r *Registry) AddProfile(name string, p Profile) error {
	key, ok := lowerASCII(name)
	if !ok || key == "" {
		return &ConfigError{Path: "profile " + quote(name), Err: ErrBlankEntry}
	}
	if err := validName(key); err != nil {
		return &ConfigError{Path: "profile " + quote(name), Err: err}
	}
	if p.Allow != nil && len(p.Allow) == 0 {
		p.Allow = []string{} // keep "allows nothing" distinct from nil
	}
	if _, err := r.compileList(p.Allow, "profile "+quote(key)+".allow"); err != nil {
		return err
	}
	if _, err := r.compileList(p.Deny, "profile "+quote(key)+".deny"); err != nil {
		return err
	}
	r.profiles[key] = p.clone()
	return nil
}

// Profiles returns the sorted names of every profile.
func (r *Registry) Profiles() []string {
	out := make([]string, 0, len(r.profiles))
	for k := range r.profiles {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// ProfileLayer returns the layer a profile contributes, named
// "profile:NAME", and whether the profile exists.
func (r *Registry) ProfileLayer(name string) (Layer, bool) {
	key, ok := lowerASCII(name)
	if !ok {
		return Layer{}, false
	}
	p, ok := r.profiles[key]
	if !ok {
		return Layer{}, false
	}
	return Layer{Name: "profile:" + key, Allow: slices.Clone(p.Allow), Deny: slices.Clone(p.Deny)}, true
}

// profileLayer is ProfileLayer with an error naming the entry.
func (r *Registry) profileLayer(name, path string) (Layer, error) {
	l, ok := r.ProfileLayer(name)
	if !ok {
		if s, _ := lowerASCII(name); s == "" {
			return Layer{}, &ConfigError{Path: path, Err: ErrBlankEntry}
		}
		return Layer{}, &ConfigError{Path: path, Err: fmt.Errorf("%w %q (known: %v)", ErrUnknownProfile, name, r.Profiles())}
	}
	return l, nil
}
