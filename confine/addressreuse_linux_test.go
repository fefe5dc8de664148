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
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// reuseEnv makes the test binary, run confined, do one thing of this
// file's (see init) instead of running the tests.
const reuseEnv = "CONFINE_REUSE_TEST"

func init() {
	how, ok := os.LookupEnv(reuseEnv)
	if !ok {
		return
	}
	var err error
	switch how {
	case "calls":
		reuseCalls()
	case "race":
		err = reuseaddrRace()
	case "ignored":
		err = reuseIgnoredFilter()
	case "listen-loop":
		err = listenLoop(os.Args[1])
	default:
		err = fmt.Errorf("unknown %s %q", reuseEnv, how)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "reuse %s: %v\n", how, err)
		os.Exit(3)
	}
	os.Exit(0)
}

// rawSetsockopt is setsockopt(fd, SOL_SOCKET, opt, val, size) as a program
// calls it, the value's address given as is.
func rawSetsockopt(fd, opt int, val unsafe.Pointer, size uintptr) error {
	_, _, errno := unix.Syscall6(unix.SYS_SETSOCKOPT, uintptr(fd), unix.SOL_SOCKET, uintptr(opt), uintptr(val), size, 0)
	if errno != 0 {
		return errno
	}
	return nil
}

// reuseCalls prints, for each way of setting the address-sharing options,
// what setsockopt gave and what the socket's option then reads.
func reuseCalls() {
	one, zero := int32(1), int32(0)
	newSock := func(family, typ int) int {
		fd, err := unix.Socket(family, typ|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			fmt.Printf("socket %d %d: %v\n", family, typ, err)
			os.Exit(3)
		}
		return fd
	}
	var pipe [2]int
	if err := unix.Pipe2(pipe[:], unix.O_CLOEXEC); err != nil {
		fmt.Println("pipe:", err)
		os.Exit(3)
	}
	for _, c := range []struct {
		name          string
		fd            int
		opt           int
		val           unsafe.Pointer
		size          uintptr
		checkReuseOpt bool
	}{
		{"tcp reuseaddr 1", newSock(unix.AF_INET, unix.SOCK_STREAM), unix.SO_REUSEADDR, unsafe.Pointer(&one), 4, true},
		{"tcp reuseaddr 0", newSock(unix.AF_INET, unix.SOCK_STREAM), unix.SO_REUSEADDR, unsafe.Pointer(&zero), 4, true},
		{"tcp6 reuseaddr 1", newSock(unix.AF_INET6, unix.SOCK_STREAM), unix.SO_REUSEADDR, unsafe.Pointer(&one), 4, true},
		{"unix stream reuseaddr 1", newSock(unix.AF_UNIX, unix.SOCK_STREAM), unix.SO_REUSEADDR, unsafe.Pointer(&one), 4, true},
		{"unix seqpacket reuseaddr 1", newSock(unix.AF_UNIX, unix.SOCK_SEQPACKET), unix.SO_REUSEADDR, unsafe.Pointer(&one), 4, true},
		{"udp reuseaddr 1", newSock(unix.AF_INET, unix.SOCK_DGRAM), unix.SO_REUSEADDR, unsafe.Pointer(&one), 4, true},
		{"udp reuseaddr 0", newSock(unix.AF_INET, unix.SOCK_DGRAM), unix.SO_REUSEADDR, unsafe.Pointer(&zero), 4, true},
		{"udp6 reuseaddr 1", newSock(unix.AF_INET6, unix.SOCK_DGRAM), unix.SO_REUSEADDR, unsafe.Pointer(&one), 4, true},
		{"tcp reuseaddr, 8 bytes", newSock(unix.AF_INET, unix.SOCK_STREAM), unix.SO_REUSEADDR, unsafe.Pointer(&[2]int32{1, 0}), 8, true},
		{"tcp reuseaddr, 2 bytes", newSock(unix.AF_INET, unix.SOCK_STREAM), unix.SO_REUSEADDR, unsafe.Pointer(&one), 2, true},
		{"tcp reuseaddr, no value", newSock(unix.AF_INET, unix.SOCK_STREAM), unix.SO_REUSEADDR, nil, 4, true},
		{"a pipe", pipe[0], unix.SO_REUSEADDR, unsafe.Pointer(&one), 4, false},
		{"no descriptor", 999, unix.SO_REUSEADDR, unsafe.Pointer(&one), 4, false},
		{"tcp reuseport 1", newSock(unix.AF_INET, unix.SOCK_STREAM), unix.SO_REUSEPORT, unsafe.Pointer(&one), 4, false},
		{"udp reuseport 1", newSock(unix.AF_INET, unix.SOCK_DGRAM), unix.SO_REUSEPORT, unsafe.Pointer(&one), 4, false},
		{"tcp keepalive 1", newSock(unix.AF_INET, unix.SOCK_STREAM), unix.SO_KEEPALIVE, unsafe.Pointer(&one), 4, false},
	} {
		err := rawSetsockopt(c.fd, c.opt, c.val, c.size)
		line := fmt.Sprintf("%s: %v", c.name, err)
		if c.checkReuseOpt {
			v, gerr := unix.GetsockoptInt(c.fd, unix.SOL_SOCKET, unix.SO_REUSEADDR)
			line += fmt.Sprintf(", reads %d %v", v, gerr)
		}
		fmt.Println(line)
	}
}

