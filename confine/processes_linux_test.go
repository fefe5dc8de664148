package confine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOutsideProcesses: a process outside is out of sight and reach: no
// signal, no prlimit, no /proc entry (so no environment to read).
func TestOutsideProcesses(t *testing.T) {
	sb, _, p := dirs(t)
	victim := exec.Command("sleep", "300")
	victim.Env = append(os.Environ(), "VICTIM_SECRET=hunter2")
	require.NoError(t, victim.Start())
	defer func() { _ = victim.Process.Kill(); _ = victim.Wait() }()
	pid := fmt.Sprint(victim.Process.Pid)
	require.NoError(t, exec.Command("kill", "-0", pid).Run(), "an unconfined kill -0 must work")

	for _, script := range []string{
		"kill -TERM " + pid,
		"kill -0 " + pid,
		"cat /proc/" + pid + "/environ",
		"ls /proc/" + pid,
	} {
		out, err := sh(t, p, sb, script)
		assert.Error(t, err, "%s: %s", script, out)
		assert.NotContains(t, out, "hunter2")
	}
	out, ok := run(t, &p, "prlimit", pid)
	assert.False(t, ok, out)
	var lim unix.Rlimit
	require.NoError(t, unix.Prlimit(victim.Process.Pid, unix.RLIMIT_NOFILE, nil, &lim))
	assert.NotZero(t, lim.Cur, "the victim's limit was changed")
	// Its own processes remain within reach, and it sees only them.
	out, err := sh(t, p, sb, "sleep 300 & kill $!; wait $!; echo status=$?; ls /proc | grep -c '^[0-9]'")
	require.NoError(t, err, out)
	assert.Contains(t, out, "status=143\n") // 128 + SIGTERM
	require.NoError(t, exec.Command("kill", "-0", pid).Run(), "the victim must still run")
}

// TestNothingOutlivesTheCommand: what the command leaves running (even in
// a session of its own) ends when it ends.
func TestNothingOutlivesTheCommand(t *testing.T) {
	sb, _, p := dirs(t)
	marker := fmt.Sprintf("%d.%d", 300+os.Getpid()%100, time.Now().UnixNano()%1000)
	out, err := sh(t, p, sb, "setsid sleep "+marker+" </dev/null >/dev/null 2>&1 & nohup sleep "+marker+" >/dev/null 2>&1 & echo started")
	require.NoError(t, err, out)
	requireNoProcess(t, marker, "a process the command started outlived it")
}

// TestFirstProcessOutOfReach: the sandbox's first process (the helper,
// which holds the pipes that tell the caller the sandbox has ended) can be
// neither ended nor looked into by the command. Signals, even those the Go
// runtime crashes on (SIGABRT, or SIGSEGV sent with kill or sigqueue, as
// red-team round 4 found), sent to the process or to each of its threads,
// leave it running, so cmd.Wait still returns only after AfterExit; and
// its descriptors, memory and environment are closed to the command. With
// Network, one thread of the helper stays in the command's Landlock
// domain (it connects abstract names), so Landlock's scope does not keep
// signals from that thread: it must survive them all the same.
func TestFirstProcessOutOfReach(t *testing.T) {
	for _, network := range []bool{false, true} {
		t.Run(fmt.Sprintf("network=%v", network), func(t *testing.T) {
			sb, _, p := dirs(t)
			p.Network = network
			var cleaned atomic.Bool
			p.AfterExit = func() { cleaned.Store(true) }
			script := `for s in ABRT SEGV BUS FPE ILL TRAP SYS TERM INT HUP QUIT USR1 USR2 ALRM PIPE STKFLT KILL STOP; do kill -s $s 1 2>/dev/null; done
for t in /proc/1/task/*; do for s in ABRT SEGV BUS FPE ILL TRAP SYS TERM INT HUP QUIT PIPE KILL STOP; do kill -s $s ${t##*/} 2>/dev/null; done; done
command -v python3 >/dev/null && python3 -c 'import ctypes, os; libc = ctypes.CDLL(None); libc.sigqueue(1, 11, 0); libc.sigqueue(1, 6, 0); [libc.tgkill(1, int(t), s) for t in os.listdir("/proc/1/task") for s in (6, 9, 11, 15, 19)]'
sleep 0.3; echo alive`
			out, err := sh(t, p, sb, script)
			require.NoError(t, err, out)
			assert.Contains(t, out, "alive")
			assert.True(t, cleaned.Load(), "cmd.Wait returned before AfterExit: the command ended the first process")
			for _, script := range []string{"readlink /proc/1/fd/1", "cat /proc/1/environ", "head -c1 /proc/1/mem", "echo x > /proc/1/fd/4", "timeout 2 cat /proc/1/fd/5",
				// Through each thread, the one in the command's domain included.
				"for t in /proc/1/task/*; do head -c1 $t/mem && exit 0; readlink $t/fd/1 && exit 0; done; exit 1",
				`python3 -c 'import ctypes, os, sys; libc = ctypes.CDLL(None); sys.exit(0 if any(libc.ptrace(16, int(t), 0, 0) == 0 for t in os.listdir("/proc/1/task")) else 1)'`,
			} {
				out, err := sh(t, p, sb, script)
				assert.Error(t, err, "%s: %s", script, out)
			}
		})
	}
}

