package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/confine"
)

// TestWithheldNamesSecretsAsHidden: the line run adds when a confined
// command fails names a .env (read-only and hidden) among the hidden
// paths only, not among the files that make programs run.
func TestWithheldNamesSecretsAsHidden(t *testing.T) {
	sb := t.TempDir()
	for _, f := range []string{".env", ".git/config"} {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(sb, f)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(sb, f), nil, 0o644))
	}
	p := confine.Policy{Sandbox: sb, ReadOnly: []string{filepath.Join(sb, ".env"), filepath.Join(sb, ".git/config")}, Hidden: []string{filepath.Join(sb, ".env")}}
	line := withheld(p)
	_, rest, ok := strings.Cut(line, "read-only inside it: ")
	require.True(t, ok, line)
	roList, _, _ := strings.Cut(rest, " (files that make")
	assert.Equal(t, ".git/config", roList, line)
	assert.Contains(t, line, "hidden: .env and the user's credentials")
}
