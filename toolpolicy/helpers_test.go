package toolpolicy

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// refMatch is an independent reference for '*' patterns: dynamic
// programming over pattern and name, no shared code with wildcard.match.
func refMatch(pattern, name string) bool {
	// dp[j] reports whether pattern[:i] matches name[:j].
	dp := make([]bool, len(name)+1)
	dp[0] = true
	for i := 0; i < len(pattern); i++ {
		next := make([]bool, len(name)+1)
		if pattern[i] == '*' {
			seen := false
			for j := 0; j <= len(name); j++ {
				seen = seen || dp[j]
				next[j] = seen
			}
		} else {
			for j := 1; j <= len(name); j++ {
				next[j] = dp[j-1] && name[j-1] == pattern[i]
			}
		}
		dp = next
	}
	return dp[len(name)]
}

// mustParse parses a configuration under the default registry.
func mustParse(t testing.TB, js string) *Config {
	t.Helper()
	c, err := ParseConfig(strings.NewReader(js))
	require.NoError(t, err)
	return c
}

// mustResolve parses and resolves in one go.
func mustResolve(t testing.TB, js string, q Query) *Policy {
	t.Helper()
	p, err := mustParse(t, js).Resolve(q)
	require.NoError(t, err)
	return p
}

// allTools is a catalogue used by semantic tests: every default group
// member plus a few others.
var allTools = []string{
	"read", "write", "edit", "apply_patch", "exec", "process",
	"sessions_list", "sessions_history", "sessions_send", "sessions_spawn",
	"memory_search", "memory_get", "web_search", "web_fetch", "message",
	"browser", "canvas", "nodes", "cron", "gateway", "agents_list", "session_status", "image",
	"fs_read", "fs_write", "unit_test_runner", "plugin.deploy",
}

// allowedSet returns the tools of allTools the policy allows, and checks
// that Explain agrees with Allowed on each.
func allowedSet(t testing.TB, p *Policy) []string {
	t.Helper()
	var out []string
	for _, n := range allTools {
		a := p.Allowed(n)
		require.Equal(t, a, p.Explain(n).Allowed, "Explain disagrees with Allowed on %q", n)
		if a {
			out = append(out, n)
		}
	}
	return out
}

func stringsReader(s string) *strings.Reader { return strings.NewReader(s) }