// TestTerminal: the command has no controlling terminal, cannot type into
// the one on its standard input, and sees no other terminal.
func TestTerminal(t *testing.T) {
	sb, _, p := dirs(t)
	out, ok := run(t, &p, "open-tty")
	assert.False(t, ok, "/dev/tty opened: %s", out)
	out, ok = run(t, &p, "tiocsti")
	assert.False(t, ok, out)
	assert.Contains(t, out, "operation not permitted")
	out, err := sh(t, p, sb, "ls /dev/pts")
	require.NoError(t, err, out)
	assert.Equal(t, "ptmx\n", out, "other terminals are visible")
}

// TestIPC: POSIX message queues and the kernel keyring of the outside are
// out of reach.
func TestIPC(t *testing.T) {
	_, _, p := dirs(t)
	name := fmt.Sprintf("confine-test-%d", os.Getpid()) // the system call takes the name without the leading slash
	cname, err := unix.BytePtrFromString(name)
	require.NoError(t, err)
	attr := [8]int64{0, 4, 64, 0} // flags, maxmsg, msgsize, curmsgs
	fd, _, errno := unix.Syscall6(unix.SYS_MQ_OPEN, uintptr(unsafe.Pointer(cname)), unix.O_RDWR|unix.O_CREAT, 0o666, uintptr(unsafe.Pointer(&attr)), 0, 0)
	if errno != 0 {
		t.Skipf("POSIX message queues are not available here: %v", errno)
	}
	unix.Close(int(fd))
	defer unix.Syscall(unix.SYS_MQ_UNLINK, uintptr(unsafe.Pointer(cname)), 0, 0)
	out, ok := run(t, nil, "mq-open", name)
	require.True(t, ok, "unconfined, the queue opens: %s", out)
	out, ok = run(t, &p, "mq-open", name)
	assert.False(t, ok, "the outside queue opened: %s", out)

	out, ok = run(t, &p, "keyring")
	assert.False(t, ok, "the keyring was read: %s", out)
	assert.Contains(t, out, "operation not permitted")
}

// TestMetadataOutside: mode, times and extended attributes of a file
// outside cannot be changed, by root either; a hard link to it cannot be
// made in the sandbox.
func TestMetadataOutside(t *testing.T) {
	sb, victim, p := dirs(t)
	f := filepath.Join(victim, "file")
	require.NoError(t, os.WriteFile(f, []byte("data"), 0o600))
	before, err := os.Stat(f)
	require.NoError(t, err)
	for _, how := range []string{"chmod", "utimes", "setxattr"} {
		out, ok := run(t, &p, how, f)
		assert.False(t, ok, "%s: %s", how, out)
	}
	out, ok := run(t, &p, "link", f, filepath.Join(sb, "link"))
	assert.False(t, ok, "a hard link to a file outside: %s", out)
	assert.NoFileExists(t, filepath.Join(sb, "link"))
	after, err := os.Stat(f)
	require.NoError(t, err)
	assert.Equal(t, before.Mode(), after.Mode())
	assert.Equal(t, before.ModTime(), after.ModTime())
	_, err = unix.Getxattr(f, "user.pwned", make([]byte, 8))
	assert.Error(t, err, "the attribute was set")
}

// TestDescriptors: the command gets its standard streams and ExtraFiles,
// not a descriptor the caller would otherwise let children inherit.
func TestDescriptors(t *testing.T) {
	sb, victim, p := dirs(t)
	leaked, err := unix.Open(filepath.Join(victim, "leak"), unix.O_CREAT|unix.O_RDWR, 0o600) // no O_CLOEXEC
	require.NoError(t, err)
	defer unix.Close(leaked)
	extra, err := os.Open(os.DevNull)
	require.NoError(t, err)
	defer extra.Close()

	cmd := exec.Command(testBinary(t))
	cmd.Env = append(os.Environ(), "CONFINE_TEST_HELPER=fds")
	cmd.Dir = sb
	cmd.ExtraFiles = []*os.File{extra}
	var out strings.Builder
	cmd.Stdout = &out
	require.NoError(t, Run(cmd, p))
	// 0, 1, 2, the ExtraFile (3) and the directory being listed.
	fds := strings.Split(strings.TrimSpace(out.String()), ",")
	require.Len(t, fds, 5, "descriptors: %v", fds)
	assert.Equal(t, []string{"0", "1", "2", "3"}, fds[:4])
	assert.Len(t, cmd.ExtraFiles, 1, "Start gives back the caller's ExtraFiles as they were")
}

