package sandboxauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sandboxauth/sandboxauth/confine"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/toolpolicy"
)

// writeConfig writes a configuration file in a temporary directory and
// returns its path.
func writeConfig(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "policy.json")
	require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	return p
}

func TestLoadConfigErrorsNameFileLineColumnAndKey(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want string // after "policy.json:"
		is   error  // an extra sentinel the error must match
	}{
		{"unknown top-level key", "{\n  \"policy\": \"sandbox\",\n  \"polcy\": \"x\"\n}", `3:3: polcy: unknown field "polcy"`, nil},
		{"unknown matcher key", "{\"commands\": {\"safe\": {\"add\": [\n  {\"command\": \"make\", \"flag\": []}]}}}", `2:23: commands.safe.add[0].flag: unknown field "flag"`, nil},
		{"duplicate key", "{\"headless\": true,\n \"headless\": false}", `2:2: headless: duplicate field "headless"`, nil},
		{"null", "{\"promptTimeout\": null}", `1:19: promptTimeout: expected a string such as "2m", found null`, nil},
		{"wrong type", "{\"commands\": {\"blocked\": {\"add\": [{\"command\": \"x\", \"flags\": \"-f\"}]}}}", `1:61: commands.blocked.add[0].flags: expected a list of strings, found a string`, nil},
		{"blank flag", "{\"commands\": {\"safe\": {\"add\": [\n  {\"command\": \"a\"},\n  {\"command\": \"b\"},\n  {\"command\": \"c\",\n   \"flags\": [\"-x\", \"\"]}]}}}", `5:20: commands.safe.add[2].flags[1]: blank value`, nil},
		{"unknown policy", "{\n\t\"policy\": \"lenient\"}", `2:12: policy: unknown policy "lenient"`, nil},
		{"bad duration", "{\"promptTimeout\": \"2 minutes\"}", `1:19: promptTimeout: "2 minutes" is not a duration`, nil},
		{"negative duration", "{\"promptTimeout\": \"-1s\"}", `1:19: promptTimeout: "-1s" must be positive`, nil},
		{"command with slash", "{\"commands\": {\"safe\": {\"add\": [{\"command\": \"/bin/ls\"}]}}}", `1:44: commands.safe.add[0].command: "/bin/ls" contains a slash`, nil},
		{"missing command", "{\"commands\": {\"dangerous\": {\"remove\": [{\"args\": []}]}}}", `1:40: commands.dangerous.remove[0]: "command" is missing`, nil},
		{"safe curl shadows blocked", "{\n  \"commands\": {\n    \"safe\": {\n      \"add\": [\n        {\"command\": \"make\"},\n        {\"command\": \"curl\"}\n      ]\n    }\n  }\n}",
			`6:9: commands.safe.add[1]: the safe entry "curl" would overrule the default blocked entry "curl"`, nil},
		{"safe CURL shadows blocked", `{"commands": {"safe": {"add": [{"command": "CURL", "args": ["-s"]}]}}}`, `1:32: commands.safe.add[0]: the safe entry "CURL -s" would overrule the default blocked entry "curl"`, nil},
		{"blocked git overruled by safe git", `{"commands": {"blocked": {"add": [{"command": "git"}]}}}`, `1:35: commands.blocked.add[0]: the blocked entry "git" is overruled by default safe entries ("git --version", "git add", "git annotate"`, nil},
		{"remove matching nothing", `{"commands": {"safe": {"remove": [{"command": "cat", "args": ["x"]}]}}}`, `1:35: commands.safe.remove[0]: "cat x" matches no entry of the default safe list`, nil},
		{"remove unknown protected path", `{"protectedPaths": {"remove": ["notes.txt"]}}`, `1:32: protectedPaths.remove[0]: "notes.txt" is not a default protected path`, nil},
		{"protected path protecting nothing", `{"protectedPaths": {"add": [{"pattern": "x", "read": false, "write": false}]}}`, `1:29: protectedPaths.add[0]: protects nothing: "read" and "write" are both false. Leave them out (both default to true)`, nil},
		{"protected path with ..", `{"protectedPaths": {"add": [{"pattern": "a/../b", "read": true}]}}`, `1:29: protectedPaths.add[0]: ("a/../b"): empty, "." or ".." elements are not allowed`, nil},
		{"confine: relative directory", "{\n \"confine\": {\"writable\": [\"cache\"]}}", `2:27: confine.writable[0]: "cache" is not an absolute, clean directory`, nil},
		{"confine: unknown key", "{\"confine\": {\"net\": true}}", `1:14: confine.net`, nil},
		{"confine under autoapprove", `{"policy": "autoapprove", "confine": {}}`, `1:38: confine: has no effect under the policy "autoapprove"`, nil},
		{"autoapprove with commands", `{"policy": "autoapprove", "commands": {}}`, `1:39: commands: has no effect under the policy "autoapprove"`, nil},
		{"tools: unknown group", "{\"policy\": \"sandbox\",\n  \"tools\": {\"allow\": [\"read\",\n    \"group:fz\"]}}", `3:5: tools.allow[1]: unknown group "group:fz"`, toolpolicy.ErrUnknownGroup},
		{"agents: unknown key", "{\"tools\": {}, \"agents\": [{\"id\": \"a\", \"tols\": {}}]}", `1:38: agents[0].tols: invalid tool policy configuration: unknown field "tols"`, toolpolicy.ErrInvalidConfig},
		{"agents: duplicate id", "{\"agents\": [{\"id\": \"a\"},\n  {\"id\": \"a\"}]}", `2:10: agents[1].id: invalid tool policy configuration: agent id "a" appears twice`, nil},
		{"tools: duplicate key", "{\"tools\": {\"deny\": [], \"deny\": []}}", `1:24: tools.deny: invalid tool policy configuration: duplicate field "deny"`, nil},
		{"tools: not an object", "{\"tools\": [\"read\"]}", `1:11: tools: expected an object such as {"profile": "coding"}, found a list`, nil},
		{"syntax error", "{\"headless\": true,,}", `1:19: invalid JSON`, nil},
		{"truncated", "{\"commands\": {", `1:15: commands: unexpected end of the document`, nil},
		{"trailing data", "{} {}", `1:4: trailing data after the configuration object`, nil},
		{"not an object", "[]", `1:1: expected an object, found a list`, nil},
		{"empty file", "", `1:1: unexpected end of the document`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeConfig(t, tt.doc)
			_, err := LoadConfig(path)
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrInvalidConfig)
			assert.NotErrorIs(t, err, ErrDenied)
			if tt.is != nil {
				assert.ErrorIs(t, err, tt.is)
			}
			assert.Contains(t, err.Error(), path+":"+tt.want)
			var ce *ConfigError
			require.True(t, errors.As(err, &ce))
			assert.Equal(t, path, ce.File)
			assert.GreaterOrEqual(t, ce.Line, 1)
			assert.GreaterOrEqual(t, ce.Column, 1)
		})
	}
}

