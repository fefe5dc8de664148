package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sandboxauth/sandboxauth/confine"
)

// withheld is the line `run` adds when a confined command fails: what the
// confinement kept from it, in case that is why, and how to allow it, in
// the file config (run's --config, "" when it had none).
func withheld(p confine.Policy, config string) string {
	section := "the \"confine\" section of a policy file given with --config"
	if config != "" {
		section = "the \"confine\" section of " + config
	}
	var parts []string
	if !p.Network {
		parts = append(parts, "no network (--net, or \"network\": true in "+section+", allows it)")
	}
	// With the network or without, no setting allows these.
	parts = append(parts, "no UNIX datagram sockets and no UNIX socket of another program outside the writable directories (use a stream socket in the project, or run it yourself outside sandboxauth)")
	parts = append(parts, "files outside "+strings.Join(append([]string{p.Sandbox}, existing(p.Writable)...), ", ")+" read-only (\"writable\": [\"/abs/dir\"] in "+section+" adds a directory)")
	// A path both read-only and hidden (a .env) is said once, as hidden:
	// it is a secret, not a file that makes programs run; a file shown
	// with other content (git's info/exclude) is the confinement's own.
	readOnly := slices.DeleteFunc(existing(p.ReadOnly), func(r string) bool {
		_, shown := p.Shown[r]
		return shown || slices.Contains(p.Hidden, r)
	})
	if ro := relativeTo(p.Sandbox, readOnly, 4); ro != "" {
		parts = append(parts, "read-only inside it: "+ro+" (files that make git, editors and agents run programs)")
	}
	if linked := relativeTo(p.Sandbox, confine.HomeLinks(p), 3); linked != "" {
		parts = append(parts, "read-only because your home directory links to them: "+linked+" (rebuild them outside the confinement, or remove the link)")
	}
	if hidden := relativeTo(p.Sandbox, existing(p.Hidden), 3); hidden != "" {
		parts = append(parts, "hidden: "+hidden+" and the user's credentials")
	} else {
		parts = append(parts, "the user's credentials hidden")
	}
	return fmt.Sprintf("sandboxauth run: the command failed while confined; if it needed more, note that it had %s.", strings.Join(parts, "; "))
}

// existing returns the paths that exist now.
func existing(paths []string) []string {
	var out []string
	for _, p := range paths {
		if _, err := os.Lstat(p); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// relativeTo names up to max of paths that lie inside dir, relative to it,
// and how many more there are.
func relativeTo(dir string, paths []string, max int) string {
	var names []string
	more := 0
	for _, p := range paths {
		rel, err := filepath.Rel(dir, p)
		if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
			continue
		}
		if len(names) == max {
			more++
			continue
		}
		names = append(names, rel)
	}
	s := strings.Join(names, ", ")
	if more > 0 {
		s += fmt.Sprintf(" and %d more", more)
	}
	return s
}
