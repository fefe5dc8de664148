package confine

import (
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// runFilter runs a classic BPF seccomp program on one system call, as the
// kernel would: the loads read struct seccomp_data (nr, arch, ip, args),
// little-endian. It fails the test on an instruction the filter does not
// use, a jump out of the program, or a path that does not return.
func runFilter(t *testing.T, prog []unix.SockFilter, arch uint32, nr uint32, args [6]uint64) uint32 {
	t.Helper()
	var data [64]byte
	binary.LittleEndian.PutUint32(data[0:], nr)
	binary.LittleEndian.PutUint32(data[4:], arch)
	for i, a := range args {
		binary.LittleEndian.PutUint64(data[16+8*i:], a)
	}
	var acc uint32
	for pc := 0; pc < len(prog); pc++ {
		ins := prog[pc]
		switch ins.Code {
		case unix.BPF_LD | unix.BPF_W | unix.BPF_ABS:
			require.LessOrEqual(t, int(ins.K)+4, len(data), "load out of seccomp_data at %d", pc)
			acc = binary.LittleEndian.Uint32(data[ins.K:])
		case unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K:
			taken := acc == ins.K
			if ins.Code&0xf0 == unix.BPF_JSET {
				taken = acc&ins.K != 0
			}
			if taken {
				pc += int(ins.Jt)
			} else {
				pc += int(ins.Jf)
			}
			require.Less(t, pc+1, len(prog), "jump past the end at %d", pc)
		case unix.BPF_ALU | unix.BPF_AND | unix.BPF_K:
			acc &= ins.K
		case unix.BPF_RET | unix.BPF_K:
			return ins.K
		default:
			t.Fatalf("instruction %#x at %d is not one the filter uses", ins.Code, pc)
		}
	}
	t.Fatal("the filter ran off its end without returning")
	return 0
}

// TestFilterProgram runs the filter on the system calls it decides and on
// ones it lets through.
func TestFilterProgram(t *testing.T) {
	arch := auditArch()
	if arch == 0 {
		t.Skip("no system-call filter is built for this architecture")
	}
	errno := func(e unix.Errno) uint32 { return unix.SECCOMP_RET_ERRNO | uint32(e) }
	const allow, kill = unix.SECCOMP_RET_ALLOW, unix.SECCOMP_RET_KILL_PROCESS
	type filterCase struct {
		name     string
		arch, nr uint32
		args     [6]uint64
		want     uint32
	}
	tests := []filterCase{
		{"a foreign architecture", unix.AUDIT_ARCH_I386, unix.SYS_IOCTL, [6]uint64{}, kill},
		{"an x32 call", arch, unix.SYS_READ | x32Bit, [6]uint64{}, kill},
		{"TIOCSTI", arch, unix.SYS_IOCTL, [6]uint64{0, unix.TIOCSTI}, errno(unix.EPERM)},
		{"TIOCLINUX", arch, unix.SYS_IOCTL, [6]uint64{0, unix.TIOCLINUX}, errno(unix.EPERM)},
		{"TIOCSTI with high bits set", arch, unix.SYS_IOCTL, [6]uint64{0, 1<<32 | unix.TIOCSTI}, errno(unix.EPERM)},
		{"another ioctl", arch, unix.SYS_IOCTL, [6]uint64{0, unix.TCGETS}, allow},
		{"TIOCSETD", arch, unix.SYS_IOCTL, [6]uint64{0, unix.TIOCSETD}, errno(unix.EPERM)},
		{"TIOCGETD", arch, unix.SYS_IOCTL, [6]uint64{0, unix.TIOCGETD}, allow},
		{"BTRFS_IOC_SNAP_CREATE", arch, unix.SYS_IOCTL, [6]uint64{3, 0x50009401}, errno(unix.EPERM)},
		{"BTRFS_IOC_SNAP_CREATE_V2", arch, unix.SYS_IOCTL, [6]uint64{3, 0x50009417}, errno(unix.EPERM)},
		{"BCH_IOCTL_SUBVOLUME_CREATE", arch, unix.SYS_IOCTL, [6]uint64{3, 0x4020bc10}, errno(unix.EPERM)},
		{"BTRFS_IOC_SUBVOL_CREATE (an empty subvolume)", arch, unix.SYS_IOCTL, [6]uint64{3, 0x5000940e}, allow},
		{"FICLONE (a reflink of a file the command opened)", arch, unix.SYS_IOCTL, [6]uint64{3, unix.FICLONE}, allow},
		{"fcntl F_SETLEASE", arch, unix.SYS_FCNTL, [6]uint64{3, unix.F_SETLEASE, unix.F_RDLCK}, errno(unix.EPERM)},
		{"fcntl F_GETLEASE", arch, unix.SYS_FCNTL, [6]uint64{3, unix.F_GETLEASE}, allow},
		{"fcntl F_SETLK", arch, unix.SYS_FCNTL, [6]uint64{3, unix.F_SETLK}, allow},
		{"fcntl F_SETFD", arch, unix.SYS_FCNTL, [6]uint64{3, unix.F_SETFD, unix.FD_CLOEXEC}, allow},
		{"an AF_UNIX socket", arch, unix.SYS_SOCKET, [6]uint64{unix.AF_UNIX, unix.SOCK_STREAM}, allow},
		{"an AF_INET socket", arch, unix.SYS_SOCKET, [6]uint64{unix.AF_INET, unix.SOCK_DGRAM}, allow},
		{"an AF_INET6 socket", arch, unix.SYS_SOCKET, [6]uint64{unix.AF_INET6, unix.SOCK_STREAM}, allow},
		{"an AF_NETLINK socket (NETLINK_ROUTE)", arch, unix.SYS_SOCKET, [6]uint64{unix.AF_NETLINK, unix.SOCK_RAW}, allow},
		{"NETLINK_SOCK_DIAG", arch, unix.SYS_SOCKET, [6]uint64{unix.AF_NETLINK, unix.SOCK_DGRAM, unix.NETLINK_SOCK_DIAG}, allow},
		{"NETLINK_GENERIC", arch, unix.SYS_SOCKET, [6]uint64{unix.AF_NETLINK, unix.SOCK_RAW | unix.SOCK_CLOEXEC, unix.NETLINK_GENERIC}, allow},
		{"NETLINK_KOBJECT_UEVENT", arch, unix.SYS_SOCKET, [6]uint64{unix.AF_NETLINK, unix.SOCK_RAW, unix.NETLINK_KOBJECT_UEVENT}, allow},
		{"NETLINK_ROUTE, high bits set", arch, unix.SYS_SOCKET, [6]uint64{unix.AF_NETLINK, unix.SOCK_RAW, 1 << 32}, allow},
		{"NETLINK_USERSOCK", arch, unix.SYS_SOCKET, [6]uint64{unix.AF_NETLINK, unix.SOCK_RAW, unix.NETLINK_USERSOCK}, errno(unix.EPROTONOSUPPORT)},
		{"NETLINK_AUDIT", arch, unix.SYS_SOCKET, [6]uint64{unix.AF_NETLINK, unix.SOCK_RAW, unix.NETLINK_AUDIT}, errno(unix.EPROTONOSUPPORT)},
		{"NETLINK_NETFILTER", arch, unix.SYS_SOCKET, [6]uint64{unix.AF_NETLINK, unix.SOCK_RAW, unix.NETLINK_NETFILTER}, errno(unix.EPROTONOSUPPORT)},
		{"NETLINK_CONNECTOR", arch, unix.SYS_SOCKET, [6]uint64{unix.AF_NETLINK, unix.SOCK_DGRAM, unix.NETLINK_CONNECTOR}, errno(unix.EPROTONOSUPPORT)},
		{"a netlink protocol past the kernel's", arch, unix.SYS_SOCKET, [6]uint64{unix.AF_NETLINK, unix.SOCK_RAW, 1000}, errno(unix.EPROTONOSUPPORT)},
		{"setsockopt SO_REUSEPORT without Network", arch, unix.SYS_SETSOCKOPT, [6]uint64{3, unix.SOL_SOCKET, unix.SO_REUSEPORT}, allow},
		{"an AF_PACKET socket", arch, unix.SYS_SOCKET, [6]uint64{unix.AF_PACKET, unix.SOCK_RAW}, allow},
		{"an AF_ALG socket", arch, unix.SYS_SOCKET, [6]uint64{unix.AF_ALG, unix.SOCK_SEQPACKET}, allow},
		{"an AF_VSOCK socket", arch, unix.SYS_SOCKET, [6]uint64{unix.AF_VSOCK, unix.SOCK_STREAM}, errno(unix.EAFNOSUPPORT)},
		{"an AF_BLUETOOTH socket", arch, unix.SYS_SOCKET, [6]uint64{unix.AF_BLUETOOTH, unix.SOCK_STREAM}, errno(unix.EAFNOSUPPORT)},
		{"an AF_QIPCRTR socket", arch, unix.SYS_SOCKET, [6]uint64{unix.AF_QIPCRTR, unix.SOCK_DGRAM}, errno(unix.EAFNOSUPPORT)},
		{"prlimit64 on the caller", arch, unix.SYS_PRLIMIT64, [6]uint64{0, unix.RLIMIT_NOFILE}, allow},
		{"prlimit64 on PID 1", arch, unix.SYS_PRLIMIT64, [6]uint64{1, unix.RLIMIT_CPU}, errno(unix.EPERM)},
		{"prlimit64 on another process", arch, unix.SYS_PRLIMIT64, [6]uint64{1234, unix.RLIMIT_AS}, errno(unix.EPERM)},
		{"keyctl", arch, unix.SYS_KEYCTL, [6]uint64{}, errno(unix.EPERM)},
		{"add_key", arch, unix.SYS_ADD_KEY, [6]uint64{}, errno(unix.EPERM)},
		{"request_key", arch, unix.SYS_REQUEST_KEY, [6]uint64{}, errno(unix.EPERM)},
		{"io_uring_setup", arch, unix.SYS_IO_URING_SETUP, [6]uint64{}, errno(unix.ENOSYS)},
		{"io_uring_enter", arch, unix.SYS_IO_URING_ENTER, [6]uint64{}, errno(unix.ENOSYS)},
		{"io_uring_register", arch, unix.SYS_IO_URING_REGISTER, [6]uint64{}, errno(unix.ENOSYS)},
		{"a TCP socket", arch, unix.SYS_SOCKET, [6]uint64{unix.AF_INET, unix.SOCK_STREAM, 0}, allow},
		{"a UNIX socket", arch, unix.SYS_SOCKET, [6]uint64{unix.AF_UNIX, unix.SOCK_STREAM, 0}, allow},
		{"read", arch, unix.SYS_READ, [6]uint64{}, allow},
		{"openat2", arch, unix.SYS_OPENAT2, [6]uint64{}, errno(unix.ENOSYS)},
		{"openat creating a set-user-ID file", arch, unix.SYS_OPENAT, [6]uint64{0, 0, unix.O_CREAT | unix.O_WRONLY, 0o4755}, errno(unix.EPERM)},
		{"openat creating a set-group-ID file", arch, unix.SYS_OPENAT, [6]uint64{0, 0, unix.O_CREAT, 0o2755}, errno(unix.EPERM)},
		{"openat making a set-user-ID temporary file", arch, unix.SYS_OPENAT, [6]uint64{0, 0, unix.O_TMPFILE | unix.O_RDWR, 0o4700}, errno(unix.EPERM)},
		{"openat creating a file", arch, unix.SYS_OPENAT, [6]uint64{0, 0, unix.O_CREAT | unix.O_WRONLY, 0o755}, allow},
		{"openat reading, a mode it ignores", arch, unix.SYS_OPENAT, [6]uint64{0, 0, unix.O_RDONLY, 0o4755}, allow},
		{"mknodat a set-user-ID file", arch, unix.SYS_MKNODAT, [6]uint64{0, 0, unix.S_IFREG | 0o4755}, errno(unix.EPERM)},
		{"fchmod set-user-ID", arch, unix.SYS_FCHMOD, [6]uint64{1, 0o4755}, errno(unix.EPERM)},
		{"fchmod set-group-ID", arch, unix.SYS_FCHMOD, [6]uint64{1, 0o2750}, errno(unix.EPERM)},
		{"fchmod executable", arch, unix.SYS_FCHMOD, [6]uint64{1, 0o755}, allow},
		{"fchmod sticky", arch, unix.SYS_FCHMOD, [6]uint64{1, 0o1777}, allow},
		{"fchmodat set-user-ID", arch, unix.SYS_FCHMODAT, [6]uint64{0, 0, 0o4755}, errno(unix.EPERM)},
		{"fchmodat executable", arch, unix.SYS_FCHMODAT, [6]uint64{0, 0, 0o755}, allow},
		{"fchmodat2 set-user-ID", arch, unix.SYS_FCHMODAT2, [6]uint64{0, 0, 0o4755, 0}, errno(unix.EPERM)},
		{"fchmodat2 executable", arch, unix.SYS_FCHMODAT2, [6]uint64{0, 0, 0o755, 0}, allow},
	}
	for _, m := range legacyModeSetters {
		var setuid, plain [6]uint64
		setuid[m.modeArg], plain[m.modeArg] = 0o4755, 0o755
		if m.flagsArg != 0 {
			setuid[m.flagsArg], plain[m.flagsArg] = unix.O_CREAT, unix.O_CREAT
		}
		tests = append(tests,
			filterCase{fmt.Sprintf("system call %d, set-user-ID", m.nr), arch, m.nr, setuid, errno(unix.EPERM)},
			filterCase{fmt.Sprintf("system call %d, executable", m.nr), arch, m.nr, plain, allow})
	}
	prog, err := filterProgram(unixNoDatagrams, reuseOwnNamespace)
	require.NoError(t, err)
	require.LessOrEqual(t, len(prog), 255)
	for _, tt := range tests {
		assert.Equal(t, tt.want, runFilter(t, prog, tt.arch, tt.nr, tt.args), tt.name)
	}
	// The bytes bubblewrap reads hold the same program.
	b := encodeFilter(prog)
	require.Len(t, b, 8*len(prog))
	for i, ins := range prog {
		got := unix.SockFilter{Code: uint16(b[8*i]) | uint16(b[8*i+1])<<8, Jt: b[8*i+2], Jf: b[8*i+3],
			K: uint32(b[8*i+4]) | uint32(b[8*i+5])<<8 | uint32(b[8*i+6])<<16 | uint32(b[8*i+7])<<24}
		require.Equal(t, ins, got, "instruction %d", i)
	}
}

// TestFilterUnixSockets: what each of the filter's AF_UNIX modes lets a
// command make, socket(2) and socketpair(2) alike, flags in the type
// included. There is no mode for Network: a datagram socket could send
// to a socket an outside program binds after the start with the network
// too.
func TestFilterUnixSockets(t *testing.T) {
	arch := auditArch()
	if arch == 0 {
		t.Skip("no system-call filter is built for this architecture")
	}
	const allow, eacces, eafnosupport = unix.SECCOMP_RET_ALLOW, unix.SECCOMP_RET_ERRNO | uint32(unix.EACCES), unix.SECCOMP_RET_ERRNO | uint32(unix.EAFNOSUPPORT)
	type call struct {
		name     string
		nr       uint32
		args     [6]uint64
		noDgram  uint32 // guarded
		pairOnly uint32 // unguarded
	}
	for _, tt := range []call{
		{"a stream socket", unix.SYS_SOCKET, [6]uint64{unix.AF_UNIX, unix.SOCK_STREAM}, allow, eacces},
		{"a seqpacket socket", unix.SYS_SOCKET, [6]uint64{unix.AF_UNIX, unix.SOCK_SEQPACKET | unix.SOCK_CLOEXEC}, allow, eacces},
		{"a datagram socket", unix.SYS_SOCKET, [6]uint64{unix.AF_UNIX, unix.SOCK_DGRAM}, eacces, eacces},
		{"a non-blocking datagram socket", unix.SYS_SOCKET, [6]uint64{unix.AF_UNIX, unix.SOCK_DGRAM | unix.SOCK_NONBLOCK | unix.SOCK_CLOEXEC}, eacces, eacces},
		{"a datagram socket, high bits set", unix.SYS_SOCKET, [6]uint64{1<<32 | unix.AF_UNIX, 1<<32 | unix.SOCK_DGRAM}, eacces, eacces},
		{"a UDP socket", unix.SYS_SOCKET, [6]uint64{unix.AF_INET, unix.SOCK_DGRAM}, allow, allow},
		{"a pair of stream sockets", unix.SYS_SOCKETPAIR, [6]uint64{unix.AF_UNIX, unix.SOCK_STREAM | unix.SOCK_CLOEXEC}, allow, allow},
		{"a pair of seqpacket sockets", unix.SYS_SOCKETPAIR, [6]uint64{unix.AF_UNIX, unix.SOCK_SEQPACKET}, allow, allow},
		{"a pair of datagram sockets", unix.SYS_SOCKETPAIR, [6]uint64{unix.AF_UNIX, unix.SOCK_DGRAM}, eacces, eacces},
		{"a pair of non-blocking datagram sockets", unix.SYS_SOCKETPAIR, [6]uint64{unix.AF_UNIX, unix.SOCK_DGRAM | unix.SOCK_NONBLOCK}, eacces, eacces},
		{"a pair of another family", unix.SYS_SOCKETPAIR, [6]uint64{unix.AF_TIPC, unix.SOCK_STREAM}, eafnosupport, eafnosupport},
	} {
		for mode, want := range map[unixSockets]uint32{unixNoDatagrams: tt.noDgram, unixPairsOnly: tt.pairOnly} {
			prog, err := filterProgram(mode, reuseOwnNamespace)
			require.NoError(t, err)
			assert.Equal(t, want, runFilter(t, prog, arch, tt.nr, tt.args), "%s, mode %d", tt.name, mode)
		}
	}
	// With or without Network: the guard decides, not the network.
	assert.Equal(t, unixNoDatagrams, unixSocketsFor(true))
	assert.Equal(t, unixPairsOnly, unixSocketsFor(false))
}

// TestAsmRefusesBadLabels: a jump to a label that is missing, behind it,
// or past the last instruction cannot be encoded.
func TestAsmRefusesBadLabels(t *testing.T) {
	var missing asm
	missing.jumpIf(unix.BPF_JEQ, 1, "nowhere", "")
	missing.ret(0)
	_, err := missing.assemble()
	assert.Error(t, err)

	var back asm
	back.label("top")
	back.load(offNr)
	back.jumpIf(unix.BPF_JEQ, 1, "top", "")
	back.ret(0)
	_, err = back.assemble()
	assert.Error(t, err)

	var past asm
	past.jumpIf(unix.BPF_JEQ, 1, "end", "")
	past.ret(0)
	past.label("end")
	_, err = past.assemble()
	assert.Error(t, err)

	var twice asm
	twice.label("x")
	twice.ret(0)
	twice.label("x")
	twice.ret(1)
	_, err = twice.assemble()
	assert.Error(t, err)
}
