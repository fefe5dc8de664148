package confine

import (
	"errors"
	"fmt"
	"os/exec"
	"runtime"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// Landlock ABI versions that bring the features used here.
const (
	abiRefer    = 2 // renaming and linking across directories
	abiTruncate = 3
	abiTCP      = 4 // TCP bind and connect rules
	abiScope    = 6 // signals and abstract UNIX sockets
)

// Access right sets.
const (
	rightsRead = ll.AccessFSReadFile | ll.AccessFSReadDir | ll.AccessFSExecute

	rightsWriteV1 = ll.AccessFSWriteFile | ll.AccessFSRemoveDir | ll.AccessFSRemoveFile |
		ll.AccessFSMakeChar | ll.AccessFSMakeDir | ll.AccessFSMakeReg | ll.AccessFSMakeSock |
		ll.AccessFSMakeFifo | ll.AccessFSMakeBlock | ll.AccessFSMakeSym

	// rightsDevices are never granted, though handled: creating a device
	// node (root can) would reach a disk or the kernel's devices from
	// inside the sandbox.
	rightsDevices = ll.AccessFSMakeChar | ll.AccessFSMakeBlock

	// rightsOnFile are the rights a rule on a file (not a directory) may
	// carry.
	rightsOnFile = ll.AccessFSExecute | ll.AccessFSWriteFile | ll.AccessFSReadFile |
		ll.AccessFSTruncate | ll.AccessFSIoctlDev
)

// support returns the Landlock ABI version when it can enforce a policy
// with the given network setting, and an error wrapping ErrUnavailable
// otherwise.
func support(network bool) (int, error) {
	abi, err := ll.LandlockGetABIVersion()
	if err != nil {
		return 0, fmt.Errorf("confine: this Linux kernel does not enforce Landlock (%v); it needs Linux 5.13 or later with \"landlock\" in its lsm= list: %w", err, ErrUnavailable)
	}
	if auditArch() == 0 {
		return abi, fmt.Errorf("confine: no system-call filter is built for %s, and confinement needs one: %w", runtime.GOARCH, ErrUnavailable)
	}
	return abi, abiSupports(abi, network)
}

// abiSupports says whether Landlock ABI abi can enforce a policy with the
// given network setting.
func abiSupports(abi int, network bool) error {
	if abi < 1 {
		return fmt.Errorf("confine: this kernel reports no Landlock ABI: %w", ErrUnavailable)
	}
	if !network && abi < abiTCP {
		return fmt.Errorf("confine: this kernel's Landlock (ABI %d) cannot forbid TCP connections (ABI %d, Linux 6.7, is needed), and the policy denies the network: %w", abi, abiTCP, ErrUnavailable)
	}
	return nil
}

// ruleset builds the Landlock ruleset of p for this kernel and returns its
// file descriptor (close-on-exec, as every Landlock ruleset).
func ruleset(abi int, cmd *exec.Cmd, p *Policy) (fd int, err error) {
	write := uint64(rightsWriteV1)
	if abi >= abiRefer {
		write |= ll.AccessFSRefer
	}
	if abi >= abiTruncate {
		write |= ll.AccessFSTruncate
	}
	handled := write
	if p.Readable != nil {
		handled |= rightsRead
	}
	attr := ll.RulesetAttr{HandledAccessFS: handled}
	if !p.Network {
		attr.HandledAccessNet = ll.AccessNetBindTCP | ll.AccessNetConnectTCP
	}
	if abi >= abiScope {
		attr.Scoped = ll.ScopeAbstractUnixSocket | ll.ScopeSignal
	}
	fd, err = ll.LandlockCreateRuleset(&attr, 0)
	if err != nil {
		return -1, fmt.Errorf("confine: creating the Landlock ruleset: %v: %w", err, ErrUnavailable)
	}
	defer func() {
		if err != nil {
			unix.Close(fd)
			fd = -1
		}
	}()
	allowed := handled &^ rightsDevices
	if err = addRule(fd, p.Sandbox, allowed, true); err != nil {
		return fd, err
	}
	for _, w := range p.Writable {
		if err = addRule(fd, w, allowed, false); err != nil {
			return fd, err
		}
	}
	if p.Readable != nil {
		read := []string{}
		read = append(read, p.Readable...)
		read = append(read, systemReadable()...)
		if cmd.Path != "" && cmd.Path[0] == '/' {
			read = append(read, cmd.Path)
		}
		for _, r := range read {
			if err = addRule(fd, r, rightsRead, false); err != nil {
				return fd, err
			}
		}
	}
	return fd, nil
}

// addRule allows rights beneath path (on path alone if it is a file). A
// missing path is skipped unless required.
func addRule(rulesetFD int, path string, rights uint64, required bool) error {
	pfd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		if !required && (errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) || errors.Is(err, unix.EACCES)) {
			return nil
		}
		return fmt.Errorf("confine: opening %s: %w", path, err)
	}
	defer unix.Close(pfd)
	var st unix.Stat_t
	if err := unix.Fstat(pfd, &st); err != nil {
		return fmt.Errorf("confine: stat %s: %w", path, err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		rights &= rightsOnFile
	}
	if rights == 0 {
		return nil
	}
	attr := ll.PathBeneathAttr{AllowedAccess: rights, ParentFd: pfd}
	if err := ll.LandlockAddPathBeneathRule(rulesetFD, &attr, 0); err != nil {
		return fmt.Errorf("confine: Landlock rule for %s: %v: %w", path, err, ErrUnavailable)
	}
	return nil
}

