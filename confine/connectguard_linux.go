package confine

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/sandboxauth/sandboxauth/internal/pathres"
)

// Sockets of outside programs that exist when the command starts are
// masked (sockets_linux.go), but one bound later in a place the command
// sees (the home directory: its read-only view still lets a program
// connect to a socket there; an editor's or an agent's control socket,
// an ssh ControlMaster socket, a terminal multiplexer's server) would be
// reachable, and Landlock cannot yet refuse a connection by path. So the
// helper stands behind every connect(2), with or without Network: a
// second system-call filter, installed on the thread that starts the
// command, hands the call to the helper (seccomp's user notification),
// which connects the command's socket itself, to its own copy of the
// address, and returns the result as the call's. For an AF_UNIX socket, a
// path must lead, in the view, to a socket beneath one of the writable
// places (the sandbox, the private /tmp and /run, ...) that the sandbox
// made: outside programs may bind there too (by a relative name, under a
// name renamed since, from another network or mount namespace), so the
// helper asks the kernel which socket is bound to the file
// (socketmakers_linux.go); one no listening socket of the sandbox's is
// bound to fails with ECONNREFUSED, as a socket no one listens on does.
// Anything else fails with EACCES. Sockets of
// other families are connected as asked (without Network the network
// namespace bounds them; with it, they are the network).
//
// An abstract name is the sandbox's own without Network (its network
// namespace has its own), and is connected from any thread of the
// helper. With Network it is the machine's, and only Landlock's scope
// keeps the command from other programs' names, a check the kernel makes
// in the context of the connecting thread: a thread of the helper outside
// the command's domain would reach them all. So with Network the thread
// that started the command, in its domain, stays and makes those
// connects, one at a time (connectInDomain); its own connect calls come
// back to the guard through the filter it carries, and the guard lets the
// kernel go on with them (SECCOMP_USER_NOTIF_FLAG_CONTINUE), which is
// safe for that thread alone: no process of the command can change its
// memory or its descriptors.
//
// The helper never lets the kernel look a call of the command up again
// after deciding: a second thread of the command could change the
// address in between (an abstract name, checked, into a path), or put an
// AF_UNIX socket under the descriptor number. It connects a copy of the
// command's socket (pidfd_getfd: the socket, whatever number it has
// later) to a copy of the address or, for a path, to the socket it opened
// and checked, named by its descriptor (/proc/self/fd/N). Datagrams,
// which name their path on each send, never reach this far: the
// system-call filter makes no AF_UNIX datagram socket, with or without
// Network (unixsockets_linux.go).
//
// With Network the same filter hands setsockopt(SOL_SOCKET, SO_REUSEADDR)
// to the helper, which sets the option on its copy of the socket when the
// socket's type allows it (addressreuse_linux.go). A path the command
// connects to through /proc/self, /proc/thread-self or the view's links
// to them (/dev/fd/N, /dev/stdin, /dev/stdout, /dev/stderr) names the
// command's thread's descriptors, not the helper's (threadPath).

// connectGuardable reports whether the helper can stand behind the
// command's connect calls: it must copy the command's socket and read its
// memory, which Yama's ptrace_scope 2 or 3 forbids even to an ancestor.
// Without the guard, the system-call filter makes no AF_UNIX socket but
// connected pairs (unixPairsOnly), so that nothing bound outside after
// the start can be reached by connect either.
func connectGuardable() bool {
	b, err := os.ReadFile("/proc/sys/kernel/yama/ptrace_scope")
	if err != nil {
		return true // no Yama
	}
	scope, err := strconv.Atoi(string(bytes.TrimSpace(b)))
	return err == nil && scope < 2
}

// seccompNotif and seccompNotifResp are the kernel's struct seccomp_notif
// and struct seccomp_notif_resp.
type seccompNotif struct {
	ID    uint64
	Pid   uint32
	Flags uint32
	Nr    int32
	Arch  uint32
	IP    uint64
	Args  [6]uint64
}

type seccompNotifResp struct {
	ID    uint64
	Val   int64
	Error int32
	Flags uint32
}

