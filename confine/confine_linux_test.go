package confine

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The test binary doubles as a small client run confined: with
// CONFINE_TEST_HELPER set it does one thing and exits.
func TestMain(m *testing.M) {
	switch os.Getenv("CONFINE_TEST_HELPER") {
	case "connect":
		c, err := net.Dial("tcp", os.Args[1])
		if err != nil {
			fmt.Fprintln(os.Stderr, "connect:", err)
			os.Exit(3)
		}
		_, _ = c.Write([]byte("hello"))
		c.Close()
		os.Exit(0)
	case "mptcp":
		// A Multipath TCP socket, which Landlock's TCP rules do not cover.
		fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, ipprotoMPTCP)
		if err != nil {
			fmt.Fprintln(os.Stderr, "socket:", err)
			os.Exit(3)
		}
		ap, err := netip.ParseAddrPort(os.Args[1])
		if err != nil {
			os.Exit(4)
		}
		if err := unix.Connect(fd, &unix.SockaddrInet4{Port: int(ap.Port()), Addr: ap.Addr().As4()}); err != nil {
			fmt.Fprintln(os.Stderr, "connect:", err)
			os.Exit(3)
		}
		os.Exit(0)
	case "fastopen", "fastopen-sendmsg":
		// TCP Fast Open: the connection is opened by the first send, with
		// no connect call for Landlock to check.
		fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
		if err != nil {
			os.Exit(4)
		}
		ap, err := netip.ParseAddrPort(os.Args[1])
		if err != nil {
			os.Exit(4)
		}
		sa := &unix.SockaddrInet4{Port: int(ap.Port()), Addr: ap.Addr().As4()}
		if os.Getenv("CONFINE_TEST_HELPER") == "fastopen" {
			err = unix.Sendto(fd, []byte("hello"), unix.MSG_FASTOPEN, sa)
		} else {
			_, err = unix.SendmsgN(fd, []byte("hello"), nil, sa, unix.MSG_FASTOPEN)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "sendto:", err)
			os.Exit(3)
		}
		os.Exit(0)
	case "tiocsti":
		// Type a character into the terminal on standard input.
		c := byte('x')
		_, _, errno := unix.Syscall(unix.SYS_IOCTL, 0, unix.TIOCSTI, uintptr(unsafe.Pointer(&c)))
		fmt.Fprintln(os.Stderr, "ioctl:", errno)
		os.Exit(0)
	case "mknod":
		err := unix.Mknod(os.Args[1], unix.S_IFCHR|0o600, int(unix.Mkdev(1, 3)))
		fmt.Fprintln(os.Stderr, "mknod:", err)
		os.Exit(0)
	case "io_uring":
		var params [120]byte
		_, _, errno := unix.Syscall(unix.SYS_IO_URING_SETUP, 1, uintptr(unsafe.Pointer(&params)), 0)
		if errno != 0 {
			fmt.Fprintln(os.Stderr, "io_uring_setup:", errno)
			os.Exit(3)
		}
		os.Exit(0)
	case "listen":
		l, err := net.Listen("tcp", os.Args[1])
		if err != nil {
			fmt.Fprintln(os.Stderr, "listen:", err)
			os.Exit(3)
		}
		l.Close()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// requireLandlock skips when the kernel cannot confine.
func requireLandlock(t testing.TB) {
	t.Helper()
	if err := Available(); err != nil {
		t.Skipf("Landlock with TCP rules is not available on this kernel, so confinement cannot be tested here: %v", err)
	}
}

// dirs makes a sandbox and a directory outside it, both real paths, and a
// policy that writes only in the sandbox and /dev/null.
func dirs(t *testing.T) (sandbox, outside string, p Policy) {
	t.Helper()
	requireLandlock(t)
	var err error
	sandbox, err = filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	outside, err = filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	return sandbox, outside, Policy{Sandbox: sandbox, Writable: []string{"/dev/null"}}
}

// sh runs script confined by p in dir, and returns its combined output and
// its error.
func sh(t *testing.T, p Policy, dir, script string) (string, error) {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", script)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := Run(cmd, p)
	require.False(t, errors.Is(err, ErrUnavailable), "%v", err)
	return out.String(), err
}

