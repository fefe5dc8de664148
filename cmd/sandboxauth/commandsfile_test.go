package main

import (
	"testing"

	"github.com/sandboxauth/sandboxauth"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseCommandsFile(t *testing.T) {
	f, err := parseCommandsFile([]byte(`{
		"safe": [{"command": "make", "args": ["test"], "reason": "our test target"}],
		"dangerous": [{"command": "git", "args": ["push"], "flags": ["--force", "-f"]}],
		"blocked": [{"command": "terraform"}, {"command": "find", "exceptFlags": ["-print"]}]
	}`))
	require.NoError(t, err)
	assert.Equal(t, []sandboxauth.CommandMatcher{{Command: "make", CommandArgsPrefix: []string{"test"}, Reason: "our test target"}}, f.Safe)
	assert.Equal(t, []sandboxauth.CommandMatcher{{Command: "git", CommandArgsPrefix: []string{"push"}, Flags: []string{"--force", "-f"}}}, f.Dangerous)
	assert.Equal(t, []sandboxauth.CommandMatcher{{Command: "terraform"}, {Command: "find", ExceptFlags: []string{"-print"}}}, f.Blocked)

	f, err = parseCommandsFile([]byte(`{}`))
	require.NoError(t, err)
	assert.Empty(t, f.Safe)
	f, err = parseCommandsFile([]byte(`{"safe": []}`))
	require.NoError(t, err)
	assert.Empty(t, f.Safe)
}

func TestParseCommandsFileErrors(t *testing.T) {
	tests := []struct {
		name, doc, want string
	}{
		{"empty document", ``, "line 1, column 1: unexpected end of the document"},
		{"not an object", `[]`, "want an object, got an array"},
		{"malformed", "{\n  \"safe\": [\n    {\"command\": \"make\",}\n  ]\n}", "line 3, column"},
		{"unknown top-level field", `{"safes": []}`, `unknown field "safes"`},
		{"unknown matcher field", `{"safe": [{"command": "ls"}, {"command": "make", "argz": ["test"]}]}`, `safe[1]: unknown field "argz"`},
		{"empty command", `{"safe": [{"command": "ls"}, {"command": "ls"}, {"command": ""}]}`, `safe[2]: "command" is empty`},
		{"blank command", `{"blocked": [{"command": "  "}]}`, `blocked[0]: "command" is empty`},
		{"missing command", `{"dangerous": [{"args": ["x"]}]}`, `dangerous[0]: "command" is missing`},
		{"command with spaces", `{"safe": [{"command": "go test"}]}`, `safe[0]: "command" "go test" contains white space`},
		{"command with a slash", `{"safe": [{"command": "/usr/bin/make"}]}`, `safe[0]: "command" "/usr/bin/make" contains a slash`},
		{"blank flag", `{"dangerous": [{"command": "git", "flags": ["--force", ""]}]}`, `dangerous[0].flags[1]: blank entry`},
		{"blank except flag", `{"safe": [{"command": "find", "exceptFlags": [" "]}]}`, `safe[0].exceptFlags[0]: blank entry`},
		{"null list", `{"safe": null}`, `safe: want a list, got null`},
		{"null matcher", `{"safe": [null]}`, `safe[0]: want an object, got null`},
		{"null args", `{"safe": [{"command": "ls", "args": null}]}`, `safe[0].args: want a list, got null`},
		{"number command", `{"safe": [{"command": 7}]}`, `safe[0].command: want a string, got a number`},
		{"string args", `{"safe": [{"command": "ls", "args": "-l"}]}`, `safe[0].args: want a list, got a string`},
		{"duplicate field", `{"safe": [{"command": "ls", "command": "rm"}]}`, `safe[0]: duplicate field "command"`},
		{"duplicate list", `{"safe": [], "safe": []}`, `duplicate field "safe"`},
		{"trailing data", `{"safe": []} {"blocked": []}`, "unexpected data after the JSON object"},
		{"trailing garbage", `{"safe": []} x`, "line 1, column"},
		{"multi-line reason", `{"safe": [{"command": "ls", "reason": "a\nb"}]}`, `safe[0]: "reason" must be one line`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseCommandsFile([]byte(tt.doc))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestSplitLine(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"", nil},
		{"   ", nil},
		{"# a comment", nil},
		{"git status", []string{"git", "status"}},
		{"  git   log  --oneline  ", []string{"git", "log", "--oneline"}},
		{"ls # trailing comment", []string{"ls"}},
		{`grep 'a b' "c d" e\ f`, []string{"grep", "a b", "c d", "e f"}},
		{`echo ""`, []string{"echo", ""}},
		{`sed -n '1,5p' file`, []string{"sed", "-n", "1,5p", "file"}},
		{"env FOO=1 make", []string{"env", "FOO=1", "make"}},
		// Not an argv of literal words: checked as a script.
		{"ls | wc -l", []string{"bash", "-c", "ls | wc -l"}},
		{"make && make test", []string{"bash", "-c", "make && make test"}},
		{"echo hi > out.txt", []string{"bash", "-c", "echo hi > out.txt"}},
		{"FOO=1 make", []string{"bash", "-c", "FOO=1 make"}},
		{"echo $HOME", []string{"bash", "-c", "echo $HOME"}},
		{`echo "$HOME"`, []string{"bash", "-c", `echo "$HOME"`}},
		{"echo $(id)", []string{"bash", "-c", "echo $(id)"}},
		{"ls *.go", []string{"bash", "-c", "ls *.go"}},
		{"cat ~/.ssh/id_rsa", []string{"bash", "-c", "cat ~/.ssh/id_rsa"}},
		{"echo {a,b}", []string{"bash", "-c", "echo {a,b}"}},
		{"sleep 1 &", []string{"bash", "-c", "sleep 1 &"}},
		{"! true", []string{"bash", "-c", "! true"}},
		{"echo 'unterminated", []string{"bash", "-c", "echo 'unterminated"}},
		{"if true; then ls; fi", []string{"bash", "-c", "if true; then ls; fi"}},
		{"echo $'a\\nb'", []string{"bash", "-c", "echo $'a\\nb'"}},
		{`echo "a\"b" "c\d" 'e\f' g\\h`, []string{"echo", `a"b`, `c\d`, `e\f`, `g\h`}},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			assert.Equal(t, tt.want, splitLine(tt.line))
		})
	}
}
