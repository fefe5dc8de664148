package toolpolicy

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseConfigErrors(t *testing.T) {
	tests := []struct {
		name    string
		js      string
		wantErr error
		wantMsg string // substring of the error, naming the entry
	}{
		{"unknown group names its entry", `{"tools":{"byProvider":{"openai":{"deny":["exec","write","group:fz"]}}}}`,
			ErrUnknownGroup, `tools.byProvider["openai"].deny[2]: unknown group "group:fz"`},
		{"blank allow entry", `{"tools":{"allow":[""]}}`, ErrBlankEntry, `tools.allow[0]: blank entry`},
		{"white-space allow entry", `{"tools":{"allow":["read","  "]}}`, ErrBlankEntry, `tools.allow[1]`},
		{"blank deny entry", `{"tools":{"deny":[""]}}`, ErrBlankEntry, `tools.deny[0]`},
		{"blank agent entry", `{"agents":[{"id":"a","tools":{"deny":["read",""]}}]}`, ErrBlankEntry, `agents[0].tools.deny[1]`},
		{"blank subagent entry", `{"tools":{"subagents":{"tools":{"allow":[""]}}}}`, ErrBlankEntry, `tools.subagents.tools.allow[0]`},
		{"typo in group", `{"tools":{"allow":["group:fz"]}}`, ErrUnknownGroup, `tools.allow[0]`},
		{"group wildcard", `{"tools":{"allow":["group:f*"]}}`, ErrMalformedPattern, `tools.allow[0]`},
		{"double star", `{"tools":{"allow":["**"]}}`, ErrMalformedPattern, `tools.allow[0]`},
		{"space inside", `{"tools":{"allow":["web fetch"]}}`, ErrMalformedPattern, `tools.allow[0]`},
		{"regex syntax", `{"tools":{"deny":["exec|read"]}}`, ErrMalformedPattern, `tools.deny[0]`},
		{"unknown profile", `{"tools":{"profile":"codng"}}`, ErrUnknownProfile, `tools.profile: unknown profile "codng"`},
		{"unknown agent profile", `{"agents":[{"id":"a","tools":{"profile":"ful"}}]}`, ErrUnknownProfile, `agents[0].tools.profile`},
		{"blank profile", `{"tools":{"profile":""}}`, ErrBlankEntry, `tools.profile`},
		{"blank agent id", `{"agents":[{"id":" "}]}`, ErrBlankEntry, `agents[0].id`},
		{"missing agent id", `{"agents":[{"tools":{}}]}`, ErrBlankEntry, `agents[0].id`},
		{"duplicate agent id", `{"agents":[{"id":"a"},{"id":"a"}]}`, ErrInvalidConfig, `agents[1].id`},
		{"unknown root field", `{"tool":{}}`, ErrInvalidConfig, `unknown field "tool"`},
		{"unknown tools field", `{"tools":{"alow":["read"]}}`, ErrInvalidConfig, `1:11: tools.alow: invalid tool policy configuration: unknown field "alow"`},
		{"profile in provider entry", `{"tools":{"byProvider":{"openai":{"profile":"full"}}}}`, ErrInvalidConfig, `1:35: tools.byProvider["openai"].profile: invalid tool policy configuration: unknown field "profile"`},
		{"unknown agent field", `{"agents":[{"id":"a","tools":{"allw":[]}}]}`, ErrInvalidConfig, `agents[0].tools`},
		{"subagents without tools wrapper", `{"tools":{"subagents":{"deny":["exec"]}}}`, ErrInvalidConfig, `tools.subagents`},
		{"duplicate key", `{"tools":{"deny":["exec"],"deny":[]}}`, ErrInvalidConfig, `1:27: tools.deny: invalid tool policy configuration: duplicate field "deny"`},
		{"duplicate provider key", `{"tools":{"byProvider":{"openai":{},"openai":{}}}}`, ErrInvalidConfig, `duplicate field`},
		{"provider keys differing in case", `{"tools":{"byProvider":{"OpenAI":{"deny":["exec"]},"openai":{}}}}`, ErrInvalidConfig, `appears twice`},
		{"null allow", `{"tools":{"allow":null}}`, ErrInvalidConfig, `tools.allow: invalid tool policy configuration: expected a list of strings, found null`},
		{"null tools", `{"tools":null}`, ErrInvalidConfig, `tools`},
		{"null entry", `{"tools":{"allow":[null]}}`, ErrInvalidConfig, `tools.allow[0]`},
		{"string instead of list", `{"tools":{"allow":"read"}}`, ErrInvalidConfig, `tools.allow`},
		{"number entry", `{"tools":{"deny":[1]}}`, ErrInvalidConfig, `tools.deny[0]`},
		{"trailing object", `{"tools":{}} {}`, ErrInvalidConfig, `trailing data`},
		{"trailing garbage", `{"tools":{}} x`, ErrInvalidConfig, ``},
		{"truncated", `{"tools":{"allow":["read"`, ErrInvalidConfig, `unexpected end`},
		{"empty input", ``, ErrInvalidConfig, ``},
		{"top-level list", `[]`, ErrInvalidConfig, `expected an object`},
		{"provider key with wildcard", `{"tools":{"byProvider":{"open*":{}}}}`, ErrMalformedPattern, `tools.byProvider["open*"]`},
		{"provider key with empty model", `{"tools":{"byProvider":{"openai/":{}}}}`, ErrMalformedPattern, `tools.byProvider["openai/"]`},
		{"blank provider key", `{"tools":{"byProvider":{" ":{}}}}`, ErrBlankEntry, `tools.byProvider[" "]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseConfig(strings.NewReader(tt.js))
			require.Error(t, err)
			assert.Nil(t, c)
			assert.ErrorIs(t, err, tt.wantErr)
			assert.Contains(t, err.Error(), tt.wantMsg)
		})
	}
}

func TestParseConfigReportsEveryPatternError(t *testing.T) {
	_, err := ParseConfig(strings.NewReader(`{
		"tools": {"allow": ["read", "group:fz"], "deny": ["**"]},
		"agents": [{"id": "a", "tools": {"allow": [""]}}]
	}`))
	require.Error(t, err)
	msg := err.Error()
	assert.Contains(t, msg, `tools.allow[1]: unknown group "group:fz"`)
	assert.Contains(t, msg, `tools.deny[0]`)
	assert.Contains(t, msg, `agents[0].tools.allow[0]: blank entry`)
}

func TestParseConfigAcceptsAndRoundTrips(t *testing.T) {
	js := `{
		"tools": {
			"profile": "coding",
			"allow": ["group:fs", "web_*"],
			"deny": ["web_fetch"],
			"byProvider": {"openai": {"deny": ["exec"]}, "openai/gpt-5": {"allow": []}},
			"subagents": {"tools": {"allow": ["read"], "deny": ["group:web"]}}
		},
		"agents": [{"id": "reviewer", "tools": {"profile": "minimal", "allow": ["read"], "deny": ["write"]}}]
	}`
	c := mustParse(t, js)
	f := c.File()
	assert.Equal(t, "coding", f.Tools.Profile)
	require.NotNil(t, f.Tools.ByProvider["openai/gpt-5"].Allow, "an explicit [] stays non-nil")
	assert.Empty(t, f.Tools.ByProvider["openai/gpt-5"].Allow)
	assert.Nil(t, f.Tools.ByProvider["openai"].Allow, "an absent allow stays nil")
	assert.Equal(t, []string{"reviewer"}, c.AgentIDs())

	out, err := json.Marshal(f)
	require.NoError(t, err)
	c2, err := ParseConfig(strings.NewReader(string(out)))
	require.NoError(t, err, "%s", out)
	assert.Equal(t, f, c2.File())
	assert.Contains(t, string(out), `"allow":[]`)
}

func TestLoadConfig(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	require.NoError(t, os.WriteFile(good, []byte(`{"tools":{"profile":"minimal"}}`), 0o600))
	c, err := LoadConfig(good)
	require.NoError(t, err)
	p, err := c.Resolve(Query{})
	require.NoError(t, err)
	assert.Equal(t, []string{"session_status"}, allowedSet(t, p))

	bad := filepath.Join(dir, "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"tools":{"allow":[""]}}`), 0o600))
	_, err = LoadConfig(bad)
	require.ErrorIs(t, err, ErrBlankEntry)
	assert.Contains(t, err.Error(), bad)

	_, err = LoadConfig(filepath.Join(dir, "missing.json"))
	require.ErrorIs(t, err, os.ErrNotExist)
}

func TestParseConfigSizeLimit(t *testing.T) {
	big := `{"tools":{"allow":["` + strings.Repeat("a", MaxConfigSize) + `"]}}`
	_, err := ParseConfig(strings.NewReader(big))
	require.ErrorIs(t, err, ErrInvalidConfig)
}

func TestNewConfigFromCode(t *testing.T) {
	r := NewRegistry()
	c, err := r.NewConfig(ConfigFile{Tools: ToolsConfig{Allow: []string{"read"}}})
	require.NoError(t, err)
	p, err := c.Resolve(Query{})
	require.NoError(t, err)
	assert.Equal(t, []string{"read"}, allowedSet(t, p))

	_, err = r.NewConfig(ConfigFile{Tools: ToolsConfig{Allow: []string{""}}})
	require.ErrorIs(t, err, ErrBlankEntry)
	_, err = r.NewConfig(ConfigFile{Agents: []AgentConfig{{ID: " a"}}})
	require.ErrorIs(t, err, ErrMalformedPattern)
}
