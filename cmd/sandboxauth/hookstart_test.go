package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHookStartsEarly checks, through the built binary deciding a real
// Claude Code event, that internal/hookstart (which sets a hook process to
// one processor) is initialised before the packages whose initialisation
// costs most, so that the processors are changed while the other
// processor's allocation cache is still small (see its documentation).
func TestHookStartsEarly(t *testing.T) {
	project, home := hookProject(t)
	event := strings.ReplaceAll(mustRead(t, filepath.Join(hooksDir, "claude-code", "safe.json")), projectMark, project)
	r := runHookBin(t, project, hookEnv(home, "GODEBUG=inittrace=1"), event, "hook", "--for", "claude-code")
	require.Equal(t, 0, r.code, r.stderr)
	var order []string
	for _, line := range strings.Split(r.stderr, "\n") {
		if f := strings.Fields(line); len(f) > 1 && f[0] == "init" {
			order = append(order, f[1])
		}
	}
	start := slices.Index(order, "github.com/sandboxauth/sandboxauth/cmd/sandboxauth/internal/hookstart")
	require.GreaterOrEqual(t, start, 0, "hookstart is not initialised in a hook process:\n%s", r.stderr)
	for _, heavy := range []string{
		"mvdan.cc/sh/v3/fileutil", "unicode", "compress/flate", "crypto/internal/fips140",
		"encoding/json", "github.com/sandboxauth/sandboxauth/internal/shell",
	} {
		i := slices.Index(order, heavy)
		require.GreaterOrEqual(t, i, 0, "%s is not initialised: the list of heavy packages is out of date", heavy)
		assert.Greater(t, i, start, "%s is initialised before hookstart", heavy)
	}
}