// reuseaddrRace sets SO_REUSEADDR on one descriptor number again and
// again while another thread puts a TCP socket and a UDP socket under
// that number in turn, and fails when the UDP socket ended up with the
// option.
func reuseaddrRace() error {
	tcp, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	udp, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	const target = 900
	if err := unix.Dup3(tcp, target, unix.O_CLOEXEC); err != nil {
		return err
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			from := tcp
			if i%2 == 1 {
				from = udp
			}
			_ = unix.Dup3(from, target, unix.O_CLOEXEC)
		}
	}()
	one := int32(1)
	set := 0
	for i := 0; i < 3000; i++ {
		if rawSetsockopt(target, unix.SO_REUSEADDR, unsafe.Pointer(&one), 4) == nil {
			set++
		}
	}
	close(stop)
	wg.Wait()
	v, err := unix.GetsockoptInt(udp, unix.SOL_SOCKET, unix.SO_REUSEADDR)
	if err != nil {
		return err
	}
	fmt.Printf("set %d times\n", set)
	if v != 0 {
		return fmt.Errorf("RACED: the UDP socket has SO_REUSEADDR %d", v)
	}
	return nil
}

// reuseIgnoredFilter puts this process under the system-call filter of a
// command with Network where the helper cannot stand behind its calls,
// then checks that SO_REUSEADDR returns 0 without being set, that a Go
// listener still starts, that SO_REUSEPORT fails, and that a UDP socket
// cannot bind an address a socket of its own holds with SO_REUSEADDR.
func reuseIgnoredFilter() error {
	prog, err := filterProgram(unixPairsOnly, reuseIgnored)
	if err != nil {
		return err
	}
	// Held before the filter: it sets SO_REUSEADDR and binds.
	held, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	if err := unix.SetsockoptInt(held, unix.SOL_SOCKET, unix.SO_REUSEADDR, 1); err != nil {
		return err
	}
	if err := unix.Bind(held, &unix.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		return err
	}
	sa, err := unix.Getsockname(held)
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
	udp, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	fmt.Printf("reuseaddr: %v\n", unix.SetsockoptInt(udp, unix.SOL_SOCKET, unix.SO_REUSEADDR, 1))
	v, _ := unix.GetsockoptInt(udp, unix.SOL_SOCKET, unix.SO_REUSEADDR)
	fmt.Printf("reads %d\n", v)
	fmt.Printf("bind the held address: %v\n", unix.Bind(udp, sa))
	fmt.Printf("reuseport: %v\n", unix.SetsockoptInt(udp, unix.SOL_SOCKET, unix.SO_REUSEPORT, 1))
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	l.Close()
	fmt.Println("listener: ok")
	return nil
}

// listenLoop makes n TCP listeners on loopback, one after the other, and
// prints the time of one (socket, SO_REUSEADDR, bind, listen, close), in
// nanoseconds.
func listenLoop(count string) error {
	n, err := strconv.Atoi(count)
	if err != nil {
		return err
	}
	start := time.Now()
	for i := 0; i < n; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return err
		}
		l.Close()
	}
	fmt.Println(time.Since(start).Nanoseconds() / int64(n))
	return nil
}