func TestWritesOutsideFail(t *testing.T) {
	sb, out, p := dirs(t)
	for _, tc := range []struct{ name, script, created string }{
		{"redirect", "echo x > " + out + "/x", "x"},
		{"append", "echo x >> " + out + "/y", "y"},
		{"touch", "touch " + out + "/t", "t"},
		{"mkdir", "mkdir " + out + "/d", "d"},
		{"symlink", "ln -s /etc/passwd " + out + "/l", "l"},
		{"copy", "echo x > a && cp a " + out + "/c", "c"},
		{"move out", "echo x > m && mv m " + out + "/m", "m"},
		{"fifo", "mkfifo " + out + "/f", "f"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg, err := sh(t, p, sb, tc.script)
			var ee *exec.ExitError
			require.ErrorAs(t, err, &ee, "the write outside succeeded: %s", msg)
			require.NoFileExists(t, filepath.Join(out, tc.created))
			require.NoDirExists(t, filepath.Join(out, tc.created))
		})
	}
	entries, err := os.ReadDir(out)
	require.NoError(t, err)
	require.Empty(t, entries)
}

func TestRemoveOutsideFails(t *testing.T) {
	sb, out, p := dirs(t)
	victim := filepath.Join(out, "keep")
	require.NoError(t, os.WriteFile(victim, []byte("data"), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(out, "dir"), 0o755))
	for _, script := range []string{
		"rm -f " + victim,
		"rm -rf " + out + "/dir",
		": > " + victim, // truncate
		"mv " + victim + " " + sb + "/stolen",
	} {
		msg, err := sh(t, p, sb, script)
		require.Error(t, err, "%s: %s", script, msg)
		b, rerr := os.ReadFile(victim)
		require.NoError(t, rerr, script)
		require.Equal(t, "data", string(b), script)
		require.DirExists(t, filepath.Join(out, "dir"))
	}
}

func TestInsideWorks(t *testing.T) {
	sb, _, p := dirs(t)
	require.NoError(t, os.WriteFile(filepath.Join(sb, "old"), []byte("x"), 0o644))
	msg, err := sh(t, p, sb, `set -e
echo hello > new
echo more >> new
mkdir -p a/b/c && echo deep > a/b/c/f
mv a/b/c/f a/g && ln -s g a/link && cat a/link > /dev/null
: > old && rm old
mkfifo pipe && rm pipe
rm -r a/b && truncate -s 0 a/g
cat new`)
	require.NoError(t, err, msg)
	require.Equal(t, "hello\nmore\n", msg)
	require.NoFileExists(t, filepath.Join(sb, "old"))
	require.NoDirExists(t, filepath.Join(sb, "a", "b"))
	fi, err := os.Stat(filepath.Join(sb, "a", "g"))
	require.NoError(t, err)
	require.Zero(t, fi.Size())
}

func TestWritableListed(t *testing.T) {
	sb, out, p := dirs(t)
	p.Writable = append(p.Writable, out, filepath.Join(out, "missing-is-skipped"))
	msg, err := sh(t, p, sb, "echo x > "+out+"/ok")
	require.NoError(t, err, msg)
	require.FileExists(t, filepath.Join(out, "ok"))
}

// connectTest starts the test binary confined as a TCP client of a
// listener on 127.0.0.1, then connects itself; it returns the child's
// error and whether the first connection the listener accepted was the
// child's.
func connectTest(t *testing.T, p Policy, how string) (childErr error, childConnected bool) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	cmd := exec.Command(os.Args[0], l.Addr().String())
	cmd.Env = append(os.Environ(), "CONFINE_TEST_HELPER="+how)
	cmd.Dir = p.Sandbox
	childErr = Run(cmd, p)
	require.False(t, errors.Is(childErr, ErrUnavailable))
	// The child has exited: any connection it made is already queued. Make
	// one from here and see which comes first.
	own, err := net.Dial("tcp", l.Addr().String())
	require.NoError(t, err)
	defer own.Close()
	c, err := l.Accept()
	require.NoError(t, err)
	defer c.Close()
	return childErr, c.RemoteAddr().String() != own.LocalAddr().String()
}

func TestNetwork(t *testing.T) {
	for _, how := range []string{"connect", "mptcp", "fastopen", "fastopen-sendmsg"} {
		t.Run(how, func(t *testing.T) {
			_, _, p := dirs(t)
			err, connected := connectTest(t, p, how)
			require.Error(t, err, "the confined client connected")
			require.False(t, connected, "the listener saw the confined client")

			p.Network = true
			err, connected = connectTest(t, p, how)
			if how != "connect" && err != nil && !connected {
				t.Skipf("%s is not enabled on this kernel (unconfined, it fails too): %v", how, err)
			}
			require.NoError(t, err)
			require.True(t, connected)
		})
	}
}

// helperOutput runs the test binary as the helper how with args, confined
// by p when confined, and returns what it printed.
func helperOutput(t *testing.T, p Policy, confined bool, how string, args ...string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "CONFINE_TEST_HELPER="+how)
	cmd.Dir = p.Sandbox
	cmd.Stdin = nil // /dev/null: never the terminal of whoever runs the tests
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if confined {
		require.NoError(t, Run(cmd, p))
	} else {
		require.NoError(t, cmd.Run())
	}
	return out.String()
}