// connectFilter returns the filter that hands connect(2) to the helper,
// and setsockopt(SO_REUSEADDR) where r says so (addressreuse_linux.go),
// and that keeps the command's processes dumpable.
func connectFilter(r addressReuse) ([]unix.SockFilter, error) {
	var a asm
	a.load(offArch)
	a.jumpIf(unix.BPF_JEQ, auditArch(), "", "allow") // the main filter kills the rest
	a.load(offNr)
	a.jumpIf(unix.BPF_JEQ, unix.SYS_CONNECT, "notify", "")
	a.jumpIf(unix.BPF_JEQ, unix.SYS_PRCTL, "prctl", "")
	if r == reuseGuarded {
		a.jumpIf(unix.BPF_JEQ, unix.SYS_SETSOCKOPT, "setsockopt", "")
	}
	a.ret(unix.SECCOMP_RET_ALLOW)
	r.notify(&a)
	// prctl(PR_SET_DUMPABLE, 0) returns 0 and leaves the process
	// dumpable: the guard must be able to copy its sockets and read its
	// descriptors (socketmakers_linux.go). Only processes of the command
	// carry this filter; the helper's own call is made before.
	a.label("prctl")
	a.load(offArg(0))
	a.jumpIf(unix.BPF_JEQ, unix.PR_SET_DUMPABLE, "", "allow")
	a.load(offArg(1))
	a.jumpIf(unix.BPF_JEQ, 0, "", "allow")
	a.ret(unix.SECCOMP_RET_ERRNO) // errno 0: the call returns 0
	a.label("allow")
	a.ret(unix.SECCOMP_RET_ALLOW)
	a.label("notify")
	a.ret(unix.SECCOMP_RET_USER_NOTIF)
	return a.assemble()
}

// installConnectFilter puts the calling thread (and so the processes it
// starts) under connectFilter and returns the listener on which the
// helper receives their connect calls. The thread must have
// no_new_privs, which bubblewrap sets.
func installConnectFilter(r addressReuse) (int, error) {
	f, err := connectFilter(r)
	if err != nil {
		return -1, err
	}
	prog := unix.SockFprog{Len: uint16(len(f)), Filter: &f[0]}
	fd, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_NEW_LISTENER, uintptr(unsafe.Pointer(&prog)))
	if errno != 0 {
		return -1, os.NewSyscallError("seccomp", errno)
	}
	return int(fd), nil
}

// connectGuard answers the connect calls of the command's processes, and
// with Network their setsockopt(SO_REUSEADDR) calls.
type connectGuard struct {
	listener int
	writable []string // where sockets the command may reach lie, in the view
	// inDomain takes the connects to abstract names, made by the thread
	// domainThread (the thread in the command's Landlock domain), with
	// Network; nil without it.
	inDomain     chan domainConnect
	domainThread uint32
	// owned: a pathname socket must also be held by a process of the
	// sandbox, since the network namespace is the machine's (with
	// Network; socketmakers_linux.go).
	owned bool
}

// domainConnect is a connect to make from the command's Landlock domain:
// sock to the address addr; the result goes to done.
type domainConnect struct {
	sock int
	addr []byte
	done chan unix.Errno
}

// newConnectGuard returns the guard of the connect calls notified on
// listener. With network, the calling thread must be the one in the
// command's Landlock domain, and then call connectInDomain.
func newConnectGuard(listener int, writable []string, network bool) *connectGuard {
	g := &connectGuard{listener: listener, writable: writable, owned: network}
	if network {
		g.inDomain = make(chan domainConnect)
		g.domainThread = uint32(unix.Gettid())
	}
	return g
}

// connectInDomain makes the connects sent to g.inDomain, one at a time,
// on the calling thread, which must be in the command's Landlock domain,
// and never returns (the channel is never closed): the thread, which
// carries the connect filter, stays as long as the helper (the guard
// knows it by its thread ID, which must not go to another process).
// Since it carries the filter, the listener never reports that no process
// is under it; the guard then waits for a call that never comes, idle.
func (g *connectGuard) connectInDomain() {
	for c := range g.inDomain {
		c.done <- rawConnect(c.sock, c.addr)
	}
}

