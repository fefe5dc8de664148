package confine

import (
	"bytes"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// TestUnixSocketBoundAfterStart: a socket an outside program binds under
// the home directory after the command started (so no mask covers it) is
// out of the command's reach: its connect fails with EACCES and the
// outside program sees nothing. A socket the command binds in its sandbox
// and reaches by a relative path, and one in its private /tmp, still
// work.
func TestUnixSocketBoundAfterStart(t *testing.T) {
	sb, _, p := dirs(t)
	outside := filepath.Join(victimDir(t), "late.sock")
	cmd := exec.Command(testBinary(t), outside, "ready")
	cmd.Dir = sb
	cmd.Env = append(os.Environ(), "CONFINE_TEST_HELPER=unix-when")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, Start(cmd, p))

	l, err := net.Listen("unix", outside)
	require.NoError(t, err)
	defer l.Close()
	var reached atomic.Bool
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			reached.Store(true)
			c.Close()
		}
	}()
	require.NoError(t, os.WriteFile(filepath.Join(sb, "ready"), nil, 0o644))
	_ = cmd.Wait()
	time.Sleep(50 * time.Millisecond) // an accept in flight
	assert.False(t, reached.Load(), "the command reached a socket bound outside after it started: %s", out.String())
	assert.Contains(t, out.String(), "permission denied")

	for _, dir := range []string{sb, "/tmp"} {
		got, ok := run(t, &p, "unix-inside", dir)
		assert.True(t, ok, "a socket the command made in %s: %s", dir, got)
	}
	sub := filepath.Join(sb, "sub")
	require.NoError(t, os.Mkdir(sub, 0o755))
	rel := exec.Command(testBinary(t), ".")
	rel.Dir = sub
	rel.Env = append(os.Environ(), "CONFINE_TEST_HELPER=unix-inside")
	var relOut bytes.Buffer
	rel.Stdout, rel.Stderr = &relOut, &relOut
	assert.NoError(t, Run(rel, p), "a socket the command made and reached by a relative path: %s", relOut.String())
}

// TestConnectGuardIdleOnceCommandEnded: once every process under the
// connect filter has ended, the helper's guard stops. The kernel then
// answers its wait for the next call with ENOENT at once, every time, and
// the guard spun on a CPU until the helper exited, which is after the
// caller's AfterExit (the sandboxauth package's move-aside step, which
// lost one of the machine's CPUs to it): 541 ms of CPU for an AfterExit
// of 500 ms, against 13 ms now.
func TestConnectGuardIdleOnceCommandEnded(t *testing.T) {
	sb, _, p := dirs(t)
	if !connectGuardable() {
		t.Skip("Yama's ptrace_scope keeps the helper from standing behind connect here: no guard runs")
	}
	const pause = 400 * time.Millisecond
	p.AfterExit = func() { time.Sleep(pause) }
	before := childrenCPU(t)
	require.NoError(t, Run(newTrue(sb), p))
	used := childrenCPU(t) - before
	assert.Less(t, used, pause/4, "the sandbox used %v of CPU while the caller's AfterExit slept %v", used, pause)
}

// childrenCPU is the CPU time (user and system) used so far by this
// process's children that have been waited for, and theirs.
func childrenCPU(t *testing.T) time.Duration {
	t.Helper()
	var r unix.Rusage
	require.NoError(t, unix.Getrusage(unix.RUSAGE_CHILDREN, &r))
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}