// TestFilterAddressReuse: what the filters do with the socket options
// that share an address, without Network (everything), with it and the
// guard (SO_REUSEPORT and its steering programs refused, SO_REUSEADDR to
// the helper), and with it where the helper cannot stand behind calls
// (SO_REUSEADDR answered 0, unset).
func TestFilterAddressReuse(t *testing.T) {
	arch := auditArch()
	if arch == 0 {
		t.Skip("no system-call filter is built for this architecture")
	}
	const allow, notify uint32 = unix.SECCOMP_RET_ALLOW, unix.SECCOMP_RET_USER_NOTIF
	eperm, ignored := unix.SECCOMP_RET_ERRNO|uint32(unix.EPERM), uint32(unix.SECCOMP_RET_ERRNO)
	type want struct{ main, connect uint32 }
	for _, tt := range []struct {
		name                    string
		args                    [6]uint64
		own, guarded, unguarded want
	}{
		{"SO_REUSEPORT", [6]uint64{3, unix.SOL_SOCKET, unix.SO_REUSEPORT}, want{allow, allow}, want{eperm, allow}, want{eperm, allow}},
		{"SO_REUSEPORT, high bits set", [6]uint64{3, 1<<32 | unix.SOL_SOCKET, 1<<32 | unix.SO_REUSEPORT}, want{allow, allow}, want{eperm, allow}, want{eperm, allow}},
		{"SO_ATTACH_REUSEPORT_CBPF", [6]uint64{3, unix.SOL_SOCKET, unix.SO_ATTACH_REUSEPORT_CBPF}, want{allow, allow}, want{eperm, allow}, want{eperm, allow}},
		{"SO_ATTACH_REUSEPORT_EBPF", [6]uint64{3, unix.SOL_SOCKET, unix.SO_ATTACH_REUSEPORT_EBPF}, want{allow, allow}, want{eperm, allow}, want{eperm, allow}},
		{"SO_REUSEADDR", [6]uint64{3, unix.SOL_SOCKET, unix.SO_REUSEADDR}, want{allow, allow}, want{allow, notify}, want{ignored, allow}},
		{"SO_REUSEADDR, high bits set", [6]uint64{3, 1<<32 | unix.SOL_SOCKET, 1<<32 | unix.SO_REUSEADDR}, want{allow, allow}, want{allow, notify}, want{ignored, allow}},
		{"SO_KEEPALIVE", [6]uint64{3, unix.SOL_SOCKET, unix.SO_KEEPALIVE}, want{allow, allow}, want{allow, allow}, want{allow, allow}},
		{"SO_DETACH_REUSEPORT_BPF", [6]uint64{3, unix.SOL_SOCKET, unix.SO_DETACH_REUSEPORT_BPF}, want{allow, allow}, want{allow, allow}, want{allow, allow}},
		{"option 2 of IPPROTO_TCP (TCP_MAXSEG)", [6]uint64{3, unix.IPPROTO_TCP, unix.SO_REUSEADDR}, want{allow, allow}, want{allow, allow}, want{allow, allow}},
		{"option 15 of IPPROTO_IPV6", [6]uint64{3, unix.IPPROTO_IPV6, unix.SO_REUSEPORT}, want{allow, allow}, want{allow, allow}, want{allow, allow}},
	} {
		for _, m := range []struct {
			r    addressReuse
			want want
		}{{reuseOwnNamespace, tt.own}, {reuseGuarded, tt.guarded}, {reuseIgnored, tt.unguarded}} {
			main, err := filterProgram(unixSocketsFor(m.r != reuseIgnored), m.r)
			require.NoError(t, err)
			conn, err := connectFilter(m.r)
			require.NoError(t, err)
			assert.Equal(t, m.want.main, runFilter(t, main, arch, unix.SYS_SETSOCKOPT, tt.args), "%s, mode %d: main filter", tt.name, m.r)
			assert.Equal(t, m.want.connect, runFilter(t, conn, arch, unix.SYS_SETSOCKOPT, tt.args), "%s, mode %d: connect filter", tt.name, m.r)
			assert.Equal(t, notify, runFilter(t, conn, arch, unix.SYS_CONNECT, [6]uint64{3}), "mode %d: connect", m.r)
			assert.Equal(t, allow, runFilter(t, conn, arch, unix.SYS_GETSOCKOPT, tt.args), "%s, mode %d: getsockopt", tt.name, m.r)
		}
	}
	assert.Equal(t, reuseOwnNamespace, addressReuseFor(false, true))
	assert.Equal(t, reuseOwnNamespace, addressReuseFor(false, false))
	assert.Equal(t, reuseGuarded, addressReuseFor(true, true))
	assert.Equal(t, reuseIgnored, addressReuseFor(true, false))
}

