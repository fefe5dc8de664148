package confine

import (
	"encoding/binary"
	"fmt"
	"runtime"
	"strconv"

	"golang.org/x/sys/unix"
)

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

// filterProgram returns the system-call filter a confined command runs
// under, which bubblewrap installs just before it starts the command. The
// namespaces already keep the command off the network, other processes and
// IPC; the filter closes what they leave:
//
//   - ioctl TIOCSTI and TIOCLINUX fail with EPERM: they type characters
//     into a terminal, which its shell would run unconfined (the command
//     has no controlling terminal, but its standard streams may be one);
//     so does TIOCSETD, which would give the user's terminal a line
//     discipline that outlives the command (N_NULL drops all that is
//     typed and written);
//   - the ioctls that snapshot a file system's subvolume fail with EPERM
//     (snapshotIoctls): a snapshot is made beneath a directory the
//     command may write (the sandbox) from a subvolume it owns (the home,
//     or / for root), needs no capability, and copies the subvolume as it
//     is on disk, beneath the mounts that hide the credentials and the
//     project's .env, set-user-ID files included;
//   - fcntl F_SETLEASE fails with EPERM: a lease on any file the command
//     may read holds every outside program that opens it for writing
//     back, up to the kernel's lease-break-time (45 s) each time;
//   - sockets of a family the network namespace does not separate fail
//     with EAFNOSUPPORT: only AF_UNIX (whose names are files, or abstract
//     ones that Landlock scopes), AF_INET, AF_INET6, AF_NETLINK, AF_PACKET
//     and AF_ALG (the kernel's ciphers) are made; AF_VSOCK, for one,
//     shares the virtual machine's port space and reaches its host;
//   - with or without Network, AF_UNIX sockets are limited as unixSockets
//     says (see unixsockets_linux.go): no datagram socket, and where the
//     helper cannot stand behind connect, no socket but a connected pair;
//   - netlink sockets of other protocols than those that talk to the
//     kernel alone fail with EPROTONOSUPPORT (see netlink_linux.go);
//   - with Network, the options that share an address of the machine's
//     network are limited as addressReuse says (see
//     addressreuse_linux.go): SO_REUSEPORT and its steering programs fail
//     with EPERM; SO_REUSEADDR is left to the connect filter, which hands
//     it to the helper, or, where there is none, returns 0 unset;
//   - prlimit64 on another process than the caller fails with EPERM: the
//     pid namespace leaves only the sandbox's own processes in reach, but
//     among them is its first process, the helper, whose CPU time or
//     memory limit would let the command end the sandbox when it chose
//     (setrlimit, and prlimit on pid 0, are the caller's own);
//   - the calls that change a task's scheduling (sched_setscheduler,
//     sched_setparam, sched_setattr, sched_setaffinity, setpriority,
//     ioprio_set, migrate_pages, move_pages, prctl PR_SCHED_CORE) fail
//     with EPERM unless they target the caller alone (see
//     scheduling_linux.go): the helper, starved, would kill the sandbox
//     late when a mount is lost, or end it late when the run is stopped;
//   - the kernel keyring (keyctl, add_key, request_key) fails with EPERM:
//     keyrings are not namespaced, so the user's keys (and those of the
//     session the command was started from) would be readable and
//     replaceable;
//   - io_uring fails with ENOSYS: its requests bypass system-call filters;
//   - giving a file the set-user-ID or set-group-ID bit fails with EPERM
//     (chmod, fchmod, fchmodat, fchmodat2, and creating a file with
//     open, openat, creat, mknod or mknodat): the sandbox's mounts are
//     nosuid for the command, but the files stay on the user's disk, where
//     a set-user-ID copy of a shell left in the project would run as its
//     owner (root, when the command ran as root) for whoever starts it;
//     openat2, whose mode the filter cannot read, fails with ENOSYS, and
//     programs fall back to openat.
//
// System calls of another architecture (32-bit compatibility, x32), whose
// numbers and arguments it would not read right, kill the process.
func filterProgram(u unixSockets, r addressReuse) ([]unix.SockFilter, error) {
	arch := auditArch()
	if arch == 0 {
		return nil, fmt.Errorf("confine: no system-call filter for %s, which a confined command needs to stay off the user's terminal and keyring: %w", runtime.GOARCH, ErrUnavailable)
	}
	var a asm
	a.load(offArch)
	a.jumpIf(unix.BPF_JEQ, arch, "", "kill")
	a.load(offNr)
	a.jumpIf(unix.BPF_JSET, x32Bit, "kill", "")
	a.jumpIf(unix.BPF_JEQ, unix.SYS_IOCTL, "ioctl", "")
	a.jumpIf(unix.BPF_JEQ, unix.SYS_SOCKET, "socket", "")
	a.jumpIf(unix.BPF_JEQ, unix.SYS_SOCKETPAIR, "socketpair", "")
	a.jumpIf(unix.BPF_JEQ, unix.SYS_PRLIMIT64, "prlimit", "")
	a.jumpIf(unix.BPF_JEQ, unix.SYS_FCNTL, "fcntl", "")
	schedulingJumps(&a)
	if r != reuseOwnNamespace {
		a.jumpIf(unix.BPF_JEQ, unix.SYS_SETSOCKOPT, "setsockopt", "")
	}
	for _, nr := range []uint32{unix.SYS_KEYCTL, unix.SYS_ADD_KEY, unix.SYS_REQUEST_KEY} {
		a.jumpIf(unix.BPF_JEQ, nr, "eperm", "")
	}
	for _, nr := range []uint32{unix.SYS_IO_URING_SETUP, unix.SYS_IO_URING_ENTER, unix.SYS_IO_URING_REGISTER, unix.SYS_OPENAT2} {
		a.jumpIf(unix.BPF_JEQ, nr, "nosys", "")
	}
	for _, m := range modeSetters() {
		a.jumpIf(unix.BPF_JEQ, m.nr, m.label(), "")
	}
	a.ret(unix.SECCOMP_RET_ALLOW)

	// The calls that set a mode: with flags (open, openat), only when they
	// create a file.
	for _, at := range [][2]uint32{{1, 2}, {2, 3}} {
		a.label(modeSetter{flagsArg: at[0], modeArg: at[1]}.label())
		a.load(offArg(at[0]))
		a.jumpIf(unix.BPF_JSET, unix.O_CREAT|unix.O_TMPFILE, "mode"+strconv.Itoa(int(at[1])), "")
		a.ret(unix.SECCOMP_RET_ALLOW)
	}
	for _, arg := range []uint32{1, 2, 3} {
		a.label("mode" + strconv.Itoa(int(arg)))
		a.load(offArg(arg))
		a.jumpIf(unix.BPF_JSET, unix.S_ISUID|unix.S_ISGID, "eperm", "")
		a.ret(unix.SECCOMP_RET_ALLOW)
	}

	a.label("ioctl") // ioctl(fd, cmd, ...): cmd is an unsigned int
	a.load(offArg(1))
	a.jumpIf(unix.BPF_JEQ, unix.TIOCSTI, "eperm", "")
	a.jumpIf(unix.BPF_JEQ, unix.TIOCLINUX, "eperm", "")
	a.jumpIf(unix.BPF_JEQ, unix.TIOCSETD, "eperm", "")
	for _, cmd := range snapshotIoctls {
		a.jumpIf(unix.BPF_JEQ, cmd, "eperm", "")
	}
	a.ret(unix.SECCOMP_RET_ALLOW)
	a.label("fcntl") // fcntl(fd, cmd, ...): cmd is an int
	a.load(offArg(1))
	a.jumpIf(unix.BPF_JEQ, unix.F_SETLEASE, "eperm", "allow")
	a.label("socket") // socket(domain, type, ...): domain and type are ints
	a.load(offArg(0))
	a.jumpIf(unix.BPF_JEQ, unix.AF_UNIX, "unix-socket", "")
	a.jumpIf(unix.BPF_JEQ, unix.AF_NETLINK, "netlink-socket", "")
	for _, family := range []uint32{unix.AF_INET, unix.AF_INET6, unix.AF_PACKET, unix.AF_ALG} {
		a.jumpIf(unix.BPF_JEQ, family, "allow", "")
	}
	a.ret(unix.SECCOMP_RET_ERRNO | uint32(unix.EAFNOSUPPORT))
	u.filter(&a)
	netlinkFilter(&a)
	r.filter(&a)
	a.label("prlimit") // prlimit64(pid, ...): pid is an int, 0 the caller
	a.load(offArg(0))
	a.jumpIf(unix.BPF_JEQ, 0, "allow", "eperm")
	schedulingFilter(&a)
	a.label("allow")
	a.ret(unix.SECCOMP_RET_ALLOW)
	a.label("nosys")
	a.ret(unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS))
	a.label("eperm")
	a.ret(unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM))
	a.label("eacces")
	a.ret(unix.SECCOMP_RET_ERRNO | uint32(unix.EACCES))
	a.label("eafnosupport")
	a.ret(unix.SECCOMP_RET_ERRNO | uint32(unix.EAFNOSUPPORT))
	a.label("kill")
	a.ret(unix.SECCOMP_RET_KILL_PROCESS)
	return a.assemble()
}

