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
	line := withheld(p, "")
	_, rest, ok := strings.Cut(line, "read-only inside it: ")
	require.True(t, ok, line)
	roList, _, _ := strings.Cut(rest, " (files that make")
	assert.Equal(t, ".git/config", roList, line)
	assert.Contains(t, line, "hidden: .env and the user's credentials")
}

// TestWithheldNamesHomeLinks: a rebuild of a build output that the home
// links to (~/bin/tool) failed with only "Read-only file system": the
// line now names it and says why, and does not name git's info/exclude,
// which the confinement shows with its placeholders.
func TestWithheldNamesHomeLinks(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	home, sb := filepath.Join(root, "home"), filepath.Join(root, "proj")
	require.NoError(t, os.MkdirAll(filepath.Join(home, "bin"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(sb, "out"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(sb, ".git", "info"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(sb, "out", "tool"), []byte("#!/bin/sh\n"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(sb, ".git", "info", "exclude"), nil, 0o644))
	require.NoError(t, os.Symlink(filepath.Join(sb, "out", "tool"), filepath.Join(home, "bin", "tool")))
	t.Setenv("HOME", home)

	exclude := filepath.Join(sb, ".git", "info", "exclude")
	line := withheld(confine.Policy{Sandbox: sb, ReadOnly: []string{exclude}, Shown: map[string]string{exclude: "/.npmrc\n"}}, "")
	assert.Contains(t, line, "read-only because your home directory links to them: out/tool (", line)
	assert.NotContains(t, line, "exclude", line)
}

// TestWithheldUnixSockets: with the network or without, the line says
// that no UNIX datagram socket and no other program's UNIX socket outside
// the writable directories was within reach, and never that --net would
// allow them (it did until round 22, when the network let the command
// reach sockets bound under $HOME after the start).
func TestWithheldUnixSockets(t *testing.T) {
	sb := t.TempDir()
	for _, network := range []bool{false, true} {
		line := withheld(confine.Policy{Sandbox: sb, Network: network}, "")
		assert.Contains(t, line, "no UNIX datagram sockets and no UNIX socket of another program outside the writable directories", line)
		assert.NotContains(t, line, "allows them", line)
		if network {
			assert.NotContains(t, line, "--net", line)
		} else {
			assert.Contains(t, line, "no network (--net", line)
		}
	}
}
