package toolpolicy

import (
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestResolveSemantics pins what each field does: which ones override and
// which ones intersect, deny before allow, deny by default, related grants
// and subagent inheritance. want lists exactly the tools of allTools that
// the resolved policy allows.
func TestResolveSemantics(t *testing.T) {
	fs := []string{"read", "write", "edit", "apply_patch"}
	coding := []string{"read", "write", "edit", "apply_patch", "exec", "process",
		"sessions_list", "sessions_history", "sessions_send", "sessions_spawn",
		"memory_search", "memory_get", "image"}
	tests := []struct {
		name string
		js   string
		q    Query
		want []string
	}{
		// Deny by default.
		{"empty config allows nothing", `{}`, Query{}, nil},
		{"deny list alone grants nothing", `{"tools":{"deny":["exec"]}}`, Query{}, nil},
		{"explicit empty allow allows nothing", `{"tools":{"allow":[]}}`, Query{}, nil},
		{"empty allow beats profile full", `{"tools":{"profile":"full","allow":[]}}`, Query{}, nil},
		{"provider deny alone grants nothing", `{"tools":{"byProvider":{"openai":{"deny":["exec"]}}}}`, Query{Provider: "openai"}, nil},

		// Profiles.
		{"profile minimal", `{"tools":{"profile":"minimal"}}`, Query{}, []string{"session_status"}},
		{"profile coding", `{"tools":{"profile":"coding"}}`, Query{}, coding},
		{"profile messaging", `{"tools":{"profile":"messaging"}}`, Query{},
			[]string{"sessions_list", "sessions_history", "sessions_send", "message", "session_status"}},
		{"profile full", `{"tools":{"profile":"full"}}`, Query{}, allTools},
		{"profile name is case-insensitive", `{"tools":{"profile":"Minimal"}}`, Query{}, []string{"session_status"}},

		// Never widen: wildcard-only allow lists allow what they match, nothing more.
		{"wildcard-only allow", `{"tools":{"allow":["fs_*"]}}`, Query{}, []string{"fs_read", "fs_write"}},
		{"wildcard matching nothing", `{"tools":{"allow":["zz*"]}}`, Query{}, nil},
		{"infix wildcard", `{"tools":{"allow":["*test*"]}}`, Query{}, []string{"unit_test_runner"}},
		{"star allows all", `{"tools":{"allow":["*"]}}`, Query{}, allTools},
		{"allow names a tool nobody has", `{"tools":{"allow":["raed"]}}`, Query{}, nil},

		// Deny before allow, always.
		{"deny wins within a layer", `{"tools":{"allow":["*"],"deny":["exec"]}}`, Query{}, without(allTools, "exec")},
		{"deny of a group", `{"tools":{"profile":"full","deny":["group:fs"]}}`, Query{}, without(allTools, fs...)},
		{"deny star", `{"tools":{"profile":"full","deny":["*"]}}`, Query{}, nil},
		{"deny wildcard", `{"tools":{"profile":"full","deny":["*_*"]}}`, Query{},
			[]string{"read", "write", "edit", "exec", "process", "message", "browser", "canvas", "nodes", "cron", "gateway", "image", "plugin.deploy"}},
		{"deny in a later layer beats allow in an earlier one",
			`{"tools":{"allow":["exec"]},"agents":[{"id":"a","tools":{"deny":["exec"]}}]}`, Query{AgentID: "a"}, nil},
		{"deny in an earlier layer beats allow in a later one",
			`{"tools":{"deny":["exec"]},"agents":[{"id":"a","tools":{"allow":["exec"]}}]}`, Query{AgentID: "a"}, nil},
		{"deny through an alias", `{"tools":{"profile":"full","deny":["bash"]}}`, Query{}, without(allTools, "exec")},

		// Related-tool grants.
		{"exec grants apply_patch", `{"tools":{"allow":["exec"]}}`, Query{}, []string{"apply_patch", "exec"}},
		{"alias grants too", `{"tools":{"allow":["BASH"]}}`, Query{}, []string{"apply_patch", "exec"}},
		{"deny of apply_patch beats the grant", `{"tools":{"allow":["exec"],"deny":["apply_patch"]}}`, Query{}, []string{"exec"}},
		{"wildcard matching exec is no backdoor past a deny of apply_patch",
			`{"tools":{"allow":["e*"],"deny":["apply_patch"]}}`, Query{}, []string{"edit", "exec"}},
		{"star is no backdoor past a deny of apply_patch",
			`{"tools":{"allow":["*"],"deny":["apply-patch"]}}`, Query{}, without(allTools, "apply_patch")},
		{"deny of apply_patch in another layer beats the grant",
			`{"tools":{"allow":["exec"]},"agents":[{"id":"a","tools":{"deny":["apply_patch"]}}]}`, Query{AgentID: "a"}, []string{"exec"}},
		{"a denied granter grants nothing in its layer",
			`{"tools":{"allow":["exec","read"],"deny":["exec"]}}`, Query{}, []string{"read"}},
		{"a grant follows its granter: exec narrowed away grants nothing",
			`{"tools":{"allow":["exec"]},"agents":[{"id":"a","tools":{"allow":["read"]}}]}`, Query{AgentID: "a"}, nil},
		{"a grant is decided layer by layer: one layer lists exec, the other apply_patch",
			`{"tools":{"allow":["exec"]},"agents":[{"id":"a","tools":{"allow":["apply_patch"]}}]}`, Query{AgentID: "a"}, []string{"apply_patch"}},
		{"a grant is decided layer by layer: exec in every layer",
			`{"tools":{"allow":["exec"]},"agents":[{"id":"a","tools":{"allow":["exec","read"]}}]}`, Query{AgentID: "a"}, []string{"apply_patch", "exec"}},
		{"a granter denied in another layer grants nothing",
			`{"tools":{"allow":["exec"]},"agents":[{"id":"a","tools":{"deny":["exec"]}}]}`, Query{AgentID: "a"}, nil},
		{"a grant never lifts a deny of the granted tool",
			`{"tools":{"allow":["exec"]},"agents":[{"id":"a","tools":{"deny":["apply_patch"]}}]}`, Query{AgentID: "a"}, []string{"exec"}},
		{"a grant fills the gap in a layer that lists only exec",
			`{"tools":{"allow":["exec","apply_patch"]},"agents":[{"id":"a","tools":{"allow":["exec"]}}]}`, Query{AgentID: "a"}, []string{"apply_patch", "exec"}},
		{"a grant needs apply_patch to be denied nowhere",
			`{"tools":{"profile":"full"},"agents":[{"id":"a","tools":{"allow":["exec"],"deny":["apply_patch"]}}]}`, Query{AgentID: "a"}, []string{"exec"}},
		{"grant counts in each layer that allows exec",
			`{"tools":{"allow":["exec"]},"agents":[{"id":"a","tools":{"allow":["exec"]}}]}`, Query{AgentID: "a"}, []string{"apply_patch", "exec"}},
		{"apply_patch does not grant exec", `{"tools":{"allow":["apply_patch"]}}`, Query{}, []string{"apply_patch"}},

		// Profile: the agent's profile REPLACES the global one.
		{"agent profile replaces global profile (narrower)",
			`{"tools":{"profile":"coding"},"agents":[{"id":"a","tools":{"profile":"minimal"}}]}`, Query{AgentID: "a"}, []string{"session_status"}},
		{"agent profile replaces global profile (wider)",
			`{"tools":{"profile":"minimal"},"agents":[{"id":"a","tools":{"profile":"full"}}]}`, Query{AgentID: "a"}, allTools},
		{"agent without profile keeps the global profile",
			`{"tools":{"profile":"minimal"},"agents":[{"id":"a","tools":{"deny":["exec"]}}]}`, Query{AgentID: "a"}, []string{"session_status"}},
		{"agent profile still meets global allow and deny",
			`{"tools":{"profile":"minimal","allow":["read","exec"],"deny":["read"]},"agents":[{"id":"a","tools":{"profile":"coding"}}]}`,
			Query{AgentID: "a"}, []string{"apply_patch", "exec"}},
		{"other agents keep the global profile",
			`{"tools":{"profile":"minimal"},"agents":[{"id":"a","tools":{"profile":"full"}}]}`, Query{AgentID: "b"}, []string{"session_status"}},
		{"agent ids are canonical (lower-cased)", `{"tools":{"profile":"minimal"},"agents":[{"id":"a","tools":{"profile":"full"}}]}`,
			Query{AgentID: "A"}, allTools},

		// Global allow and deny INTERSECT with the profile.
		{"global allow narrows the profile",
			`{"tools":{"profile":"coding","allow":["read","exec"]}}`, Query{}, []string{"read", "apply_patch", "exec"}},
		{"global allow cannot widen the profile",
			`{"tools":{"profile":"minimal","allow":["read"]}}`, Query{}, nil},
		{"global deny narrows the profile",
			`{"tools":{"profile":"coding","deny":["group:sessions","group:memory"]}}`, Query{},
			[]string{"read", "write", "edit", "apply_patch", "exec", "process", "image"}},

		// Provider: the model key REPLACES the provider key; either INTERSECTS with the rest.
		{"provider entry applies", `{"tools":{"profile":"coding","byProvider":{"openai":{"deny":["exec"]}}}}`,
			Query{Provider: "openai", Model: "gpt-4o"}, without(coding, "exec")},
		{"model entry replaces provider entry",
			`{"tools":{"profile":"coding","byProvider":{"openai":{"deny":["exec"]},"openai/gpt-5":{"deny":["read"]}}}}`,
			Query{Provider: "openai", Model: "gpt-5"}, without(coding, "read")},
		{"model entry does not apply to other models",
			`{"tools":{"profile":"coding","byProvider":{"openai":{"deny":["exec"]},"openai/gpt-5":{"deny":["read"]}}}}`,
			Query{Provider: "openai", Model: "gpt-4o"}, without(coding, "exec")},
		{"model entry alone, no provider entry",
			`{"tools":{"profile":"coding","byProvider":{"openai/gpt-5":{"allow":["read"]}}}}`,
			Query{Provider: "openai", Model: "gpt-5"}, []string{"read"}},
		{"provider keys and queries are case-insensitive",
			`{"tools":{"profile":"coding","byProvider":{"OpenAI/GPT-5":{"allow":["read"]}}}}`,
			Query{Provider: " openai", Model: "gpt-5 "}, []string{"read"}},
		{"provider allow cannot widen", `{"tools":{"profile":"minimal","byProvider":{"openai":{"allow":["*"]}}}}`,
			Query{Provider: "openai"}, []string{"session_status"}},
		{"provider empty allow allows nothing", `{"tools":{"profile":"full","byProvider":{"openai":{"allow":[]}}}}`,
			Query{Provider: "openai"}, nil},
		{"other provider unaffected", `{"tools":{"profile":"full","byProvider":{"openai":{"allow":[]}}}}`,
			Query{Provider: "anthropic"}, allTools},
		{"no provider in query, no provider layer", `{"tools":{"profile":"full","byProvider":{"openai":{"allow":[]}}}}`,
			Query{Model: "openai"}, allTools},
		{"model names may hold slashes and colons",
			`{"tools":{"profile":"full","byProvider":{"ollama/library/llama3:8b":{"allow":["read"]}}}}`,
			Query{Provider: "ollama", Model: "library/llama3:8b"}, []string{"read"}},

		// Agent allow and deny INTERSECT.
		{"agent allow narrows", `{"tools":{"profile":"coding"},"agents":[{"id":"a","tools":{"allow":["read","browser"]}}]}`,
			Query{AgentID: "a"}, []string{"read"}},
		{"agent allow alone grants", `{"agents":[{"id":"a","tools":{"allow":["read"]}}]}`, Query{AgentID: "a"}, []string{"read"}},
		{"agent empty allow allows nothing", `{"tools":{"profile":"full"},"agents":[{"id":"a","tools":{"allow":[]}}]}`,
			Query{AgentID: "a"}, nil},
		{"agent deny narrows", `{"tools":{"profile":"coding"},"agents":[{"id":"a","tools":{"deny":["group:runtime","group:fs","group:sessions","group:memory"]}}]}`,
			Query{AgentID: "a"}, []string{"image"}},

		// Subagents.
		{"subagent gets the default deny list",
			`{"tools":{"profile":"full"}}`, Query{SubagentDepth: 1},
			without(allTools, "sessions_list", "sessions_history", "sessions_send", "sessions_spawn", "gateway", "agents_list", "session_status", "cron")},
		{"subagent configured deny adds to the defaults",
			`{"tools":{"profile":"coding","subagents":{"tools":{"deny":["exec"]}}}}`, Query{SubagentDepth: 1},
			[]string{"read", "write", "edit", "apply_patch", "process", "memory_search", "memory_get", "image"}},
		{"subagent allow narrows", `{"tools":{"profile":"coding","subagents":{"tools":{"allow":["read","browser","*_get"]}}}}`,
			Query{SubagentDepth: 1}, []string{"read", "memory_get"}},
		{"subagent allow star cannot regain the defaults",
			`{"tools":{"profile":"full","subagents":{"tools":{"allow":["*"]}}}}`, Query{SubagentDepth: 1},
			without(allTools, "sessions_list", "sessions_history", "sessions_send", "sessions_spawn", "gateway", "agents_list", "session_status", "cron")},
		{"subagent cannot gain what the parent lacks",
			`{"tools":{"profile":"minimal","subagents":{"tools":{"allow":["read"]}}}}`, Query{SubagentDepth: 1}, nil},
		{"subagent of subagent", `{"tools":{"profile":"coding","subagents":{"tools":{"deny":["exec"]}}}}`, Query{SubagentDepth: 2},
			[]string{"read", "write", "edit", "apply_patch", "process", "memory_search", "memory_get", "image"}},
		{"subagent of an agent", `{"tools":{"profile":"full"},"agents":[{"id":"a","tools":{"allow":["read","cron"]}}]}`,
			Query{AgentID: "a", SubagentDepth: 1}, []string{"read"}},
		{"subagent layer alone never grants", `{"tools":{"subagents":{"tools":{"deny":["exec"]}}}}`, Query{SubagentDepth: 1}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustResolve(t, tt.js, tt.q)
			assert.ElementsMatch(t, tt.want, allowedSet(t, p))
		})
	}
}

