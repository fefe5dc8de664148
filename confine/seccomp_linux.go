package confine

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// ipprotoMPTCP is IPPROTO_MPTCP. Landlock's TCP rules apply to plain TCP
// sockets only: a Multipath TCP socket connects and binds past them (seen
// on Linux 6.18).
const ipprotoMPTCP = 262

// x32Bit marks the x32 system calls of an x86-64 kernel.
const x32Bit = 0x40000000

// auditArch is the seccomp architecture of this build, or 0 where the
// filter is not built (then confinement is unavailable).
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

// filterProgram returns the system-call filter every confined command
// starts under, on the starting thread (inherited by the child, like the
// Landlock domain). It closes what Landlock leaves open:
//
//   - ioctl TIOCSTI and TIOCLINUX fail with EPERM: they type characters
//     into the terminal the command shares with the user's shell, which
//     would run them unconfined once the command ends;
//   - when the network is denied: creating a Multipath TCP socket fails as
//     if the protocol were not supported; sendto, sendmsg and sendmmsg with
//     MSG_FASTOPEN, which open a TCP connection without the connect that
//     Landlock checks, fail with EOPNOTSUPP (so that a program falls back
//     to connect, which Landlock refuses); and io_uring, whose requests
//     bypass system-call filters, is unavailable (ENOSYS).
//
// System calls of another architecture (32-bit compatibility, x32), whose
// numbers and arguments it would not read right, kill the process.
func filterProgram(network bool) ([]unix.SockFilter, error) {
	arch := auditArch()
	if arch == 0 {
		return nil, fmt.Errorf("confine: no system-call filter for %s, which Linux needs to keep a confined command off the user's terminal and off the network: %w", runtime.GOARCH, ErrUnavailable)
	}
	var a asm
	a.load(offArch)
	a.jumpIf(unix.BPF_JEQ, arch, "", "kill")
	a.load(offNr)
	a.jumpIf(unix.BPF_JSET, x32Bit, "kill", "")
	a.jumpIf(unix.BPF_JEQ, unix.SYS_IOCTL, "ioctl", "")
	if !network {
		a.jumpIf(unix.BPF_JEQ, unix.SYS_IO_URING_SETUP, "nosys", "")
		a.jumpIf(unix.BPF_JEQ, unix.SYS_SOCKET, "socket", "")
		a.jumpIf(unix.BPF_JEQ, unix.SYS_SENDTO, "flags3", "")
		a.jumpIf(unix.BPF_JEQ, unix.SYS_SENDMMSG, "flags3", "")
		a.jumpIf(unix.BPF_JEQ, unix.SYS_SENDMSG, "flags2", "")
	}
	a.ret(unix.SECCOMP_RET_ALLOW)

	a.label("ioctl") // ioctl(fd, cmd, ...): cmd is an unsigned int
	a.load(offArg(1))
	a.jumpIf(unix.BPF_JEQ, unix.TIOCSTI, "eperm", "")
	a.jumpIf(unix.BPF_JEQ, unix.TIOCLINUX, "eperm", "")
	a.ret(unix.SECCOMP_RET_ALLOW)
	if !network {
		a.label("socket") // socket(domain, type, protocol)
		a.load(offArg(2))
		a.jumpIf(unix.BPF_JEQ, ipprotoMPTCP, "noproto", "")
		a.ret(unix.SECCOMP_RET_ALLOW)
		a.label("flags3") // sendto and sendmmsg: flags is the fourth argument
		a.load(offArg(3))
		a.jumpIf(unix.BPF_JSET, unix.MSG_FASTOPEN, "nofastopen", "")
		a.ret(unix.SECCOMP_RET_ALLOW)
		a.label("flags2") // sendmsg(fd, msg, flags)
		a.load(offArg(2))
		a.jumpIf(unix.BPF_JSET, unix.MSG_FASTOPEN, "nofastopen", "")
		a.ret(unix.SECCOMP_RET_ALLOW)
		a.label("noproto")
		a.ret(unix.SECCOMP_RET_ERRNO | uint32(unix.EPROTONOSUPPORT))
		a.label("nofastopen")
		a.ret(unix.SECCOMP_RET_ERRNO | uint32(unix.EOPNOTSUPP))
		a.label("nosys")
		a.ret(unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS))
	}
	a.label("eperm")
	a.ret(unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM))
	a.label("kill")
	a.ret(unix.SECCOMP_RET_KILL_PROCESS)
	return a.assemble()
}

// Offsets in struct seccomp_data: the system call number, the
// architecture, and the low word of each argument (every architecture
// built here is little-endian).
const (
	offNr   = 0
	offArch = 4
)

func offArg(i uint32) uint32 { return 16 + 8*i }

// asm builds a classic BPF program whose conditional jumps name labels
// ("" is the next instruction); assemble resolves them.
type asm struct {
	prog   []unix.SockFilter
	jumps  map[int][2]string // instruction: its true and false labels
	labels map[string]int
	dup    []string // labels defined more than once
}

func (a *asm) load(off uint32) {
	a.prog = append(a.prog, unix.SockFilter{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: off})
}

func (a *asm) ret(k uint32) {
	a.prog = append(a.prog, unix.SockFilter{Code: unix.BPF_RET | unix.BPF_K, K: k})
}

func (a *asm) jumpIf(op uint16, k uint32, ifTrue, ifFalse string) {
	if a.jumps == nil {
		a.jumps = map[int][2]string{}
	}
	a.jumps[len(a.prog)] = [2]string{ifTrue, ifFalse}
	a.prog = append(a.prog, unix.SockFilter{Code: unix.BPF_JMP | op | unix.BPF_K, K: k})
}

func (a *asm) label(name string) {
	if a.labels == nil {
		a.labels = map[string]int{}
	}
	if _, dup := a.labels[name]; dup {
		a.dup = append(a.dup, name)
	}
	a.labels[name] = len(a.prog)
}

// assemble fills in the jump offsets: forward, to an instruction of the
// program, and within 255 instructions, as classic BPF requires. A label
// defined twice is an error.
func (a *asm) assemble() ([]unix.SockFilter, error) {
	if len(a.dup) > 0 {
		return nil, fmt.Errorf("confine: system-call filter: label %q defined twice", a.dup[0])
	}
	for i, targets := range a.jumps {
		for j, name := range targets {
			off := 0
			if name != "" {
				at, ok := a.labels[name]
				if !ok || at <= i || at >= len(a.prog) || at-i-1 > 255 {
					return nil, fmt.Errorf("confine: system-call filter: jump from %d to %q cannot be encoded", i, name)
				}
				off = at - i - 1
			}
			if j == 0 {
				a.prog[i].Jt = uint8(off)
			} else {
				a.prog[i].Jf = uint8(off)
			}
		}
	}
	return a.prog, nil
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
