package confine

import "golang.org/x/sys/unix"

// No socket of the command may reach a UNIX socket of a program outside
// it. Without Network, the network namespace bounds every other family;
// with it, the other families are the network, which the command has.
// AF_UNIX names are paths of the file system, or abstract names (the
// network namespace's own without Network; with it, the machine's, which
// Landlock's scope keeps from the command). Sockets of outside programs
// that exist at the start in the writable places are masked
// (sockets_linux.go), and the helper stands behind every connect, with or
// without Network (connectguard_linux.go). What neither covers is the address a datagram
// carries: sendto and sendmsg name a path on each send, after any check,
// and the filter cannot read sendmsg's address (it lies in the command's
// memory). So an AF_UNIX datagram socket, whether made alone or as a
// pair (a pair's sockets, too, can be sent through to any name), is not
// made: socket and socketpair fail with EACCES for every type but
// SOCK_STREAM and SOCK_SEQPACKET (the kernel makes SOCK_RAW of AF_UNIX
// a datagram socket). Stream and seqpacket sockets cannot send to an
// address they are not connected to.
//
// Where the helper cannot stand behind connect (Yama's ptrace_scope 2 or
// 3 keeps it from copying the command's sockets), a socket bound outside
// after the start would be reachable by connect; then no AF_UNIX socket is
// made with socket(2) at all, and only connected pairs (socketpair of
// stream or seqpacket sockets: what node's child_process, asyncio and
// most programs talking to their own children use) are, which reach
// nothing but each other. A server and its client of the command's own
// on a path fail with EACCES there.
//
// Network changes none of this: a program outside binds its sockets in
// the same places (the home directory) whether or not the command has
// the network. What it breaks there is the same too: a program that
// sends to a datagram socket by name (logger to /dev/log, sd_notify to
// $NOTIFY_SOCKET, a syslog handler) or talks to its children over a
// datagram pair fails with EACCES; neither /dev/log nor the machine's
// /run is in the view anyway.

// unixSockets is what the system-call filter lets a command do with
// AF_UNIX sockets.
type unixSockets int

const (
	// unixNoDatagrams: stream and seqpacket sockets, whose connect the
	// helper guards, and pairs of them.
	unixNoDatagrams unixSockets = iota
	// unixPairsOnly: connected pairs of stream or seqpacket sockets.
	unixPairsOnly
)

// unixSocketsFor is what a command gets where the helper can (guarded)
// or cannot stand behind its connect calls, with or without Network.
func unixSocketsFor(guarded bool) unixSockets {
	if guarded {
		return unixNoDatagrams
	}
	return unixPairsOnly
}

// filter emits the filter's "unix-socket" and "socketpair" checks, which
// end at its "allow", "eacces" and "eafnosupport" labels: socket(AF_UNIX, type, ...) and
// socketpair(domain, type, ...), whose type carries the
// SOCK_NONBLOCK and SOCK_CLOEXEC flags above its low four bits.
func (u unixSockets) filter(a *asm) {
	a.label("unix-socket")
	if u == unixNoDatagrams {
		connectedTypesOnly(a)
	} else {
		a.ret(unix.SECCOMP_RET_ERRNO | uint32(unix.EACCES))
	}
	a.label("socketpair") // only AF_UNIX sockets come in pairs here
	a.load(offArg(0))
	a.jumpIf(unix.BPF_JEQ, unix.AF_UNIX, "", "eafnosupport")
	connectedTypesOnly(a)
}

// connectedTypesOnly emits the check of the type argument of socket and
// socketpair: stream and seqpacket sockets are allowed, every other type
// fails with EACCES (the kernel makes SOCK_RAW of AF_UNIX a datagram
// socket, unix_create).
func connectedTypesOnly(a *asm) {
	a.load(offArg(1))
	a.and(sockTypeMask)
	a.jumpIf(unix.BPF_JEQ, unix.SOCK_STREAM, "allow", "")
	a.jumpIf(unix.BPF_JEQ, unix.SOCK_SEQPACKET, "allow", "eacces")
}

// sockTypeMask keeps a socket type's kind (the kernel's SOCK_TYPE_MASK).
const sockTypeMask = 0xf
