package confine

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// netlinkEnv makes the test binary, run confined, do one thing of this
// file's (see init) instead of running the tests.
const netlinkEnv = "CONFINE_NETLINK_TEST"

func init() {
	how, ok := os.LookupEnv(netlinkEnv)
	if !ok {
		return
	}
	var err error
	switch how {
	case "protocols":
		netlinkProtocolsMade()
	case "unicast":
		// os.Args[1]: a protocol; os.Args[2]: the port ID an outside
		// program bound on it.
		err = netlinkUnicast(os.Args[1], os.Args[2])
	default:
		err = fmt.Errorf("unknown %s %q", netlinkEnv, how)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "netlink %s: %v\n", how, err)
		os.Exit(3)
	}
	os.Exit(0)
}

// netlinkProtocolsMade prints, for each netlink protocol number, "N ok"
// or "N" and the error socket(2) gave.
func netlinkProtocolsMade() {
	for proto := 0; proto < 32; proto++ {
		fd, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_RAW|unix.SOCK_CLOEXEC, proto)
		if err != nil {
			fmt.Printf("%d %v\n", proto, err)
			continue
		}
		unix.Close(fd)
		fmt.Printf("%d ok\n", proto)
	}
}

// netlinkUnicast sends a message to port on protocol proto, with sendto
// and through connect, and prints what each gave; it fails when either
// was sent.
func netlinkUnicast(proto, port string) error {
	p, err := strconv.Atoi(proto)
	if err != nil {
		return err
	}
	dst, err := strconv.ParseUint(port, 10, 32)
	if err != nil {
		return err
	}
	fd, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_RAW|unix.SOCK_CLOEXEC, p)
	if err != nil {
		return fmt.Errorf("socket: %w", err)
	}
	defer unix.Close(fd)
	if err := unix.Bind(fd, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		return fmt.Errorf("bind: %w", err)
	}
	to := &unix.SockaddrNetlink{Family: unix.AF_NETLINK, Pid: uint32(dst)}
	sendErr := unix.Sendto(fd, []byte("from the sandbox"), 0, to)
	fmt.Printf("sendto: %v\n", sendErr)
	connErr := unix.Connect(fd, to)
	fmt.Printf("connect: %v\n", connErr)
	if sendErr == nil || connErr == nil {
		return errors.New("SENT to an outside port")
	}
	return nil
}

// TestNetlinkProtocols: with or without Network, a command makes netlink
// sockets of the protocols that talk to the kernel alone (ROUTE,
// SOCK_DIAG, GENERIC, KOBJECT_UEVENT), and socket(2) fails with
// EPROTONOSUPPORT for every other, NETLINK_USERSOCK among them (round
// 23: an outside program's port on it answered the command).
func TestNetlinkProtocols(t *testing.T) {
	allowed := map[int]bool{}
	for _, p := range netlinkProtocols {
		allowed[int(p)] = true
	}
	// What the kernel makes here, unconfined.
	plain := exec.Command(testBinary(t))
	plain.Env = append(os.Environ(), netlinkEnv+"=protocols")
	outside, err := plain.Output()
	require.NoError(t, err)
	for _, network := range []bool{false, true} {
		sb, _, p := dirs(t)
		p.Network = network
		cmd := exec.Command(testBinary(t))
		cmd.Dir = sb
		cmd.Env = append(os.Environ(), netlinkEnv+"=protocols")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		require.NoError(t, Run(cmd, p), out.String())
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		plainLines := strings.Split(strings.TrimSpace(string(outside)), "\n")
		require.Len(t, lines, 32, out.String())
		for proto, line := range lines {
			switch {
			case allowed[proto]:
				assert.Equal(t, plainLines[proto], line, "network %v: protocol %d is made as outside", network, proto)
			default:
				assert.Equal(t, fmt.Sprintf("%d %v", proto, unix.EPROTONOSUPPORT), line, "network %v: protocol %d", network, proto)
			}
		}
		assert.Equal(t, fmt.Sprintf("%d ok", unix.NETLINK_ROUTE), lines[unix.NETLINK_ROUTE], "network %v", network)
	}
}

// TestNetlinkUnicastRefused: on the protocols the command may use, the
// kernel lets a process without CAP_NET_ADMIN over the network namespace
// send to no port but the kernel's: with Network, a confined command that
// sends to an outside program's port on each of them, by sendto or
// connect, gets EPERM, and the outside program receives nothing (what
// netlink_linux.go says in the doc).
func TestNetlinkUnicastRefused(t *testing.T) {
	sb, _, p := dirs(t)
	p.Network = true
	for _, proto := range netlinkProtocols {
		srv, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_RAW|unix.SOCK_CLOEXEC|unix.SOCK_NONBLOCK, int(proto))
		require.NoError(t, err)
		port := uint32(0x23100000 | uint32(os.Getpid())&0xfffff)
		require.NoError(t, unix.Bind(srv, &unix.SockaddrNetlink{Family: unix.AF_NETLINK, Pid: port}), "protocol %d", proto)
		cmd := exec.Command(testBinary(t), strconv.Itoa(int(proto)), strconv.FormatUint(uint64(port), 10))
		cmd.Dir = sb
		cmd.Env = append(os.Environ(), netlinkEnv+"=unicast")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		assert.NoError(t, Run(cmd, p), "protocol %d: %s", proto, out.String())
		assert.Contains(t, out.String(), "sendto: "+unix.EPERM.Error(), "protocol %d", proto)
		assert.Contains(t, out.String(), "connect: "+unix.EPERM.Error(), "protocol %d", proto)
		b := make([]byte, 256)
		n, _, err := unix.Recvfrom(srv, b, 0)
		assert.Error(t, err, "protocol %d: the outside port received %q", proto, b[:max(n, 0)])
		unix.Close(srv)
	}
}

// TestNetlinkRealPrograms: ip(8) and ss(8), which speak NETLINK_ROUTE and
// NETLINK_SOCK_DIAG, and Go's net.Interfaces, work confined with and
// without Network.
func TestNetlinkRealPrograms(t *testing.T) {
	for _, network := range []bool{false, true} {
		_, _, p := dirs(t)
		p.Network = network
		out, ok := run(t, &p, "netlink-interfaces")
		assert.True(t, ok, "network %v: %s", network, out)
		assert.Contains(t, out, "lo", "network %v", network)
		for _, argv := range [][]string{{"ip", "-o", "addr"}, {"ss", "-tln"}} {
			path, err := exec.LookPath(argv[0])
			if err != nil {
				t.Logf("%s is not installed: not tested", argv[0])
				continue
			}
			got, err := sh(t, p, p.Sandbox, path+" "+strings.Join(argv[1:], " "))
			assert.NoError(t, err, "network %v: %v: %s", network, argv, got)
		}
	}
}
