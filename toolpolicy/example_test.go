package toolpolicy_test

import (
	"fmt"
	"strings"

	"github.com/sandboxauth/sandboxauth/toolpolicy"
)

const exampleConfig = `{
  "tools": {
    "profile": "coding",
    "deny": ["memory_*"],
    "byProvider": {
      "openai": {"deny": ["process"]},
      "openai/gpt-5": {"deny": ["exec"]}
    },
    "subagents": {"tools": {"deny": ["write"]}}
  },
  "agents": [
    {"id": "reviewer", "tools": {"allow": ["read", "sessions_*", "image"]}},
    {"id": "assistant", "tools": {"profile": "messaging"}}
  ]
}`

// Load a configuration and resolve the policy of one agent.
func ExampleParseConfig() {
	cfg, err := toolpolicy.ParseConfig(strings.NewReader(exampleConfig))
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := cfg.Resolve(toolpolicy.Query{AgentID: "reviewer"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Layers())
	fmt.Println(p.Allowed("read"), p.Allowed("write"), p.Allowed("sessions_spawn"))
	// Output:
	// [profile:coding global agent:reviewer]
	// true false true
}

// Errors name the entry at fault, and nothing is silently dropped.
func ExampleParseConfig_errors() {
	_, err := toolpolicy.ParseConfig(strings.NewReader(
		`{"tools": {"byProvider": {"openai": {"deny": ["exec", "write", "group:fz"]}}}}`))
	fmt.Println(err)
	_, err = toolpolicy.ParseConfig(strings.NewReader(`{"tools": {"allow": [""]}}`))
	fmt.Println(err)
	// Output:
	// 1:64: tools.byProvider["openai"].deny[2]: unknown group "group:fz"
	// 1:22: tools.allow[0]: blank entry
}

// The provider/model entry replaces the provider entry; either narrows the
// rest.
func ExampleConfig_Resolve_provider() {
	cfg, _ := toolpolicy.ParseConfig(strings.NewReader(exampleConfig))
	for _, model := range []string{"gpt-4o", "gpt-5"} {
		p, _ := cfg.Resolve(toolpolicy.Query{Provider: "openai", Model: model})
		fmt.Printf("%s: exec=%v process=%v\n", model, p.Allowed("exec"), p.Allowed("process"))
	}
	// Output:
	// gpt-4o: exec=true process=false
	// gpt-5: exec=false process=true
}

// A subagent inherits its parent's policy, minus the default subagent deny
// list and the configured subagent denies; a subagent of a subagent
// narrows again.
func ExampleConfig_Resolve_subagent() {
	cfg, _ := toolpolicy.ParseConfig(strings.NewReader(exampleConfig))
	parent, _ := cfg.Resolve(toolpolicy.Query{})
	child, _ := cfg.Subagent(parent)
	grandchild, _ := child.Subagent(toolpolicy.Layer{Deny: []string{"exec"}})
	for _, p := range []*toolpolicy.Policy{parent, child, grandchild} {
		fmt.Println(p.FilterNames([]string{"read", "write", "exec", "sessions_spawn"}))
	}
	// Output:
	// [read write exec sessions_spawn]
	// [read exec]
	// [read]
}

// Explain tells which layer and which rule decided.
func ExamplePolicy_Explain() {
	cfg, _ := toolpolicy.ParseConfig(strings.NewReader(exampleConfig))
	p, _ := cfg.Resolve(toolpolicy.Query{AgentID: "reviewer", Provider: "openai"})
	for _, tool := range []string{"read", "memory_get", "process", "browser", "web fetch"} {
		d := p.Explain(tool)
		fmt.Printf("%s allowed=%v layer=%q rule=%q kind=%s\n", d.Tool, d.Allowed, d.Layer, d.Rule, d.Kind)
	}
	fmt.Println(p.Explain("memory_get"))
	// Output:
	// read allowed=true layer="profile:coding" rule="group:fs" kind=group
	// memory_get allowed=false layer="global" rule="memory_*" kind=wildcard
	// process allowed=false layer="provider:openai" rule="process" kind=exact
	// browser allowed=false layer="profile:coding" rule="" kind=not-listed
	// web fetch allowed=false layer="" rule="" kind=invalid-name
	// "memory_get" is denied by layer global: deny rule "memory_*" (tools.deny[0])
}

// Filter keeps a caller's own tool values whose names the policy allows.
func ExampleFilter() {
	type tool struct {
		Name, Description string
	}
	tools := []tool{
		{"read", "read a file"},
		{"bash", "run a command"},
		{"browser", "drive a browser"},
	}
	p, _ := toolpolicy.Compile(toolpolicy.Layer{Name: "global", Allow: []string{"group:fs", "exec"}})
	for _, t := range toolpolicy.Filter(p, tools, func(t tool) string { return t.Name }) {
		fmt.Println(t.Name)
	}
	// Output:
	// read
	// bash
}

// A plugin's tools can be given a group, and the group used in profiles
// and configurations parsed with the same registry.
func ExampleRegistry_AddGroup() {
	reg := toolpolicy.NewRegistry()
	if err := reg.AddGroup("plugin_db", "db_query", "db_migrate"); err != nil {
		fmt.Println(err)
		return
	}
	if err := reg.AddProfile("dba", toolpolicy.Profile{Allow: []string{"group:plugin_db", "read"}}); err != nil {
		fmt.Println(err)
		return
	}
	cfg, err := reg.ParseConfig(strings.NewReader(`{"tools": {"profile": "dba", "deny": ["db_migrate"]}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	p, _ := cfg.Resolve(toolpolicy.Query{})
	fmt.Println(p.FilterNames([]string{"db_query", "db_migrate", "read", "exec"}))
	// Output:
	// [db_query read]
}

// Lint reports the patterns that match no known tool: usually typos.
func ExampleConfig_Lint() {
	cfg, _ := toolpolicy.ParseConfig(strings.NewReader(`{"tools": {"allow": ["read", "raed", "web_*"], "deny": ["exce"]}}`))
	for _, f := range cfg.Lint([]string{"read", "write", "exec", "web_fetch"}) {
		fmt.Println(f)
	}
	// Output:
	// tools.allow[1]: "raed" matches no tool in the catalogue, so it allows nothing
	// tools.deny[0]: "exce" matches no tool in the catalogue
}
