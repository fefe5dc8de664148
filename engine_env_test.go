package sandboxauth

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// The shells a process starts inherit its environment: an unset or empty
// PATH, and the variables that change glob expansion, are taken into
// account. These tests change the process environment, so they do not run
// in parallel.

func TestProcessPathUnset(t *testing.T) {
	sb := newSandbox(t)
	s := NewShellAllowedCommands()
	c, err := s.Classify(CommandSite{SandboxDir: sb}, []string{"bash", "-c", "ls"})
	require.NoError(t, err)
	require.Equal(t, CommandCheckResultSafe, c.Result, c.Rule)

	t.Setenv("PATH", os.Getenv("PATH"))
	require.NoError(t, os.Unsetenv("PATH"))
	c, err = s.Classify(CommandSite{SandboxDir: sb}, []string{"bash", "-c", "ls"})
	require.NoError(t, err)
	require.NotEqual(t, CommandCheckResultSafe, c.Result, "bash with PATH unset searches .: %s", c.Rule)
}

func TestProcessPathEmpty(t *testing.T) {
	sb := newSandbox(t)
	t.Setenv("PATH", "")
	s := NewShellAllowedCommands()
	for _, argv := range [][]string{{"ls"}, {"bash", "-c", "ls"}, {"dash", "-c", "ls"}} {
		c, err := s.Classify(CommandSite{SandboxDir: sb}, argv)
		require.NoError(t, err)
		require.NotEqual(t, CommandCheckResultSafe, c.Result, "%q with an empty PATH (the working directory): %s", argv, c.Rule)
	}
}

func TestGlobSettingsInherited(t *testing.T) {
	sb := newSandbox(t)
	s := NewShellAllowedCommands()
	argv := []string{"bash", "-c", "ls *.go"}
	c, err := s.Classify(CommandSite{SandboxDir: sb}, argv)
	require.NoError(t, err)
	require.Equal(t, CommandCheckResultSafe, c.Result, c.Rule)
	for _, name := range []string{"GLOBIGNORE", "BASHOPTS", "SHELLOPTS"} {
		t.Run(name, func(t *testing.T) {
			t.Setenv(name, "dotglob")
			c, err := s.Classify(CommandSite{SandboxDir: sb}, argv)
			require.NoError(t, err)
			require.Equal(t, CommandCheckResultInscrutable, c.Result, c.Rule)
		})
	}
}
