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
	for _, p := range []struct{ r, w **os.File }{{&c.endedR, &c.endedW}, {&c.releasedR, &c.releasedW}, {&c.infoR, &c.infoW}} {
		if *p.r, *p.w, err = os.Pipe(); err != nil {
			c.closeChildEnds()
			c.closeOurEnds()
			return nil, fmt.Errorf("confine: %w", err)
		}
	}
	return c, nil
}

// childFiles are the descriptors bubblewrap gets, in order, after the
// caller's ExtraFiles: the filter, the "ended" pipe's write end and the
// "released" pipe's read end (which bubblewrap passes on to the helper),
// and the info pipe's write end.
func (c *control) childFiles() []*os.File {
	return []*os.File{c.filter, c.endedW, c.releasedR, c.infoW}
}

// helperSpec returns the helper's spec for executing path with view v's
// writable places, the caller's descriptors being 0..keep-1 and
// childFiles following them.
func (c *control) helperSpec(path string, v *view, abi, keep int) (string, error) {
	b, err := json.Marshal(helperSpec{Path: path, Writable: helperWritable(v), ABI: abi, Keep: keep, Ended: keep + 1, Released: keep + 2})
	return string(b), err
}

// filterFD and infoFD are the descriptors of the filter and of the info
// pipe in bubblewrap, the caller's being 0..keep-1.
func filterFD(keep int) string { return strconv.Itoa(keep) }
func infoFD(keep int) string   { return strconv.Itoa(keep + 3) }

// closeChildEnds closes this process's copies of what bubblewrap got.
func (c *control) closeChildEnds() {
	for _, f := range []*os.File{c.filter, c.endedW, c.releasedR, c.infoW} {
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
// right after making it.
func (c *control) waitEnded() {
	var b [1]byte
	if n, _ := c.endedR.Read(b[:]); n == 1 {
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

// closeOurEnds lets the helper exit.
func (c *control) closeOurEnds() {
	for _, f := range []*os.File{c.endedR, c.releasedW, c.infoR} {
		if f != nil {
			f.Close()
		}
	}
}