func start(cmd *exec.Cmd, p *Policy) error {
	if cmd.SysProcAttr != nil && cmd.SysProcAttr.Pdeathsig != 0 {
		// The child is started from a thread that exits right after, and
		// Linux sends the parent-death signal when that thread exits.
		return errors.New("confine: SysProcAttr.Pdeathsig is not supported: the thread that starts the child exits at once, which would signal it")
	}
	abi, err := support(p.Network)
	if err != nil {
		return err
	}
	fd, err := ruleset(abi, cmd, p)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	filter, err := filterProgram(p.Network)
	if err != nil {
		return err
	}
	errc := make(chan error, 1)
	go restrictAndStart(cmd, fd, filter, errc, nil)
	return <-errc
}

// restrictAndStart restricts the OS thread it runs on (filter, if any,
// then the Landlock ruleset fd) and starts cmd from it. A Landlock domain and no_new_privs belong to one OS thread: the child
// inherits them from the thread that starts it, and no other thread of the
// process is touched. The goroutine locks its thread and never unlocks it,
// so when it returns the runtime terminates the thread instead of reusing it
// for other goroutines. (Threads the runtime creates while a goroutine is
// locked are cloned from a clean template thread, not from this one.)
//
// The main thread is the exception: the runtime never terminates it, so a
// goroutine that finds itself there hands the work to a fresh goroutine,
// which cannot run on the main thread while this one holds it, and lets the
// main thread go unrestricted. locked, if not nil, is closed once the
// thread is locked.
func restrictAndStart(cmd *exec.Cmd, fd int, filter []unix.SockFilter, errc chan<- error, locked chan<- struct{}) {
	runtime.LockOSThread()
	if locked != nil {
		close(locked)
	}
	if unix.Gettid() == unix.Getpid() {
		elsewhere := make(chan struct{})
		go restrictAndStart(cmd, fd, filter, errc, elsewhere)
		<-elsewhere
		runtime.UnlockOSThread()
		return
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		errc <- fmt.Errorf("confine: setting no_new_privs: %v: %w", err, ErrUnavailable)
		return
	}
	if filter != nil {
		if err := installFilter(filter); err != nil {
			errc <- err
			return
		}
	}
	if err := ll.LandlockRestrictSelf(fd, 0); err != nil {
		errc <- fmt.Errorf("confine: landlock_restrict_self: %v: %w", err, ErrUnavailable)
		return
	}
	errc <- cmd.Start()
}