// TestNoTerminalInjection: TIOCSTI, which types into the terminal a
// command shares with the user's shell, is refused by the filter (EPERM)
// before the terminal is even looked at; unconfined, the same call on
// /dev/null fails for the terminal's own reason.
func TestNoTerminalInjection(t *testing.T) {
	_, _, p := dirs(t)
	unconfined := helperOutput(t, p, false, "tiocsti")
	require.NotContains(t, unconfined, "operation not permitted", "unconfined, the call reaches the device")
	for _, network := range []bool{false, true} {
		p.Network = network
		assert.Contains(t, helperOutput(t, p, true, "tiocsti"), "ioctl: operation not permitted", "network %v", network)
	}
}

// TestNoDeviceNodes: a confined command cannot create a device node, even
// as root, even in the sandbox (one naming a disk would write past every
// rule); unconfined root can.
func TestNoDeviceNodes(t *testing.T) {
	sb, _, p := dirs(t)
	if os.Geteuid() != 0 {
		t.Skip("only root can create device nodes at all, so there is nothing to refuse here")
	}
	unconfined := helperOutput(t, p, false, "mknod", filepath.Join(sb, "free"))
	if !strings.Contains(unconfined, "mknod: <nil>") {
		t.Skipf("root cannot create device nodes here even unconfined: %s", unconfined)
	}
	out := helperOutput(t, p, true, "mknod", filepath.Join(sb, "dev"))
	assert.Contains(t, out, "permission denied")
	assert.NoFileExists(t, filepath.Join(sb, "dev"))
}

// TestNoIOUring: io_uring, whose requests no system-call filter sees, is
// unavailable to a command without network.
func TestNoIOUring(t *testing.T) {
	_, _, p := dirs(t)
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "CONFINE_TEST_HELPER=io_uring")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Skipf("io_uring is not available here even unconfined: %s", out)
	}
	cmd = exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "CONFINE_TEST_HELPER=io_uring")
	var buf bytes.Buffer
	cmd.Stderr = &buf
	require.Error(t, Run(cmd, p))
	require.Contains(t, buf.String(), "function not implemented")
}

// TestNoBind: binding a TCP port fails unless Network is set. (Port 0,
// which lets the kernel choose, is not covered by Landlock's bind rule.)
func TestNoBind(t *testing.T) {
	_, _, p := dirs(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	run := func() error {
		cmd := exec.Command(os.Args[0], addr)
		cmd.Env = append(os.Environ(), "CONFINE_TEST_HELPER=listen")
		return Run(cmd, p)
	}
	var ee *exec.ExitError
	require.ErrorAs(t, run(), &ee)
	require.Equal(t, 3, ee.ExitCode())
	p.Network = true
	require.NoError(t, run())
}

func TestReadable(t *testing.T) {
	sb, out, p := dirs(t)
	require.NoError(t, os.WriteFile(filepath.Join(out, "secret"), []byte("s3cret"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(sb, "mine"), []byte("mine"), 0o644))
	extra, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(extra, "lib"), []byte("lib"), 0o644))

	// Reads unrestricted (nil): the secret can be read.
	msg, err := sh(t, p, sb, "cat "+out+"/secret")
	require.NoError(t, err)
	require.Equal(t, "s3cret", msg)

	p.Readable = []string{extra}
	for _, tc := range []struct {
		script, want string
		ok           bool
	}{
		{"cat mine", "mine", true},
		{"cat " + extra + "/lib", "lib", true},
		{"ls " + extra, "lib\n", true},
		{"cat " + out + "/secret", "", false},
		{"ls " + out, "", false},
		{"cp " + out + "/secret " + sb + "/copy", "", false},
	} {
		msg, err := sh(t, p, sb, tc.script)
		if tc.ok {
			require.NoError(t, err, "%s: %s", tc.script, msg)
			require.Equal(t, tc.want, msg, tc.script)
		} else {
			require.Error(t, err, "%s: %s", tc.script, msg)
			require.NotContains(t, msg, "s3cret")
		}
	}
	require.NoFileExists(t, filepath.Join(sb, "copy"))
}

