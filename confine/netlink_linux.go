package confine

import "golang.org/x/sys/unix"

// Netlink sockets talk to the kernel, and some also to other programs:
// a port ID is the network namespace's, as an abstract UNIX name is, and
// with Network the command shares the machine's. NETLINK_USERSOCK lets
// any process send to any other's port (the kernel gives it
// NL_CFG_F_NONROOT_SEND), so a command could talk both ways with an
// outside program bound there, which Landlock's scope of abstract names
// does not cover. The system-call filter therefore makes netlink sockets
// of the protocols programs need from the kernel alone, with or without
// Network, and socket(2) fails with EPROTONOSUPPORT for the rest (what a
// kernel built without one answers, which programs handle):
//
//   - NETLINK_ROUTE: the interfaces and addresses (glibc's getifaddrs,
//     which Go's net package, node's os.networkInterfaces and Python's
//     socket.if_nameindex use, and ip(8));
//   - NETLINK_SOCK_DIAG: the sockets of the namespace (ss(8));
//   - NETLINK_GENERIC: the kernel's generic families (ip(8)'s tcp_metrics
//     and mptcp, iw, ethtool);
//   - NETLINK_KOBJECT_UEVENT: the kernel's device events (libudev's
//     monitors).
//
// For these the kernel lets a process without CAP_NET_ADMIN over the
// namespace send to no port but the kernel's (0) and to no multicast
// group: sendto and connect to another port fail with EPERM. The command
// has no capability (with Network, the namespace belongs to the machine's
// first user namespace; without it, bubblewrap keeps none), so it reaches
// no other program through them; unprivileged outside programs cannot
// send to its ports either. What it can do is read what the kernel
// multicasts to everyone (route, address and device events), and
// receive what a privileged outside program (a root daemon, udevd's
// monitor messages on KOBJECT_UEVENT) chooses to send it: nothing such a
// program would not show any process of the user.

// netlinkProtocols are the netlink protocols a command may make sockets
// of.
var netlinkProtocols = [...]uint32{
	unix.NETLINK_ROUTE,
	unix.NETLINK_SOCK_DIAG,
	unix.NETLINK_GENERIC,
	unix.NETLINK_KOBJECT_UEVENT,
}

// netlinkFilter emits the filter's "netlink-socket" check, which ends at
// its "allow" and "eprotonosupport" labels: socket(AF_NETLINK, type,
// protocol), whose protocol is an int.
func netlinkFilter(a *asm) {
	a.label("netlink-socket")
	a.load(offArg(2))
	for _, proto := range netlinkProtocols {
		a.jumpIf(unix.BPF_JEQ, proto, "allow", "")
	}
	a.ret(unix.SECCOMP_RET_ERRNO | uint32(unix.EPROTONOSUPPORT))
}
