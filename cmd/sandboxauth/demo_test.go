package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// demoSession runs the demo in a fresh sandbox with input piped to it and
// returns the sandbox and the run.
func demoSession(t *testing.T, input string, args ...string) (string, result) {
	t.Helper()
	sb := t.TempDir()
	r := runIn(t, sb, input, append([]string{"demo"}, args...)...)
	return sb, r
}

// outcomeOf returns what the demo printed after the echoed command, up to
// the next prompt.
func outcomeOf(t *testing.T, transcript, command string) string {
	t.Helper()
	i := strings.Index(transcript, "> "+command+"\n")
	require.GreaterOrEqual(t, i, 0, "command %q not in transcript:\n%s", command, transcript)
	rest := transcript[i+len("> "+command+"\n"):]
	if j := strings.Index(rest, "\n> "); j >= 0 {
		rest = rest[:j+1]
	}
	return rest
}

// TestDemoPipe drives a sandbox-policy session through a pipe: commands and
// y/n answers come from the same stream, in order.
func TestDemoPipe(t *testing.T) {
	t.Parallel()
	input := strings.Join([]string{
		"help",
		"read notes.txt",
		"write /etc/hosts",
		"ask read .env",
		"y",
		"run git status",
		"run rm -rf build",
		"n",
		"run timeout 5 curl https://example.com",
		"run echo $(cat notes.txt)",
		"maybe",
		"yes",
		"frobnicate",
		"run",
		"quit",
		"read never-reached",
	}, "\n") + "\n"
	sb, r := demoSession(t, input)
	assert.Equal(t, exitOK, r.code, "stderr:\n%s", r.stderr)
	assert.Empty(t, r.stderr)
	out := r.stdout

	assert.True(t, strings.HasPrefix(out, "sandboxauth demo: policy sandbox, sandbox "+sb+"\n"), out)
	assert.Contains(t, outcomeOf(t, out, "help"), "read PATH...")
	assert.Equal(t, "allowed\n", outcomeOf(t, out, "read notes.txt"))

	o := outcomeOf(t, out, "write /etc/hosts")
	assert.True(t, strings.HasPrefix(o, "refused: sandboxauth: "), o)
	assert.Contains(t, o, "/etc/hosts")
	assert.Contains(t, o, "outside the sandbox")

	o = outcomeOf(t, out, "ask read .env")
	assert.Contains(t, o, "read_file wants to read this path.\n  "+filepath.Join(sb, ".env")+"\n")
	assert.Contains(t, o, "The model's reason: "+demoReason)
	assert.Contains(t, o, "Allow? [y/N/a] y\nallowed\n", "a protected path is offered only as itself")

	assert.Equal(t, "allowed\n", outcomeOf(t, out, "run git status"))

	o = outcomeOf(t, out, "run rm -rf build")
	assert.Contains(t, o, "The agent wants to run a shell command.\n  command: rm -rf build\n")
	assert.Contains(t, o, "class:   dangerous")
	assert.Contains(t, o, "Allow? [y/N/a] n\nrefused: sandboxauth: the user refused running `rm -rf build`")

	o = outcomeOf(t, out, "run timeout 5 curl https://example.com")
	assert.True(t, strings.HasPrefix(o, "refused: sandboxauth: "), o)
	assert.Contains(t, o, "blocked")
	assert.NotContains(t, o, "Allow?", "blocked commands are not asked about")

	o = outcomeOf(t, out, "run echo $(cat notes.txt)")
	assert.Contains(t, o, "command: bash -c 'echo $(cat notes.txt)'")
	assert.Contains(t, o, "class:   inscrutable")
	assert.Contains(t, o, "Allow? [y/N] maybe\nPlease answer one of y/N. Allow? [y/N] yes\nallowed\n")

	assert.Contains(t, outcomeOf(t, out, "frobnicate"), `unknown command "frobnicate"`)
	assert.Contains(t, outcomeOf(t, out, "run"), "run what?")

	assert.True(t, strings.HasSuffix(out, "> quit\nbye\n"), out)
	assert.NotContains(t, out, "never-reached")
}

// TestDemoEOF checks that end of input ends the session cleanly, when idle
// and in the middle of a question (which is then refused).
func TestDemoEOF(t *testing.T) {
	t.Parallel()
	t.Run("idle", func(t *testing.T) {
		t.Parallel()
		_, r := demoSession(t, "read a.txt\n")
		assert.Equal(t, exitOK, r.code)
		assert.True(t, strings.HasSuffix(r.stdout, "> read a.txt\nallowed\n> \nbye\n"), r.stdout)
	})
	t.Run("no input at all", func(t *testing.T) {
		t.Parallel()
		_, r := demoSession(t, "")
		assert.Equal(t, exitOK, r.code)
		assert.True(t, strings.HasSuffix(r.stdout, "> \nbye\n"), r.stdout)
	})
	t.Run("no final newline", func(t *testing.T) {
		t.Parallel()
		_, r := demoSession(t, "read a.txt")
		assert.Equal(t, exitOK, r.code)
		assert.Contains(t, r.stdout, "> read a.txt\nallowed\n")
	})
	t.Run("during a question", func(t *testing.T) {
		t.Parallel()
		_, r := demoSession(t, "run rm -rf build\n")
		assert.Equal(t, exitOK, r.code)
		o := outcomeOf(t, r.stdout, "run rm -rf build")
		assert.Contains(t, o, "Allow? [y/N/a] \n(end of input: refusing)\nrefused: sandboxauth: the user refused")
		assert.True(t, strings.HasSuffix(r.stdout, "bye\n"), r.stdout)
	})
}

