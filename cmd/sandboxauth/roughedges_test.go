package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCheckMessages drives the binary with the commands whose output was
// misleading: each must say what is really going on.
func TestCheckMessages(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		args     []string
		stdin    string
		code     int
		contains []string
		absent   []string
	}{
		{"one argument with spaces", []string{"check", "--", "ls -la"}, "", exitAsk,
			[]string{"rule:        command name with spaces", "one argument with spaces", "pass the words separately, or use bash -c"},
			[]string{"outside ASCII"}},
		{"a protected path changes the class", []string{"check", "--", "cat", ".env"}, "", exitAsk,
			[]string{"class:       dangerous\n", "rule:        protected path .env: .env\n", "changed:     safe on its own (safe: cat); the protected path above makes it dangerous"},
			[]string{"class:       safe"}},
		{"rule is not printed twice", []string{"check", "--", "cat", ".env"}, "", exitAsk,
			nil, []string{"rule: rule:", "(rule: "}},
		{"find -exec's terminator is not shell syntax", []string{"check", "--", "find", ".", "-name", "x", "-exec", "ls", "{}", ";"}, "", exitAsk,
			[]string{"class:       dangerous", "find action that runs commands, deletes or writes files"},
			[]string{"shell syntax"}},
		{"a real ; is still shell syntax", []string{"check", "--", "ls", ";", "rm", "x"}, "", exitAsk,
			[]string{"class:       inscrutable", "shell syntax in argv"}, nil},
		{"stdin mode prints each rule once", []string{"check"}, "cat .env\n", exitAsk,
			[]string{"cat .env  # protected path .env: .env"}, []string{"# rule: "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, ".env"), []byte("SECRET=1\n"), 0o600))
			r := runIn(t, dir, tt.stdin, tt.args...)
			assert.Equal(t, tt.code, r.code, r.stdout+r.stderr)
			for _, s := range tt.contains {
				assert.Contains(t, r.stdout, s)
			}
			for _, s := range tt.absent {
				assert.NotContains(t, r.stdout, s)
			}
		})
	}
}

// TestNpmScriptsGoTheSameWay: npm test is npm run test; neither has a
// path of its own.
func TestNpmScriptsGoTheSameWay(t *testing.T) {
	t.Parallel()
	r := runBin(t, "npm test\nnpm run test\nnpm t\nnpm run-script test\nnpm start\n", "check")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	require.Len(t, lines, 6, r.stdout)
	first := strings.Fields(lines[1])[:4]
	for _, l := range lines[2:] {
		assert.Equal(t, first, strings.Fields(l)[:4], "%q and %q differ", lines[1], l)
	}
	assert.NotEqual(t, "safe", first[0], "project scripts are not safe")
	assert.Equal(t, exitAsk, r.code)
}

// TestHelpIsUniform: every subcommand takes -h, -help and --help, prints the
// same sections on standard output, and exits 0.
func TestHelpIsUniform(t *testing.T) {
	t.Parallel()
	sections := regexp.MustCompile(`(?s)^Usage:\n  sandboxauth \S+.*\n\n.+\n\nFlags:\n.*  -h, --help\n.*\n\nExamples:\n  sandboxauth `)
	for _, c := range subcommands() {
		for _, h := range []string{"-h", "-help", "--help"} {
			t.Run(c.name+" "+h, func(t *testing.T) {
				t.Parallel()
				r := runBin(t, "", c.name, h)
				assert.Equal(t, exitOK, r.code, r.stderr)
				assert.Empty(t, r.stderr)
				assert.Regexp(t, sections, r.stdout)
				assert.NotRegexp(t, `(?m) $`, r.stdout, "no trailing spaces")
			})
		}
	}
}
