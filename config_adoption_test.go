package sandboxauth

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// headlessAuthorizer builds the authorizer of the configuration body,
// headless, so that what would ask is refused with ErrNoUser.
func headlessAuthorizer(t *testing.T, body string) Authorizer {
	t.Helper()
	cfg, err := LoadConfig(writeConfig(t, body))
	require.NoError(t, err)
	a, _, err := cfg.NewAuthorizer(WithHeadless())
	require.NoError(t, err)
	t.Cleanup(a.Close)
	return a
}

// TestConfigProtectedPathShapes: an added protected path may be a pattern
// alone (reads and writes ask) or an object whose "read" and "write"
// default to true; an entry that protects nothing is an error saying how
// to fix it.
func TestConfigProtectedPathShapes(t *testing.T) {
	sb := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(sb, "notes"), 0o755))
	key := filepath.Join(sb, "notes", "key")
	require.NoError(t, os.WriteFile(key, []byte("k"), 0o644))
	tests := []struct {
		name              string
		entry             string
		readAsks, writeAs bool
	}{
		{"a string", `"notes/"`, true, true},
		{"an object without flags", `{"pattern": "notes/"}`, true, true},
		{"an object, reads allowed", `{"pattern": "notes/", "read": false}`, false, true},
		{"an object, writes allowed", `{"pattern": "notes/", "write": false}`, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := headlessAuthorizer(t, `{"protectedPaths": {"add": [`+tt.entry+`]}}`)
			err := a.IsAuthorizedForRead(false, "", "read_file", sb, key)
			assert.Equal(t, tt.readAsks, errors.Is(err, ErrNoUser), "read: %v", err)
			err = a.IsAuthorizedForWrite(false, "", "write_file", sb, key)
			assert.Equal(t, tt.writeAs, errors.Is(err, ErrNoUser), "write: %v", err)
		})
	}
	_, err := ParseConfig([]byte(`{"protectedPaths": {"add": [{"pattern": "notes/", "read": false, "write": false}, 7]}}`))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `protectedPaths.add[1]: expected an object such as {"pattern": "go.sum", "read": false} or a string such as "secrets/", found a number`)
}

// TestConfigReportsEveryTypeError: every value of the wrong type is
// reported, each with its line and column, not only the first.
func TestConfigReportsEveryTypeError(t *testing.T) {
	_, err := ParseConfig([]byte("{\n  \"headless\": \"yes\",\n  \"splitCompound\": 1,\n  \"policy\": [\"sandbox\"],\n  \"headles\": true\n}"))
	require.Error(t, err)
	lines := strings.Split(err.Error(), "\n")
	assert.Equal(t, []string{
		"2:15: headless: expected true or false, found a string",
		"3:20: splitCompound: expected true or false, found a number",
		`4:13: policy: expected a string such as "sandbox", found a list`,
		`5:3: headles: unknown field "headles": did you mean "headless"? (known fields: $schema, agents, commands, confine, headless, policy, promptTimeout, protectedPaths, splitCompound, tools)`,
	}, lines)
	assert.ErrorIs(t, err, ErrInvalidConfig)
}

