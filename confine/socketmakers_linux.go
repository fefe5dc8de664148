package confine

import (
	"encoding/binary"
	"errors"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// A pathname socket beneath a writable place is not the command's for
// lying there: an outside program may have bound it there (by a relative
// name, under a name it renamed since, from another network or mount
// namespace, under a name the masking cannot read back), and the file
// system says nothing of who bound it. The kernel does: NETLINK_SOCK_DIAG
// lists the UNIX sockets of the asking socket's network namespace with
// the file each is bound to (UDIAG_SHOW_VFS: device and inode), and
// /proc/N/fd names the socket each descriptor of a process holds
// ("socket:[I]"). So the guard (connectguard_linux.go) lets a connect to
// a pathname socket through only when the socket file it opened is that
// of a listening socket of the sandbox's own network namespace and, with
// Network (the machine's namespace, where outside programs' sockets are
// listed too), held by a process of the sandbox's PID namespace other
// than the helper. Anything else, a socket not found, a dump that fails
// or is cut short, a machine without UNIX sock_diag, a file system on
// which a device and an inode number may name more than one file
// (uniqueInodeFileSystems), fails closed.

// errNotMadeHere is the guard's answer to a connect to a socket file to
// which no listening socket of the sandbox's is bound: ECONNREFUSED, what
// the kernel answers for a socket file no one listens on (and the guard
// for a file that is no socket), so that a program finding a stale socket
// of an earlier run goes on as it would (git credential-cache starts its
// daemon anew on ECONNREFUSED, and gives up on anything else). Where the
// guard cannot tell (no UNIX sock_diag, a file system on which device and
// inode do not name one file), the answer is errCannotTell.
const errNotMadeHere = unix.ECONNREFUSED

// errCannotTell is the guard's answer where it cannot tell who made a
// socket: EACCES, as for a socket outside the writable places.
const errCannotTell = unix.EACCES

// The kernel's constants and layouts for a UNIX socket dump
// (linux/sock_diag.h, linux/unix_diag.h, linux/netlink.h).
const (
	sockDiagByFamily = 20  // SOCK_DIAG_BY_FAMILY
	udiagShowVFS     = 0x2 // UDIAG_SHOW_VFS
	unixDiagVFS      = 1   // UNIX_DIAG_VFS
	tcpListen        = 10  // TCP_LISTEN, the state of a listening socket
	nlmsgHdrLen      = 16  // struct nlmsghdr
	unixDiagReqLen   = 24  // struct unix_diag_req
	unixDiagMsgLen   = 16  // struct unix_diag_msg
	nlattrHdrLen     = 4   // struct nlattr
	unixDiagVFSLen   = 8   // struct unix_diag_vfs
)

// errDumpFailed is a socket dump that failed, was cut short or made no
// sense.
var errDumpFailed = errors.New("UNIX socket dump failed")

// boundListener is one listening UNIX socket that a dump found bound to
// the file asked about: its socket inode (the I of "socket:[I]").
type boundListener struct {
	socketIno uint32
}

// kernelDev returns the device number as the kernel keeps it inside
// (MAJOR<<20 | MINOR), as UNIX_DIAG_VFS gives it, from dev as stat(2)
// gives it.
func kernelDev(dev uint64) uint32 {
	return unix.Major(dev)<<20 | unix.Minor(dev)&0xfffff
}

// listenersBoundTo returns the listening UNIX sockets of the calling
// thread's network namespace bound to the file of inode ino on the
// device dev (both as the kernel keeps them: UNIX_DIAG_VFS carries the
// inode's low 32 bits and kernelDev's number). An error means the
// kernel could not be asked (no UNIX sock_diag) or its answer was not
// understood.
func listenersBoundTo(dev, ino uint32) ([]boundListener, error) {
	for attempt := 0; ; attempt++ {
		found, err := dumpListenersBoundTo(dev, ino)
		if err == errDumpInterrupted && attempt < 2 {
			continue // the table changed during the dump: ask again
		}
		return found, err
	}
}

// errDumpInterrupted is a dump the kernel marked inconsistent
// (NLM_F_DUMP_INTR).
var errDumpInterrupted = errors.New("UNIX socket dump interrupted")

// dumpListenersBoundTo does one dump for listenersBoundTo.
func dumpListenersBoundTo(dev, ino uint32) ([]boundListener, error) {
	nl, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_RAW|unix.SOCK_CLOEXEC, unix.NETLINK_SOCK_DIAG)
	if err != nil {
		return nil, err
	}
	defer unix.Close(nl)
	const seq = 1
	ne := binary.NativeEndian
	req := make([]byte, nlmsgHdrLen+unixDiagReqLen)
	ne.PutUint32(req[0:], uint32(len(req)))
	ne.PutUint16(req[4:], sockDiagByFamily)
	ne.PutUint16(req[6:], unix.NLM_F_REQUEST|unix.NLM_F_DUMP)
	ne.PutUint32(req[8:], seq)
	r := req[nlmsgHdrLen:] // struct unix_diag_req
	r[0] = unix.AF_UNIX
	ne.PutUint32(r[4:], 1<<tcpListen) // udiag_states
	ne.PutUint32(r[12:], udiagShowVFS)
	if err := unix.Sendto(nl, req, 0, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		return nil, err
	}
	buf := make([]byte, 32<<10)
	var found []boundListener
	interrupted := false
	for {
		n, from, err := unix.Recvfrom(nl, buf, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if sa, ok := from.(*unix.SockaddrNetlink); !ok || sa.Pid != 0 {
			return nil, errDumpFailed // not the kernel
		}
		var done, intr bool
		found, done, intr, err = parseDiagBatch(buf[:n], seq, dev, ino, found)
		interrupted = interrupted || intr
		switch {
		case err != nil:
			return nil, err
		case done && interrupted:
			return nil, errDumpInterrupted
		case done:
			return found, nil
		}
	}
}

// parseDiagBatch reads one datagram of a dump of sequence number seq (a
// run of netlink messages), adds to found the listeners bound to (dev,
// ino), and says whether the dump is done and whether the kernel marked
// it interrupted. A message that does not parse, an error the kernel
// reports, or one of another kind or sequence is an error.
func parseDiagBatch(b []byte, seq, dev, ino uint32, found []boundListener) (_ []boundListener, done, interrupted bool, err error) {
	ne := binary.NativeEndian
	for len(b) > 0 {
		if len(b) < nlmsgHdrLen {
			return nil, false, false, errDumpFailed
		}
		size := int(ne.Uint32(b[0:]))
		kind := ne.Uint16(b[4:])
		flags := ne.Uint16(b[6:])
		if size < nlmsgHdrLen || size > len(b) || ne.Uint32(b[8:]) != seq {
			return nil, false, false, errDumpFailed
		}
		if flags&unix.NLM_F_DUMP_INTR != 0 {
			interrupted = true
		}
		body := b[nlmsgHdrLen:size]
		switch kind {
		case unix.NLMSG_DONE:
			if len(body) >= 4 && int32(ne.Uint32(body)) < 0 {
				return nil, false, false, unix.Errno(-int32(ne.Uint32(body)))
			}
			return found, true, interrupted, nil
		case unix.NLMSG_ERROR:
			if len(body) >= 4 && int32(ne.Uint32(body)) < 0 {
				return nil, false, false, unix.Errno(-int32(ne.Uint32(body)))
			}
			return nil, false, false, errDumpFailed
		case sockDiagByFamily:
			l, ok, err := parseUnixDiagMsg(body, dev, ino)
			if err != nil {
				return nil, false, false, err
			}
			if ok {
				found = append(found, l)
			}
		default:
			return nil, false, false, errDumpFailed
		}
		next := (size + 3) &^ 3
		if next >= len(b) {
			break
		}
		b = b[next:]
	}
	return found, false, interrupted, nil
}

// parseUnixDiagMsg reads one struct unix_diag_msg and its attributes, and
// returns the socket when it is bound to the file (dev, ino).
func parseUnixDiagMsg(body []byte, dev, ino uint32) (boundListener, bool, error) {
	ne := binary.NativeEndian
	if len(body) < unixDiagMsgLen || body[0] != unix.AF_UNIX {
		return boundListener{}, false, errDumpFailed
	}
	sock := ne.Uint32(body[4:]) // udiag_ino
	for a := body[unixDiagMsgLen:]; len(a) >= nlattrHdrLen; {
		size := int(ne.Uint16(a[0:]))
		kind := ne.Uint16(a[2:]) & 0x3fff // less NLA_F_NESTED, NLA_F_NET_BYTEORDER
		if size < nlattrHdrLen || size > len(a) {
			return boundListener{}, false, errDumpFailed
		}
		if kind == unixDiagVFS {
			if size < nlattrHdrLen+unixDiagVFSLen {
				return boundListener{}, false, errDumpFailed
			}
			v := a[nlattrHdrLen:]
			if ne.Uint32(v[0:]) == ino && ne.Uint32(v[4:]) == dev {
				return boundListener{socketIno: sock}, true, nil
			}
			return boundListener{}, false, nil
		}
		next := (size + 3) &^ 3
		if next >= len(a) {
			break
		}
		a = a[next:]
	}
	return boundListener{}, false, nil
}

// heldBySandbox reports whether a process of the calling process's PID
// namespace (the sandbox's: the helper is its first process), other than
// the caller, holds a descriptor of the socket of inode sock. A process
// whose descriptors cannot be read (it made itself undumpable, or ended
// meanwhile) holds none, as far as this says.
func heldBySandbox(sock uint32) bool {
	proc, err := os.Open("/proc")
	if err != nil {
		return false
	}
	defer proc.Close()
	names, err := proc.Readdirnames(-1)
	if err != nil {
		return false
	}
	want := "socket:[" + strconv.FormatUint(uint64(sock), 10) + "]"
	self := os.Getpid()
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil || pid == self {
			continue
		}
		if fdLinksTo("/proc/"+name+"/fd", want) {
			return true
		}
	}
	return false
}