// reuseCallsOutput runs the "calls" helper, confined by p or plainly when
// p is nil, and returns its lines by case.
func reuseCallsOutput(t *testing.T, p *Policy) map[string]string {
	t.Helper()
	cmd := exec.Command(testBinary(t))
	cmd.Env = append(os.Environ(), reuseEnv+"=calls")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	var err error
	if p != nil {
		cmd.Dir = p.Sandbox
		err = Run(cmd, *p)
	} else {
		err = cmd.Run()
	}
	require.NoError(t, err, out.String())
	lines := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		name, result, ok := strings.Cut(l, ": ")
		require.True(t, ok, l)
		lines[name] = result
	}
	return lines
}

// TestAddressReuseOnTheKernel: confined without Network, setsockopt of the
// address-sharing options answers as the kernel does outside; with it,
// SO_REUSEPORT fails with EPERM, and SO_REUSEADDR, which the helper sets
// on its copy of the socket, takes on stream and seqpacket sockets (the
// command's socket reads it back), fails with EPERM on a datagram socket
// (0 still clears it), and answers every odd call (a short or missing
// value, a pipe, no descriptor) as the kernel does.
func TestAddressReuseOnTheKernel(t *testing.T) {
	if !connectGuardable() {
		t.Skip("Yama's ptrace_scope keeps the helper from standing behind the command's calls here: TestAddressReuseUnguarded covers it")
	}
	plain := reuseCallsOutput(t, nil)
	require.Equal(t, "<nil>, reads 1 <nil>", plain["tcp reuseaddr 1"])
	require.Equal(t, "<nil>, reads 1 <nil>", plain["udp reuseaddr 1"])
	eperm := unix.EPERM.Error()
	for _, network := range []bool{false, true} {
		_, _, p := dirs(t)
		p.Network = network
		got := reuseCallsOutput(t, &p)
		want := map[string]string{}
		for k, v := range plain {
			want[k] = v
		}
		if network {
			want["udp reuseaddr 1"] = eperm + ", reads 0 <nil>"
			want["udp6 reuseaddr 1"] = eperm + ", reads 0 <nil>"
			want["tcp reuseport 1"] = eperm
			want["udp reuseport 1"] = eperm
		}
		assert.Equal(t, want, got, "network %v", network)
	}
}

// TestAddressReuseRace: a command that swaps a TCP and a UDP socket under
// one descriptor number while it sets SO_REUSEADDR there never gets the
// option onto the UDP socket: the helper sets it on the socket whose type
// it read.
func TestAddressReuseRace(t *testing.T) {
	if !connectGuardable() {
		t.Skip("Yama's ptrace_scope keeps the helper from standing behind the command's calls here")
	}
	_, _, p := dirs(t)
	p.Network = true
	cmd := exec.Command(testBinary(t))
	cmd.Dir = p.Sandbox
	cmd.Env = append(os.Environ(), reuseEnv+"=race")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	assert.NoError(t, Run(cmd, p), out.String())
	assert.NotContains(t, out.String(), "RACED")
}

// TestAddressReuseUnguarded: under the filter a command with Network gets
// where the helper cannot stand behind its calls, SO_REUSEADDR returns 0
// and is not set, so a UDP socket cannot bind an address held with it,
// SO_REUSEPORT fails with EPERM, and a Go listener (which sets
// SO_REUSEADDR) still starts. The filter is put on a plain process: Yama
// decides which filter a confined command gets, not the test.
func TestAddressReuseUnguarded(t *testing.T) {
	cmd := exec.Command(testBinary(t))
	cmd.Env = append(os.Environ(), reuseEnv+"=ignored")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	assert.Equal(t, strings.Join([]string{
		"reuseaddr: <nil>",
		"reads 0",
		"bind the held address: " + unix.EADDRINUSE.Error(),
		"reuseport: " + unix.EPERM.Error(),
		"listener: ok",
	}, "\n")+"\n", string(out))
}

