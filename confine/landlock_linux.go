package confine

import (
	"fmt"
	"path/filepath"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Landlock is used through golang.org/x/sys/unix, which names its system
// calls, structures and rights. (go-landlock's syscall package would do
// the same, but it links libcap's psx, which needs cgo: every program
// importing confine would be linked dynamically and start about a
// millisecond slower, and the helper starts once per confined command.)
// Only the calling thread is ever restricted: the helper and the starting
// thread restrict themselves and then start the command, which inherits
// the domain.

// abiScope is the Landlock ABI version (Linux 6.12) that scopes signals and
// abstract UNIX sockets.
const abiScope = 6

// landlockABI returns the kernel's Landlock ABI version, 0 when it has
// none.
func landlockABI() int {
	abi, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if errno != 0 {
		return 0
	}
	return int(abi)
}

// checkScope returns an error wrapping ErrUnavailable when a policy needs
// Landlock's scoping and the kernel lacks it. With the network shared,
// the command is in the machine's network namespace, where the abstract
// UNIX sockets of every other program are; only Landlock's scope (which
// the helper's ruleset adds where the kernel has it) keeps it from them.
// Without the network, a namespace of its own does.
func checkScope(abi int, network bool) error {
	if network && abi < abiScope {
		return fmt.Errorf("confine: with the network allowed, only Landlock's scoping (ABI %d, Linux 6.12) keeps a confined command from the abstract UNIX sockets of other programs, and this kernel has ABI %d: %w", abiScope, abi, ErrUnavailable)
	}
	return nil
}

// createRuleset makes a Landlock ruleset from attr and returns its
// descriptor. Fields a kernel does not know must be zero (it then accepts
// the larger structure).
func createRuleset(attr *unix.LandlockRulesetAttr) (int, error) {
	fd, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(attr)), unsafe.Sizeof(*attr), 0)
	if errno != 0 {
		return -1, errno
	}
	return int(fd), nil
}

// writeRights are the Landlock rights handled (refused) everywhere but
// beneath the writable places, for a kernel of ABI abi; devices are
// handled and never granted.
func writeRights(abi int) (handled, granted uint64) {
	handled = unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_REMOVE_DIR | unix.LANDLOCK_ACCESS_FS_REMOVE_FILE |
		unix.LANDLOCK_ACCESS_FS_MAKE_CHAR | unix.LANDLOCK_ACCESS_FS_MAKE_DIR | unix.LANDLOCK_ACCESS_FS_MAKE_REG |
		unix.LANDLOCK_ACCESS_FS_MAKE_SOCK | unix.LANDLOCK_ACCESS_FS_MAKE_FIFO | unix.LANDLOCK_ACCESS_FS_MAKE_BLOCK |
		unix.LANDLOCK_ACCESS_FS_MAKE_SYM
	if abi >= 2 {
		handled |= unix.LANDLOCK_ACCESS_FS_REFER
	}
	if abi >= 3 {
		handled |= unix.LANDLOCK_ACCESS_FS_TRUNCATE
	}
	return handled, handled &^ (unix.LANDLOCK_ACCESS_FS_MAKE_CHAR | unix.LANDLOCK_ACCESS_FS_MAKE_BLOCK)
}

// fileRuleset returns a Landlock ruleset that allows writing only beneath
// the given paths (a file among them may be written, not replaced); a path
// that does not exist is skipped. With reads, it handles reading too (see
// readRules): reading is allowed beneath the writable paths, the grants
// and the masks only, and listing directories everywhere. Where the
// kernel scopes (ABI 6), it also keeps a process of the domain from
// signalling, and from connecting to the abstract sockets of, any process
// outside it.
func fileRuleset(abi int, writable []string, reads *readRules) (int, error) {
	handled, granted := writeRights(abi)
	const read = unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR
	if reads != nil {
		handled |= read
		granted |= read
	}
	attr := unix.LandlockRulesetAttr{Access_fs: handled}
	if abi >= abiScope {
		attr.Scoped = unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | unix.LANDLOCK_SCOPE_SIGNAL
	}
	fd, err := createRuleset(&attr)
	if err != nil {
		return -1, fmt.Errorf("creating the Landlock ruleset: %v", err)
	}
	addFD := func(pfd int, rights uint64) unix.Errno {
		rule := unix.LandlockPathBeneathAttr{Allowed_access: rights, Parent_fd: int32(pfd)}
		_, _, errno := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(fd), unix.LANDLOCK_RULE_PATH_BENEATH, uintptr(unsafe.Pointer(&rule)), 0, 0, 0)
		return errno
	}
	const fileRights = unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_TRUNCATE | unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_EXECUTE
	// add grants rights beneath name in the directory dir (a descriptor
	// of the directory named in, or AT_FDCWD for an absolute name); what is not
	// in the view (an entry gone since, a Writable entry that does not
	// exist) is passed over. An entry that is not a directory gets only
	// the rights a file can have.
	add := func(dir int, in, name string, rights uint64) error {
		pfd, err := unix.Openat(dir, name, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			return nil
		}
		defer unix.Close(pfd)
		errno := addFD(pfd, rights)
		if errno == unix.EINVAL {
			errno = addFD(pfd, rights&fileRights)
		}
		if errno != 0 {
			return fmt.Errorf("a Landlock rule for %s: %v", filepath.Join(in, name), errno)
		}
		return nil
	}
	rules := func() error {
		for _, w := range writable {
			if err := add(unix.AT_FDCWD, "", w, granted); err != nil {
				return err
			}
		}
		if reads == nil {
			return nil
		}
		if err := add(unix.AT_FDCWD, "", "/", unix.LANDLOCK_ACCESS_FS_READ_DIR); err != nil {
			return err
		}
		for _, g := range reads.Grants {
			dfd, err := unix.Open(g.Dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
			if err != nil {
				continue
			}
			for _, names := range [][]string{g.Dirs, g.Files} {
				for _, name := range names {
					if err := add(dfd, g.Dir, name, read); err != nil {
						unix.Close(dfd)
						return err
					}
				}
			}
			unix.Close(dfd)
		}
		for _, m := range reads.Masks {
			if err := add(unix.AT_FDCWD, "", m, read); err != nil {
				return err
			}
		}
		return nil
	}
	if err := rules(); err != nil {
		unix.Close(fd)
		return -1, err
	}
	return fd, nil
}

// restrictThread puts the calling OS thread in the domain of ruleset fd
// (setting no_new_privs first, as Landlock requires). The thread must stay
// locked to its goroutine: other threads of the process are not
// restricted, and what the thread starts is.
func restrictThread(fd int) error {
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("confine: setting no_new_privs: %v: %w", err, ErrUnavailable)
	}
	if _, _, errno := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, uintptr(fd), 0, 0); errno != 0 {
		return fmt.Errorf("confine: landlock_restrict_self: %v: %w", errno, ErrUnavailable)
	}
	return nil
}
