package classify

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSystemProgram: only a clean path to a program in a root-owned
// directory that this user cannot write is the system's (never for root,
// who could have written it).
func TestSystemProgram(t *testing.T) {
	ls, err := exec.LookPath("ls")
	require.NoError(t, err)
	planted := filepath.Join(t.TempDir(), "ls")
	require.NoError(t, os.WriteFile(planted, []byte("#!/bin/sh\n"), 0o755))
	assert.False(t, systemProgram(planted), "a program in a writable directory")
	assert.False(t, systemProgram("/usr/bin/../bin/ls"), "an unclean path")
	assert.False(t, systemProgram(filepath.Join(t.TempDir(), "missing")), "a missing program")
	assert.Equal(t, os.Geteuid() != 0, systemProgram(ls), "%s for uid %d", ls, os.Geteuid())
}
