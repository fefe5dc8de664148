package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testdataDir is the absolute path of testdata, for runs in other
// directories.
func testdataDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("testdata")
	require.NoError(t, err)
	return dir
}

func toolsJSON(t *testing.T, args ...string) (toolsOutput, result) {
	t.Helper()
	cfg := filepath.Join(testdataDir(t), "tools.json")
	r := runBin(t, "", append([]string{"tools", "--config", cfg, "--json"}, args...)...)
	var out toolsOutput
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &out), "stdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	return out, r
}

// TestToolsNamed explains named tools under the sample configuration, one
// query at a time.
func TestToolsNamed(t *testing.T) {
	t.Parallel()
	type want struct {
		allowed bool
		layer   string
		rule    string
		kind    string
		source  string
	}
	tests := []struct {
		name   string
		args   []string // flags
		tools  map[string]want
		layers []string
	}{
		{
			name:   "global",
			layers: []string{"profile:coding", "global"},
			tools: map[string]want{
				"read":      {true, "profile:coding", "group:fs", "group", "profile:coding.allow[0]"},
				"process":   {false, "global", "process", "exact", "tools.deny[0]"},
				"web_fetch": {false, "profile:coding", "", "not-listed", ""},
			},
		},
		{
			name:   "agent",
			args:   []string{"--agent", "reviewer"},
			layers: []string{"profile:coding", "global", "agent:reviewer"},
			tools: map[string]want{
				"read": {true, "profile:coding", "group:fs", "group", "profile:coding.allow[0]"},
				"edit": {false, "agent:reviewer", "edit", "exact", "agents[0].tools.deny[1]"},
				"exec": {false, "agent:reviewer", "", "not-listed", ""},
			},
		},
		{
			name:   "agent profile replaces the global one",
			args:   []string{"--agent", "researcher"},
			layers: []string{"profile:full", "global", "agent:researcher"},
			tools: map[string]want{
				"web_fetch": {true, "profile:full", "*", "all", "profile:full.allow[0]"},
				"exec":      {false, "agent:researcher", "group:runtime", "group", "agents[1].tools.deny[0]"},
			},
		},
		{
			name:   "provider",
			args:   []string{"--provider", "OpenAI"},
			layers: []string{"profile:coding", "global", "provider:openai"},
			tools: map[string]want{
				"exec": {false, "provider:openai", "exec", "exact", `tools.byProvider["openai"].deny[0]`},
			},
		},
		{
			name:   "model entry replaces the provider entry",
			args:   []string{"--provider", "openai", "--model", "gpt-5"},
			layers: []string{"profile:coding", "global", "provider:openai/gpt-5"},
			tools: map[string]want{
				"exec":  {true, "profile:coding", "group:runtime", "group", "profile:coding.allow[1]"},
				"image": {false, "provider:openai/gpt-5", "", "not-listed", ""},
			},
		},
		{
			name:   "subagent",
			args:   []string{"--subagent", "1"},
			layers: []string{"profile:coding", "global", "subagent:1"},
			tools: map[string]want{
				"memory_get":     {false, "subagent:1", "group:memory", "group", "tools.subagents.tools.deny[0]"},
				"sessions_spawn": {false, "subagent:1", "sessions_spawn", "exact", ""},
				"read":           {true, "profile:coding", "group:fs", "group", "profile:coding.allow[0]"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var names []string
			for n := range tt.tools {
				names = append(names, n)
			}
			out, r := toolsJSON(t, append(tt.args, names...)...)
			assert.Equal(t, tt.layers, out.Layers)
			require.Len(t, out.Tools, len(names))
			anyDenied := false
			for i, got := range out.Tools {
				assert.Equal(t, names[i], got.Name, "tools are listed in the order given")
				w := tt.tools[got.Tool]
				assert.Equal(t, w.allowed, got.Allowed, got.Tool)
				assert.Equal(t, w.layer, got.Layer, got.Tool)
				assert.Equal(t, w.rule, got.Rule, got.Tool)
				assert.Equal(t, w.kind, got.Kind, got.Tool)
				if w.source != "" {
					assert.Equal(t, w.source, got.Source, got.Tool)
				}
				assert.NotEmpty(t, got.Reason)
				anyDenied = anyDenied || !got.Allowed
			}
			if anyDenied {
				assert.Equal(t, exitDeny, r.code, "a named tool is denied")
			} else {
				assert.Equal(t, exitOK, r.code)
			}
		})
	}
}

// TestToolsExitStatus checks 0 when every named tool is allowed, 2 when one
// is denied, and 0 for a catalogue listing.
func TestToolsExitStatus(t *testing.T) {
	t.Parallel()
	cfg := filepath.Join(testdataDir(t), "tools.json")
	assert.Equal(t, exitOK, runBin(t, "", "tools", "--config", cfg, "read", "write").code)
	assert.Equal(t, exitDeny, runBin(t, "", "tools", "--config", cfg, "read", "process").code)
	assert.Equal(t, exitDeny, runBin(t, "", "tools", "--config", cfg, "not a tool").code)
	assert.Equal(t, exitOK, runBin(t, "", "tools", "--config", cfg).code)
}

// TestToolsCatalogue lists every known tool in text form.
func TestToolsCatalogue(t *testing.T) {
	t.Parallel()
	cfg := filepath.Join(testdataDir(t), "tools.json")
	r := runBin(t, "", "tools", "--config", cfg)
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "config:   "+cfg+"\n")
	assert.Contains(t, r.stdout, "query:    no agent, provider or subagent (global layers only)\n")
	assert.Contains(t, r.stdout, "layers:   profile:coding, global\n")
	lines := strings.Split(r.stdout, "\n")
	var header int
	for i, l := range lines {
		if strings.HasPrefix(l, "TOOL ") {
			header = i
		}
	}
	require.NotZero(t, header, r.stdout)
	assert.Regexp(t, `^TOOL\s+DECISION\s+LAYER\s+RULE\s+KIND\s+SOURCE$`, lines[header])
	rows := map[string]string{}
	for _, l := range lines[header+1:] {
		if f := strings.Fields(l); len(f) > 0 {
			rows[f[0]] = l
		}
	}
	for _, tool := range []string{"read", "write", "edit", "apply_patch", "exec", "process", "web_fetch", "web_search", "memory_get", "sessions_spawn", "session_status", "message", "gateway", "cron"} {
		assert.Contains(t, rows, tool, "the catalogue lists %s", tool)
	}
	assert.Regexp(t, `^read\s+allowed\s+profile:coding\s+group:fs\s+group\s+profile:coding\.allow\[0\]$`, rows["read"])
	assert.Regexp(t, `^process\s+denied\s+global\s+process\s+exact\s+tools\.deny\[0\]$`, rows["process"])
	assert.Regexp(t, `^web_fetch\s+denied\s+profile:coding\s+-\s+not-listed\s+-$`, rows["web_fetch"])
}