// guardedConnects bounds the connect calls answered at once: each holds a
// thread of the helper while it blocks, and the command must not be able
// to use up the helper's threads (the Go runtime ends a process that
// cannot make one). Beyond it, a call fails with EAGAIN.
const guardedConnects = 256

// serve answers notifications until the listener fails (every process
// under the filter has ended). Each is answered on a goroutine of its
// own: a connect may block until the other side accepts.
func (g *connectGuard) serve() {
	busy := make(chan struct{}, guardedConnects)
	for {
		var n seccompNotif
		_, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(g.listener), unix.SECCOMP_IOCTL_NOTIF_RECV, uintptr(unsafe.Pointer(&n)))
		switch errno {
		case 0:
			if g.inDomain != nil && n.Pid == g.domainThread && n.Nr == unix.SYS_CONNECT {
				// The helper's own thread in the command's domain,
				// connecting an abstract name for the command.
				g.send(seccompNotifResp{ID: n.ID, Flags: unix.SECCOMP_USER_NOTIF_FLAG_CONTINUE})
				continue
			}
			if n.Nr == unix.SYS_SETSOCKOPT {
				// It never blocks but on the command's own memory
				// (which only stalls the command): answered here, it
				// costs no hand-over to another thread.
				g.answer(n)
				continue
			}
			select {
			case busy <- struct{}{}:
				go func() {
					defer func() { <-busy }()
					g.answer(n)
				}()
			default:
				g.send(seccompNotifResp{ID: n.ID, Error: -int32(unix.EAGAIN)})
			}
		case unix.EINTR:
		case unix.ENOENT:
			// The caller went away before its turn, or no process is
			// under the filter any more: the kernel then answers every
			// call at once with ENOENT, and the loop would spin on a
			// CPU until the helper exits (while the caller runs
			// AfterExit). The listener reports the latter as a hangup.
			if listenerHungUp(g.listener) {
				return
			}
		default:
			return
		}
	}
}

// listenerHungUp reports whether no process is under the filter of
// listener any more (none can come back: a process gets the filter only
// from its parent).
func listenerHungUp(listener int) bool {
	fds := []unix.PollFd{{Fd: int32(listener), Events: unix.POLLIN}}
	for {
		_, err := unix.Poll(fds, 0)
		if err == unix.EINTR {
			continue
		}
		return err != nil || fds[0].Revents&(unix.POLLHUP|unix.POLLERR|unix.POLLNVAL) != 0
	}
}

// answer decides one call, connect or setsockopt(SO_REUSEADDR), and
// sends the result.
func (g *connectGuard) answer(n seccompNotif) {
	resp := seccompNotifResp{ID: n.ID}
	var err unix.Errno
	switch n.Nr {
	case unix.SYS_CONNECT:
		err = g.connect(n)
	case unix.SYS_SETSOCKOPT:
		err = g.setReuseaddr(n)
	default:
		err = unix.ENOSYS // no filter hands it here
	}
	if err != 0 {
		resp.Error = -int32(err)
	}
	g.send(resp)
}

// send sends the answer resp.
func (g *connectGuard) send(resp seccompNotifResp) {
	_, _, _ = unix.Syscall(unix.SYS_IOCTL, uintptr(g.listener), unix.SECCOMP_IOCTL_NOTIF_SEND, uintptr(unsafe.Pointer(&resp)))
}

// valid reports whether notification id is still pending: the memory read
// for it belongs to the process that made the call.
func (g *connectGuard) valid(id uint64) bool {
	_, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(g.listener), unix.SECCOMP_IOCTL_NOTIF_ID_VALID, uintptr(unsafe.Pointer(&id)))
	return errno == 0
}

// sockaddrUnixMax is sizeof(struct sockaddr_un), sockaddrMax that of
// struct sockaddr_storage, the most connect(2) takes.
const (
	sockaddrUnixMax = 110
	sockaddrMax     = 128
)

