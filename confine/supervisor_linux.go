package confine

import (
	"fmt"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// The supervisor is a shell between the caller's process and bubblewrap.
// It runs bubblewrap, tells the starting thread when bubblewrap has ended
// (by writing to the "ended" pipe), and waits for the thread to release
// the sandbox's placeholders (the "released" pipe reaching its end) before
// it exits with bubblewrap's status. So the caller's cmd.Wait returns only
// once the project is as it was. Bubblewrap, and so the confined command,
// get neither pipe: the shell closes both for it, so nothing inside can
// signal the end early.

// control holds the descriptors of the filter and of the two pipes.
type control struct {
	filter               *os.File // read end: bubblewrap reads the filter from it
	endedR, endedW       *os.File // the shell writes a byte to endedW when bubblewrap ends
	releasedR, releasedW *os.File // the thread closes releasedW when it has released
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
	if c.endedR, c.endedW, err = os.Pipe(); err != nil {
		c.closeChildEnds()
		return nil, fmt.Errorf("confine: %w", err)
	}
	if c.releasedR, c.releasedW, err = os.Pipe(); err != nil {
		c.closeChildEnds()
		c.endedR.Close()
		return nil, fmt.Errorf("confine: %w", err)
	}
	return c, nil
}

// childFiles are the descriptors the shell gets, in order, after the
// caller's ExtraFiles: the filter, the "ended" pipe's write end and the
// "released" pipe's read end.
func (c *control) childFiles() []*os.File {
	return []*os.File{c.filter, c.endedW, c.releasedR}
}

// supervise returns the shell's argv for running bwrap with args, the
// filter being descriptor filterFD and the two pipes the next ones.
func (c *control) supervise(bwrap string, args []string, filterFD int) []string {
	ended, released := strconv.Itoa(filterFD+1), strconv.Itoa(filterFD+2)
	script := `"$0" "$@" ` + ended + `>&- ` + released + `<&-; s=$?; echo >&` + ended + `; read -r _ <&` + released + `; exit $s`
	return append([]string{"/bin/sh", "-c", script, bwrap}, args...)
}

// closeOnExec marks every open descriptor of this process from 3 up that a
// child would inherit (one the process was itself given without
// close-on-exec, say; Go opens its own with it) close-on-exec, so that a
// confined command gets only its standard streams and ExtraFiles. It is the
// one change Start makes to the calling process, and it changes only what
// later children inherit.
func closeOnExec() {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return
	}
	for _, e := range entries {
		fd, err := strconv.Atoi(e.Name())
		if err != nil || fd < 3 {
			continue
		}
		if flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err == nil && flags&unix.FD_CLOEXEC == 0 {
			_, _ = unix.FcntlInt(uintptr(fd), unix.F_SETFD, flags|unix.FD_CLOEXEC)
		}
	}
}

// closeChildEnds closes this process's copies of what the shell got.
func (c *control) closeChildEnds() {
	for _, f := range []*os.File{c.filter, c.endedW, c.releasedR} {
		if f != nil {
			f.Close()
		}
	}
}

// waitEnded returns when bubblewrap has ended, or the shell has died.
func (c *control) waitEnded() {
	var b [1]byte
	_, _ = c.endedR.Read(b[:])
}

// closeOurEnds lets the shell exit.
func (c *control) closeOurEnds() {
	c.endedR.Close()
	c.releasedW.Close()
}
