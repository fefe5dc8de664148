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

// TestDefaults: the defaults subcommand lists the command lists and the
// protected paths, as a configuration leaves them with --config, and the
// policy-file errors that send the reader to it name a command that
// exists.
func TestDefaults(t *testing.T) {
	t.Parallel()
	r := runBin(t, "", "defaults")
	require.Equal(t, exitOK, r.code, r.stderr)
	for _, want := range []string{"safe commands (", "blocked commands (", "dangerous commands (", "protected paths (",
		"\n  curl  # network client", "\n  cat", "\n  .idea/ ", "writes ask", "\n  .env ", "reads and writes ask"} {
		assert.Contains(t, r.stdout, want)
	}

	r = runBin(t, "", "defaults", "protected")
	require.Equal(t, exitOK, r.code)
	assert.True(t, strings.HasPrefix(r.stdout, "protected paths"), r.stdout)
	assert.NotContains(t, r.stdout, "curl")

	r = runBin(t, "", "defaults", "--json", "blocked")
	require.Equal(t, exitOK, r.code)
	assert.Contains(t, r.stdout, `{"list":"blocked","command":"curl","reason":"network client: downloads, uploads or connects out"}`)

	r = runBin(t, "", "defaults", "nonsense")
	assert.Equal(t, exitUsage, r.code)

	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "policy.json"), []byte(`{"commands": {"safe": {"remove": [{"command": "cat"}]}}, "protectedPaths": {"add": ["secrets/"], "remove": [".idea/"]}}`), 0o644))
	r = runIn(t, dir, "", "defaults", "--config", "policy.json")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.NotRegexp(t, `(?m)^  cat\b`, r.stdout)
	assert.Contains(t, r.stdout, "\n  secrets/ ")
	assert.NotContains(t, r.stdout, "\n  .idea/ ")

	// The errors that point at a command name one that runs.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bad.json"), []byte(`{"commands": {"safe": {"remove": [{"command": "frobnicate"}]}}, "protectedPaths": {"remove": [".idea"]}}`), 0o644))
	r = runIn(t, dir, "", "check", "--config", "bad.json", "--", "ls")
	require.Equal(t, exitUsage, r.code)
	named := regexp.MustCompile("`sandboxauth ([a-z]+)`").FindAllStringSubmatch(r.stderr, -1)
	require.Len(t, named, 2, r.stderr)
	for _, n := range named {
		assert.Equal(t, exitOK, runBin(t, "", n[1], "--help").code, "`sandboxauth %s` exists", n[1])
	}
	assert.Contains(t, r.stderr, `did you mean ".idea/"?`)
}