// without returns list minus drop.
func without(list []string, drop ...string) []string {
	var out []string
outer:
	for _, s := range list {
		for _, d := range drop {
			if s == d {
				continue outer
			}
		}
		out = append(out, s)
	}
	return out
}

func TestResolveLayers(t *testing.T) {
	c := mustParse(t, `{
		"tools": {"profile": "coding", "deny": ["x"], "byProvider": {"openai": {}, "openai/gpt-5": {"deny": ["y"]}}},
		"agents": [{"id": "a", "tools": {"profile": "full", "deny": ["z"]}}]
	}`)
	p, err := c.Resolve(Query{AgentID: "a", Provider: "OpenAI", Model: "GPT-5", SubagentDepth: 2})
	require.NoError(t, err)
	assert.Equal(t, []string{"profile:full", "global", "provider:openai/gpt-5", "agent:a", "subagent:1", "subagent:2"}, p.Layers())

	p, err = c.Resolve(Query{})
	require.NoError(t, err)
	assert.Equal(t, []string{"profile:coding", "global"}, p.Layers())

	_, err = c.Resolve(Query{SubagentDepth: -1})
	require.Error(t, err)
	_, err = c.Resolve(Query{SubagentDepth: MaxLayers})
	require.ErrorIs(t, err, ErrTooManyLayers)
}