// TestConfigClashAdviceWorks: the advice of each clash error, followed,
// gives a configuration that loads.
func TestConfigClashAdviceWorks(t *testing.T) {
	tests := []struct {
		name, body, msg, fixed string
	}{
		{
			"the file's own safe and blocked entries",
			`{"commands": {"safe": {"add": [{"command": "terraform", "args": ["plan"]}]}, "blocked": {"add": [{"command": "terraform"}]}}}`,
			`the safe entry "terraform plan" clashes with this file's blocked entry "terraform" (commands.blocked.add[0], line 1, column 98): safe entries win over blocked ones, so the blocked entry would not apply to what both match. Remove one of the two`,
			`{"commands": {"blocked": {"add": [{"command": "terraform"}]}}}`,
		},
		{
			"an own safe entry that overrides an own blocked one",
			`{"commands": {"safe": {"add": [{"command": "terraform", "overrideBlocked": true}]}, "blocked": {"add": [{"command": "terraform"}]}}}`,
			`the blocked entry "terraform" is overruled by this file's safe entry commands.safe.add[0] (line 1, column 32), which says "overrideBlocked": true`,
			`{"commands": {"safe": {"add": [{"command": "terraform", "overrideBlocked": true}]}}}`,
		},
		{
			"a default blocked entry",
			`{"commands": {"safe": {"add": [{"command": "curl", "args": ["--version"]}]}}}`,
			`remove the blocked entry with "commands": {"blocked": {"remove": [{"command": "curl"}]}}`,
			`{"commands": {"safe": {"add": [{"command": "curl", "args": ["--version"]}]}, "blocked": {"remove": [{"command": "curl"}]}}}`,
		},
		{
			"default safe entries",
			`{"commands": {"blocked": {"add": [{"command": "git"}]}}}`,
			`Remove them with "commands": {"safe": {"remove": [{"command": "git"}]}}`,
			`{"commands": {"blocked": {"add": [{"command": "git"}]}, "safe": {"remove": [{"command": "git"}]}}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseConfig([]byte(tt.body))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.msg)
			assert.Equal(t, 1, strings.Count(err.Error(), "\n")+1, "one error per clash: %v", err)
			_, err = ParseConfig([]byte(tt.fixed))
			assert.NoError(t, err, "the advice, followed")
		})
	}
}

// TestConfigRemoveProtectedSuggests: a removal that names a default
// protected path almost exactly says which one was meant.
func TestConfigRemoveProtectedSuggests(t *testing.T) {
	for in, want := range map[string]string{".idea": ".idea/", ".IDEA/": ".idea/", ".github/hooks": "**/.github/hooks/"} {
		_, err := ParseConfig([]byte(`{"protectedPaths": {"remove": ["` + in + `"]}}`))
		require.Error(t, err)
		assert.Contains(t, err.Error(), `is not a default protected path: did you mean "`+want+`"?`)
		assert.NotContains(t, err.Error(), "DefaultProtectedPaths", "a Go name means nothing to the author of a JSON file")
	}
	_, err := ParseConfig([]byte(`{"protectedPaths": {"remove": ["nothing-like-it"]}}`))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "`sandboxauth defaults` lists them")
}

// TestConfigJSONC: comments and trailing commas, as in agents' settings
// files, are accepted, and errors after them keep their lines and columns.
func TestConfigJSONC(t *testing.T) {
	sb := t.TempDir()
	a := headlessAuthorizer(t, "{\n  // no shell without asking\n  \"commands\": {\"safe\": {\"remove\": [{\"command\": \"cat\"},]}}, /* done */\n}\n")
	err := a.IsShellAuthorized(false, "", sb, sb, []string{"cat", "go.mod"})
	assert.ErrorIs(t, err, ErrNoUser, "the commented file took effect")

	_, err = ParseConfig([]byte("{\n  /* é */ \"policy\": \"strict\", // x\n}"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `2:21: policy: unknown policy "strict"`)
}

// TestConfigWarnings: safe entries that let anything run are reported as
// warnings, with their lines; entries that pin what runs are not.
func TestConfigWarnings(t *testing.T) {
	cfg, err := LoadConfig(writeConfig(t, `{"commands": {"safe": {"add": [
  {"command": "python3", "args": ["-c"]},
  {"command": "bash"},
  {"command": "find"},
  {"command": "make", "args": ["test"]},
  {"command": "python3", "args": ["-m", "pytest"]}
]}}}`))
	require.NoError(t, err)
	ws := cfg.Warnings()
	require.Len(t, ws, 3)
	var ce *ConfigError
	require.ErrorAs(t, ws[0], &ce)
	assert.Equal(t, "commands.safe.add[0]", ce.Path)
	assert.Equal(t, 2, ce.Line)
	assert.Contains(t, ws[0].Error(), "python3 -c (runs inline code or a module)")
	assert.Contains(t, ws[1].Error(), "bash runs any script given to it")
	assert.Contains(t, ws[2].Error(), "find -exec, -execdir, -ok, -okdir (runs a command for each file)")
	assert.Contains(t, ws[2].Error(), `Narrow it with "args" or "exceptFlags", or remove it`)
}