// socketOf returns a copy of the descriptor that the first argument of
// n's call names in process n.Pid: whatever that number names later, the
// copy is what the call is done on. It answers ESRCH when the thread is
// gone, EBADF for a number that names nothing, and refuse when the process
// cannot be looked into.
func socketOf(n seccompNotif, refuse unix.Errno) (int, unix.Errno) {
	pidfd, e := openThread(int(n.Pid))
	if e != nil {
		return -1, unix.ESRCH
	}
	defer unix.Close(pidfd)
	sock, e := unix.PidfdGetfd(pidfd, int(int32(n.Args[0])), 0)
	switch {
	case e == unix.EBADF:
		return -1, unix.EBADF
	case e != nil:
		return -1, refuse
	}
	return sock, 0
}

// connect does the call of n, connect(fd, addr, addrlen) in process
// n.Pid, and returns its error (0 when it succeeded).
func (g *connectGuard) connect(n seccompNotif) unix.Errno {
	sock, errno := socketOf(n, unix.EACCES)
	if errno != 0 {
		return errno
	}
	defer unix.Close(sock)
	domain, e := unix.GetsockoptInt(sock, unix.SOL_SOCKET, unix.SO_DOMAIN)
	if e != nil {
		return unix.ENOTSOCK
	}
	// The call is done here, on the copy of the socket, with a copy of
	// the address, for every family: letting the kernel go on with the
	// call would have it look up the descriptor again, which another
	// thread of the command may have made an AF_UNIX socket meanwhile.
	size := n.Args[2]
	if size > sockaddrMax {
		return unix.EINVAL
	}
	if size == 0 {
		return rawConnect(sock, nil)
	}
	addr := make([]byte, size)
	if k, e := unix.ProcessVMReadv(int(n.Pid), []unix.Iovec{{Base: &addr[0], Len: size}}, []unix.RemoteIovec{{Base: uintptr(n.Args[1]), Len: int(size)}}, 0); e != nil || uint64(k) != size {
		return unix.EFAULT
	}
	if !g.valid(n.ID) {
		return unix.EINTR
	}
	if domain != unix.AF_UNIX {
		return rawConnect(sock, addr)
	}
	path, abstract, errno := unixAddress(addr)
	if errno != 0 {
		return errno
	}
	if abstract {
		if g.inDomain == nil {
			// An abstract name of the sandbox's own namespace.
			return rawConnect(sock, addr)
		}
		// One of the machine's: Landlock's scope decides, from the
		// command's domain.
		done := make(chan unix.Errno, 1)
		g.inDomain <- domainConnect{sock: sock, addr: addr, done: done}
		return <-done
	}
	target, errno := g.openSocket(int(n.Pid), path)
	if errno != 0 {
		return errno
	}
	defer unix.Close(target)
	byFD := append([]byte{unix.AF_UNIX, 0}, "/proc/self/fd/"+strconv.Itoa(target)...)
	return rawConnect(sock, append(byFD, 0))
}

// unixAddress reads addr, the struct sockaddr_un a connect(2) of an
// AF_UNIX socket was given: an abstract name (its first byte of name is
// NUL), or the path it names, which ends at the first NUL or at the end
// of addr, as the kernel reads it. An address of another family, with no
// name, or longer than the structure is EINVAL.
func unixAddress(addr []byte) (path string, abstract bool, errno unix.Errno) {
	if len(addr) <= 2 || len(addr) > sockaddrUnixMax {
		return "", false, unix.EINVAL
	}
	if family := uint16(addr[0]) | uint16(addr[1])<<8; family != unix.AF_UNIX {
		return "", false, unix.EINVAL
	}
	if addr[2] == 0 {
		return "", true, 0
	}
	name := addr[2:]
	if i := bytes.IndexByte(name, 0); i >= 0 {
		name = name[:i]
	}
	return string(name), false, 0
}

// pidfdThread is PIDFD_THREAD (O_EXCL): a pidfd of a thread that need not
// lead its thread group (Linux 6.9).
const pidfdThread = unix.O_EXCL