// fdLinksTo reports whether a descriptor in dir (a /proc/N/fd) links to
// want.
func fdLinksTo(dir, want string) bool {
	d, err := os.Open(dir)
	if err != nil {
		return false
	}
	defer d.Close()
	fds, err := d.Readdirnames(-1)
	if err != nil {
		return false
	}
	for _, fd := range fds {
		if target, err := os.Readlink(dir + "/" + fd); err == nil && target == want {
			return true
		}
	}
	return false
}

// uniqueInodeFileSystems are the file systems on which the device
// number stat(2) gives is the one the kernel keeps (and UNIX_DIAG_VFS
// reports), and on which that device and an inode number name one file:
// ext2/3/4, XFS, tmpfs, ramfs, F2FS. Not btrfs, whose subvolumes share a
// device in the kernel's eyes but each number their inodes from the start
// (and each has a device of its own for stat(2)), nor overlayfs, whose
// inode numbers may come from any of its layers, nor file systems not
// known here.
var uniqueInodeFileSystems = [...]int64{
	unix.EXT4_SUPER_MAGIC, // also ext2 and ext3
	unix.XFS_SUPER_MAGIC,
	unix.TMPFS_MAGIC,
	unix.RAMFS_MAGIC,
	unix.F2FS_SUPER_MAGIC,
}

