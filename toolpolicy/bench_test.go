package toolpolicy

import (
	"fmt"
	"strings"
	"testing"
)

// policy50 has 50 patterns across four layers: a profile, global allow
// and deny lists with exact names, groups and wildcards, a provider layer
// and an agent layer.
func policy50(tb testing.TB) *Policy {
	tb.Helper()
	global := []string{"group:fs", "group:runtime", "group:sessions", "group:memory", "group:web", "image", "browser", "canvas"}
	for i := 0; i < 14; i++ {
		global = append(global, fmt.Sprintf("plugin_%d", i))
	}
	global = append(global, "mcp_github_*", "mcp_*_read", "*_lookup", "*test*", "fs:*")
	deny := []string{"process", "sessions_spawn", "web_fetch", "mcp_github_delete*", "*_admin", "*danger*", "plugin_13"}
	provider := []string{"exec", "cron", "gateway", "*_write"}
	agentAllow := []string{"*"}
	agentDeny := []string{"canvas", "nodes", "plugin_1*", "x*y", "*_purge", "ab*cd"}
	p, err := Compile(
		mustProfile(tb, "coding"),
		Layer{Name: "global", Allow: global, Deny: deny},
		Layer{Name: "provider", Deny: provider},
		Layer{Name: "agent", Allow: agentAllow, Deny: agentDeny},
	)
	if err != nil {
		tb.Fatal(err)
	}
	n := 0
	for _, l := range p.layers {
		n += len(l.allow) + len(l.deny)
	}
	if n != 50 {
		tb.Fatalf("policy50 has %d patterns", n)
	}
	return p
}

func mustProfile(tb testing.TB, name string) Layer {
	l, ok := NewRegistry().ProfileLayer(name)
	if !ok {
		tb.Fatalf("no profile %q", name)
	}
	return l
}

// names50 mixes allowed, denied by exact name, by wildcard, unlisted, and
// an alias.
var names50 = []string{"read", "apply_patch", "exec", "process", "memory_get", "mcp_github_issue", "unit_test_runner", "browser", "bash", "sessions_spawn", "unknown_tool", "web_search"}

func BenchmarkAllowed50(b *testing.B) {
	p := policy50(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = p.Allowed(names50[i%len(names50)])
	}
}

// policy10k has 10,000 patterns: exact names, prefix, suffix and infix
// wildcards in the allow list, and a mix in the deny list.
func policy10k(tb testing.TB) *Policy {
	tb.Helper()
	var allow, deny []string
	for i := 0; i < 4500; i++ {
		allow = append(allow, fmt.Sprintf("tool_%d", i))
	}
	for i := 0; i < 1500; i++ {
		allow = append(allow, fmt.Sprintf("pfx%d_*", i))
	}
	for i := 0; i < 1000; i++ {
		allow = append(allow, fmt.Sprintf("*_sfx%d", i))
	}
	for i := 0; i < 500; i++ {
		allow = append(allow, fmt.Sprintf("*mid%d*", i), fmt.Sprintf("a%d*b*c%d", i, i))
	}
	for i := 0; i < 500; i++ {
		deny = append(deny, fmt.Sprintf("tool_%d", i*7), fmt.Sprintf("pfx%d_admin*", i), fmt.Sprintf("*_drop%d", i), fmt.Sprintf("*danger%d*", i))
	}
	p, err := Compile(Layer{Name: "global", Allow: allow, Deny: deny[:1000]}, Layer{Name: "agent", Deny: deny[1000:]})
	if err != nil {
		tb.Fatal(err)
	}
	n := 0
	for _, l := range p.layers {
		n += len(l.allow) + len(l.deny)
	}
	if n != 10000 {
		tb.Fatalf("policy10k has %d patterns", n)
	}
	return p
}

var names10k = []string{"tool_4321", "tool_4499", "tool_70", "pfx1234_read", "pfx12_admin_x", "x_sfx999", "x_drop12", "zzmid321zz", "a17_b_c17", "q_danger77_q", "unknown_tool", "read", "exec"}

func BenchmarkAllowed10000(b *testing.B) {
	p := policy10k(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = p.Allowed(names10k[i%len(names10k)])
	}
}

// BenchmarkAllowed50Unlisted asks only for names that no exact rule
// mentions, so every call walks the wildcard index.
func BenchmarkAllowed50Unlisted(b *testing.B) {
	p := policy50(b)
	names := []string{"mcp_github_issue", "unit_test_runner", "unknown_tool", "mcp_jira_read", "plugin_17", "db_lookup"}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = p.Allowed(names[i%len(names)])
	}
}

// BenchmarkAllowed10000Unlisted is the same against 10,000 patterns.
func BenchmarkAllowed10000Unlisted(b *testing.B) {
	p := policy10k(b)
	names := []string{"pfx1234_read", "pfx12_admin_x", "x_sfx999", "x_drop12", "zzmid321zz", "a17_b_c17", "q_danger77_q", "unknown_tool"}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = p.Allowed(names[i%len(names)])
	}
}

// BenchmarkAllowed10000Catalogue precomputes the verdicts of a catalogue.
func BenchmarkAllowed10000Catalogue(b *testing.B) {
	p := policy10k(b).WithCatalogue(names10k)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = p.Allowed(names10k[i%len(names10k)])
	}
}

func BenchmarkAllowedParallel50(b *testing.B) {
	p := policy50(b)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			_ = p.Allowed(names50[i%len(names50)])
			i++
		}
	})
}

func BenchmarkAllowedNonCanonical(b *testing.B) {
	p := policy50(b)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_ = p.Allowed(" Read ")
	}
}

func BenchmarkExplain50(b *testing.B) {
	p := policy50(b)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_ = p.Explain(names50[i%len(names50)])
	}
}

func BenchmarkCompile10000(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_ = policy10k(b)
	}
}

func BenchmarkResolve(b *testing.B) {
	c, err := ParseConfig(strings.NewReader(`{"tools":{"profile":"coding","deny":["*_admin"],"byProvider":{"openai":{"deny":["exec"]}}},"agents":[{"id":"a","tools":{"allow":["group:fs","exec"]}}]}`))
	if err != nil {
		b.Fatal(err)
	}
	q := Query{AgentID: "a", Provider: "openai", Model: "gpt-5", SubagentDepth: 1}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := c.Resolve(q); err != nil {
			b.Fatal(err)
		}
	}
}

// TestBenchmarkPoliciesAgreeWithExplain keeps the benchmark fixtures
// honest: the indexed answers equal the linear ones.
func TestBenchmarkPoliciesAgreeWithExplain(t *testing.T) {
	for _, tc := range []struct {
		p     *Policy
		names []string
	}{{policy50(t), names50}, {policy10k(t), names10k}} {
		allowed := 0
		for _, n := range tc.names {
			a := tc.p.Allowed(n)
			if a != tc.p.Explain(n).Allowed {
				t.Fatalf("%q: Allowed=%v, Explain=%+v", n, a, tc.p.Explain(n))
			}
			if a {
				allowed++
			}
		}
		if allowed == 0 || allowed == len(tc.names) {
			t.Fatalf("fixture decides all names alike (%d allowed)", allowed)
		}
	}
}
