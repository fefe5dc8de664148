package confine

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// control holds what passes between the starting thread and the sandbox:
// the system-call filter bubblewrap reads, bubblewrap's report of the
// helper's PID, and the two pipes with the helper (see helper_linux.go).
type control struct {
	filter               *os.File // read end: bubblewrap reads the filter from it
	endedR, endedW       *os.File // the helper writes a byte to endedW when the sandbox has ended
	releasedR, releasedW *os.File // the thread closes releasedW when it has released
	infoR, infoW         *os.File // bubblewrap writes the helper's PID (--info-fd) to infoW
	// lifeR and lifeW are the lifeline: bubblewrap's outer process keeps
	// lifeW open as its status descriptor (--json-status-fd) while it
	// lives, and closes it in the sandbox, so the helper reads end of file
	// from lifeR when bubblewrap is gone, even if bubblewrap's
	// parent-death signal did not reach it (bubblewrap sets it, and
	// credential changes clear it, while it sets the sandbox up).
	lifeR, lifeW *os.File
	// held says that the helper reported, at the sandbox's end, that
	// every watched mount had held (see readEnded); false when it did
	// not, or the sandbox ended without its word.
	held bool
}

// newControl makes the pipes and writes the filter into its own.
func newControl(filter []byte) (*control, error) {
	c := &control{}
	fr, fw, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("confine: %w", err)
	}
	c.filter = fr
	go func() {
		_, _ = fw.Write(filter)
		fw.Close()
	}()
	for _, p := range []struct{ r, w **os.File }{{&c.endedR, &c.endedW}, {&c.releasedR, &c.releasedW}, {&c.infoR, &c.infoW}, {&c.lifeR, &c.lifeW}} {
		if *p.r, *p.w, err = os.Pipe(); err != nil {
			c.closeChildEnds()
			c.closeOurEnds()
			c.closeLifeline()
			return nil, fmt.Errorf("confine: %w", err)
		}
	}
	return c, nil
}

// childFiles are the descriptors bubblewrap gets, in order, after the
// caller's ExtraFiles: the filter, the "ended" pipe's write end and the
// "released" pipe's read end (which bubblewrap passes on to the helper),
// the info pipe's write end, and both ends of the lifeline.
func (c *control) childFiles() []*os.File {
	return []*os.File{c.filter, c.endedW, c.releasedR, c.infoW, c.lifeR, c.lifeW}
}

// helperSpec returns the helper's spec for executing path with view v's
// writable places, the caller's descriptors being 0..keep-1 and
// childFiles following them, the command's connect calls guarded or
// not, and the network the machine's (network) or the sandbox's own.
func (c *control) helperSpec(path string, v *view, src *sources, abi, keep int, guardConnect, network bool) (string, error) {
	spec := helperSpec{Path: path, Writable: helperWritable(v), Watch: watchedMounts(v), ABI: abi, Keep: keep, Ended: keep + 1, Released: keep + 2, Lifeline: keep + 4, LifelineW: keep + 5, GuardConnect: guardConnect, Network: network}
	if fd, ok := src.byPath[readsKey]; ok {
		spec.ReadsFD = fd
	}
	b, err := json.Marshal(spec)
	return string(b), err
}

// filterFD and infoFD are the descriptors of the filter and of the info
// pipe in bubblewrap, the caller's being 0..keep-1.
func filterFD(keep int) string { return strconv.Itoa(keep) }
func infoFD(keep int) string   { return strconv.Itoa(keep + 3) }

// lifelineFD is the descriptor of the lifeline's write end in bubblewrap.
func lifelineFD(keep int) string { return strconv.Itoa(keep + 5) }

// closeChildEnds closes this process's copies of what bubblewrap got, but
// the lifeline's read end (see closeOurEnds).
func (c *control) closeChildEnds() {
	for _, f := range []*os.File{c.filter, c.endedW, c.releasedR, c.infoW, c.lifeW} {
		if f != nil {
			f.Close()
		}
	}
}

// waitEnded returns when the sandbox has ended. The helper says so once
// nothing of the sandbox is left; when it could not (bubblewrap failed, or
// the helper was killed), the sandbox is over once its first process is
// gone, for the kernel ends every other process of a PID namespace before
// its first one's end can be seen. bubblewrap reports that process's PID
// right after making it. bwrap is a pidfd of bubblewrap's outer process,
// or -1: when bubblewrap ends first, the sandbox is orphaned and its
// processes are killed (see orphans_linux.go).
func (c *control) waitEnded(bwrap int) {
	if bwrap >= 0 && !c.endedFirst(bwrap) {
		o, err := killHolders(c.endedR)
		if err == nil {
			c.readEnded()
			o.wait()
			return
		}
		// Without a view of /proc the orphans cannot be found: the wait
		// below may then be long, but the sandbox is never taken for
		// ended while its processes may still act.
	}
	if c.readEnded() {
		return
	}
	var info struct {
		Pid int `json:"child-pid"`
	}
	if err := json.NewDecoder(c.infoR).Decode(&info); err != nil || info.Pid <= 0 {
		return // bubblewrap ended before it made the sandbox
	}
	pidfd, err := unix.PidfdOpen(info.Pid, 0)
	if err != nil {
		return // already gone
	}
	defer unix.Close(pidfd)
	waitReadable(pidfd)
}

// endedFirst waits until the "ended" pipe has something to read (the
// helper's word or end of file) or bubblewrap's outer process has ended,
// and reports whether the pipe came first.
func (c *control) endedFirst(bwrap int) bool {
	fds := []unix.PollFd{{Fd: int32(c.endedR.Fd()), Events: unix.POLLIN}, {Fd: int32(bwrap), Events: unix.POLLIN}}
	for {
		if _, err := unix.Poll(fds, -1); err != nil {
			if errors.Is(err, unix.EINTR) {
				continue
			}
			return true // the blocking read decides
		}
		if fds[0].Revents != 0 {
			return true
		}
		if fds[1].Revents != 0 {
			return false
		}
	}
}

// The helper's word on the "ended" pipe: the sandbox has ended, and
// every watched mount (see watchedMounts) held until nothing of the
// command was left (endedHeld), or one was detached, or could not be
// watched (endedLost).
const (
	endedHeld byte = 1
	endedLost byte = 2
)

// readEnded reads the "ended" pipe and reports whether the helper said the
// sandbox had ended (rather than every writer being gone), noting in
// c.held whether it said that every watched mount held.
func (c *control) readEnded() bool {
	var b [1]byte
	n, _ := c.endedR.Read(b[:])
	c.held = n == 1 && b[0] == endedHeld
	return n == 1
}

// waitReadable polls fd until it is readable (a pidfd: its process has
// ended).
func waitReadable(fd int) {
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	for {
		if _, err := unix.Poll(fds, -1); err == nil || !errors.Is(err, unix.EINTR) {
			return
		}
	}
}

// closeOurEnds lets the helper exit. The lifeline's read end stays open
// until bubblewrap has exited (closeLifeline): bubblewrap writes its
// status there at its end, and a pipe without a reader would kill it.
func (c *control) closeOurEnds() {
	for _, f := range []*os.File{c.endedR, c.releasedW, c.infoR} {
		if f != nil {
			f.Close()
		}
	}
}

// closeLifeline closes the lifeline's read end, once bubblewrap has
// exited or never started.
func (c *control) closeLifeline() {
	for _, f := range []*os.File{c.lifeR} {
		if f != nil {
			f.Close()
		}
	}
}
