package confine

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// ipprotoMPTCP is IPPROTO_MPTCP. Landlock's TCP rules apply to plain TCP
// sockets only: a Multipath TCP socket connects and binds past them (seen
// on Linux 6.18). When a policy denies the network, a seccomp filter on the
// starting thread (inherited by the child, like the Landlock domain) makes
// creating such a socket fail as if the protocol were not supported, and
// io_uring, whose requests bypass system-call filters, unavailable.
const ipprotoMPTCP = 262

// x32Bit marks the x32 system calls of an x86-64 kernel.
const x32Bit = 0x40000000

// auditArch is the seccomp architecture of this build, or 0 where the
// filter is not built (then a policy without network is unavailable).
func auditArch() uint32 {
	switch runtime.GOARCH {
	case "amd64":
		return unix.AUDIT_ARCH_X86_64
	case "arm64":
		return unix.AUDIT_ARCH_AARCH64
	case "riscv64":
		return unix.AUDIT_ARCH_RISCV64
	}
	return 0
}

// netFilter returns the classic BPF program described at ipprotoMPTCP.
// System calls of another architecture (32-bit compatibility, x32), whose
// arguments it would not read right, kill the process.
func netFilter() ([]unix.SockFilter, error) {
	arch := auditArch()
	if arch == 0 {
		return nil, fmt.Errorf("confine: no system-call filter for %s, which Linux needs to stop Multipath TCP when the network is denied: %w", runtime.GOARCH, ErrUnavailable)
	}
	const (
		ld    = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq   = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		jset  = unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K
		ret   = unix.BPF_RET | unix.BPF_K
		nr    = 0
		archO = 4
		arg2  = 16 + 2*8 // low word on little-endian machines
	)
	allow := uint32(unix.SECCOMP_RET_ALLOW)
	noProto := uint32(unix.SECCOMP_RET_ERRNO | uint32(unix.EPROTONOSUPPORT))
	noSys := uint32(unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS))
	kill := uint32(unix.SECCOMP_RET_KILL_PROCESS)
	return []unix.SockFilter{
		/* 0 */ {Code: ld, K: archO},
		/* 1 */ {Code: jeq, K: arch, Jt: 0, Jf: 9}, // -> 11 kill
		/* 2 */ {Code: ld, K: nr},
		/* 3 */ {Code: jset, K: x32Bit, Jt: 7, Jf: 0}, // -> 11 kill
		/* 4 */ {Code: jeq, K: uint32(unix.SYS_IO_URING_SETUP), Jt: 5, Jf: 0}, // -> 10 ENOSYS
		/* 5 */ {Code: jeq, K: uint32(unix.SYS_SOCKET), Jt: 0, Jf: 2}, // -> 8 allow
		/* 6 */ {Code: ld, K: arg2},
		/* 7 */ {Code: jeq, K: ipprotoMPTCP, Jt: 1, Jf: 0}, // -> 9 EPROTONOSUPPORT
		/* 8 */ {Code: ret, K: allow},
		/* 9 */ {Code: ret, K: noProto},
		/* 10 */ {Code: ret, K: noSys},
		/* 11 */ {Code: ret, K: kill},
	}, nil
}

// installFilter installs prog on the calling thread only (no_new_privs must
// be set).
func installFilter(prog []unix.SockFilter) error {
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if err := unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&fprog)), 0, 0); err != nil {
		return fmt.Errorf("confine: installing the system-call filter: %v: %w", err, ErrUnavailable)
	}
	runtime.KeepAlive(prog)
	return nil
}