// TestToolsAliases shows the name as given and the canonical name.
func TestToolsAliases(t *testing.T) {
	t.Parallel()
	cfg := filepath.Join(testdataDir(t), "tools.json")
	r := runBin(t, "", "tools", "--config", cfg, "--provider", "openai", "bash")
	assert.Equal(t, exitDeny, r.code)
	assert.Regexp(t, `(?m)^bash \(exec\)\s+denied\s+provider:openai\s+exec\s+exact\s+tools\.byProvider\["openai"\]\.deny\[0\]$`, r.stdout)
}

// TestToolsNotes checks that a query selecting nothing in the file is
// reported on standard error, since the library then falls back silently.
func TestToolsNotes(t *testing.T) {
	t.Parallel()
	cfg := filepath.Join(testdataDir(t), "tools.json")
	r := runBin(t, "", "tools", "--config", cfg, "--provider", "anthropic", "read")
	assert.Equal(t, exitOK, r.code)
	assert.Contains(t, r.stderr, `note: tools.byProvider has no entry for "anthropic"`)
	assert.Contains(t, r.stdout, "layers:   profile:coding, global\n")

	r = runBin(t, "", "tools", "--config", cfg, "--agent", "reviewer", "--provider", "openai", "--model", "o3", "read")
	assert.Empty(t, r.stderr, "openai/o3 falls back to the openai entry, which exists")
}

