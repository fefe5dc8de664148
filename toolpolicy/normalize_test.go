package toolpolicy

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNormalize(t *testing.T) {
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{"exec", "exec", true},
		{"  Exec\t", "exec", true},
		{"READ", "read", true},
		{"bash", "exec", true},
		{" BASH ", "exec", true},
		{"apply-patch", "apply_patch", true},
		{"Apply-Patch", "apply_patch", true},
		{"apply_patch", "apply_patch", true},
		{"fs:read", "fs:read", true},
		{"plugin.deploy-v2", "plugin.deploy-v2", true},
		{"", "", false},
		{"   ", "", false},
		{"web fetch", "", false},
		{"exec*", "", false},
		{"exec/x", "", false},
		{"group:fs", "", false},
		{"GROUP:fs", "", false},
		{"ëxec", "", false},
		{"\u212Aill", "", false}, // Kelvin sign folds to 'k' under Unicode rules; not here
		{"ｅｘｅｃ", "", false},      // full-width letters
		{"exec\x00", "", false},
		{strings.Repeat("a", MaxNameLen), strings.Repeat("a", MaxNameLen), true},
		{strings.Repeat("a", MaxNameLen+1), "", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := Normalize(tt.in)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestNormalizeFastPathDoesNotAllocate(t *testing.T) {
	allocs := testing.AllocsPerRun(100, func() {
		_, _ = Normalize("sessions_history")
		_, _ = Normalize("bash")
	})
	assert.Zero(t, allocs)
}

func TestRegistryAliasesAreExtensibleAndIsolated(t *testing.T) {
	r := NewRegistry()
	require.NoError(t, r.AddAlias("Runner", "exec"))
	require.NoError(t, r.AddAlias("patch", "apply_patch"))

	n, ok := r.Normalize("RUNNER")
	require.True(t, ok)
	assert.Equal(t, "exec", n)

	// The defaults and other registries are untouched.
	n, _ = NewRegistry().Normalize("runner")
	assert.Equal(t, "runner", n)
	n, _ = Normalize("runner")
	assert.Equal(t, "runner", n)
	assert.NotContains(t, DefaultAliases(), "runner")

	// The alias is used everywhere: in patterns and in lookups.
	p, err := r.Compile(Layer{Name: "l", Allow: []string{"runner"}})
	require.NoError(t, err)
	assert.True(t, p.Allowed("exec"))
	assert.True(t, p.Allowed("bash"))
	assert.True(t, p.Allowed("Runner"))
	assert.True(t, p.Allowed("patch"), "related grant through the alias")

	// A policy keeps the registry as it was when compiled.
	require.NoError(t, r.AddAlias("run", "process"))
	assert.False(t, p.Allowed("run"))
}

func TestAddAliasErrors(t *testing.T) {
	r := NewRegistry()
	tests := []struct{ alias, target string }{
		{"", "exec"},
		{"x", ""},
		{"x y", "exec"},
		{"x*", "exec"},
		{"group:x", "exec"},
		{"exec", "exec"},
		{"sh", "bash"},  // target is itself an alias
		{"exec", "run"}, // exec is the target of "bash"
	}
	for _, tt := range tests {
		err := r.AddAlias(tt.alias, tt.target)
		var ce *ConfigError
		assert.ErrorAs(t, err, &ce, "%q→%q", tt.alias, tt.target)
	}
}
