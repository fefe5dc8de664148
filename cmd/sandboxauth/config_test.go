package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConfigAcceptance drives the built binary with configuration files:
// the behaviours the library's TestConfigTakesEffect checks through
// LoadConfig, seen by a user of the command line.
func TestConfigAcceptance(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, content string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
	write("main.go", "package main\n")
	write(".env", "K=v\n")
	write("private/key.txt", "k\n")
	write("nocat.json", `{"commands": {"safe": {"remove": [{"command": "cat"}]}}}`)
	write("safecurl.json", "{\n  \"commands\": {\n    \"safe\": {\n      \"add\": [\n        {\"command\": \"make\"},\n        {\"command\": \"curl\"}\n      ]\n    }\n  }\n}\n")
	write("typo.json", "{\n  \"policy\": \"sandbox\",\n    \"headles\": true\n}\n")
	write("protected.json", `{"protectedPaths": {"add": [{"pattern": "private/", "read": true}], "remove": [".env"]}}`)
	write("headless.json", `{"headless": true}`)
	// A newcomer's first file: JSONC comments, a misspelled key and a
	// boolean in quotes.
	write("proj/.sandboxauth.json", "{\n  \"commands\": {\"safe\": {\"add\": [{\"command\": \"make\", \"args\": [\"deploy\"]}]}}\n}\n")
	write("shapes.json", `{"commands": {"safe": {"add": ["make test"]}}, "promptTimeout": 120}`)
	write("newcomer.json", "{\n  // ours\n  \"polcy\": \"sandbox\",\n  \"splitCompound\": \"true\",\n}\n")
	write("nobash.json", `{"tools": {"profile": "coding", "deny": ["Bash"]}, "agents": [{"id": "reviewer", "tools": {"deny": ["Read"]}}]}`)

	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string // a substring, when not empty
		stderr string // a substring, when not empty
	}{
		{"cat runs by default", []string{"check", "--", "cat", "main.go"}, exitOK, "sandbox      allow", ""},
		{"removing the default safe cat makes it ask", []string{"check", "--config", "nocat.json", "--", "cat", "main.go"}, exitAsk, "", ""},
		{"safe curl is rejected with its line", []string{"check", "--config", "safecurl.json", "--", "ls"}, exitUsage, "",
			`sandboxauth check: safecurl.json:6:9: commands.safe.add[1]: the safe entry "curl" would overrule the default blocked entry "curl"`},
		{"unknown key is rejected with line and column", []string{"check", "--config", "typo.json", "--", "ls"}, exitUsage, "",
			`sandboxauth check: typo.json:3:5: headles: unknown field "headles"`},
		{"a misspelled key is named with the key meant", []string{"check", "--config", "newcomer.json", "--", "ls"}, exitUsage, "",
			`sandboxauth check: newcomer.json:3:3: polcy: unknown field "polcy": did you mean "policy"?`},
		{"a boolean in quotes says to drop them", []string{"check", "--config", "newcomer.json", "--", "ls"}, exitUsage, "",
			`sandboxauth check: newcomer.json:4:20: splitCompound: expected true or false, found the string "true": write true without the quotes`},
		{"a string where an entry goes shows an entry", []string{"check", "--config", "shapes.json", "--", "ls"}, exitUsage, "",
			`sandboxauth check: shapes.json:1:32: commands.safe.add[0]: expected an object such as {"command": "make", "args": ["test"]}, found a string`},
		{"a number where a duration goes shows a duration", []string{"check", "--config", "shapes.json", "--", "ls"}, exitUsage, "",
			`promptTimeout: expected a string such as "2m", found a number`},
		{"a project's file that widens is allowed by check, which says that the hook refuses it", []string{"check", "--config", "proj/.sandboxauth.json", "--", "make", "deploy"}, exitOK, "sandbox      allow",
			`sandboxauth check: warning: the hook refuses every call while a project's .sandboxauth.json holds this: proj/.sandboxauth.json:2:33: commands.safe.add[0]: adds a safe command`},
		{"the demo rejects it alike", []string{"demo", "--config", "typo.json"}, exitUsage, "", `sandboxauth demo: typo.json:3:5: headles: unknown field "headles"`},
		{"and tools", []string{"tools", "--config", "typo.json"}, exitUsage, "", `sandboxauth tools: typo.json:3:5: headles: unknown field "headles"`},
		{"a private directory is readable by default", []string{"check", "--", "cat", "private/key.txt"}, exitOK, "", ""},
		{"an added protected path asks", []string{"check", "--config", "protected.json", "--", "cat", "private/key.txt"}, exitAsk, "", ""},
		{".env asks by default", []string{"check", "--", "cat", ".env"}, exitAsk, "", ""},
		{"a removed protected path runs", []string{"check", "--config", "protected.json", "--", "cat", ".env"}, exitOK, "", ""},
		{"a dangerous command asks", []string{"check", "--", "rm", "-rf", "build"}, exitAsk, "", ""},
		{"headless refuses what would ask", []string{"check", "--config", "headless.json", "--", "rm", "-rf", "build"}, exitDeny, "runs without one", ""},
		{"headless still runs what is safe", []string{"check", "--config", "headless.json", "--", "cat", "main.go"}, exitOK, "", ""},
		{"a tool policy denying Bash refuses shell calls", []string{"check", "--config", "nobash.json", "--", "ls"}, exitDeny, "not available", ""},
		{"tools reads the same file", []string{"tools", "--config", "nobash.json", "exec", "run_shell_command"}, exitDeny, "", ""},
		{"an agent's own names", []string{"tools", "--config", "nobash.json", "--agent", "reviewer", "read_file"}, exitDeny, "", ""},
		{"a tool the policy gives", []string{"tools", "--config", "nobash.json", "Read"}, exitOK, "", ""},
		{"demo under headless", []string{"demo", "--config", "headless.json"}, exitOK, "needs a person's approval", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			stdin := ""
			if tt.args[0] == "demo" {
				stdin = "run rm -rf build\nquit\n"
			}
			r := runIn(t, dir, stdin, tt.args...)
			assert.Equal(t, tt.code, r.code, "stdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
			if tt.stdout != "" {
				assert.Contains(t, r.stdout, tt.stdout)
			}
			if tt.stderr != "" {
				assert.Contains(t, r.stderr, tt.stderr)
			}
		})
	}
}

// TestConfigExamplesInEverySubcommand loads each example configuration of
// the module in every subcommand that takes --config.
func TestConfigExamplesInEverySubcommand(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join(testdataDir(t), "..", "..", "..", "testdata", "config", "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			r := runIn(t, t.TempDir(), "", "check", "--config", f, "--", "ls")
			assert.NotEqual(t, exitUsage, r.code, r.stderr)
			r = runIn(t, t.TempDir(), "quit\n", "demo", "--config", f)
			assert.Equal(t, exitOK, r.code, r.stderr)
			r = runIn(t, t.TempDir(), "", "tools", "--config", f)
			if r.code != exitOK {
				assert.Contains(t, r.stderr, "has no tool policy")
			}
		})
	}
}