// TestServersOfTheCommand: servers of the command's own on loopback (Go's
// net/http/httptest, node's net, Python's socketserver with
// allow_reuse_address, each of which sets SO_REUSEADDR on its listener)
// serve their own clients confined, with and without Network; so do UDP
// echoes.
func TestServersOfTheCommand(t *testing.T) {
	node, nodeErr := exec.LookPath("node")
	python, pyErr := exec.LookPath("/usr/bin/python3")
	if pyErr != nil {
		python, pyErr = exec.LookPath("python3")
	}
	const nodeServer = `const net = require("net");
const s = net.createServer(c => { c.end("pong"); });
s.listen(0, "127.0.0.1", () => {
  const c = net.connect(s.address().port, "127.0.0.1");
  let got = ""; c.on("data", d => got += d);
  c.on("end", () => { console.log(got); s.close(); });
});`
	const pythonServer = `import socket, socketserver, threading
class H(socketserver.BaseRequestHandler):
    def handle(self): self.request.sendall(b"pong")
class S(socketserver.TCPServer): allow_reuse_address = True
s = S(("127.0.0.1", 0), H)
assert s.socket.getsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR)
threading.Thread(target=s.handle_request).start()
c = socket.create_connection(s.server_address)
print(c.recv(10).decode())
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); u.bind(("127.0.0.1", 0))
socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"pong", u.getsockname())
print(u.recv(10).decode())`
	for _, network := range []bool{false, true} {
		sb, _, p := dirs(t)
		p.Network = network
		out, ok := run(t, &p, "loopback")
		assert.True(t, ok, "network %v: Go's servers: %s", network, out)
		if nodeErr == nil {
			require.NoError(t, os.WriteFile(filepath.Join(sb, "server.js"), []byte(nodeServer), 0o644))
			got, err := sh(t, p, sb, node+" server.js")
			assert.NoError(t, err, "network %v: node: %s", network, got)
			assert.Equal(t, "pong\n", got, "network %v: node", network)
		} else {
			t.Log("node is not installed: its server is not tested")
		}
		if pyErr == nil {
			require.NoError(t, os.WriteFile(filepath.Join(sb, "server.py"), []byte(pythonServer), 0o644))
			got, err := sh(t, p, sb, python+" server.py")
			assert.NoError(t, err, "network %v: python: %s", network, got)
			assert.Equal(t, "pong\npong\n", got, "network %v: python", network)
		} else {
			t.Log("python3 is not installed: its server is not tested")
		}
	}
}

// BenchmarkListen: one loopback TCP listener (socket, SO_REUSEADDR, bind,
// listen, close) inside the command, plain and confined, without and with
// Network, where SO_REUSEADDR goes through the helper. The metric is the
// command's own timing of 2,000 listeners.
func BenchmarkListen(b *testing.B) {
	requireConfinement(b)
	sb := b.TempDir()
	for _, mode := range []struct {
		name              string
		confined, network bool
	}{{"plain", false, false}, {"confined", true, false}, {"confined-network", true, true}} {
		b.Run(mode.name, func(b *testing.B) {
			b.ReportAllocs()
			var total float64
			for i := 0; i < b.N; i++ {
				cmd := exec.Command(testBinary(b), "2000")
				cmd.Env = append(os.Environ(), reuseEnv+"=listen-loop")
				cmd.Dir = sb
				var out bytes.Buffer
				cmd.Stdout = &out
				var err error
				if mode.confined {
					p := DefaultPolicy(sb)
					p.Network = mode.network
					err = Run(cmd, p)
				} else {
					err = cmd.Run()
				}
				if err != nil {
					b.Fatal(err, out.String())
				}
				ns, err := strconv.ParseFloat(strings.TrimSpace(out.String()), 64)
				if err != nil {
					b.Fatal(err, out.String())
				}
				total += ns
			}
			b.ReportMetric(total/float64(b.N), "ns/listen")
		})
	}
}
