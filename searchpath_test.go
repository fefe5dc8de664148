package sandboxauth

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// plant writes an executable file at sb/rel.
func plant(t *testing.T, sb, rel string) {
	t.Helper()
	p := filepath.Join(sb, rel)
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte("#!/bin/sh\necho planted\n"), 0o755))
}

// TestSearchPathInsideSandbox: with a PATH directory inside the sandbox (an
// activated .venv/bin), a program found there is never auto-allowed under a
// safe name (it is the project's program: project code, asked about
// without confinement), and writing into that directory asks.
func TestSearchPathInsideSandbox(t *testing.T) {
	sb := newSandbox(t)
	plant(t, sb, ".venv/bin/ls")
	plant(t, sb, ".venv/bin/python")
	t.Setenv("PATH", filepath.Join(sb, ".venv/bin")+":"+os.Getenv("PATH"))

	a, ch, err := NewSandboxAuthorizer(NewShellAllowedCommands())
	require.NoError(t, err)
	defer a.Close()

	shell := []struct {
		argv []string
		asks string // the rule the person is shown, or "" when auto-allowed
	}{
		{[]string{"ls", "-la"}, "program in the project"},
		{[]string{"bash", "-c", "ls"}, "program in the project"},
		{[]string{"env", "ls"}, "program in the project"},
		{[]string{"timeout", "5", "ls"}, "program in the project"},
		{[]string{"cat", "README.md"}, ""}, // cat is not in .venv/bin
		{[]string{"git", "status"}, ""},
		{[]string{"touch", ".venv/bin/cat"}, "writes into a PATH directory"},
		{[]string{"tee", ".venv/bin/git"}, "writes into a PATH directory"},
		{[]string{"bash", "-c", "echo x > .venv/bin/grep"}, "writes into a PATH directory"},
		{[]string{"mkdir", "-p", ".venv/bin"}, "writes into a PATH directory"},
		{[]string{"mkdir", "-p", ".venv"}, "writes into a PATH directory"}, // an ancestor of it
		{[]string{"touch", "notes.txt"}, ""},
	}
	for _, c := range shell {
		seen, err := answering(t, ch, false, func() error { return a.IsShellAuthorized(false, "", sb, sb, c.argv) })
		if c.asks == "" {
			assert.NoError(t, err, "%q", c.argv)
			assert.Empty(t, seen, "%q", c.argv)
			continue
		}
		require.Len(t, seen, 1, "%q must ask", c.argv)
		assert.Contains(t, seen[0].Rule, c.asks, "%q", c.argv)
		assert.ErrorIs(t, err, ErrAuthorizationDenied)
	}

	// The write tool: a file in the PATH directory asks, one beside it does not.
	seen, err := answering(t, ch, false, func() error {
		return a.IsAuthorizedForWrite(false, "", "write_file", sb, filepath.Join(sb, ".venv/bin/ls"))
	})
	require.Len(t, seen, 1)
	assert.Contains(t, seen[0].Rule, "PATH directory")
	assert.ErrorIs(t, err, ErrAuthorizationDenied)
	seen, err = answering(t, ch, false, func() error {
		return a.IsAuthorizedForWrite(false, "", "write_file", sb, filepath.Join(sb, ".venv/lib/x.py"))
	})
	assert.NoError(t, err)
	assert.Empty(t, seen)

	// PATH is read at each decision: without the directory, ls is safe again.
	t.Setenv("PATH", strings.TrimPrefix(os.Getenv("PATH"), filepath.Join(sb, ".venv/bin")+":"))
	seen, err = answering(t, ch, false, func() error { return a.IsShellAuthorized(false, "", sb, sb, []string{"ls"}) })
	assert.NoError(t, err)
	assert.Empty(t, seen)
}

// TestSearchPathThroughSymlink: a PATH entry that reaches the sandbox
// through a symbolic link, or a sandbox given through one, is found too.
func TestSearchPathThroughSymlink(t *testing.T) {
	sb := newSandbox(t)
	plant(t, sb, "bin/cat")
	alias := filepath.Join(t.TempDir(), "alias")
	require.NoError(t, os.Symlink(sb, alias))

	cmds := NewShellAllowedCommands()
	for _, c := range []struct{ path, sandbox string }{
		{filepath.Join(alias, "bin"), sb}, // PATH through the link, sandbox real
		{filepath.Join(sb, "bin"), alias}, // PATH real, sandbox through the link
		// A repeated entry is resolved once; each spelling still counts.
		{"/usr/bin:" + filepath.Join(alias, "bin") + ":/usr/bin:" + filepath.Join(alias, "bin/"), sb},
		{filepath.Join(sb, "bin") + ":" + filepath.Join(alias, "bin") + "/.:" + filepath.Join(sb, "bin"), alias},
	} {
		t.Setenv("PATH", c.path+":/usr/bin:/bin")
		cl, err := cmds.Classify(CommandSite{SandboxDir: c.sandbox}, []string{"cat", "README.md"})
		require.NoError(t, err)
		assert.Equal(t, CommandCheckResultDangerous, cl.Result, "PATH %s, sandbox %s: %s", c.path, c.sandbox, cl.Rule)
		assert.True(t, cl.ProjectCode, "the project's cat: PATH %s, sandbox %s: %s", c.path, c.sandbox, cl.Rule)
		cl, err = cmds.Classify(CommandSite{SandboxDir: c.sandbox}, []string{"touch", "bin/grep"})
		require.NoError(t, err)
		assert.Equal(t, CommandCheckResultDangerous, cl.Result, "PATH %s, sandbox %s: %s", c.path, c.sandbox, cl.Rule)
	}
}

// TestSearchPathRelativeEntry: a relative or empty PATH entry makes the
// working directory part of the search, so no command is auto-allowed.
func TestSearchPathRelativeEntry(t *testing.T) {
	sb := newSandbox(t)
	cmds := NewShellAllowedCommands()
	for _, path := range []string{".:/usr/bin:/bin", "/usr/bin::/bin", "/usr/bin:/bin:", "bin:/usr/bin"} {
		t.Setenv("PATH", path)
		for _, argv := range [][]string{{"ls"}, {"git", "status"}, {"bash", "-lc", "wc -l go.mod"}} {
			cl, err := cmds.Classify(CommandSite{SandboxDir: sb}, argv)
			require.NoError(t, err)
			assert.NotEqual(t, CommandCheckResultSafe, cl.Result, "PATH %q: %q", path, argv)
			assert.Contains(t, cl.Rule, "relative PATH entry", "PATH %q: %q", path, argv)
		}
		// Blocked stays blocked.
		cl, err := cmds.Classify(CommandSite{SandboxDir: sb}, []string{"curl", "x"})
		require.NoError(t, err)
		assert.Equal(t, CommandCheckResultBlocked, cl.Result)
	}
	// Plain Check knows no sandbox: PATH plays no part.
	t.Setenv("PATH", ".:/usr/bin")
	res, err := cmds.Check([]string{"ls"})
	require.NoError(t, err)
	assert.Equal(t, CommandCheckResultSafe, res)
}
