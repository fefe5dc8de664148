package sandboxauth

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSystemProgramByPath: a program given by an absolute path in a
// root-owned directory that the user cannot write is classified by its
// name; one in a directory the user can write is outside the sandbox.
func TestSystemProgramByPath(t *testing.T) {
	ls, err := exec.LookPath("ls")
	require.NoError(t, err)
	f := newFixture(t)
	s := NewShellAllowedCommands()
	classify := func(argv ...string) CommandCheckResult {
		c, err := s.Classify(CommandSite{SandboxDir: f.sandbox}, argv)
		require.NoError(t, err)
		return c.Result
	}
	planted := filepath.Join(f.outDir, "ls")
	require.NoError(t, os.WriteFile(planted, []byte("#!/bin/sh\n"), 0o755))
	assert.NotEqual(t, safe, classify(planted, "-la"), "a program in a writable directory is not the system's")
	assert.NotEqual(t, safe, classify("/usr/bin/../bin/ls", "-la"), "an unclean path is never trusted")
	if os.Geteuid() == 0 {
		// Root could have written /usr/bin itself.
		assert.NotEqual(t, safe, classify(ls, "-la"))
		runAsNobody(t, "TestSystemProgramByPath")
		return
	}
	assert.Equal(t, safe, classify(ls, "-la"))
	assert.NotEqual(t, safe, classify(ls, "-la", f.outDir), "operands are still checked")
}

// runAsNobody runs one test of this test binary again as the unprivileged
// user nobody (uid 65534), so that a test run as root also covers what an
// ordinary user gets. The binary is copied where that user can run it.
func runAsNobody(t *testing.T, test string) {
	t.Helper()
	if os.Getenv("SANDBOXAUTH_TEST_AS_NOBODY") != "" {
		return
	}
	dir, err := os.MkdirTemp("", "sandboxauth-nobody-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	require.NoError(t, os.Chmod(dir, 0o755))
	src, err := os.Open(os.Args[0])
	require.NoError(t, err)
	defer src.Close()
	bin := filepath.Join(dir, "sandboxauth.test")
	dst, err := os.OpenFile(bin, os.O_CREATE|os.O_WRONLY, 0o755)
	require.NoError(t, err)
	_, err = io.Copy(dst, src)
	require.NoError(t, err)
	require.NoError(t, dst.Close())
	cmd := exec.Command(bin, "-test.run=^"+test+"$", "-test.count=1")
	cmd.Dir = dir
	cmd.Env = []string{"SANDBOXAUTH_TEST_AS_NOBODY=1", "PATH=" + os.Getenv("PATH"), "TMPDIR=/tmp", "HOME=/nonexistent"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "as nobody:\n%s", out)
	require.Contains(t, string(out), "PASS")
	require.NotContains(t, string(out), "no tests to run")
}
