package confine

import (
	"fmt"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// A sandbox is orphaned when bubblewrap's outer process is gone before the
// helper said the sandbox had ended: a signal ended bubblewrap (the
// caller's Kill, a context's cancellation, an interrupt) at any moment of
// its setup. Mostly the sandbox then ends by itself, for bubblewrap gives
// its child a parent-death signal and the helper watches its lifeline. But
// during the first milliseconds neither holds: bubblewrap's child waits
// for its parent's word that the user namespace is ready (and sets its
// parent-death signal only after that word), and a parent killed before
// saying it leaves the child waiting forever, in a PID namespace of its
// own, holding the "ended" pipe, so that nobody would ever see the
// sandbox end.
//
// The host therefore ends an orphaned sandbox itself. Its processes are
// the only ones holding the "ended" pipe's write end: bubblewrap passed it
// to its child, the helper keeps it, and the command never gets it (the
// helper marks it close-on-exec), while this process closed its copy once
// bubblewrap had started and keeps only the read end, which nothing else
// has. Each holder is the sandbox's first process or runs in its PID
// namespace, so killing the holders ends every process of the sandbox: the
// kernel kills a PID namespace's processes when its first one ends, and
// reports that first one's end only after the others are gone.

// orphans are the processes found holding a pipe, each as a pidfd.
type orphans []int

// killHolders finds every process but this one that holds a descriptor of
// the pipe whose end is f, and kills it with SIGKILL. It returns their
// pidfds, which wait and close use. A process is only signalled through a
// pidfd opened before its descriptors were checked and found alive after,
// so a PID reused in between is never signalled. Processes whose
// descriptors this process may not read (another user's) are not the
// sandbox's and are skipped.
func killHolders(f *os.File) (orphans, error) {
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return nil, fmt.Errorf("confine: %w", err)
	}
	target := "pipe:[" + strconv.FormatUint(st.Ino, 10) + "]"
	procs, err := os.ReadDir("/proc")
	if err != nil {
		return nil, fmt.Errorf("confine: %w", err)
	}
	self := os.Getpid()
	var found orphans
	for _, e := range procs {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		pidfd, err := unix.PidfdOpen(pid, 0)
		if err != nil {
			continue // gone
		}
		if !holds(pid, target) || !alive(pidfd) {
			unix.Close(pidfd)
			continue
		}
		_ = unix.PidfdSendSignal(pidfd, unix.SIGKILL, nil, 0)
		found = append(found, pidfd)
	}
	return found, nil
}

// holds reports whether process pid has a descriptor whose link reads
// target.
func holds(pid int, target string) bool {
	dir := "/proc/" + strconv.Itoa(pid) + "/fd"
	fds, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, fd := range fds {
		if link, err := os.Readlink(dir + "/" + fd.Name()); err == nil && link == target {
			return true
		}
	}
	return false
}

// alive reports whether the process of pidfd has not ended yet.
func alive(pidfd int) bool {
	fds := []unix.PollFd{{Fd: int32(pidfd), Events: unix.POLLIN}}
	n, err := unix.Poll(fds, 0)
	return err == nil && n == 0
}

// wait returns once every process of o has ended, and closes their pidfds.
func (o orphans) wait() {
	for _, pidfd := range o {
		waitReadable(pidfd)
		unix.Close(pidfd)
	}
}