// uniqueInodes reports whether the file open as fd lies on one of
// uniqueInodeFileSystems.
func uniqueInodes(fd int) bool {
	var fs unix.Statfs_t
	if unix.Fstatfs(fd, &fs) != nil {
		return false
	}
	for _, t := range uniqueInodeFileSystems {
		if int64(fs.Type) == t {
			return true
		}
	}
	return false
}

// madeBySandbox returns 0 when the socket file open as fd (O_PATH), of
// status st, is bound by a listening socket that the sandbox made: one
// of the calling thread's network namespace and, when owned (with
// Network), held by a process of the sandbox. It returns errNotMadeHere
// otherwise, and errCannotTell when the kernel cannot be asked or its
// answer would not tell.
func madeBySandbox(fd int, st *unix.Stat_t, owned bool) unix.Errno {
	ino := uint32(st.Ino) // UNIX_DIAG_VFS keeps the low 32 bits
	if uint64(ino) != st.Ino || !uniqueInodes(fd) {
		// Another file may share the device and inode number the kernel
		// reports (an inode number beyond 32 bits, another btrfs
		// subvolume's file), and a socket found would be bound to that
		// one.
		return errCannotTell
	}
	found, err := listenersBoundTo(kernelDev(st.Dev), ino)
	switch {
	case err != nil:
		return errCannotTell
	case len(found) != 1: // one socket at most is bound to a file
		return errNotMadeHere
	case owned && !heldBySandbox(found[0].socketIno):
		return errNotMadeHere
	}
	return 0
}
