package confine

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The test binary doubles as the program run confined: with
// CONFINE_TEST_HELPER set it does one thing, prints what happened, and
// exits 0 when the thing worked, 3 when it was refused.
func TestMain(m *testing.M) {
	if how := os.Getenv("CONFINE_TEST_HELPER"); how != "" {
		err := helper(how, os.Args[1:])
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", how, err)
			os.Exit(3)
		}
		fmt.Fprintf(os.Stderr, "%s: ok\n", how)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// helper does the one thing how names, with args.
func helper(how string, args []string) error {
	arg := func(i int) string {
		if i < len(args) {
			return args[i]
		}
		return ""
	}
	switch how {
	case "retired-thread":
		return retiredThread()
	case "take-signals":
		// The helper's signal handling, then each line of standard
		// input echoed, until its end.
		takeSignals()
		_, err := io.Copy(os.Stdout, os.Stdin)
		return err
	case "tcp":
		c, err := net.DialTimeout("tcp", arg(0), 2*time.Second)
		if err != nil {
			return err
		}
		_, err = c.Write([]byte("hello"))
		c.Close()
		return err
	case "udp":
		c, err := net.Dial("udp", arg(0))
		if err != nil {
			return err
		}
		defer c.Close()
		_, err = c.Write([]byte("hello"))
		return err
	case "dns":
		_, err := net.LookupHost(arg(0))
		return err
	case "netlink-interfaces":
		// The interfaces this process sees through rtnetlink.
		ifs, err := net.Interfaces()
		if err != nil {
			return err
		}
		var names []string
		for _, i := range ifs {
			names = append(names, i.Name)
		}
		fmt.Println(strings.Join(names, ","))
		return nil
	case "unix":
		c, err := net.Dial("unix", arg(0))
		if err != nil {
			return err
		}
		_, err = c.Write([]byte("hello"))
		c.Close()
		return err
	case "connect-loop":
		// Connect arg(0) times to a loopback TCP server of its own (or,
		// when arg(1) is "unix", to a UNIX socket of its own in its
		// working directory) and print the time of one connect, in
		// nanoseconds.
		n, _ := strconv.Atoi(arg(0))
		family, address := "tcp", "127.0.0.1:0"
		if arg(1) == "unix" {
			family, address = "unix", "connect-loop.sock"
		}
		l, err := net.Listen(family, address)
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
		start := time.Now()
		for i := 0; i < n; i++ {
			c, err := net.Dial(family, l.Addr().String())
			if err != nil {
				return err
			}
			c.Close()
		}
		fmt.Println(time.Since(start).Nanoseconds() / int64(max(n, 1)))
		return nil
	case "unix-when":
		// Dial arg(0) once the file arg(1) exists, as a stream socket or
		// as arg(2) says ("unixpacket": seqpacket).
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if _, err := os.Stat(arg(1)); err == nil || time.Now().After(deadline) {
				break
			}
		}
		network := "unix"
		if arg(2) != "" {
			network = arg(2)
		}
		c, err := net.Dial(network, arg(0))
		if err != nil {
			return err
		}
		c.Close()
		return nil
	case "unixgram":
		c, err := net.Dial("unixgram", arg(0))
		if err != nil {
			return err
		}
		_, err = c.Write([]byte("hello"))
		c.Close()
		return err
	case "unixgram-send-when":
		return unixgramSendWhen(arg(0), arg(1))
	case "unix-filter":
		return unixFilter(arg(0))
	case "loopback":
		return loopbackServers(arg(0))
	case "unix-inside":
		return unixInside(arg(0))
	case "unix-through-proc":
		return unixThroughProc()
	case "abstract-inside":
		return abstractInside()
	case "unix-attacks":
		return unixAttacks(arg(0), arg(1))
	case "tiocsti":
		c := byte('x')
		_, _, errno := unix.Syscall(unix.SYS_IOCTL, 0, unix.TIOCSTI, uintptr(unsafe.Pointer(&c)))
		if errno != 0 {
			return errno
		}
		return nil
	case "open-tty":
		f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
		if err != nil {
			return err
		}
		f.Close()
		return nil
	case "mknod":
		return unix.Mknod(arg(0), unix.S_IFCHR|0o600, int(unix.Mkdev(1, 3)))
	case "io_uring":
		var params [120]byte
		_, _, errno := unix.Syscall(unix.SYS_IO_URING_SETUP, 1, uintptr(unsafe.Pointer(&params)), 0)
		if errno != 0 {
			return errno
		}
		return nil
	case "keyring":
		// The session keyring's description: reading it is what an
		// attacker does first.
		id, err := unix.KeyctlInt(unix.KEYCTL_GET_KEYRING_ID, unix.KEY_SPEC_SESSION_KEYRING, 0, 0, 0)
		if err != nil {
			return err
		}
		_, err = unix.KeyctlString(unix.KEYCTL_DESCRIBE, id)
		return err
	case "prlimit":
		var pid int
		fmt.Sscan(arg(0), &pid)
		lim := unix.Rlimit{Cur: 0, Max: 0}
		return unix.Prlimit(pid, unix.RLIMIT_NOFILE, &lim, nil)
	case "mq-open":
		name, err := unix.BytePtrFromString(arg(0))
		if err != nil {
			return err
		}
		fd, _, errno := unix.Syscall6(unix.SYS_MQ_OPEN, uintptr(unsafe.Pointer(name)), unix.O_RDWR, 0, 0, 0, 0)
		if errno != 0 {
			return errno
		}
		unix.Close(int(fd))
		return nil
	case "fds":
		entries, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			return err
		}
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		fmt.Println(strings.Join(names, ","))
		return nil
	case "read":
		b, err := os.ReadFile(arg(0))
		if err != nil {
			return err
		}
		os.Stdout.Write(b)
		return nil
	case "chmod":
		return os.Chmod(arg(0), 0o777)
	case "utimes":
		t := time.Unix(0, 0)
		return os.Chtimes(arg(0), t, t)
	case "setxattr":
		return unix.Setxattr(arg(0), "user.pwned", []byte("1"), 0)
	case "link":
		return os.Link(arg(0), arg(1))
	}
	return fmt.Errorf("unknown helper %q", how)
}

