package confine

import (
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The confined side of the attacks on the connect guard: ways a command
// could try to reach a UNIX socket an outside program bound after the
// start. Each prints "REACHED <how>" when it got a connection to such a
// socket; the test checks that none did and that the outside listeners
// accepted nothing.

// abstractInside serves on an abstract name of its own and connects to
// it: with Network, the name is in the machine's namespace, and
// Landlock's scope must let the command reach its own.
func abstractInside() error {
	name := "@confine-own-" + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	l, err := net.Listen("unix", name)
	if err != nil {
		return err
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			_, _ = c.Write([]byte("pong"))
			c.Close()
		}
	}()
	for i := 0; i < 3; i++ {
		c, err := net.Dial("unix", name)
		if err != nil {
			return err
		}
		buf := make([]byte, 4)
		n, err := c.Read(buf)
		c.Close()
		if err != nil || string(buf[:n]) != "pong" {
			return fmt.Errorf("read %q: %v", buf[:n], err)
		}
	}
	return nil
}

// unixAttacks makes the file "started" in its working directory (the
// sandbox), waits for the file ready, then tries every way it knows to
// reach each socket in dir (which outside programs bound or renamed there
// meanwhile).
func unixAttacks(dir, ready string) error {
	if err := os.WriteFile("started", nil, 0o644); err != nil {
		return err
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(ready); err == nil || time.Now().After(deadline) {
			break
		}
	}
	sandbox, err := os.Getwd()
	if err != nil {
		return err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	report := func(how string, err error) {
		if err == nil {
			fmt.Printf("REACHED %s\n", how)
			return
		}
		fmt.Printf("refused %s: %v\n", how, err)
	}
	dial := func(addr string) error {
		c, err := net.DialTimeout("unix", addr, 2*time.Second)
		if err == nil {
			c.Close()
		}
		return err
	}
	for _, e := range entries {
		if e.Type() != fs.ModeSocket {
			continue
		}
		target := filepath.Join(dir, e.Name())
		report(target+" by its path", dial(target))

		if err := os.Chdir(dir); err == nil {
			report(target+" by a relative name", dial(e.Name()))
			report(target+" through /proc/self/cwd", dial("/proc/self/cwd/"+e.Name()))
			_ = os.Chdir(sandbox)
		}

		link := filepath.Join(sandbox, "link-"+e.Name())
		if err := os.Symlink(target, link); err == nil {
			report(target+" through a symbolic link in the sandbox", dial(link))
		}
		if err := os.Symlink(dir, link+".d"); err == nil {
			report(target+" through a linked directory", dial(filepath.Join(link+".d", e.Name())))
		}

		if fd, err := unix.Open(target, unix.O_PATH|unix.O_CLOEXEC, 0); err != nil {
			report(target+" opened with O_PATH", err)
		} else {
			report(target+" through /proc/self/fd", dial("/proc/self/fd/"+strconv.Itoa(fd)))
			report(target+" through /proc/PID/fd", dial("/proc/"+strconv.Itoa(os.Getpid())+"/fd/"+strconv.Itoa(fd)))
			report(target+" through /proc/thread-self/fd", dial("/proc/thread-self/fd/"+strconv.Itoa(fd)))
			if got, err := passDescriptor(fd); err != nil {
				report(target+" passed with SCM_RIGHTS", err)
			} else {
				report(target+" passed with SCM_RIGHTS, through /proc/self/fd", dial("/proc/self/fd/"+strconv.Itoa(got)))
				unix.Close(got)
			}
			unix.Close(fd)
		}

		report(target+" by swapping the address from an abstract name", addressSwap(target))
		report(target+" by swapping the descriptor from a TCP socket", descriptorSwap(target))
	}
	return nil
}

// rawSockaddrUnix is the bytes of a struct sockaddr_un naming name (an
// abstract one when it starts with '@'), and its length.
func rawSockaddrUnix(name string) ([sockaddrUnixMax]byte, int) {
	var b [sockaddrUnixMax]byte
	b[0] = unix.AF_UNIX
	copy(b[2:], name)
	n := 2 + len(name)
	if name[0] == '@' {
		b[2] = 0
	} else {
		n++ // the terminating NUL
	}
	return b, n
}

// addressSwap connects, many times, to an address that a second thread
// flips between an abstract name of its own (served here) and target:
// a guard that checked the address and then let the kernel read it again
// would connect to target. It returns nil when a connection reached
// another socket than its own.
func addressSwap(target string) error {
	own := "@confine-swap-" + strconv.Itoa(os.Getpid())
	l, err := net.Listen("unix", own)
	if err != nil {
		return err
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	ownAddr, ownLen := rawSockaddrUnix(own)
	targetAddr, targetLen := rawSockaddrUnix(target)
	var shared [sockaddrUnixMax]byte
	var stop atomic.Bool
	flipped := make(chan struct{})
	go func() {
		runtime.LockOSThread()
		defer close(flipped)
		for i := 0; !stop.Load(); i++ {
			if i%2 == 0 {
				shared = ownAddr
			} else {
				shared = targetAddr
			}
		}
	}()
	defer func() { stop.Store(true); <-flipped }()
	size := max(ownLen, targetLen)
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); {
		fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			return err
		}
		_, _, errno := unix.Syscall(unix.SYS_CONNECT, uintptr(fd), uintptr(unsafe.Pointer(&shared[0])), uintptr(size))
		if errno == 0 {
			if peer, err := unix.Getpeername(fd); err == nil {
				if a, ok := peer.(*unix.SockaddrUnix); ok && a.Name != own {
					unix.Close(fd)
					return nil
				}
			}
		}
		unix.Close(fd)
	}
	return fmt.Errorf("no connection reached it in a second of tries")
}