// openThread returns a pidfd for the process of thread tid (which made
// the call: the notification names the thread): of the thread itself
// where the kernel can, else of its thread group's leader, found in
// /proc (tid cannot be reused while its call waits for the answer).
func openThread(tid int) (int, error) {
	fd, err := unix.PidfdOpen(tid, pidfdThread)
	if err != unix.EINVAL {
		return fd, err
	}
	if fd, err = unix.PidfdOpen(tid, 0); err != unix.EINVAL && err != unix.ESRCH {
		return fd, err
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(tid) + "/status")
	if err != nil {
		return -1, err
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		if v, ok := bytes.CutPrefix(line, []byte("Tgid:")); ok {
			tgid, err := strconv.Atoi(string(bytes.TrimSpace(v)))
			if err != nil {
				return -1, err
			}
			return unix.PidfdOpen(tgid, 0)
		}
	}
	return -1, unix.ESRCH
}

// openSocket opens path as thread pid would reach it (relative to its
// working directory; see threadPath for /proc/self and the view's links to
// it), and returns it when it is a socket beneath one of the writable
// places that the sandbox made (madeBySandbox; EACCES otherwise). Elsewhere in the path (a symbolic link of the command's to
// /proc/self) /proc/self names the helper, and what it leads to is checked
// the same.
func (g *connectGuard) openSocket(pid int, path string) (int, unix.Errno) {
	path = threadPath(path, pid, os.Readlink)
	dir := unix.AT_FDCWD
	if path[0] != '/' {
		cwd, e := unix.Open("/proc/"+strconv.Itoa(pid)+"/cwd", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if e != nil {
			return -1, unix.EACCES
		}
		defer unix.Close(cwd)
		dir = cwd
	}
	fd, e := unix.Openat(dir, path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if e != nil {
		if errno, ok := e.(unix.Errno); ok {
			return -1, errno
		}
		return -1, unix.EACCES
	}
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFSOCK {
		unix.Close(fd)
		return -1, unix.ECONNREFUSED
	}
	real, e := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd))
	if e != nil || !g.inside(real) {
		unix.Close(fd)
		return -1, unix.EACCES
	}
	if errno := madeBySandbox(fd, &st, g.owned); errno != 0 {
		unix.Close(fd)
		return -1, errno
	}
	return fd, 0
}

// selfLinks are the view's symbolic links into /proc/self that programs
// name sockets by: bubblewrap's /dev/fd, /dev/stdin, /dev/stdout and
// /dev/stderr (to /proc/self/fd and /proc/self/fd/0, 1 and 2).
var selfLinks = [...]string{"/dev/fd", "/dev/stdin", "/dev/stdout", "/dev/stderr"}

// threadPath returns path as thread tid reaches it where the helper's
// /proc/self would name the helper instead: /proc/self and
// /proc/thread-self at its start, as a program connecting through a
// descriptor's link (/proc/self/fd/N) means, and the same reached through
// one of selfLinks at its start (connect("/dev/fd/N"), "/dev/stdin"),
// whose target readlink gives (the command may have replaced them: a
// target not in /proc/self is left to the lookup, and whatever the path
// leads to is checked after). Any other path is returned as it is.
func threadPath(path string, tid int, readlink func(string) (string, error)) string {
	for _, link := range selfLinks {
		rest, ok := strings.CutPrefix(path, link)
		if !ok || rest != "" && rest[0] != '/' {
			continue
		}
		target, err := readlink(link)
		if err == nil && (strings.HasPrefix(target, "/proc/self/") || strings.HasPrefix(target, "/proc/thread-self/")) {
			path = target + rest
		}
		break
	}
	for _, self := range [...]string{"/proc/self/", "/proc/thread-self/"} {
		if rest, ok := strings.CutPrefix(path, self); ok {
			return "/proc/" + strconv.Itoa(tid) + "/" + rest
		}
	}
	return path
}

// inside reports whether path lies beneath one of the writable places.
func (g *connectGuard) inside(path string) bool {
	for _, w := range g.writable {
		if pathres.Within(w, path) {
			return true
		}
	}
	return false
}

// rawConnect connects sock to the socket address addr, as given (none
// when empty), and returns the error.
func rawConnect(sock int, addr []byte) unix.Errno {
	var p unsafe.Pointer
	if len(addr) > 0 {
		p = unsafe.Pointer(&addr[0])
	}
	_, _, errno := unix.Syscall(unix.SYS_CONNECT, uintptr(sock), uintptr(p), uintptr(len(addr)))
	return errno
}
