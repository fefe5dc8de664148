package confine

import (
	"encoding/binary"
	"errors"

	"golang.org/x/sys/unix"
)

// With Network the command binds addresses of the machine's network
// namespace, where the user's own servers listen, and the options that
// let two sockets share an address would let it take their clients:
//
//   - SO_REUSEPORT puts the command's socket in the group of an outside
//     server of the same user that set it too (the kernel compares the
//     owners, and the command runs as the user), and the kernel then
//     hands the command part of the connections or datagrams meant for
//     that server; SO_ATTACH_REUSEPORT_CBPF and SO_ATTACH_REUSEPORT_EBPF,
//     a program that steers the group, all of them. With Network these
//     fail with EPERM in the system-call filter.
//   - SO_REUSEADDR on a UDP (or other datagram) socket binds the address
//     of an outside server that set it too, whoever owns it, and the
//     socket bound last gets every unicast datagram. On a TCP socket it
//     only lets a listener bind a port whose old connections wait out
//     their TIME_WAIT (no listening socket's address is shared), and Go's
//     net package, node and Python's servers set it on every listener, so
//     it cannot be refused outright. With Network the filter hands
//     setsockopt(SOL_SOCKET, SO_REUSEADDR) to the helper (the connect
//     guard's user notification, connectguard_linux.go), which takes its
//     own copy of the socket (pidfd_getfd), reads its type there, and
//     sets the option itself on that copy, with the value read once from
//     the command's memory, for stream and seqpacket sockets; for any
//     other type a value other than 0 fails with EPERM. The socket the
//     option lands on is the one whose type was read, whatever the
//     command does with the descriptor number meanwhile.
//
// Where the helper cannot stand behind the command's calls (Yama's
// ptrace_scope 2 or 3), SO_REUSEADDR returns 0 without being set, for
// every socket, so that servers still start: a datagram socket then
// cannot share an address in use, and a TCP listener restarted on a port
// whose connections are in TIME_WAIT fails with EADDRINUSE.
//
// Without Network the namespace is the sandbox's own, with nothing of the
// machine's to share, and every option is left to the command.

// addressReuse is what the filters let a command do with the socket
// options that share an address.
type addressReuse int

const (
	// reuseOwnNamespace: every option (without Network).
	reuseOwnNamespace addressReuse = iota
	// reuseGuarded: SO_REUSEPORT and its steering programs refused,
	// SO_REUSEADDR decided by the helper (with Network, guarded).
	reuseGuarded
	// reuseIgnored: SO_REUSEPORT and its steering programs refused,
	// SO_REUSEADDR answered without being set (with Network, where the
	// helper cannot stand behind the command's calls).
	reuseIgnored
)

// addressReuseFor is what a command gets with or without Network, where
// the helper can (guarded) or cannot stand behind its calls.
func addressReuseFor(network, guarded bool) addressReuse {
	switch {
	case !network:
		return reuseOwnNamespace
	case guarded:
		return reuseGuarded
	}
	return reuseIgnored
}

// filter emits the main filter's "setsockopt" check, which ends at its
// "allow" and "eperm" labels: setsockopt(fd, level, optname, ...), whose
// level and optname are ints. Without Network there is none (the filter
// never jumps there).
func (r addressReuse) filter(a *asm) {
	if r == reuseOwnNamespace {
		return
	}
	a.label("setsockopt")
	a.load(offArg(1))
	a.jumpIf(unix.BPF_JEQ, unix.SOL_SOCKET, "", "allow")
	a.load(offArg(2))
	for _, opt := range []uint32{unix.SO_REUSEPORT, unix.SO_ATTACH_REUSEPORT_CBPF, unix.SO_ATTACH_REUSEPORT_EBPF} {
		a.jumpIf(unix.BPF_JEQ, opt, "eperm", "")
	}
	if r == reuseIgnored {
		a.jumpIf(unix.BPF_JEQ, unix.SO_REUSEADDR, "", "allow")
		a.ret(unix.SECCOMP_RET_ERRNO) // errno 0: the call returns 0, undone
		return
	}
	a.ret(unix.SECCOMP_RET_ALLOW) // the connect filter hands SO_REUSEADDR to the helper
}

// notify emits the connect filter's check of setsockopt, which ends at its
// "allow" and "notify" labels: with reuseGuarded, SO_REUSEADDR at level
// SOL_SOCKET goes to the helper.
func (r addressReuse) notify(a *asm) {
	if r != reuseGuarded {
		return
	}
	a.label("setsockopt")
	a.load(offArg(1))
	a.jumpIf(unix.BPF_JEQ, unix.SOL_SOCKET, "", "allow")
	a.load(offArg(2))
	a.jumpIf(unix.BPF_JEQ, unix.SO_REUSEADDR, "notify", "allow")
}

// setReuseaddr does the call of n, setsockopt(fd, SOL_SOCKET,
// SO_REUSEADDR, optval, optlen) in process n.Pid, on a copy of its socket,
// and returns its error (0 when it succeeded).
func (g *connectGuard) setReuseaddr(n seccompNotif) unix.Errno {
	sock, errno := socketOf(n, unix.EPERM)
	if errno != 0 {
		return errno
	}
	defer unix.Close(sock)
	typ, e := unix.GetsockoptInt(sock, unix.SOL_SOCKET, unix.SO_TYPE)
	if e != nil {
		return unix.ENOTSOCK
	}
	if int32(n.Args[4]) < 4 {
		return unix.EINVAL // as the kernel answers: the value is an int
	}
	var b [4]byte
	if k, e := unix.ProcessVMReadv(int(n.Pid), []unix.Iovec{{Base: &b[0], Len: 4}}, []unix.RemoteIovec{{Base: uintptr(n.Args[3]), Len: 4}}, 0); e != nil || k != 4 {
		return unix.EFAULT
	}
	if !g.valid(n.ID) {
		return unix.EINTR
	}
	v := int32(binary.NativeEndian.Uint32(b[:]))
	if v != 0 && typ != unix.SOCK_STREAM && typ != unix.SOCK_SEQPACKET {
		return unix.EPERM
	}
	var failed unix.Errno
	if err := unix.SetsockoptInt(sock, unix.SOL_SOCKET, unix.SO_REUSEADDR, int(v)); errors.As(err, &failed) {
		return failed
	} else if err != nil {
		return unix.EINVAL
	}
	return 0
}
