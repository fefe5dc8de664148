package toolpolicy

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func pluginRegistry(t *testing.T) *Registry {
	t.Helper()
	r := NewRegistry()
	require.NoError(t, r.AddPlugin("Weather", "forecast", "radar"))
	require.NoError(t, r.AddPlugin("deploy", "deploy_app", "rollback"))
	return r
}

func TestPluginIDsNameTheirTools(t *testing.T) {
	tests := []struct {
		name string
		js   string
		want []string
	}{
		{"a plugin id in an allow list", `{"tools":{"allow":["weather"]}}`, []string{"forecast", "radar"}},
		{"group:<pluginId> in an allow list", `{"tools":{"allow":["group:weather"]}}`, []string{"forecast", "radar"}},
		{"a plugin id in a deny list", `{"tools":{"profile":"full","deny":["weather"]}}`,
			[]string{"deploy_app", "rollback", "read", "weather", "deploy"}}, // an id is not itself a tool
		{"group:plugins holds every plugin's tools", `{"tools":{"allow":["group:plugins"],"deny":["rollback"]}}`, []string{"forecast", "radar", "deploy_app"}},
		{"plugin ids are canonicalized like tool names", `{"tools":{"allow":[" DEPLOY "]}}`, []string{"deploy_app", "rollback"}},
	}
	catalogue := []string{"forecast", "radar", "deploy_app", "rollback", "read", "weather", "deploy"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := pluginRegistry(t).ParseConfig(strings.NewReader(tt.js))
			require.NoError(t, err)
			p, err := c.Resolve(Query{})
			require.NoError(t, err)
			var got []string
			for _, tool := range catalogue {
				if p.Allowed(tool) {
					got = append(got, tool)
				}
				assert.Equal(t, p.Allowed(tool), p.Explain(tool).Allowed, tool)
			}
			assert.ElementsMatch(t, tt.want, got)
		})
	}
}

func TestPluginExplainNamesThePlugin(t *testing.T) {
	p, err := pluginRegistry(t).Compile(Layer{Name: "global", Allow: []string{"*"}, Deny: []string{"weather"}})
	require.NoError(t, err)
	d := p.Explain("radar")
	assert.False(t, d.Allowed)
	assert.Equal(t, RuleGroup, d.Kind)
	assert.Equal(t, "weather", d.Rule)
}

func TestAddPluginErrors(t *testing.T) {
	tests := []struct {
		name  string
		setup func(r *Registry) error
	}{
		{"an alias", func(r *Registry) error { return r.AddPlugin("bash", "x") }},
		{"a built-in tool", func(r *Registry) error { return r.AddPlugin("exec", "x") }},
		{"a built-in group", func(r *Registry) error { return r.AddPlugin("fs", "x") }},
		{"the group of all plugins", func(r *Registry) error { return r.AddPlugin("plugins", "x") }},
		{"no tools", func(r *Registry) error { return r.AddPlugin("p") }},
		{"a wildcard tool", func(r *Registry) error { return r.AddPlugin("p", "x*") }},
		{"a malformed id", func(r *Registry) error { return r.AddPlugin("my plugin", "x") }},
		{"a tool of another plugin", func(r *Registry) error {
			if err := r.AddPlugin("a", "shared"); err != nil {
				return err
			}
			return r.AddPlugin("shared", "y")
		}},
		{"group:plugins taken by a user group", func(r *Registry) error {
			if err := r.AddGroup("plugins", "x"); err != nil {
				return err
			}
			return r.AddPlugin("p", "y")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.setup(NewRegistry())
			require.Error(t, err)
			var ce *ConfigError
			assert.ErrorAs(t, err, &ce)
		})
	}
}

func TestAddPluginReplacesAndSnapshots(t *testing.T) {
	r := pluginRegistry(t)
	before, err := r.Compile(Layer{Allow: []string{"weather"}})
	require.NoError(t, err)
	require.NoError(t, r.AddPlugin("weather", "satellite"))
	after, err := r.Compile(Layer{Allow: []string{"weather"}})
	require.NoError(t, err)
	assert.True(t, before.Allowed("radar"), "a policy keeps the registry it was built with")
	assert.False(t, after.Allowed("radar"))
	assert.True(t, after.Allowed("satellite"))
	assert.Equal(t, map[string][]string{"weather": {"satellite"}, "deploy": {"deploy_app", "rollback"}}, r.Plugins())
	members, ok := r.Group("plugins")
	require.True(t, ok)
	assert.ElementsMatch(t, []string{"satellite", "deploy_app", "rollback"}, members)
}