// TestToolsBadInput checks usage and configuration errors: status 3 and a
// message naming the entry at fault.
func TestToolsBadInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		"malformed.json": `{"tools": {"deny": ["exec" "read"]}}`,
		"unknown.json":   `{"tools": {"profile": "coding"}, "agentz": []}`,
		"group.json":     `{"tools": {"allow": ["read"], "byProvider": {"openai": {"deny": ["exec", "group:fz"]}}}}`,
		"blank.json":     `{"tools": {"allow": ["read", "  "]}}`,
		"profile.json":   `{"agents": [{"id": "a", "tools": {"profile": "nope"}}]}`,
		"null.json":      `{"tools": {"allow": null}}`,
		"twice.json":     `{"agents": [{"id": "a"}, {"id": "a"}]}`,
		"several.json":   `{"tools": {"allow": ["a**b"], "deny": ["group:fz"]}}`,
		"notools.json":   `{"policy": "sandbox"}`,
	}
	for name, content := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
	cfg := filepath.Join(testdataDir(t), "tools.json")
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"no config", []string{"tools", "read"}, []string{"--config is required"}},
		{"unknown flag", []string{"tools", "--config", cfg, "--agnet", "x"}, []string{"flag provided but not defined: -agnet"}},
		{"bad subagent", []string{"tools", "--config", cfg, "--subagent", "x"}, []string{`invalid value "x" for flag -subagent`}},
		{"negative subagent", []string{"tools", "--config", cfg, "--subagent", "-1"}, []string{"cannot be negative"}},
		{"model without provider", []string{"tools", "--config", cfg, "--model", "gpt-5"}, []string{"--model needs --provider"}},
		{"missing file", []string{"tools", "--config", "nope.json"}, []string{"nope.json: no such file or directory"}},
		{"no tool policy", []string{"tools", "--config", "notools.json"}, []string{`notools.json has no tool policy`}},
		{"malformed JSON", []string{"tools", "--config", "malformed.json"}, []string{"malformed.json:1:27: tools: invalid JSON"}},
		{"unknown field", []string{"tools", "--config", "unknown.json"}, []string{`unknown.json:1:34: agentz: unknown field "agentz"`}},
		{"unknown group", []string{"tools", "--config", "group.json"}, []string{`group.json:1:74: tools.byProvider["openai"].deny[1]: unknown group "group:fz"`}},
		{"blank entry", []string{"tools", "--config", "blank.json"}, []string{`blank.json:1:30: tools.allow[1]: blank entry`}},
		{"unknown profile", []string{"tools", "--config", "profile.json"}, []string{`profile.json:1:46: agents[0].tools.profile: unknown profile "nope"`}},
		{"null list", []string{"tools", "--config", "null.json"}, []string{`null.json:1:21: tools.allow: `, "null"}},
		{"duplicate agent", []string{"tools", "--config", "twice.json"}, []string{`twice.json:1:33: agents[1].id: `}},
		{"several errors, each named", []string{"tools", "--config", "several.json"}, []string{
			"sandboxauth tools: several.json:1:22: tools.allow[0]: malformed pattern",
			"sandboxauth tools: several.json:1:40: tools.deny[0]: unknown group",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := runIn(t, dir, "", tt.args...)
			assert.Equal(t, exitUsage, r.code, "stdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
			for _, w := range tt.want {
				assert.Contains(t, r.stderr, w)
			}
			assert.Empty(t, r.stdout)
		})
	}
}

// TestToolsLintNotes: a pattern that matches no known tool (a typo, most
// likely) is pointed out on standard error with the entry at fault; the
// answer itself is unchanged.
func TestToolsLintNotes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "typo.json")
	require.NoError(t, os.WriteFile(cfg, []byte(`{"tools": {"allow": ["read", "exce", "read"], "deny": ["web_fetch"]}}`), 0o644))
	r := runBin(t, "", "tools", "--config", cfg, "read")
	assert.Equal(t, exitOK, r.code)
	assert.Contains(t, r.stderr, `note: tools.allow[1]: "exce" matches no tool in the catalogue, so it allows nothing`)
	assert.Contains(t, r.stderr, `"read" appears more than once`)
	assert.NotContains(t, r.stderr, "web_fetch")
	// A configuration without findings prints no note.
	clean := filepath.Join(dir, "clean.json")
	require.NoError(t, os.WriteFile(clean, []byte(`{"tools": {"allow": ["read", "exec"]}}`), 0o644))
	r = runBin(t, "", "tools", "--config", clean, "read")
	assert.Equal(t, exitOK, r.code)
	assert.Empty(t, r.stderr)
}

// TestToolsUnknownAgent: an agent id the configuration does not list is an
// error (status 3), since the library would otherwise drop the agent's own
// layers without a word; ids are compared lower-cased.
func TestToolsUnknownAgent(t *testing.T) {
	t.Parallel()
	cfg := filepath.Join(testdataDir(t), "tools.json")
	tests := []struct {
		name   string
		agent  string
		code   int
		stderr string
	}{
		{"unknown", "nobody", exitUsage, `--agent "nobody": no such agent in ` + cfg + ` (agents: reviewer, researcher)`},
		{"known, other case", "Reviewer", exitOK, ""},
		{"known", "reviewer", exitOK, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := runBin(t, "", "tools", "--config", cfg, "--agent", tt.agent, "read")
			assert.Equal(t, tt.code, r.code, r.stderr)
			if tt.stderr != "" {
				assert.Contains(t, r.stderr, tt.stderr)
				assert.Empty(t, r.stdout)
			}
		})
	}
}