// snapshotIoctls are the ioctl requests that make a snapshot of a
// subvolume: btrfs's BTRFS_IOC_SNAP_CREATE and BTRFS_IOC_SNAP_CREATE_V2
// (linux/btrfs.h: _IOW(0x94, 1 and 23, a 4096-byte argument)) and
// bcachefs's BCH_IOCTL_SUBVOLUME_CREATE (_IOW(0xbc, 16, struct
// bch_ioctl_subvolume, 32 bytes), which makes a snapshot when its flags
// ask). x/sys/unix does not name them.
var snapshotIoctls = [...]uint32{
	ioctlWrite(0x94, 1, 4096),
	ioctlWrite(0x94, 23, 4096),
	ioctlWrite(0xbc, 16, 32),
}

// ioctlWrite is the kernel's _IOW(typ, nr, size): the request number of an
// ioctl that passes size bytes to the kernel.
func ioctlWrite(typ, nr, size uint32) uint32 {
	const dirWrite = 1
	return dirWrite<<30 | size<<16 | typ<<8 | nr
}

// modeSetter is a system call that sets a file's mode: the argument that
// holds the mode, and the one that holds the open flags (0 when the call
// has none and always sets the mode).
type modeSetter struct{ nr, flagsArg, modeArg uint32 }

// label is where the filter checks the call's arguments.
func (m modeSetter) label() string {
	if m.flagsArg == 0 {
		return "mode" + strconv.Itoa(int(m.modeArg))
	}
	return "flags" + strconv.Itoa(int(m.flagsArg)) + "mode" + strconv.Itoa(int(m.modeArg))
}

