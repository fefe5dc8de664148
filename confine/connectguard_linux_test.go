package confine

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
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
	if !connectGuardable() {
		t.Skip("Yama's ptrace_scope keeps the helper from standing behind connect here: no guard runs")
	}
	// With Network, the helper's thread in the command's domain carries
	// the filter to the end, so the listener never hangs up: the guard
	// must wait idle all the same.
	for _, network := range []bool{false, true} {
		t.Run(fmt.Sprintf("network=%v", network), func(t *testing.T) {
			sb, _, p := dirs(t)
			p.Network = network
			const pause = 400 * time.Millisecond
			p.AfterExit = func() { time.Sleep(pause) }
			before := childrenCPU(t)
			require.NoError(t, Run(newTrue(sb), p))
			used := childrenCPU(t) - before
			assert.Less(t, used, pause/4, "the sandbox used %v of CPU while the caller's AfterExit slept %v", used, pause)
		})
	}
}

// childrenCPU is the CPU time (user and system) used so far by this
// process's children that have been waited for, and theirs.
func childrenCPU(t *testing.T) time.Duration {
	t.Helper()
	var r unix.Rusage
	require.NoError(t, unix.Getrusage(unix.RUSAGE_CHILDREN, &r))
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}

// lateListener binds a socket of network ("unix", "unixpacket",
// "unixgram") at path, as an outside program, and counts what reaches it.
func lateListener(t *testing.T, network, path string) *atomic.Int32 {
	t.Helper()
	var reached atomic.Int32
	if network == "unixgram" {
		l, err := net.ListenPacket(network, path)
		require.NoError(t, err)
		t.Cleanup(func() { l.Close() })
		go func() {
			buf := make([]byte, 64)
			for {
				if _, _, err := l.ReadFrom(buf); err != nil {
					return
				}
				reached.Add(1)
			}
		}()
		return &reached
	}
	l, err := net.Listen(network, path)
	require.NoError(t, err)
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			reached.Add(1)
			c.Close()
		}
	}()
	return &reached
}

// TestUnixSocketBoundAfterStartWithNetwork: with Network too, a socket an
// outside program binds under the home directory after the command
// started is out of its reach, stream, seqpacket and datagram alike (the
// command shares the machine's network, not its UNIX sockets).
func TestUnixSocketBoundAfterStartWithNetwork(t *testing.T) {
	for _, tt := range []struct{ name, network, how string }{
		{"stream", "unix", "unix-when"},
		{"seqpacket", "unixpacket", "unix-when"},
		{"datagram", "unixgram", "unixgram-send-when"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sb, _, p := dirs(t)
			p.Network = true
			outside := filepath.Join(victimDir(t), "late.sock")
			cmd := exec.Command(testBinary(t), outside, "ready", tt.network)
			cmd.Dir = sb
			cmd.Env = append(os.Environ(), "CONFINE_TEST_HELPER="+tt.how)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			require.NoError(t, Start(cmd, p))
			reached := lateListener(t, tt.network, outside)
			require.NoError(t, os.WriteFile(filepath.Join(sb, "ready"), nil, 0o644))
			_ = cmd.Wait()
			time.Sleep(50 * time.Millisecond) // an accept in flight
			assert.Zero(t, reached.Load(), "the command reached a socket bound outside after it started: %s", out.String())
			assert.Contains(t, out.String(), "permission denied")
			assert.Equal(t, 3, cmd.ProcessState.ExitCode(), out.String())
		})
	}
}

// TestUnixSocketAttacksWithNetwork: the ways a command with Network could
// try to reach sockets outside programs bind or rename under the home
// directory after it started (by a relative name, through a symbolic
// link it makes in the sandbox, through /proc's descriptor links, those
// of a descriptor passed with SCM_RIGHTS included, by flipping the
// address or the descriptor under a second thread) all fail, and the
// sockets' programs see nothing. Before the guard stood behind connect
// with Network, every one of them reached a socket bound after the
// start, one renamed into place before it (/proc/net/unix, whence the
// masks, still gave its old name) and one bound by a relative name; one
// renamed after the start stayed masked (its mask moved with it).
func TestUnixSocketAttacksWithNetwork(t *testing.T) {
	sb, victim, p := dirs(t)
	p.Network = true
	// Bound before the start under another name, renamed before it (the
	// masks come from the names /proc/net/unix shows at the start) and
	// after it.
	sub := filepath.Join(victim, "sub")
	require.NoError(t, os.Mkdir(sub, 0o755))
	early := lateListener(t, "unix", filepath.Join(sub, "renamed-before.sock"))
	require.NoError(t, os.Rename(filepath.Join(sub, "renamed-before.sock"), filepath.Join(victim, "renamed-before.sock")))
	early2 := lateListener(t, "unix", filepath.Join(sub, "renamed-after.sock"))
	cmd := exec.Command(testBinary(t), victim, "ready")
	cmd.Dir = sb
	cmd.Env = append(os.Environ(), "CONFINE_TEST_HELPER=unix-attacks")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, Start(cmd, p))
	waitFile(t, filepath.Join(sb, "started"))
	late := lateListener(t, "unix", filepath.Join(victim, "late.sock"))
	require.NoError(t, os.Rename(filepath.Join(sub, "renamed-after.sock"), filepath.Join(victim, "renamed-after.sock")))
	// Bound by a relative name, from the directory.
	wd, err := os.Getwd()
	require.NoError(t, err)
	require.NoError(t, os.Chdir(victim))
	relative := lateListener(t, "unix", "relative.sock")
	require.NoError(t, os.Chdir(wd))
	require.NoError(t, os.WriteFile(filepath.Join(sb, "ready"), nil, 0o644))
	require.NoError(t, cmd.Wait(), out.String())
	time.Sleep(50 * time.Millisecond)
	assert.NotContains(t, out.String(), "REACHED")
	for _, name := range []string{"late", "renamed-before", "renamed-after", "relative"} {
		assert.Contains(t, out.String(), "refused "+filepath.Join(victim, name+".sock")+" by its path")
	}
	assert.Zero(t, early.Load()+early2.Load()+late.Load()+relative.Load(), "an outside program was reached: %s", out.String())
}

