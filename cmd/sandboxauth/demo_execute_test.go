package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDemoExecute: with --execute, allowed shell commands really run in
// the sandbox, confined: what a person allows still cannot write outside.
// Without it, nothing runs.
func TestDemoExecute(t *testing.T) {
	requireLandlock(t)
	outside := homeVictim(t)
	for _, execute := range []bool{true, false} {
		sb := t.TempDir()
		require.NoError(t, os.WriteFile(filepath.Join(sb, "build.sh"), []byte("#!/bin/sh\necho building\necho built > out.txt\n"), 0o755))
		args := []string{"demo", "--sandbox", sb}
		if execute {
			args = append(args, "--execute")
		}
		// A write outside the sandbox that the policy sees is refused
		// outright; one it cannot see (after a cd) is asked about, and
		// the kernel stops it when the person allows it.
		input := "run ./build.sh\n" +
			"run sh -c \"echo x > " + outside + "/f\"\n" +
			"run sh -c \"cd " + outside + " && echo x > f\"\ny\n"
		r := runIn(t, sb, input, args...)
		require.Equal(t, exitOK, r.code, r.stderr)
		assert.NoFileExists(t, filepath.Join(outside, "f"))
		if execute {
			assert.Contains(t, r.stdout, "Allowed shell commands run in the sandbox, confined by the kernel.")
			// Project code needs nobody under confinement, and ran.
			assert.Contains(t, r.stdout, "run ./build.sh\nallowed; ran confined:\n  | building\nexit status 0\n")
			assert.FileExists(t, filepath.Join(sb, "out.txt"))
			assert.Contains(t, r.stdout, "was refused: outside the sandbox ")
			assert.Contains(t, r.stdout, "Read-only file system")
			assert.Contains(t, r.stdout, "exit status 2")
		} else {
			assert.NotContains(t, r.stdout, "ran confined")
			assert.NoFileExists(t, filepath.Join(sb, "out.txt"))
		}
	}
}
