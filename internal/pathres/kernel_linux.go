//go:build linux && (386 || amd64 || arm || arm64 || loong64 || ppc64 || ppc64le || riscv64 || s390x)

package pathres

import (
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// Linux: the kernel resolves the path itself, with openat2(2) (Linux 5.6 or
// later). The syscall package has neither openat2 nor O_PATH, so their
// numbers are given here; 437 is openat2's number on every architecture
// this file is built for (MIPS differs and is left to the user-space
// resolver).
const (
	sysOpenat2          = 437
	oPath               = 0x200000 // O_PATH
	resolveNoMagiclinks = 0x02     // RESOLVE_NO_MAGICLINKS
	resolveNoSymlinks   = 0x04     // RESOLVE_NO_SYMLINKS
	atFDCWD             = -100     // AT_FDCWD
	pathMax             = 4096     // PATH_MAX, with the terminating NUL
	procSuperMagic      = 0x9fa0   // PROC_SUPER_MAGIC, statfs(2)
)

// openHow is struct open_how of openat2(2).
type openHow struct {
	flags   uint64
	mode    uint64
	resolve uint64
}

// kernelOff is set once openat2 has failed with ENOSYS (a kernel older than
// 5.6) or EPERM (a seccomp filter that refuses it): from then on every path
// goes to the user-space resolver without trying the kernel.
var kernelOff atomic.Bool

// procFD reports, once per process, whether /proc/self/fd is procfs, whose
// links name the file behind each descriptor. Without it (no /proc mounted,
// or something else mounted there), tryFollow is never used: a link read
// from anything but procfs proves nothing.
var procFD = sync.OnceValue(func() bool {
	var st syscall.Statfs_t
	if err := syscall.Statfs("/proc/self/fd", &st); err != nil {
		return false
	}
	return int64(st.Type) == procSuperMagic
})

// kernelResolve asks the kernel for the real path of the absolute path p,
// trying the resolutions that t allows (see [tiers]); the answer is the
// real path and the [proof] that backs it, or notProven.
//
// It answers only where the user-space resolver provably gives the same
// path; it never returns an error. It gives notProven, so that the caller
// resolves p in user space, when:
//   - p is not a valid absolute path (see [Validate]), p is PATH_MAX bytes
//     or longer, or openat2 is unavailable (kernelOff);
//   - p has a symlink and tryFollow is not allowed, or /proc/self/fd is not
//     procfs, or p passes a magic link (such as /proc/self/cwd or
//     /proc/self/fd/N, which the kernel follows to a file and not to the
//     text that readlink shows);
//   - the open fails for any other reason: a missing component (except the
//     tail that tryMissing proves), a dangling or empty symlink, a loop or
//     more than 40 links (ELOOP), a non-directory followed by more
//     components or a trailing slash (ENOTDIR), EACCES, ENAMETOOLONG;
//   - the path read from /proc/self/fd is not absolute and clean, is
//     PATH_MAX bytes or longer, or ends in " (deleted)" (the file was
//     removed after it was opened, or its name happens to end so);
//   - symlinks led into /proc: the links there (/proc/self, /proc/mounts)
//     name this process's own, and the user-space resolver refuses them
//     (ErrProcLink).
//
// With tryClean, an existing path without symlinks costs one openat2 and
// one close, and no allocation when p is clean. A path with symlinks costs,
// with tryFollow, one more openat2 and a readlink, and allocates the result
// unless it equals p.
func kernelResolve(p string, t tiers) (string, proof) {
	return kernelResolveFrom(p, t, "")
}

// kernelResolveFrom is kernelResolve for a caller that has placed placed,
// a directory leading to itself (see [ProvenFrom]): a missing tail directly
// beneath it is proven without opening it again.
func kernelResolveFrom(p string, t tiers, placed string) (string, proof) {
	// Callers validate p; a NUL byte would truncate it for the kernel.
	if len(p) == 0 || p[0] != '/' || len(p) >= pathMax || strings.IndexByte(p, 0) >= 0 || kernelOff.Load() {
		return "", notProven
	}
	var buf [pathMax]byte
	if t&tryClean != 0 {
		fd, errno := openPath(&buf, p, 0, resolveNoSymlinks)
		switch errno {
		case 0:
			closeFD(fd)
			return Clean(p), proofClean
		case syscall.ENOENT:
			// The walk met a missing component before any symlink; so
			// would the walk that follows symlinks.
			if t&tryMissing != 0 && !HasDotDot(p) && missingTail(&buf, p, placed) {
				return Clean(p), proofCleanMissing
			}
			return "", notProven
		case syscall.ELOOP:
			// A symlink (or a loop): follow it below.
		default:
			return "", notProven
		}
	}
	if t&tryFollow == 0 || !procFD() {
		return "", notProven
	}
	fd, errno := openPath(&buf, p, 0, resolveNoMagiclinks)
	if errno != 0 {
		return "", notProven
	}
	n, errno := fdPath(fd, &buf)
	closeFD(fd)
	if errno != 0 || n >= len(buf) || !isClean(buf[:n]) || hasDeletedSuffix(buf[:n]) || inProc(buf[:n]) {
		return "", notProven
	}
	if string(buf[:n]) == p {
		return p, proofFollowed // no allocation
	}
	return string(buf[:n]), proofFollowed
}

// missingTail is called when opening p without symlinks failed with ENOENT
// and p has no ".." component. It opens the lexical parents of p, up to
// maxMissingUp of them, refusing symlinks, and reports whether one opens as
// a directory. Then that parent exists without symlinks, and the component
// after it (whose open failed with ENOENT, not ELOOP) does not exist: the
// user-space resolver keeps it and all later components literally, and
// without ".." they resolve to filepath.Clean(p). A parent equal to placed,
// a directory the caller has placed and found to lead to itself, is not
// opened again: that placement is the proof.
func missingTail(buf *[pathMax]byte, p, placed string) bool {
	q := p
	for range maxMissingUp {
		q = lexicalParent(q)
		if q == placed {
			return true
		}
		fd, errno := openPath(buf, q, syscall.O_DIRECTORY, resolveNoSymlinks)
		switch {
		case errno == 0:
			closeFD(fd)
			return true
		case errno != syscall.ENOENT || q == "/":
			return false
		}
	}
	return false
}

// openPath opens name (shorter than pathMax) with openat2 and
// O_PATH|O_CLOEXEC|flags, which opens nothing but the position in the file
// tree: no read permission is needed on the file, and a device or FIFO is
// not opened. buf holds the NUL-terminated name on the stack, avoiding the
// allocation of syscall.BytePtrFromString.
func openPath(buf *[pathMax]byte, name string, flags int, resolve uint64) (int, syscall.Errno) {
	copy(buf[:], name)
	buf[len(name)] = 0
	how := openHow{flags: uint64(oPath | syscall.O_CLOEXEC | flags), resolve: resolve}
	dirfd := atFDCWD
	for {
		fd, _, errno := syscall.Syscall6(sysOpenat2, uintptr(dirfd), uintptr(unsafe.Pointer(&buf[0])),
			uintptr(unsafe.Pointer(&how)), unsafe.Sizeof(how), 0, 0)
		switch errno {
		case 0:
			return int(fd), 0
		case syscall.EINTR:
			continue
		case syscall.ENOSYS, syscall.EPERM:
			kernelOff.Store(true)
		}
		return -1, errno
	}
}

// fdPath reads the link /proc/self/fd/<fd> into buf: the path of the file
// open on fd, as the kernel names it (d_path). It returns the length read.
func fdPath(fd int, buf *[pathMax]byte) (int, syscall.Errno) {
	const prefix = "/proc/self/fd/"
	var name [len(prefix) + 21]byte // prefix, up to 20 digits, NUL
	n := copy(name[:], prefix)
	var digits [20]byte
	i := len(digits)
	for v := uint(fd); ; v /= 10 {
		i--
		digits[i] = byte('0' + v%10)
		if v < 10 {
			break
		}
	}
	n += copy(name[n:], digits[i:])
	name[n] = 0
	dirfd := atFDCWD
	for {
		r, _, errno := syscall.Syscall6(syscall.SYS_READLINKAT, uintptr(dirfd), uintptr(unsafe.Pointer(&name[0])),
			uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)), 0, 0)
		if errno == syscall.EINTR {
			continue
		}
		return int(r), errno
	}
}

func closeFD(fd int) {
	_ = syscall.Close(fd) // an O_PATH descriptor: nothing to flush
}