// TestNetworkCommandsOwnSockets: with Network, what the command serves
// and reaches itself works: a pathname socket in the sandbox and in its
// /tmp, an abstract name of its own (Landlock's scope lets the command
// reach its own), servers on the loopback; and it reaches a TCP listener
// of the machine on 127.0.0.1 (that is the network). An outside
// program's abstract name stays out of reach.
func TestNetworkCommandsOwnSockets(t *testing.T) {
	sb, _, p := dirs(t)
	p.Network = true
	for _, dir := range []string{sb, "/tmp"} {
		out, ok := run(t, &p, "unix-inside", dir)
		assert.True(t, ok, "a socket the command made in %s: %s", dir, out)
	}
	out, ok := run(t, &p, "abstract-inside")
	assert.True(t, ok, "an abstract name of the command's own: %s", out)

	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	out, ok = run(t, &p, "tcp", l.Addr().String())
	assert.True(t, ok, "a TCP listener of the machine: %s", out)
	free, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := fmt.Sprint(free.Addr().(*net.TCPAddr).Port)
	require.NoError(t, free.Close())
	out, ok = run(t, &p, "loopback", port)
	assert.True(t, ok, "servers of the command's own on the loopback: %s", out)

	abstract := fmt.Sprintf("@confine-outside-%d", os.Getpid())
	reached := lateListener(t, "unix", abstract)
	out, ok = run(t, &p, "unix", abstract)
	assert.False(t, ok, "an outside program's abstract name: %s", out)
	assert.Zero(t, reached.Load())
}

// waitFile waits (up to 20 seconds) for path to exist.
func waitFile(t *testing.T, path string) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
		require.False(t, time.Now().After(deadline), "%s did not appear", path)
	}
}

// unixThroughDevEnv makes the test binary, run confined, serve on a UNIX
// socket and connect to it through /dev (see unixThroughDev).
const unixThroughDevEnv = "CONFINE_UNIX_THROUGH_DEV"

func init() {
	if _, ok := os.LookupEnv(unixThroughDevEnv); !ok {
		return
	}
	if err := unixThroughDev(); err != nil {
		fmt.Fprintf(os.Stderr, "through /dev: %v\n", err)
		os.Exit(3)
	}
	os.Exit(0)
}

// unixThroughDev serves on a UNIX socket made in the working directory and
// connects to it through the view's links into /proc/self: /dev/fd/N of a
// descriptor of the socket file, and /dev/stdin, /dev/stdout and
// /dev/stderr with that descriptor in their place.
func unixThroughDev() error {
	l, err := net.Listen("unix", "dev.sock")
	if err != nil {
		return err
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	fd, err := unix.Open("dev.sock", unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	var errs []string
	dial := func(addr string) {
		c, err := net.Dial("unix", addr)
		if err != nil {
			errs = append(errs, err.Error())
			return
		}
		c.Close()
	}
	dial("/dev/fd/" + strconv.Itoa(fd))
	stderr, err := unix.Dup(2)
	if err != nil {
		return err
	}
	for std, name := range []string{"/dev/stdin", "/dev/stdout", "/dev/stderr"} {
		saved, err := unix.Dup(std)
		if err != nil {
			return err
		}
		_ = unix.Dup3(fd, std, 0)
		dial(name)
		_ = unix.Dup3(saved, std, 0)
		unix.Close(saved)
	}
	if len(errs) > 0 {
		_, _ = unix.Write(stderr, []byte(strings.Join(errs, "\n")+"\n"))
		return fmt.Errorf("%d failed", len(errs))
	}
	return nil
}

// TestUnixSocketThroughDev: a command reaches a socket of its own through
// /dev/fd/N, /dev/stdin, /dev/stdout and /dev/stderr (links to
// /proc/self/fd in the view), with or without Network: the guard reads
// them as the command's thread's descriptors, not its own (they failed
// with "connection refused"; round 23).
func TestUnixSocketThroughDev(t *testing.T) {
	if !connectGuardable() {
		t.Skip("Yama's ptrace_scope keeps the helper from standing behind connect here: the command makes no UNIX socket but pairs")
	}
	for _, network := range []bool{false, true} {
		sb, _, p := dirs(t)
		p.Network = network
		cmd := exec.Command(testBinary(t))
		cmd.Dir = sb
		cmd.Env = append(os.Environ(), unixThroughDevEnv+"=1")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		assert.NoError(t, Run(cmd, p), "network %v: %s", network, out.String())
	}
}

// TestUnixSocketThroughProc: a command reaches a socket of its own through
// /proc/self/fd/N (how programs connect to a socket whose path is too
// long for sockaddr_un), /proc/thread-self/fd/N and /proc/self/cwd, with
// or without Network: the guard looks those up as the command's, not as
// its own (they failed with "connection refused" or "no such file").
func TestUnixSocketThroughProc(t *testing.T) {
	if !connectGuardable() {
		t.Skip("Yama's ptrace_scope keeps the helper from standing behind connect here: the command makes no UNIX socket but pairs")
	}
	for _, network := range []bool{false, true} {
		_, _, p := dirs(t)
		p.Network = network
		out, ok := run(t, &p, "unix-through-proc")
		assert.True(t, ok, "network %v: %s", network, out)
	}
}
