package sandboxauth

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// maxListed is how many paths a prompt or message names before it counts
// the rest.
const maxListed = 5

// formatArgv renders argv as a person would type it in a POSIX shell.
func formatArgv(argv []string) string {
	var b strings.Builder
	for i, a := range argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		q, err := syntax.Quote(a, syntax.LangBash)
		if err != nil {
			q = fmt.Sprintf("%q", a)
		}
		b.WriteString(q)
	}
	return b.String()
}

// subjectRule is the rule of a classification when it names a subject a
// person needs (a path, an option: "path outside sandbox: ~/.ssh"), and
// "" for a list entry's own form (python [-c -m]) or a rule without one
// (git global option), whose reason says more.
func subjectRule(c Classification) string {
	r := ruleText(c)
	if strings.HasPrefix(c.Rule, "rule: ") && strings.Contains(r, ": ") {
		return r
	}
	if c.Reason == "" {
		return r
	}
	return ""
}

// formatPaths renders up to maxListed paths, quoted, and a count of the rest.
func formatPaths(paths []string) string {
	var b strings.Builder
	for i, p := range paths {
		if i == maxListed {
			fmt.Fprintf(&b, " and %d more", len(paths)-maxListed)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q", p)
	}
	return b.String()
}

// describe names the operation of c for a message: "reading "/a" with
// read_file", "running `go test ./...` in "/src"".
func describe(c *call) string {
	switch c.op {
	case OpRead, OpWrite:
		verb := "reading"
		if c.op == OpWrite {
			verb = "writing"
		}
		s := verb + " " + formatPaths(c.paths)
		if len(c.paths) > 1 {
			s = fmt.Sprintf("%s %d paths", verb, len(c.paths))
		}
		if c.tool != "" {
			s += " with " + c.tool
		}
		return s
	default:
		s := "running `" + formatArgv(c.argv) + "`"
		if c.cwd != "" {
			s += fmt.Sprintf(" in %q", c.cwd)
		}
		return s
	}
}

// prompt is the question a person reads: the tool, the operation, the paths
// or the command with its working directory and class, why the policy asks,
// and the model's reason.
func prompt(policy string, c *call, f *facts, why string, offer *sessionOffer) string {
	var b strings.Builder
	switch c.op {
	case OpRead, OpWrite:
		tool := c.tool
		if tool == "" {
			tool = "A tool"
		}
		verb := "read"
		if c.op == OpWrite {
			verb = "write"
		}
		fmt.Fprintf(&b, "%s wants to %s %s.\n", tool, verb, plural(len(c.paths), "this path", "these paths"))
		listPaths(&b, c.paths, f)
	case OpShell:
		b.WriteString("The agent wants to run a shell command.\n")
		fmt.Fprintf(&b, "  command: %s\n", formatArgv(c.argv))
		fmt.Fprintf(&b, "  in:      %s\n", f.cwd)
		fmt.Fprintf(&b, "  class:   %s", f.class.Result)
		if r := subjectRule(f.class); r != "" {
			fmt.Fprintf(&b, " (%s)", r)
		}
		b.WriteByte('\n')
		if f.class.Reason != "" {
			fmt.Fprintf(&b, "  note:    %s\n", f.class.Reason)
		}
	}
	fmt.Fprintf(&b, "Sandbox: %s\n", c.sandboxDir)
	fmt.Fprintf(&b, "Asking because: %s (policy %s).\n", why, policy)
	if c.reason != "" {
		fmt.Fprintf(&b, "The model's reason: %s\n", c.reason)
	} else if c.requested {
		b.WriteString("The model asked for permission without giving a reason.\n")
	}
	if offer != nil {
		fmt.Fprintf(&b, "You may allow for the rest of the session: %s", offer.scope)
		if len(offer.dirs) > 0 {
			fmt.Fprintf(&b, ", or anything below one of: %s", strings.Join(offer.dirs, ", "))
		}
		b.WriteString(".\n")
	}
	b.WriteString("Allow?")
	return b.String()
}

// listPaths writes the paths of a read or write, those outside the sandbox
// first and all of them (up to a bound), so that a long list cannot hide one.
func listPaths(b *strings.Builder, paths []string, f *facts) {
	const maxOutside = 20
	out := make(map[string]bool, len(f.place.outside))
	for i, p := range f.place.outside {
		out[p] = true
		if i == maxOutside {
			fmt.Fprintf(b, "  ... and %d more OUTSIDE the sandbox\n", len(f.place.outside)-maxOutside)
			break
		}
		if r := f.place.where[i]; r != p {
			fmt.Fprintf(b, "  %s  (OUTSIDE the sandbox: %s)\n", p, r)
		} else {
			fmt.Fprintf(b, "  %s  (OUTSIDE the sandbox)\n", p)
		}
	}
	listed := 0
	for _, p := range paths {
		if out[p] {
			continue
		}
		if listed == maxListed {
			fmt.Fprintf(b, "  ... and %d more inside the sandbox\n", len(paths)-len(f.place.outside)-maxListed)
			break
		}
		fmt.Fprintf(b, "  %s\n", p)
		listed++
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