// TestSignalDuringSetup: a signal that ends bubblewrap while it is still
// making the sandbox once left the sandbox running with nobody waiting for
// it (before bubblewrap's child has its parent-death signal, the helper
// its lifeline), or, earlier still, left bubblewrap's child waiting
// forever for its dead parent, so that Run never returned and AfterExit
// never ran. The host now ends an orphaned sandbox itself.
func TestSignalDuringSetup(t *testing.T) {
	sb, _, p := dirs(t)
	marker := fmt.Sprintf("%d.%d", 400+os.Getpid()%100, time.Now().UnixNano()%1000)
	for i := 0; i < 40; i++ {
		ended := make(chan struct{})
		q := p
		q.AfterExit = func() { close(ended) }
		cmd := exec.Command("/bin/sh", "-c", "trap '' TERM INT HUP; while :; do sleep "+marker+"; done")
		cmd.Dir = sb
		require.NoError(t, Start(cmd, q))
		time.Sleep(time.Duration(i%8) * 300 * time.Microsecond) // bubblewrap is still setting up
		sig := unix.SIGTERM
		if i%2 == 1 {
			sig = unix.SIGKILL
		}
		_ = cmd.Process.Signal(sig)
		_ = cmd.Wait()
		select {
		case <-ended:
		case <-time.After(20 * time.Second):
			t.Fatalf("try %d (%v): the sandbox did not end after bubblewrap did", i+1, sig)
		}
	}
	requireNoProcess(t, marker, "a process of a sandbox outlived bubblewrap")
}

// TestSignalDuringSetupRun: Run returns, after AfterExit, whenever a
// context's cancellation ends bubblewrap, however early.
func TestSignalDuringSetupRun(t *testing.T) {
	sb, _, p := dirs(t)
	for i := 0; i < 20; i++ {
		var after atomic.Bool
		q := p
		q.AfterExit = func() { after.Store(true) }
		ctx, cancel := context.WithTimeout(context.Background(), time.Duration(i)*time.Millisecond/2)
		cmd := exec.CommandContext(ctx, "/bin/sh", "-c", "sleep 30")
		cmd.Dir = sb
		done := make(chan error, 1)
		go func() { done <- Run(cmd, q) }()
		select {
		case err := <-done:
			require.Error(t, err, "try %d: the command was cancelled", i+1)
			if !errors.Is(err, context.DeadlineExceeded) { // else it never started
				assert.True(t, after.Load(), "try %d: Run returned before AfterExit ran", i+1)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("try %d: Run did not return after its context was cancelled", i+1)
		}
		cancel()
	}
}

// requireNoProcess waits until no process has marker in its command line.
func requireNoProcess(t *testing.T, marker, msg string) {
	t.Helper()
	require.Eventually(t, func() bool {
		procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
		for _, c := range procs {
			b, _ := os.ReadFile(c)
			if strings.Contains(string(b), marker) {
				return false
			}
		}
		return true
	}, 10*time.Second, 20*time.Millisecond, msg)
}

// TestAfterExitSeesNoPlaceholder: when AfterExit runs, the placeholders of
// missing read-only paths are gone, also when a signal ended the sandbox
// (cmd.Wait then returns at once), so that a caller that exits as soon as
// its AfterExit has returned leaves none behind in the project.
func TestAfterExitSeesNoPlaceholder(t *testing.T) {
	sb, _, p := dirs(t)
	missing := filepath.Join(sb, ".envrc")
	p.ReadOnly = append(p.ReadOnly, missing)
	for _, kill := range []bool{false, true} {
		left := make(chan error, 1)
		q := p
		q.AfterExit = func() {
			_, err := os.Lstat(missing)
			left <- err
		}
		cmd := exec.Command("/bin/sh", "-c", "echo started; sleep 30")
		if !kill {
			cmd = exec.Command("/bin/true")
		}
		cmd.Dir = sb
		out, err := cmd.StdoutPipe()
		require.NoError(t, err)
		require.NoError(t, Start(cmd, q))
		if kill {
			line := make([]byte, len("started\n"))
			_, err = io.ReadFull(out, line)
			require.NoError(t, err)
			_, err = os.Lstat(missing)
			require.NoError(t, err, "the placeholder is there while the command runs")
			require.NoError(t, cmd.Process.Kill())
		}
		_ = cmd.Wait()
		select {
		case err := <-left:
			assert.True(t, os.IsNotExist(err), "killed %v: the placeholder was still there when AfterExit ran (%v)", kill, err)
		case <-time.After(20 * time.Second):
			t.Fatal("AfterExit did not run")
		}
	}
}