// TestSubagentChainNeverWidens builds subagent chains by every route and
// checks that each child's tools are a subset of its parent's.
func TestSubagentChainNeverWidens(t *testing.T) {
	c := mustParse(t, `{"tools":{"profile":"full","subagents":{"tools":{"deny":["write"]}}}}`)
	parent, err := c.Resolve(Query{})
	require.NoError(t, err)
	prev := allowedSet(t, parent)
	p := parent
	for depth := 1; depth <= 4; depth++ {
		var child *Policy
		switch depth % 2 {
		case 1:
			child, err = c.Subagent(p)
		default:
			child, err = p.Subagent(Layer{Allow: []string{"*"}, Deny: []string{fmt.Sprintf("*%d*", depth)}})
		}
		require.NoError(t, err)
		got := allowedSet(t, child)
		assert.Subset(t, prev, got, "depth %d", depth)
		assert.NotContains(t, got, "write")
		assert.NotContains(t, got, "sessions_spawn")
		prev, p = got, child
	}
	assert.Equal(t, []string{"profile:full", "subagent:1", "subagent:2", "subagent:3", "subagent:4"}, p.Layers())

	// Resolve with a depth and chaining Config.Subagent agree.
	viaQuery, err := c.Resolve(Query{SubagentDepth: 2})
	require.NoError(t, err)
	one, err := c.Subagent(parent)
	require.NoError(t, err)
	two, err := c.Subagent(one)
	require.NoError(t, err)
	assert.Equal(t, allowedSet(t, viaQuery), allowedSet(t, two))
	assert.Equal(t, viaQuery.Layers(), two.Layers())
}

