package main

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/sandboxauth/sandboxauth/toolpolicy"
)

const toolsSynopsis = "--config FILE [--agent ID] [--provider P] [--model M] [--subagent N] [--json] [TOOL...]"

const toolsDescription = `Resolve the tool policy of a configuration file ("tools" and "agents") for one agent
session (agent id, model provider and model, subagent depth) and print, for
each TOOL (or for the whole catalogue of known tool names when none is given),
whether it is allowed or denied, and the layer and the rule that decided.

Tool names are normalized as the library does (trimmed, lower-cased, the
aliases of the vocabulary applied: Bash, run_shell_command and shell are exec,
Read and read_file are read, and so on). The catalogue is every tool named by the
default groups, profiles, subagent deny list and related-tool table, plus
every exact tool name written in the configuration.

Exit status:
  0  every named TOOL is allowed (or no TOOL was named: the catalogue is listed)
  2  some named TOOL is denied
  3  usage error, or the configuration cannot be read, is invalid (each
     error names FILE:LINE:COLUMN and the entry at fault, such as
     tools.deny[2]) or has no tool policy

`

var toolsExamples = []string{
	"sandboxauth tools --config tools.json",
	"sandboxauth tools --config tools.json --agent reviewer exec read web_fetch",
	"sandboxauth tools --config tools.json --provider openai --model gpt-5 bash",
	"sandboxauth tools --config tools.json --agent reviewer --subagent 1 --json sessions_spawn",
}

// toolsOutput is the JSON output of tools.
type toolsOutput struct {
	Config   string     `json:"config"`
	Agent    string     `json:"agent,omitempty"`
	Provider string     `json:"provider,omitempty"`
	Model    string     `json:"model,omitempty"`
	Subagent int        `json:"subagent"`
	Layers   []string   `json:"layers"`
	Tools    []toolJSON `json:"tools"`
}

type toolJSON struct {
	Name    string `json:"name"` // as given
	Tool    string `json:"tool"` // canonical`
	Allowed bool   `json:"allowed"`
	Layer   string `json:"layer,omitempty"`
	Rule    string `json:"rule,omitempty"`
	Kind    string `json:"kind"`
	Source  string `json:"source,omitempty"`
	Reason  string `json:"reason"`
}

func runTools(e *env, args []string) int {
	fs := newFlagSet(e, "tools", toolsSynopsis, toolsDescription+configHelp, toolsExamples)
	configPath := fs.String("config", "", "the sandboxauth configuration `FILE` holding the tool policy (required)")
	agent := fs.String("agent", "", "the agent `ID` (selects agents[].tools)")
	provider := fs.String("provider", "", "the model `PROVIDER` (selects tools.byProvider)")
	model := fs.String("model", "", "the `MODEL` (selects tools.byProvider[\"PROVIDER/MODEL\"]; needs --provider)")
	subagent := fs.Int("subagent", 0, "the subagent depth `N`: 0 for the agent itself, 1 for a subagent it spawned, ...")
	asJSON := fs.Bool("json", false, "print JSON instead of a table")
	if code, done := parseFlags(e, fs, args); done {
		return code
	}
	switch {
	case *configPath == "":
		return usageError(e, fs, "--config is required")
	case *subagent < 0:
		return usageError(e, fs, "--subagent %d: the depth cannot be negative", *subagent)
	case *model != "" && *provider == "":
		return usageError(e, fs, "--model needs --provider")
	}

	full, err := loadConfig(*configPath)
	if err != nil {
		return configError(e, fs, err)
	}
	warnConfig(e, fs, full, *configPath)
	cfg := full.Tools()
	if cfg == nil {
		return inputError(e, fs, `%s has no tool policy: add "tools" (and "agents") to it`, *configPath)
	}
	if *agent != "" && !cfg.HasAgent(*agent) {
		known := "it lists none"
		if ids := cfg.AgentIDs(); len(ids) > 0 {
			known = "agents: " + strings.Join(ids, ", ")
		}
		return inputError(e, fs, "--agent %q: no such agent in %s (%s); agent ids are compared lower-cased. Leave out --agent for the global layers only.", *agent, *configPath, known)
	}
	q := toolpolicy.Query{AgentID: *agent, Provider: *provider, Model: *model, SubagentDepth: *subagent}
	pol, err := cfg.Resolve(q)
	if err != nil {
		return inputError(e, fs, "%s: %v", *configPath, err)
	}
	notes(e, fs, cfg, q)

	names := fs.Args()
	named := len(names) > 0
	if !named {
		names = catalogue(cfg)
	}
	out := toolsOutput{Config: *configPath, Agent: *agent, Provider: *provider, Model: *model, Subagent: *subagent, Layers: pol.Layers()}
	code := exitOK
	for _, n := range names {
		d := pol.Explain(n)
		out.Tools = append(out.Tools, toolJSON{Name: n, Tool: d.Tool, Allowed: d.Allowed, Layer: d.Layer, Rule: d.Rule, Kind: d.Kind.String(), Source: d.Source, Reason: d.Reason})
		if named && !d.Allowed {
			code = exitDeny
		}
	}
	if out.Layers == nil {
		out.Layers = []string{}
	}
	if out.Tools == nil {
		out.Tools = []toolJSON{}
	}
	if *asJSON {
		writeJSON(e.stdout, out)
		return code
	}
	printTools(e, out)
	return code
}