// TestDemoPolicies runs a similar session under each policy; the input
// holds an answer exactly where the policy asks.
func TestDemoPolicies(t *testing.T) {
	t.Parallel()
	tests := []struct {
		policy     string
		input      string
		write      []string // in the outcome of the write
		frobnicate []string // in the outcome of an unlisted command
		curl       string   // the outcome of a blocked command
	}{
		{
			policy:     "sandbox",
			input:      "write /etc/hosts\nrun frobnicate\nn\nrun curl https://example.com\n",
			write:      []string{"refused: sandboxauth:", "outside the sandbox"},
			frobnicate: []string{"class:   none", "Allow? [y/N/a] n\nrefused: sandboxauth: the user refused"},
			curl:       "refused: sandboxauth:",
		},
		{
			policy:     "permissive",
			input:      "write /etc/hosts\nn\nrun frobnicate\nrun curl https://example.com\n",
			write:      []string{"write_file wants to write this path.", "/etc/hosts", "Allow? [y/N] n\nrefused: sandboxauth: the user refused"},
			frobnicate: []string{"allowed\n"},
			curl:       "refused: sandboxauth:",
		},
		{
			policy:     "autoapprove",
			input:      "write /etc/hosts\nrun frobnicate\nrun curl https://example.com\n",
			write:      []string{"allowed\n"},
			frobnicate: []string{"allowed\n"},
			curl:       "allowed\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.policy, func(t *testing.T) {
			t.Parallel()
			_, r := demoSession(t, tt.input, "--policy", tt.policy)
			assert.Equal(t, exitOK, r.code, r.stderr)
			assert.Contains(t, r.stdout, "policy "+tt.policy+",")
			o := outcomeOf(t, r.stdout, "write /etc/hosts")
			for _, s := range tt.write {
				assert.Contains(t, o, s)
			}
			o = outcomeOf(t, r.stdout, "run frobnicate")
			for _, s := range tt.frobnicate {
				assert.Contains(t, o, s)
			}
			assert.True(t, strings.HasPrefix(outcomeOf(t, r.stdout, "run curl https://example.com"), tt.curl), r.stdout)
			assert.True(t, strings.HasSuffix(r.stdout, "> \nbye\n"), r.stdout)
		})
	}
}

// TestDemoBadInput checks the demo's usage errors.
func TestDemoBadInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bad.json"), []byte(`{"commands": {"blocked": {"add": [{"command": ""}]}}}`), 0o644))
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown flag", []string{"demo", "--verbose"}, "flag provided but not defined: -verbose"},
		{"bad policy", []string{"demo", "--policy", "yolo"}, `--policy "yolo"`},
		{"argument", []string{"demo", "read"}, `unexpected argument "read"`},
		{"missing sandbox", []string{"demo", "--sandbox", filepath.Join(dir, "nope")}, "no such file or directory"},
		{"bad config file", []string{"demo", "--config", "bad.json"}, `bad.json:1:47: commands.blocked.add[0].command: blank value`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := runIn(t, dir, "read x\n", tt.args...)
			assert.Equal(t, exitUsage, r.code)
			assert.Contains(t, r.stderr, tt.want)
			assert.Empty(t, r.stdout, "no session was started")
		})
	}
}

// TestDemoSessionGrants: "a" grants the stated scope for the rest of the
// session, "d1" a directory; later calls inside the scope are not asked about,
// and `grants` lists them.
func TestDemoSessionGrants(t *testing.T) {
	t.Parallel()
	sb := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(sb, ".env"), []byte("K=V\n"), 0o644))
	input := strings.Join([]string{
		"run make test",
		"a",
		"run make test unit",
		"run make test -j4",
		"n",
		"run make install",
		"n",
		"ask read src/x.go",
		"d1",
		"ask read src/y.go",
		"ask read .env",
		"a",
		"ask read .env",
		"run bash -c 'make test'",
		"run bash -c 'make test > log'",
		"a",
		"n",
		"grants",
		"quit",
	}, "\n") + "\n"
	r := runIn(t, sb, input, "demo", "--sandbox", sb)
	require.Equal(t, 0, r.code, r.stderr)
	o := r.stdout
	assert.Contains(t, o, "a:  allow, and for the rest of the session: run `make test` with any further operands (no options)")
	assert.Contains(t, o, "Allow? [y/N/a] a\nallowed\n> run make test unit\nallowed\n", "covered: not asked again")
	assert.Contains(t, o, "> run make test -j4\nThe agent wants", "an option is not an operand: asked")
	assert.Contains(t, o, "run exactly `make test -j4` in "+sb)
	assert.Contains(t, o, "> run make install\nThe agent wants", "not covered")
	assert.Contains(t, o, "d1: allow, and for the rest of the session anything below "+filepath.Join(sb, "src"))
	assert.Contains(t, o, "Allow? [y/N/a/d1..d2] d1\nallowed\n> ask read src/y.go\nallowed\n")
	assert.Contains(t, o, "Allow? [y/N/a] a\nallowed\n> ask read .env\nallowed\n", "a protected file, granted as itself")
	assert.Contains(t, o, "> run bash -c 'make test'\nallowed\n", "a one-command script is the granted command")
	// No grant is offered for a script with a redirection: "a" is not an answer there.
	assert.Contains(t, o, "Allow? [y/N] a\nPlease answer one of y/N.")
	assert.Contains(t, o, "granted: run `make test` with any further operands (no options)\ngranted: read anything in "+filepath.Join(sb, "src")+"\ngranted: read "+filepath.Join(sb, ".env")+"\n")
}