// loopbackServers starts HTTP servers on 127.0.0.1 and ::1 with ports the
// kernel picks, and one on 127.0.0.1 at the port named (if any), and fetches
// a page from each: what a project's test suite does.
func loopbackServers(port string) error {
	addrs := []string{"127.0.0.1:0", "[::1]:0"}
	if port != "" {
		addrs = append(addrs, "127.0.0.1:"+port)
	}
	for _, a := range addrs {
		l, err := net.Listen("tcp", a)
		if err != nil {
			return fmt.Errorf("listen %s: %w", a, err)
		}
		s := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "pong") }))
		s.Listener.Close()
		s.Listener = l
		s.Start()
		resp, err := http.Get(s.URL)
		if err != nil {
			s.Close()
			return fmt.Errorf("get %s: %w", s.URL, err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		s.Close()
		if string(b) != "pong" {
			return fmt.Errorf("%s answered %q", s.URL, b)
		}
	}
	// A UDP echo on loopback too.
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	defer pc.Close()
	c, err := net.Dial("udp", pc.LocalAddr().String())
	if err != nil {
		return err
	}
	defer c.Close()
	if _, err := c.Write([]byte("ping")); err != nil {
		return err
	}
	buf := make([]byte, 8)
	_ = pc.SetReadDeadline(time.Now().Add(2 * time.Second))
	n, _, err := pc.ReadFrom(buf)
	if err != nil || string(buf[:n]) != "ping" {
		return fmt.Errorf("udp on loopback: %q %v", buf[:n], err)
	}
	return nil
}

// unixgramSendWhen sends a datagram to the path to, without connecting,
// once the file ready exists: from a datagram socket of its own, and from
// one of a pair. It fails when neither was sent.
func unixgramSendWhen(to, ready string) error {
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(ready); err == nil || time.Now().After(deadline) {
			break
		}
	}
	addr := &unix.SockaddrUnix{Name: to}
	var errs []error
	if fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_DGRAM, 0); err != nil {
		errs = append(errs, fmt.Errorf("socket: %w", err))
	} else if err := unix.Sendto(fd, []byte("socket"), 0, addr); err != nil {
		errs = append(errs, fmt.Errorf("sendto from a socket: %w", err))
	} else {
		return nil
	}
	if fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_DGRAM, 0); err != nil {
		errs = append(errs, fmt.Errorf("socketpair: %w", err))
	} else if err := unix.Sendto(fds[0], []byte("pair"), 0, addr); err != nil {
		errs = append(errs, fmt.Errorf("sendto from a pair: %w", err))
	} else {
		return nil
	}
	return errors.Join(errs...)
}

// unixFilter puts this process under the system-call filter's AF_UNIX
// mode (a number) and prints, for each way of making AF_UNIX sockets,
// "ok" or the error.
func unixFilter(mode string) error {
	m, err := strconv.Atoi(mode)
	if err != nil {
		return err
	}
	prog, err := filterProgram(unixSockets(m), reuseOwnNamespace)
	if err != nil {
		return err
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return err
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if _, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&fprog))); errno != 0 {
		return errno
	}
	result := func(err error) string {
		if err != nil {
			return err.Error()
		}
		return "ok"
	}
	for _, typ := range []struct {
		name string
		typ  int
	}{{"stream", unix.SOCK_STREAM}, {"seqpacket", unix.SOCK_SEQPACKET}, {"dgram", unix.SOCK_DGRAM | unix.SOCK_CLOEXEC}} {
		_, err := unix.Socket(unix.AF_UNIX, typ.typ, 0)
		fmt.Printf("socket %s: %s\n", typ.name, result(err))
		_, err = unix.Socketpair(unix.AF_UNIX, typ.typ, 0)
		fmt.Printf("socketpair %s: %s\n", typ.name, result(err))
	}
	_, err = unix.Socket(unix.AF_INET, unix.SOCK_DGRAM, 0)
	fmt.Printf("socket udp: %s\n", result(err))
	return nil
}