// notes tells, on standard error, what the configuration's lint finds and
// when the provider selects no entry, since the library then silently falls
// back to the global layers. (An unknown agent is an error, see runTools.)
func notes(e *env, fs *flag.FlagSet, cfg *toolpolicy.Config, q toolpolicy.Query) {
	for _, f := range cfg.Lint(builtinCatalogue()) {
		fmt.Fprintf(e.stderr, "%s: note: %s (unless it names a tool of your own)\n", fs.Name(), f)
	}
	if q.Provider != "" {
		keys := map[string]bool{}
		for k := range cfg.File().Tools.ByProvider {
			keys[strings.ToLower(strings.TrimSpace(k))] = true
		}
		p := strings.ToLower(strings.TrimSpace(q.Provider))
		m := p + "/" + strings.ToLower(strings.TrimSpace(q.Model))
		if !keys[p] && !(q.Model != "" && keys[m]) {
			fmt.Fprintf(e.stderr, "%s: note: tools.byProvider has no entry for %q; no provider layer applies\n", fs.Name(), q.Provider)
		}
	}
}

// catalogue returns the known tool names: those of the default groups, the
// default subagent deny list and the related-tool table, and the exact
// names written in cfg, sorted.
func catalogue(cfg *toolpolicy.Config) []string {
	return names(cfg, true)
}

// builtinCatalogue returns the tool names the library knows of itself,
// without those written in a configuration: the catalogue that lint
// findings are checked against.
func builtinCatalogue() []string {
	return names(nil, false)
}

func names(cfg *toolpolicy.Config, written bool) []string {
	set := map[string]bool{}
	add := func(names ...string) {
		for _, n := range names {
			if c, ok := toolpolicy.Normalize(n); ok {
				set[c] = true
			}
		}
	}
	for _, members := range toolpolicy.DefaultGroups() {
		add(members...)
	}
	add(toolpolicy.DefaultSubagentDeny()...)
	for g, granted := range toolpolicy.DefaultRelated() {
		add(g)
		add(granted...)
	}
	for _, p := range toolpolicy.DefaultProfiles() {
		add(exactNames(p.Allow)...)
		add(exactNames(p.Deny)...)
	}
	if !written {
		return sortedKeys(set)
	}
	f := cfg.File()
	lists := [][]string{f.Tools.Allow, f.Tools.Deny}
	for _, r := range f.Tools.ByProvider {
		lists = append(lists, r.Allow, r.Deny)
	}
	if f.Tools.Subagents != nil {
		lists = append(lists, f.Tools.Subagents.Tools.Allow, f.Tools.Subagents.Tools.Deny)
	}
	for _, a := range f.Agents {
		lists = append(lists, a.Tools.Allow, a.Tools.Deny)
	}
	for _, l := range lists {
		add(exactNames(l)...)
	}
	return sortedKeys(set)
}

func sortedKeys(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for n := range set {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// exactNames returns the patterns that name one tool (no wildcard, no group).
func exactNames(patterns []string) []string {
	var out []string
	for _, p := range patterns {
		if !strings.Contains(p, "*") && !strings.HasPrefix(strings.ToLower(strings.TrimSpace(p)), "group:") {
			out = append(out, p)
		}
	}
	return out
}

func printTools(e *env, out toolsOutput) {
	w := e.stdout
	fmt.Fprintf(w, "config:   %s\n", out.Config)
	var sel []string
	if out.Agent != "" {
		sel = append(sel, "agent "+out.Agent)
	}
	if out.Provider != "" {
		p := "provider " + out.Provider
		if out.Model != "" {
			p += "/" + out.Model
		}
		sel = append(sel, p)
	}
	if out.Subagent > 0 {
		sel = append(sel, fmt.Sprintf("subagent depth %d", out.Subagent))
	}
	if len(sel) == 0 {
		sel = append(sel, "no agent, provider or subagent (global layers only)")
	}
	fmt.Fprintf(w, "query:    %s\n", strings.Join(sel, ", "))
	layers := "none"
	if len(out.Layers) > 0 {
		layers = strings.Join(out.Layers, ", ")
	}
	fmt.Fprintf(w, "layers:   %s\n\n", layers)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TOOL\tDECISION\tLAYER\tRULE\tKIND\tSOURCE")
	for _, t := range out.Tools {
		dec := "denied"
		if t.Allowed {
			dec = "allowed"
		}
		name := t.Tool
		if t.Name != t.Tool {
			name = t.Name + " (" + t.Tool + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", name, dec, dash(t.Layer), dash(t.Rule), t.Kind, dash(t.Source))
	}
	tw.Flush()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