// modeSetters are the system calls of this architecture that set a file's
// mode.
func modeSetters() []modeSetter {
	return append([]modeSetter{
		{nr: unix.SYS_OPENAT, flagsArg: 2, modeArg: 3},
		{nr: unix.SYS_MKNODAT, modeArg: 2},
		{nr: unix.SYS_FCHMOD, modeArg: 1},
		{nr: unix.SYS_FCHMODAT, modeArg: 2},
		{nr: unix.SYS_FCHMODAT2, modeArg: 2},
	}, legacyModeSetters[:]...)
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

// and keeps the bits of the accumulator that k has.
func (a *asm) and(k uint32) {
	a.prog = append(a.prog, unix.SockFilter{Code: unix.BPF_ALU | unix.BPF_AND | unix.BPF_K, K: k})
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

// encodeFilter returns prog as the bytes of a struct sock_filter array,
// the form bubblewrap's --seccomp reads (native byte order; every
// architecture built here is little-endian).
func encodeFilter(prog []unix.SockFilter) []byte {
	b := make([]byte, 0, 8*len(prog))
	for _, ins := range prog {
		b = binary.LittleEndian.AppendUint16(b, ins.Code)
		b = append(b, ins.Jt, ins.Jf)
		b = binary.LittleEndian.AppendUint32(b, ins.K)
	}
	return b
}