// descriptorSwap connects, many times, a descriptor number that a second
// thread flips between a TCP socket and an AF_UNIX socket, to target's
// path: a guard that looked at the socket and then let the kernel look
// the number up again would connect the AF_UNIX socket unchecked. It
// returns nil when an AF_UNIX socket was connected.
func descriptorSwap(target string) error {
	tcp, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(tcp)
	num, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(num)
	addr, size := rawSockaddrUnix(target)
	var stop atomic.Bool
	flipped := make(chan struct{})
	go func() {
		runtime.LockOSThread()
		defer close(flipped)
		for i := 0; !stop.Load(); i++ {
			if i%2 == 0 {
				_ = unix.Dup3(tcp, num, unix.O_CLOEXEC)
				continue
			}
			u, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
			if err != nil {
				continue
			}
			_ = unix.Dup3(u, num, unix.O_CLOEXEC)
			unix.Close(u)
		}
	}()
	defer func() { stop.Store(true); <-flipped }()
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); {
		_, _, errno := unix.Syscall(unix.SYS_CONNECT, uintptr(num), uintptr(unsafe.Pointer(&addr[0])), uintptr(size))
		if errno == 0 {
			if peer, err := unix.Getpeername(num); err == nil {
				if _, ok := peer.(*unix.SockaddrUnix); ok {
					return nil
				}
			}
		}
	}
	return fmt.Errorf("no connection reached it in a second of tries")
}

// passDescriptor sends fd over a socketpair of its own (SCM_RIGHTS) and
// returns the descriptor received: another number for the same file.
func passDescriptor(fd int) (int, error) {
	pair, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	defer unix.Close(pair[0])
	defer unix.Close(pair[1])
	if err := unix.Sendmsg(pair[0], []byte{0}, unix.UnixRights(fd), nil, 0); err != nil {
		return -1, err
	}
	oob := make([]byte, unix.CmsgSpace(4))
	_, oobn, _, _, err := unix.Recvmsg(pair[1], make([]byte, 1), oob, unix.MSG_CMSG_CLOEXEC)
	if err != nil {
		return -1, err
	}
	msgs, err := unix.ParseSocketControlMessage(oob[:oobn])
	if err != nil || len(msgs) != 1 {
		return -1, fmt.Errorf("no descriptor received: %v", err)
	}
	fds, err := unix.ParseUnixRights(&msgs[0])
	if err != nil || len(fds) != 1 {
		return -1, fmt.Errorf("no descriptor received: %v", err)
	}
	return fds[0], nil
}