func TestPolicySubagent(t *testing.T) {
	parent, err := Compile(Layer{Name: "base", Allow: []string{"group:fs", "cron", "exec"}})
	require.NoError(t, err)
	child, err := parent.Subagent(Layer{Deny: []string{"write"}})
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"read", "edit", "apply_patch", "exec"}, allowedSet(t, child))
	d := child.Explain("cron")
	assert.False(t, d.Allowed)
	assert.Equal(t, "subagent:1", d.Layer)
	assert.Equal(t, "default subagent deny[7]", d.Source)

	// The parent is unchanged.
	assert.True(t, parent.Allowed("cron"))
	assert.True(t, parent.Allowed("write"))

	// A child's allow list cannot regain what the parent lacks.
	child2, err := child.Subagent(Layer{Allow: []string{"*"}})
	require.NoError(t, err)
	assert.False(t, child2.Allowed("write"))
	assert.False(t, child2.Allowed("browser"))

	_, err = child.Subagent(Layer{Deny: []string{"group:nope"}})
	require.ErrorIs(t, err, ErrUnknownGroup)
	var nilPolicy *Policy
	_, err = nilPolicy.Subagent(Layer{})
	require.Error(t, err)
}

func TestRegistrySubagentDeny(t *testing.T) {
	r := NewRegistry()
	require.NoError(t, r.SetSubagentDeny("group:web"))
	p, err := r.Compile(Layer{Allow: []string{"*"}})
	require.NoError(t, err)
	child, err := p.Subagent(Layer{})
	require.NoError(t, err)
	assert.False(t, child.Allowed("web_fetch"))
	assert.True(t, child.Allowed("cron"))
	assert.Equal(t, DefaultSubagentDeny(), NewRegistry().SubagentDeny())
	require.ErrorIs(t, r.SetSubagentDeny(""), ErrBlankEntry)
}