// unixInside serves on a UNIX socket made in dir and connects to it, and
// talks over a socketpair: what node's child_process and asyncio do.
func unixInside(dir string) error {
	path := filepath.Join(dir, "inside.sock")
	l, err := net.Listen("unix", path)
	if err != nil {
		return err
	}
	defer l.Close()
	go func() {
		c, err := l.Accept()
		if err == nil {
			_, _ = io.Copy(c, c)
			c.Close()
		}
	}()
	c, err := net.Dial("unix", path)
	if err != nil {
		return err
	}
	if _, err := c.Write([]byte("ping")); err != nil {
		return err
	}
	buf := make([]byte, 4)
	if _, err := io.ReadFull(c, buf); err != nil {
		return err
	}
	c.Close()
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fds[0])
	defer unix.Close(fds[1])
	if _, err := unix.Write(fds[0], []byte("x")); err != nil {
		return err
	}
	_, err = unix.Read(fds[1], buf[:1])
	return err
}

// unixThroughProc serves on a UNIX socket made in the working directory
// and connects to it through /proc: a descriptor's link (/proc/self/fd/N,
// as programs do for a path longer than sockaddr_un holds), the same of
// the thread, and the working directory's link.
func unixThroughProc() error {
	l, err := net.Listen("unix", "proc.sock")
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
	fd, err := unix.Open("proc.sock", unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	var errs []error
	for _, addr := range []string{"/proc/self/fd/" + strconv.Itoa(fd), "/proc/thread-self/fd/" + strconv.Itoa(fd), "/proc/self/cwd/proc.sock"} {
		c, err := net.Dial("unix", addr)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		c.Close()
	}
	return errors.Join(errs...)
}

// requireConfinement skips when this machine cannot confine.
func requireConfinement(t testing.TB) {
	t.Helper()
	if err := Available(); err != nil {
		t.Skipf("confinement is not available here, so it cannot be tested: %v", err)
	}
}

// victimDir makes a directory under the user's home (never under a
// temporary directory a sandbox might share), removed at the end.
func victimDir(t testing.TB) string {
	t.Helper()
	home, err := os.UserHomeDir()
	require.NoError(t, err)
	d, err := os.MkdirTemp(home, "confine-victim-")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(d) })
	d, err = filepath.EvalSymlinks(d)
	require.NoError(t, err)
	return d
}

// dirs makes a sandbox (a real path) and a victim directory outside it,
// under the home directory, and a policy with the sandbox alone writable.
func dirs(t *testing.T) (sandbox, outside string, p Policy) {
	t.Helper()
	requireConfinement(t)
	sandbox, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	return sandbox, victimDir(t), Policy{Sandbox: sandbox}
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
	require.False(t, errors.Is(err, ErrUnsafePolicy), "%v", err)
	return out.String(), err
}

// run runs the test binary as helper how with args, confined by p (or
// plainly when p is nil), in p's sandbox, and returns what it printed and
// whether the thing worked.
func run(t *testing.T, p *Policy, how string, args ...string) (string, bool) {
	t.Helper()
	cmd := exec.Command(testBinary(t), args...)
	cmd.Env = append(os.Environ(), "CONFINE_TEST_HELPER="+how)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	var err error
	if p != nil {
		cmd.Dir = p.Sandbox
		err = Run(cmd, *p)
	} else {
		err = cmd.Run()
	}
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 3) {
		require.NoError(t, err, "the helper did not run: %s", out.String())
	}
	return out.String(), err == nil
}

// testBinary is the absolute path of this test binary (os.Args[0] may be
// relative, and the helpers run in the sandbox).
func testBinary(t testing.TB) string {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	return exe
}

// newTrue is /bin/true run in dir.
func newTrue(dir string) *exec.Cmd {
	cmd := exec.Command("/bin/true")
	cmd.Dir = dir
	return cmd
}

// assertSecretsHidden writes each secret (path relative to home: content)
// and checks that a command confined by DefaultPolicy cannot read it.
func assertSecretsHidden(t *testing.T, home string, secrets map[string]string) {
	t.Helper()
	for rel, body := range secrets {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(home, rel)), 0o700))
		require.NoError(t, os.WriteFile(filepath.Join(home, rel), []byte(body), 0o600))
	}
	sb, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	p := DefaultPolicy(sb)
	for rel, body := range secrets {
		out, _ := sh(t, p, sb, "cat "+filepath.Join(home, rel))
		assert.NotContains(t, out, body, "%s was readable", rel)
	}
}

// openPty opens a new pseudo-terminal, closed when t ends: its master and
// its terminal.
func openPty(t *testing.T) (ptmx, tty *os.File) {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	require.NoError(t, err)
	t.Cleanup(func() { ptmx.Close() })
	require.NoError(t, unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0))
	n, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	require.NoError(t, err)
	tty, err = os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	require.NoError(t, err)
	t.Cleanup(func() { tty.Close() })
	return ptmx, tty
}