// Several mistakes are reported together, each with its own position.
func TestParseConfigReportsEveryValueError(t *testing.T) {
	_, err := ParseConfig([]byte("{\n\"policy\": \"x\",\n\"promptTimeout\": \"y\",\n\"commands\": {\"safe\": {\"add\": [{\"command\": \"wget\"}]}}\n}"))
	require.Error(t, err)
	lines := strings.Split(err.Error(), "\n")
	require.Len(t, lines, 3, err.Error())
	assert.True(t, strings.HasPrefix(lines[0], "2:11: policy: "), lines[0])
	assert.True(t, strings.HasPrefix(lines[1], "3:18: promptTimeout: "), lines[1])
	assert.True(t, strings.HasPrefix(lines[2], "4:31: commands.safe.add[0]: "), lines[2])
}

func TestLoadConfigMissingFile(t *testing.T) {
	_, err := LoadConfig(filepath.Join(t.TempDir(), "none.json"))
	assert.ErrorIs(t, err, ErrInvalidConfig)
	assert.ErrorIs(t, err, os.ErrNotExist)
}

func TestParseConfigTooLarge(t *testing.T) {
	_, err := ParseConfig(make([]byte, MaxConfigSize+1))
	assert.ErrorIs(t, err, ErrInvalidConfig)
}

// loaded builds the authorizer of a configuration written to a file.
func loaded(t *testing.T, body string, opts ...Option) (Authorizer, <-chan UserRequest) {
	t.Helper()
	c, err := LoadConfig(writeConfig(t, body))
	require.NoError(t, err)
	a, ch, err := c.NewAuthorizer(opts...)
	require.NoError(t, err)
	t.Cleanup(a.Close)
	return a, ch
}

