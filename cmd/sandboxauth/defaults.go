package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sandboxauth/sandboxauth"
)

const defaultsSynopsis = "[--config FILE] [--json] [safe|blocked|dangerous|protected...]"

const defaultsDescription = `List what the authorizers start from: the safe, blocked and dangerous command
lists (each entry as rules name it, with its reason) and the protected paths
(which operations ask). With --config, the lists and paths as that file
leaves them, its additions and removals applied. Name one or more sections to
print only those.

An entry is printed as the "command" of a policy file's matcher, then its
"args", its "flags" in [brackets] (one of them must appear) and its
"exceptFlags" after "except" (none may appear); a removal in a policy file
names the entry the same way ({"command": "git", "args": ["log"]} for
"git log (except --output, ...)").

Exit status: 0, or 3 for a usage error or a bad --config file.
`

var defaultsExamples = []string{
	"sandboxauth defaults",
	"sandboxauth defaults protected",
	"sandboxauth defaults --config policy.json safe | grep git",
	"sandboxauth defaults --json blocked",
}

// defaultsSections are the sections of defaults, in order.
var defaultsSections = []string{"safe", "blocked", "dangerous", "protected"}

// defaultEntry is one line of defaults, and its JSON.
type defaultEntry struct {
	List        string   `json:"list"`
	Command     string   `json:"command,omitempty"`
	Args        []string `json:"args,omitempty"`
	Flags       []string `json:"flags,omitempty"`
	ExceptFlags []string `json:"exceptFlags,omitempty"`
	Reason      string   `json:"reason,omitempty"`
	Pattern     string   `json:"pattern,omitempty"`
	Read        bool     `json:"read,omitempty"`
	Write       bool     `json:"write,omitempty"`
}

func runDefaults(e *env, args []string) int {
	fs := newFlagSet(e, "defaults", defaultsSynopsis, defaultsDescription+configHelp, defaultsExamples)
	configPath := configFlag(fs)
	asJSON := fs.Bool("json", false, "print one JSON object per entry instead of text")
	if code, done := parseFlags(e, fs, args); done {
		return code
	}
	want := fs.Args()
	for _, w := range want {
		if !slices.Contains(defaultsSections, w) {
			return usageError(e, fs, "unknown section %q: want %s", w, strings.Join(defaultsSections, ", "))
		}
	}
	if len(want) == 0 {
		want = defaultsSections
	}
	cfg, err := loadConfig(*configPath)
	if err != nil {
		return configError(e, fs, err)
	}
	warnConfig(e, fs, cfg, *configPath)
	commands := cfg.Commands()
	lists := map[string][]sandboxauth.CommandMatcher{
		"safe":      commands.SafeCommandMatchers(),
		"blocked":   commands.BlockedCommandMatchers(),
		"dangerous": commands.DangerousCommandMatchers(),
	}
	for _, section := range defaultsSections {
		if !slices.Contains(want, section) {
			continue
		}
		var entries []defaultEntry
		if section == "protected" {
			for _, p := range cfg.ProtectedPaths() {
				entries = append(entries, defaultEntry{List: section, Pattern: p.Pattern, Read: p.Read, Write: p.Write})
			}
		} else {
			for _, m := range lists[section] {
				entries = append(entries, defaultEntry{List: section, Command: m.Command, Args: m.CommandArgsPrefix, Flags: m.Flags, ExceptFlags: m.ExceptFlags, Reason: m.Reason})
			}
		}
		if *asJSON {
			for _, d := range entries {
				writeJSON(e.stdout, d)
			}
			continue
		}
		fmt.Fprintf(e.stdout, "%s (%d):\n", sectionTitle(section), len(entries))
		for _, d := range entries {
			if section == "protected" {
				fmt.Fprintf(e.stdout, "  %-32s %s\n", d.Pattern, protectedOps(d.Read, d.Write))
				continue
			}
			m := sandboxauth.CommandMatcher{Command: d.Command, CommandArgsPrefix: d.Args, Flags: d.Flags, ExceptFlags: d.ExceptFlags}
			line := "  " + m.String()
			if d.Reason != "" {
				line += "  # " + d.Reason
			}
			fmt.Fprintln(e.stdout, line)
		}
	}
	return exitOK
}

// sectionTitle is a section's heading.
func sectionTitle(section string) string {
	switch section {
	case "protected":
		return "protected paths (relative to the sandbox; no slash: at any depth)"
	}
	return section + " commands"
}

// protectedOps says which operations on a protected path ask.
func protectedOps(read, write bool) string {
	switch {
	case read && write:
		return "reads and writes ask"
	case read:
		return "reads ask"
	case write:
		return "writes ask"
	}
	return "nothing asks"
}