func TestCustomGroupsAndProfiles(t *testing.T) {
	r := NewRegistry()
	require.NoError(t, r.AddGroup("plugin_db", "db_query", "DB_Migrate", "db_query"))
	m, ok := r.Group("group:plugin_db")
	require.True(t, ok)
	assert.Equal(t, []string{"db_query", "db_migrate"}, m)
	require.NoError(t, r.AddProfile("dba", Profile{Allow: []string{"group:plugin_db", "read"}, Deny: []string{"db_migrate"}}))
	assert.Contains(t, r.Profiles(), "dba")
	assert.Contains(t, r.Groups(), "group:plugin_db")

	c, err := r.ParseConfig(stringsReader(`{"tools":{"profile":"dba"},"agents":[{"id":"m","tools":{"allow":["group:plugin_db"]}}]}`))
	require.NoError(t, err)
	p, err := c.Resolve(Query{})
	require.NoError(t, err)
	assert.True(t, p.Allowed("db_query"))
	assert.True(t, p.Allowed("read"))
	assert.False(t, p.Allowed("db_migrate"))

	// The default registry knows neither.
	_, err = ParseConfig(stringsReader(`{"tools":{"profile":"dba"}}`))
	require.ErrorIs(t, err, ErrUnknownProfile)
	_, err = ParseConfig(stringsReader(`{"tools":{"allow":["group:plugin_db"]}}`))
	require.ErrorIs(t, err, ErrUnknownGroup)

	// A config keeps the registry as it was.
	require.NoError(t, r.AddGroup("plugin_db", "db_other"))
	p2, err := c.Resolve(Query{})
	require.NoError(t, err)
	assert.True(t, p2.Allowed("db_query"))

	// Errors.
	require.ErrorIs(t, r.AddGroup("empty"), ErrBlankEntry)
	require.ErrorIs(t, r.AddGroup("group:"), ErrBlankEntry)
	require.ErrorIs(t, r.AddGroup("g", "a*"), ErrMalformedPattern)
	require.ErrorIs(t, r.AddGroup("g", "group:fs"), ErrMalformedPattern)
	require.ErrorIs(t, r.AddGroup("g", ""), ErrBlankEntry)
	require.ErrorIs(t, r.AddGroup("bad name"), ErrMalformedPattern)
	require.ErrorIs(t, r.AddProfile("p", Profile{Allow: []string{"group:nope"}}), ErrUnknownGroup)
	require.ErrorIs(t, r.AddProfile("", Profile{}), ErrBlankEntry)

	// Custom related grants.
	require.NoError(t, r.AddRelated("db_migrate", "db_query"))
	require.ErrorIs(t, r.AddRelated("x", "x"), ErrMalformedPattern)
	assert.Equal(t, []string{"db_query"}, r.Related()["db_migrate"])
	p3, err := r.Compile(Layer{Allow: []string{"db_migrate"}})
	require.NoError(t, err)
	assert.True(t, p3.Allowed("db_query"))
	assert.Equal(t, map[string][]string{"exec": {"apply_patch"}}, DefaultRelated())
}