// The behaviours a configuration promises, through LoadConfig.
func TestConfigTakesEffect(t *testing.T) {
	f := newFixture(t)
	require.NoError(t, os.WriteFile(filepath.Join(f.sandbox, ".env"), []byte("K=v\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(f.sandbox, "secrets"), 0o755))
	secret := filepath.Join(f.sandbox, "secrets", "key.txt")
	require.NoError(t, os.WriteFile(secret, []byte("k\n"), 0o644))
	cat := []string{"cat", "main.go"}
	type result struct {
		asked bool
		err   error
	}
	run := func(t *testing.T, a Authorizer, ch <-chan UserRequest, call func(Authorizer) error) result {
		t.Helper()
		seen, err := answering(t, ch, true, func() error { return call(a) })
		return result{len(seen) > 0, err}
	}
	shell := func(argv ...string) func(Authorizer) error {
		return func(a Authorizer) error { return a.IsShellAuthorized(false, "", f.sandbox, f.sandbox, argv) }
	}
	read := func(p string) func(Authorizer) error {
		return func(a Authorizer) error { return a.IsAuthorizedForRead(false, "", "Read", f.sandbox, p) }
	}

	t.Run("defaults: cat runs, curl is blocked, .env asks", func(t *testing.T) {
		a, ch := loaded(t, `{}`)
		assert.Equal(t, result{false, nil}, run(t, a, ch, shell(cat...)))
		assert.ErrorIs(t, run(t, a, ch, shell("curl", "x")).err, ErrBlockedCommand)
		assert.Equal(t, result{true, nil}, run(t, a, ch, read(filepath.Join(f.sandbox, ".env"))))
	})
	t.Run("removing a default safe entry makes the command ask", func(t *testing.T) {
		a, ch := loaded(t, `{"commands": {"safe": {"remove": [{"command": "cat"}]}}}`)
		assert.Equal(t, result{true, nil}, run(t, a, ch, shell(cat...)))
		assert.Equal(t, result{false, nil}, run(t, a, ch, shell("ls")), "other safe commands stay safe")
	})
	t.Run("added blocked entry refuses", func(t *testing.T) {
		a, ch := loaded(t, `{"commands": {"blocked": {"add": [{"command": "terraform", "reason": "no infrastructure"}]}}}`)
		r := run(t, a, ch, shell("terraform", "apply"))
		require.ErrorIs(t, r.err, ErrBlockedCommand)
		assert.Contains(t, r.err.Error(), "no infrastructure")
	})
	t.Run("removing a default blocked entry makes the command ask", func(t *testing.T) {
		a, ch := loaded(t, `{"commands": {"blocked": {"remove": [{"command": "curl"}]}}}`)
		assert.Equal(t, result{true, nil}, run(t, a, ch, shell("curl", "x")))
	})
	t.Run("safe curl with overrideBlocked runs", func(t *testing.T) {
		a, ch := loaded(t, `{"commands": {"safe": {"add": [{"command": "curl", "args": ["--version"], "overrideBlocked": true}]}}}`)
		assert.Equal(t, result{false, nil}, run(t, a, ch, shell("curl", "--version")))
		assert.ErrorIs(t, run(t, a, ch, shell("curl", "https://example.com")).err, ErrBlockedCommand)
	})
	t.Run("splitCompound", func(t *testing.T) {
		a, ch := loaded(t, `{"splitCompound": true}`)
		assert.Equal(t, result{false, nil}, run(t, a, ch, shell("bash", "-c", "ls && cat main.go")))
		a, ch = loaded(t, `{}`)
		assert.Equal(t, result{true, nil}, run(t, a, ch, shell("bash", "-c", "ls && cat main.go")))
	})
	t.Run("protected paths: added asks, removed runs", func(t *testing.T) {
		a, ch := loaded(t, `{"protectedPaths": {"add": [{"pattern": "secrets/", "read": true}], "remove": [".env"]}}`)
		assert.Equal(t, result{true, nil}, run(t, a, ch, read(secret)))
		assert.Equal(t, result{false, nil}, run(t, a, ch, read(filepath.Join(f.sandbox, ".env"))))
		assert.Equal(t, result{false, nil}, run(t, a, ch, read(f.inFile)))
	})
	t.Run("headless refuses what would ask, without asking", func(t *testing.T) {
		a, ch := loaded(t, `{"headless": true, "protectedPaths": {"add": [{"pattern": "secrets/", "read": true}]}}`)
		r := run(t, a, ch, read(secret))
		assert.False(t, r.asked)
		assert.ErrorIs(t, r.err, ErrNoUser)
		assert.ErrorIs(t, run(t, a, ch, shell("rm", "-rf", "sub")).err, ErrNoUser)
		assert.Equal(t, result{false, nil}, run(t, a, ch, shell(cat...)))
	})
	t.Run("prompt timeout refuses an unanswered question", func(t *testing.T) {
		a, _ := loaded(t, `{"promptTimeout": "1ms"}`)
		// Nobody reads the channel.
		assert.ErrorIs(t, shell("rm", "-rf", "sub")(a), ErrPromptTimeout)
	})
	t.Run("permissive policy runs unlisted commands", func(t *testing.T) {
		a, ch := loaded(t, `{"policy": "permissive"}`)
		assert.Equal(t, result{false, nil}, run(t, a, ch, shell("frobnicate", "--all")))
		a, ch = loaded(t, `{"policy": "sandbox"}`)
		assert.Equal(t, result{true, nil}, run(t, a, ch, shell("frobnicate", "--all")))
	})
	t.Run("autoapprove allows and never asks", func(t *testing.T) {
		a, ch := loaded(t, `{"policy": "autoapprove"}`)
		assert.NoError(t, shell("curl", "x")(a))
		_, open := <-ch
		assert.False(t, open, "the channel of an authorizer that never asks is closed")
	})
	t.Run("options passed to NewAuthorizer override the file", func(t *testing.T) {
		a, ch := loaded(t, `{"headless": false, "protectedPaths": {"add": [{"pattern": "secrets/", "read": true}]}}`, WithHeadless())
		assert.ErrorIs(t, run(t, a, ch, read(secret)).err, ErrNoUser)
	})
}

// The tool policy of the file decides which tools run; the query and the
// agent's vocabulary are options.
func TestConfigToolPolicy(t *testing.T) {
	f := newFixture(t)
	body := `{
		"tools": {"profile": "coding"},
		"agents": [{"id": "reviewer", "tools": {"deny": ["Bash", "Write"]}}]
	}`
	a, _ := loaded(t, body, WithToolQuery(toolpolicy.Query{AgentID: "reviewer"}), WithToolVocabulary(toolpolicy.AgentClaudeCode))
	err := a.IsShellAuthorized(false, "", f.sandbox, f.sandbox, []string{"ls"})
	require.ErrorIs(t, err, ErrToolNotPermitted)
	assert.Contains(t, err.Error(), `the tool "Bash" is not available`)
	assert.ErrorIs(t, a.IsAuthorizedForWrite(false, "", "write_file", f.sandbox, f.inFile), ErrToolNotPermitted)
	assert.NoError(t, a.IsAuthorizedForRead(false, "", "Read", f.sandbox, f.inFile))

	other, _ := loaded(t, body, WithToolVocabulary(toolpolicy.AgentClaudeCode))
	assert.NoError(t, other.IsShellAuthorized(false, "", f.sandbox, f.sandbox, []string{"ls"}), "another agent keeps Bash")

	// Close closes the wrapper and the authorizer it owns.
	c, err := ParseConfig([]byte(body))
	require.NoError(t, err)
	w, ch, err := c.NewAuthorizer()
	require.NoError(t, err)
	w.Close()
	assert.ErrorIs(t, w.IsAuthorizedForRead(false, "", "read", f.sandbox, f.inFile), ErrAuthorizerClosed)
	_, open := <-ch
	assert.False(t, open)
}

func TestConfigNewAuthorizerBadOption(t *testing.T) {
	c, err := ParseConfig([]byte(`{}`))
	require.NoError(t, err)
	_, _, err = c.NewAuthorizer(WithToolQuery(toolpolicy.Query{SubagentDepth: -1}))
	assert.ErrorIs(t, err, ErrInvalidConfig)
	_, _, err = c.NewAuthorizer(nil)
	assert.ErrorIs(t, err, ErrInvalidConfig)
}

// Every authorizer gets its own command lists.
func TestConfigCommandsAreFresh(t *testing.T) {
	c, err := ParseConfig([]byte(`{"commands": {"safe": {"remove": [{"command": "cat"}]}}, "splitCompound": true}`))
	require.NoError(t, err)
	s := c.Commands()
	assert.True(t, s.SplitCompound())
	s.AddSafe(CommandMatcher{Command: "cat"})
	res, err := c.Commands().Check([]string{"cat", "x"})
	require.NoError(t, err)
	assert.NotEqual(t, CommandCheckResultSafe, res)
	assert.Equal(t, PolicySandbox, c.Policy())
	assert.Nil(t, c.Tools())
}

func TestConfigNewPolicyAuthorizer(t *testing.T) {
	f := newFixture(t)
	c, err := ParseConfig([]byte(`{"policy": "sandbox"}`))
	require.NoError(t, err)
	_, _, err = c.NewPolicyAuthorizer("lenient", nil)
	require.ErrorIs(t, err, ErrInvalidConfig)
	// Other lists than the configuration's.
	a, _, err := c.NewPolicyAuthorizer(PolicySandbox, testCommands(), WithHeadless())
	require.NoError(t, err)
	defer a.Close()
	assert.ErrorIs(t, a.IsShellAuthorized(false, "", f.sandbox, f.sandbox, []string{"cat", "main.go"}), ErrNoUser, "cat is not on the test lists")
	p, _, err := c.NewPolicyAuthorizer(PolicyPermissive, nil)
	require.NoError(t, err)
	defer p.Close()
	assert.NoError(t, p.IsShellAuthorized(false, "", f.sandbox, f.sandbox, []string{"frobnicate", "--all"}))
}

func BenchmarkParseConfig(b *testing.B) {
	data, err := os.ReadFile("testdata/config/full.json")
	require.NoError(b, err)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseConfig(data); err != nil {
			b.Fatal(err)
		}
	}
}

// gitLogExcept is the JSON list of the except flags of the default safe
// `git log` entry, reversed (they are compared as a set).
func gitLogExcept(t *testing.T) string {
	for _, m := range NewShellAllowedCommands().SafeCommandMatchers() {
		if m.Command == "git" && slices.Equal(m.CommandArgsPrefix, []string{"log"}) {
			ex := slices.Clone(m.ExceptFlags)
			slices.Reverse(ex)
			b, err := json.Marshal(ex)
			require.NoError(t, err)
			return string(b)
		}
	}
	t.Fatal("no default safe git log entry")
	return ""
}

// A removal selects the entries of its command that have what it gives.
func TestConfigRemoveSelects(t *testing.T) {
	tests := []struct {
		doc      string
		unsafe   [][]string // no longer safe
		stillSaf [][]string
	}{
		{`{"commands": {"safe": {"remove": [{"command": "git", "args": ["status"]}]}}}`,
			[][]string{{"git", "status"}}, [][]string{{"git", "log"}, {"git", "diff"}}},
		{`{"commands": {"safe": {"remove": [{"command": "git"}]}}}`,
			[][]string{{"git", "status"}, {"git", "log"}}, [][]string{{"ls"}}},
		{`{"commands": {"safe": {"remove": [{"command": "GIT", "args": ["log"], "exceptFlags": ` + gitLogExcept(t) + `}]}}}`,
			[][]string{{"git", "log"}}, [][]string{{"git", "diff"}}},
	}
	for _, tt := range tests {
		c, err := ParseConfig([]byte(tt.doc))
		require.NoError(t, err, tt.doc)
		s := c.Commands()
		for _, argv := range tt.unsafe {
			res, err := s.Check(argv)
			require.NoError(t, err)
			assert.NotEqual(t, CommandCheckResultSafe, res, "%v after %s", argv, tt.doc)
		}
		for _, argv := range tt.stillSaf {
			res, err := s.Check(argv)
			require.NoError(t, err)
			assert.Equal(t, CommandCheckResultSafe, res, "%v after %s", argv, tt.doc)
		}
	}
	_, err := ParseConfig([]byte(`{"commands": {"safe": {"remove": [{"command": "git", "args": ["log"], "exceptFlags": ["--output"]}]}}}`))
	assert.ErrorContains(t, err, "matches no entry of the default safe list", "the except flags must be the entry's, as a set")
	_, err = ParseConfig([]byte(`{"commands": {"dangerous": {"remove": [{"command": "rm", "flags": ["-x"]}]}}}`))
	assert.ErrorContains(t, err, "commands.dangerous.remove[0]")
}

func TestConfigWidenings(t *testing.T) {
	c, err := LoadConfig(writeConfig(t, `{"headless": true, "promptTimeout": "1m", "commands": {"blocked": {"add": [{"command": "x"}]}, "safe": {"remove": [{"command": "cat"}]}}, "protectedPaths": {"add": [{"pattern": "a", "read": true}]}}`))
	require.NoError(t, err)
	assert.Empty(t, c.Widenings(), "narrowing only")

	path := writeConfig(t, "{\"policy\": \"permissive\",\n \"commands\": {\"safe\": {\"add\": [{\"command\": \"make\"}]}, \"blocked\": {\"remove\": [{\"command\": \"curl\"}]}},\n \"splitCompound\": true, \"protectedPaths\": {\"remove\": [\".env\"]}, \"agents\": []}")
	c, err = LoadConfig(path)
	require.NoError(t, err)
	var got []string
	for _, w := range c.Widenings() {
		var ce *ConfigError
		require.ErrorAs(t, w, &ce)
		assert.Equal(t, path, ce.File)
		got = append(got, fmt.Sprintf("%d:%d: %s", ce.Line, ce.Column, ce.Path))
	}
	assert.Equal(t, []string{"1:12: policy", "2:32: commands.safe.add[0]", "2:78: commands.blocked.remove[0]", "3:19: splitCompound", "3:55: protectedPaths.remove[0]", "3:75: agents"}, got)
}

// The authorizer of a configuration with a tool policy is a
// ContextAuthorizer too: cancelling a call releases its question.
func TestConfigAuthorizerWithToolsTakesContexts(t *testing.T) {
	f := newFixture(t)
	c, err := ParseConfig([]byte(`{"tools": {"profile": "coding"}}`))
	require.NoError(t, err)
	a, ch, err := c.NewAuthorizer()
	require.NoError(t, err)
	defer a.Close()
	ca, ok := a.(ContextAuthorizer)
	require.True(t, ok)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- ca.IsShellAuthorizedContext(ctx, false, "", f.sandbox, f.sandbox, []string{"rm", "-rf", "sub"})
	}()
	req := <-ch // the question is pending
	cancel()
	err = <-done
	assert.ErrorIs(t, err, ErrCallCanceled)
	<-req.Done
}

// TestConfigConfine: a "confine" section is the host's promise to run shell
// commands confined. Project code then runs without asking under the
// Sandbox policy; without the section, or for a host that runs nothing
// itself (WithoutConfinement), it is asked about.
func TestConfigConfine(t *testing.T) {
	if err := confine.Available(); err != nil {
		t.Skipf("kernel confinement is not available here: %v", err)
	}
	f := newFixture(t)
	goTest := func(a Authorizer, ch <-chan UserRequest) ([]UserRequest, error) {
		return answering(t, ch, false, func() error {
			return a.IsShellAuthorized(false, "", f.sandbox, f.sandbox, []string{"go", "test", "./..."})
		})
	}
	body := `{"confine": {"writable": ["/var/tmp"], "readable": ["/usr/share"]}}`
	c, err := ParseConfig([]byte(body))
	require.NoError(t, err)
	p, ok := c.Confinement()
	require.True(t, ok)
	assert.Equal(t, confine.Policy{Writable: []string{"/var/tmp"}, Readable: []string{"/usr/share"}}, p)
	p.Writable[0] = "/changed"
	again, _ := c.Confinement()
	assert.Equal(t, "/var/tmp", again.Writable[0], "Confinement returns a copy")

	a, ch := loaded(t, body)
	seen, err := goTest(a, ch)
	assert.NoError(t, err, "project code runs confined without asking")
	assert.Empty(t, seen)

	for name, cfg := range map[string]*Config{"no section": mustParse(t, `{}`), "WithoutConfinement": c.WithoutConfinement()} {
		a, ch, err := cfg.NewAuthorizer()
		require.NoError(t, err)
		seen, err := goTest(a, ch)
		a.Close()
		assert.ErrorIs(t, err, ErrAuthorizationDenied, name)
		assert.Len(t, seen, 1, "%s: project code is asked about", name)
	}
	_, ok = c.WithoutConfinement().Confinement()
	assert.False(t, ok)
}

func mustParse(t *testing.T, body string) *Config {
	t.Helper()
	c, err := ParseConfig([]byte(body))
	require.NoError(t, err)
	return c
}

// TestParseConfigEmptyObject: the empty object, read without building the
// schema, gives the same configuration as an empty object the schema
// checks (a blank inside the braces takes the general path), and members
// are still checked.
func TestParseConfigEmptyObject(t *testing.T) {
	general, err := ParseConfig([]byte("{ }"))
	require.NoError(t, err)
	for _, doc := range []string{"{}", "\n{}\n", " \t{}"} {
		got, err := ParseConfig([]byte(doc))
		require.NoError(t, err, "%q", doc)
		assert.Equal(t, general, got, "%q", doc)
	}
	for _, doc := range []string{`{"nope": 1}`, `{}{}`, `{} x`} {
		_, err := ParseConfig([]byte(doc))
		assert.Error(t, err, "%q", doc)
	}
}