// TestCallerUnconfined: after many confined starts from concurrent
// goroutines, no thread of this process has no_new_privs (which Start sets
// together with the Landlock domain), and the process still writes
// outside, from fresh locked threads and through a child it starts plainly.
func TestCallerUnconfined(t *testing.T) {
	sb, out, p := dirs(t)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 5; j++ {
				cmd := exec.Command("/bin/sh", "-c", "echo x > "+out+"/denied")
				cmd.Dir = sb
				if err := Run(cmd, p); err == nil {
					t.Errorf("a confined write outside succeeded")
				}
			}
		}()
	}
	wg.Wait()
	require.NoFileExists(t, filepath.Join(out, "denied"))

	tasks, err := filepath.Glob("/proc/self/task/*/status")
	require.NoError(t, err)
	require.NotEmpty(t, tasks)
	for _, st := range tasks {
		b, err := os.ReadFile(st)
		if errors.Is(err, os.ErrNotExist) {
			continue // the thread exited meanwhile
		}
		require.NoError(t, err)
		require.Contains(t, string(b), "NoNewPrivs:\t0", "%s", st)
	}
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			if err := os.WriteFile(filepath.Join(out, fmt.Sprintf("direct%d", i)), []byte("x"), 0o644); err != nil {
				t.Errorf("the caller cannot write outside: %v", err)
			}
		}(i)
	}
	wg.Wait()
	require.NoError(t, exec.Command("/bin/sh", "-c", "echo x > "+out+"/plain").Run())
	require.FileExists(t, filepath.Join(out, "plain"))
}

// TestSignalsScoped: a confined command cannot signal a process outside
// its domain.
func TestSignalsScoped(t *testing.T) {
	sb, _, p := dirs(t)
	if abi, _ := support(false); abi < abiScope {
		t.Skipf("Landlock ABI %d does not scope signals (ABI %d does)", abi, abiScope)
	}
	victim := exec.Command("sleep", "300")
	require.NoError(t, victim.Start())
	defer func() { _ = victim.Process.Kill(); _ = victim.Wait() }()
	pid := fmt.Sprint(victim.Process.Pid)
	require.NoError(t, exec.Command("kill", "-0", pid).Run(), "an unconfined kill -0 must work")
	_, err := sh(t, p, sb, "kill -TERM "+pid)
	require.Error(t, err)
	_, err = sh(t, p, sb, "kill -0 "+pid)
	require.Error(t, err)
	// Its own children remain within reach.
	msg, err := sh(t, p, sb, "sleep 300 & kill $!; wait $!; echo status=$?")
	require.NoError(t, err, msg)
	require.Contains(t, msg, "status=143\n") // 128 + SIGTERM
	require.NoError(t, exec.Command("kill", "-0", pid).Run(), "the victim must still run")
}

func TestInvalidPolicy(t *testing.T) {
	sb := t.TempDir()
	file := filepath.Join(sb, "f")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	for _, tc := range []struct {
		name string
		p    Policy
	}{
		{"empty sandbox", Policy{}},
		{"relative sandbox", Policy{Sandbox: "project"}},
		{"missing sandbox", Policy{Sandbox: filepath.Join(sb, "missing")}},
		{"file sandbox", Policy{Sandbox: file}},
		{"relative writable", Policy{Sandbox: sb, Writable: []string{"tmp"}}},
		{"relative readable", Policy{Sandbox: sb, Readable: []string{""}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command("/bin/true")
			err := Start(cmd, tc.p)
			require.Error(t, err)
			require.False(t, errors.Is(err, ErrUnavailable), "%v", err)
			require.Nil(t, cmd.Process, "nothing may start")
		})
	}
	require.Error(t, Start(nil, Policy{Sandbox: sb}))
}

func TestRunReturnsExitStatus(t *testing.T) {
	sb, _, p := dirs(t)
	cmd := exec.Command("/bin/sh", "-c", "exit 7")
	cmd.Dir = sb
	var ee *exec.ExitError
	require.ErrorAs(t, Run(cmd, p), &ee)
	require.Equal(t, 7, ee.ExitCode())
	// A command that does not exist fails as exec.Cmd does.
	cmd = exec.Command(filepath.Join(sb, "missing"))
	err := Start(cmd, p)
	require.Error(t, err)
	require.False(t, errors.Is(err, ErrUnavailable))
	// Started twice is an error.
	cmd = exec.Command("/bin/true")
	require.NoError(t, Run(cmd, p))
	require.Error(t, Start(cmd, p))
}

func TestUnavailableWhenABILacks(t *testing.T) {
	for _, tc := range []struct {
		abi     int
		network bool
		ok      bool
	}{
		{0, true, false}, {1, true, true}, {1, false, false}, {3, false, false},
		{4, false, true}, {7, false, true},
	} {
		err := abiSupports(tc.abi, tc.network)
		if tc.ok {
			require.NoError(t, err, "%+v", tc)
		} else {
			require.ErrorIs(t, err, ErrUnavailable, "%+v", tc)
			require.True(t, strings.Contains(err.Error(), "Landlock"), err.Error())
		}
	}
}
