package classify

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sandboxauth/sandboxauth/internal/programs"
)

// LetsThrough says what a safe matcher m, added by a user, lets run
// without asking that the default lists would not: one phrase per
// finding, none when m pins its command to a subcommand, file or module (a
// word of its prefix that is not an option), whose author chose what
// runs. A user's safe entry is final, so these are the commands for which
// the lists no longer mean anything.
//
// The findings come from what the engine knows of every program, never
// from a list of names here: a program of the shell, wrapper or xargs
// kind runs the command or script it is given; a default dangerous entry
// that m would overrule (an interpreter's inline code, a recursive
// delete, git history, ...) is named with its reason; and the options a
// program's spec knows to be unsafe (find -exec, fd --exec) that m does not
// except are named with what they do.
func (m Matcher) LetsThrough() []string {
	for _, w := range m.CommandArgsPrefix {
		if !strings.HasPrefix(w, "-") {
			return nil
		}
	}
	name := normalizeCommandName(m.Command)
	var out []string
	switch kind(name) {
	case programs.KindShell, programs.KindForeignShell:
		out = append(out, fmt.Sprintf("%s runs any script given to it", m.Command))
	case programs.KindWrapper, programs.KindXargs:
		out = append(out, fmt.Sprintf("%s runs any command given to it", m.Command))
	}
	var overruled []string
	for _, d := range DefaultMatchers(DangerousList) {
		if probe, ok := dangerousProbe(m, d); ok && m.Matches(probe) && d.Matches(probe) {
			overruled = append(overruled, fmt.Sprintf("%s (%s)", strings.Join(probe[:len(probe)-1], " "), d.Reason))
		}
	}
	if n := len(overruled); n > 3 {
		overruled = append(overruled[:3], fmt.Sprintf("%d more that the default dangerous list asks about", n-3))
	}
	out = append(out, overruled...)
	if sp := programs.Form(name, m.CommandArgsPrefix); sp != nil {
		byReason := map[string][]string{}
		var reasons []string
		for _, o := range sp.Options {
			if o.Unsafe == "" {
				continue
			}
			probe := append(append([]string{m.Command}, m.CommandArgsPrefix...), o.Names[0], "x")
			if !m.Matches(probe) {
				continue
			}
			if _, seen := byReason[o.Unsafe]; !seen {
				reasons = append(reasons, o.Unsafe)
			}
			byReason[o.Unsafe] = append(byReason[o.Unsafe], o.Names[0])
		}
		for _, r := range reasons {
			out = append(out, fmt.Sprintf("%s %s (%s)", m.Command, strings.Join(byReason[r], ", "), r))
		}
	}
	return out
}

// kind is the kind of the program name, or of its name without a version
// (python3.12, bash5).
func kind(name string) programs.Kind {
	if k := programs.KindOf(name); k != programs.KindPlain {
		return k
	}
	return programs.KindOf(versionless(name))
}

// dangerousProbe builds the shortest argv that the dangerous entry d
// matches within m's reach: m's command, the longer of the two prefixes
// (when one extends the other), d's first flag, and an operand.
func dangerousProbe(m, d Matcher) ([]string, bool) {
	if !m.Overlaps(d) {
		return nil, false
	}
	prefix := m.CommandArgsPrefix
	if len(d.CommandArgsPrefix) > len(prefix) {
		prefix = d.CommandArgsPrefix
	}
	probe := append([]string{m.Command}, prefix...)
	if len(d.Flags) > 0 && !slices.ContainsFunc(d.Flags, func(f string) bool { return slices.Contains(prefix, f) }) {
		probe = append(probe, d.Flags[0])
	}
	return append(probe, "x"), true
}
