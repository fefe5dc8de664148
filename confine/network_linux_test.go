package confine

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNetworkDenied: without Network, no TCP, UDP or DNS traffic leaves the
// command, and rtnetlink shows it only its own loopback interface. With
// Network, the same client reaches the listener.
func TestNetworkDenied(t *testing.T) {
	_, _, p := dirs(t)
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer tcp.Close()
	accepted := make(chan struct{}, 4)
	go func() {
		for {
			c, err := tcp.Accept()
			if err != nil {
				return
			}
			c.Close()
			accepted <- struct{}{}
		}
	}()
	udp, err := net.ListenPacket("udp", "127.0.0.1:0")
	require.NoError(t, err)
	defer udp.Close()
	udpGot := func() bool {
		buf := make([]byte, 16)
		_ = udp.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
		n, _, err := udp.ReadFrom(buf)
		return err == nil && string(buf[:n]) == "hello"
	}

	out, ok := run(t, &p, "tcp", tcp.Addr().String())
	assert.False(t, ok, "a TCP connection to the machine's loopback: %s", out)
	out, _ = run(t, &p, "udp", udp.LocalAddr().String())
	assert.False(t, udpGot(), "a datagram reached the machine's loopback: %s", out)
	out, ok = run(t, &p, "udp", "192.0.2.1:53")
	assert.False(t, ok, "a datagram to an outside address left: %s", out)
	assert.Contains(t, out, "network is unreachable")
	out, ok = run(t, &p, "dns", "localhost.invalid")
	assert.False(t, ok, "a DNS lookup succeeded: %s", out)
	out, ok = run(t, &p, "netlink-interfaces")
	require.True(t, ok, out)
	assert.Equal(t, "lo", strings.TrimSpace(strings.Split(out, "\n")[0]), "rtnetlink shows the machine's interfaces")
	select {
	case <-accepted:
		t.Fatal("the listener accepted a confined connection")
	default:
	}

	p.Network = true
	out, ok = run(t, &p, "tcp", tcp.Addr().String())
	require.True(t, ok, out)
	select {
	case <-accepted:
	case <-time.After(5 * time.Second):
		t.Fatal("with Network, the listener saw nothing")
	}
	_, ok = run(t, &p, "udp", udp.LocalAddr().String())
	require.True(t, ok)
	assert.True(t, udpGot(), "with Network, the datagram must arrive")
}

// TestLoopbackInside: a test suite's servers on 127.0.0.1 and ::1, on ports
// the kernel picks and on a named one, answer their clients in the same
// command, with or without Network.
func TestLoopbackInside(t *testing.T) {
	_, _, p := dirs(t)
	// A port free here: the command's loopback is its own, so even a port
	// in use outside would do, but this one is taken by nobody.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := fmt.Sprint(l.Addr().(*net.TCPAddr).Port)
	require.NoError(t, l.Close())
	out, ok := run(t, &p, "loopback", port)
	require.True(t, ok, out)

	// A port in use on the machine's loopback is free in the command's own.
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer busy.Close()
	out, ok = run(t, &p, "loopback", fmt.Sprint(busy.Addr().(*net.TCPAddr).Port))
	require.True(t, ok, out)
}

// TestUnixSocketsOutside: pathname sockets of outside programs (in the home
// directory, in the sandbox itself, in /tmp, in /run) and abstract ones
// cannot be reached, with or without Network; a socket of the command's
// own and a socketpair work.
func TestUnixSocketsOutside(t *testing.T) {
	sb, victim, p := dirs(t)
	got := make(chan string, 16)
	serve := func(network, addr string) {
		t.Helper()
		l, err := net.Listen(network, addr)
		require.NoError(t, err)
		t.Cleanup(func() { l.Close() })
		go func() {
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				buf := make([]byte, 8)
				n, _ := c.Read(buf)
				got <- addr + " " + string(buf[:n])
				c.Close()
			}
		}()
	}
	tmp, err := os.MkdirTemp("", "confine-sock-")
	require.NoError(t, err)
	defer os.RemoveAll(tmp)
	abstract := fmt.Sprintf("@confine-test-%d", os.Getpid())
	paths := []string{
		filepath.Join(victim, "agent.sock"),
		filepath.Join(sb, "editor.sock"),
		filepath.Join(tmp, "tmux.sock"),
	}
	for _, s := range paths {
		serve("unix", s)
	}
	serve("unix", abstract)
	gram, err := net.ListenPacket("unixgram", filepath.Join(victim, "journal.sock"))
	require.NoError(t, err)
	defer gram.Close()

	for _, network := range []bool{false, true} {
		p.Network = network
		for _, s := range append(paths, abstract) {
			out, ok := run(t, &p, "unix", s)
			assert.False(t, ok, "network %v: %s was reachable: %s", network, s, out)
		}
		out, ok := run(t, &p, "unixgram", filepath.Join(victim, "journal.sock"))
		assert.False(t, ok, "network %v: the datagram socket was reachable: %s", network, out)
		out, ok = run(t, &p, "unix-inside", sb)
		assert.True(t, ok, "network %v: a socket of the command's own: %s", network, out)
	}
	select {
	case m := <-got:
		t.Fatalf("an outside socket was reached: %s", m)
	default:
	}
	// The sockets still work for the programs outside.
	for _, s := range append(paths, abstract) {
		c, err := net.Dial("unix", s)
		require.NoError(t, err, s)
		_, _ = c.Write([]byte("x"))
		c.Close()
		assert.Equal(t, s+" x", <-got)
	}
}