func TestDefaults(t *testing.T) {
	r := NewRegistry()
	assert.Equal(t, []string{"group:fs", "group:memory", "group:messaging", "group:platform", "group:runtime", "group:sessions", "group:web"}, r.Groups())
	assert.Equal(t, []string{"coding", "full", "messaging", "minimal"}, r.Profiles())
	// Every default profile compiles.
	for _, name := range r.Profiles() {
		l, ok := r.ProfileLayer(name)
		require.True(t, ok)
		_, err := r.Compile(l)
		require.NoError(t, err, name)
	}
	// Copies, not the package state.
	g := DefaultGroups()
	g["group:fs"][0] = "changed"
	assert.Equal(t, "read", DefaultGroups()["group:fs"][0])
	pr := DefaultProfiles()
	pr["full"].Allow[0] = "read"
	assert.Equal(t, "*", DefaultProfiles()["full"].Allow[0])
}

// TestConcurrentUse runs Allowed, Explain and filtering from many
// goroutines (meaningful under -race).
func TestConcurrentUse(t *testing.T) {
	p := mustResolve(t, `{"tools":{"profile":"coding","deny":["*_spawn"],"allow":["*"]}}`, Query{})
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				for _, n := range allTools {
					d := p.Explain(n)
					if d.Allowed != p.Allowed(n) {
						t.Errorf("disagreement on %q", n)
					}
				}
				_ = p.FilterNames(allTools)
			}
		}()
	}
	wg.Wait()
}

func TestNilAndZeroPolicy(t *testing.T) {
	var p *Policy
	assert.False(t, p.Allowed("read"))
	assert.Equal(t, RuleDefaultDeny, p.Explain("read").Kind)
	assert.Empty(t, p.FilterNames([]string{"read"}))
	assert.Nil(t, p.Layers())
	empty, err := Compile()
	require.NoError(t, err)
	assert.False(t, empty.Allowed("read"))
}

func TestSubagentChainDepthLimit(t *testing.T) {
	p, err := Compile(Layer{Allow: []string{"*"}})
	require.NoError(t, err)
	for i := 1; i < MaxLayers; i++ {
		p, err = p.Subagent(Layer{})
		require.NoError(t, err)
	}
	assert.Len(t, p.Layers(), MaxLayers)
	_, err = p.Subagent(Layer{})
	require.ErrorIs(t, err, ErrTooManyLayers)
}

func TestWithCatalogue(t *testing.T) {
	p := mustResolve(t, `{"tools":{"allow":["fs_*","exec"],"deny":["*_admin"]}}`, Query{})
	c := p.WithCatalogue([]string{"fs_read", "fs_admin", "bad name", "BASH", "apply_patch"})
	for _, n := range allTools {
		assert.Equal(t, p.Allowed(n), c.Allowed(n), n)
	}
	assert.True(t, c.Allowed("fs_read"))
	assert.False(t, c.Allowed("fs_admin"))
	assert.False(t, c.Allowed("bad name"))
	assert.True(t, c.Allowed("apply_patch"))
	var nilPolicy *Policy
	assert.Nil(t, nilPolicy.WithCatalogue([]string{"read"}))
	empty, err := Compile(Layer{Deny: []string{"x"}})
	require.NoError(t, err)
	assert.False(t, empty.WithCatalogue([]string{"read"}).Allowed("read"))
}
