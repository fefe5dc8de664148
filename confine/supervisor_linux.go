package confine

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// The supervisor stands between the caller's process and bubblewrap: it
// is the calling program itself, started again (as /proc/self/exe) with
// supervisorEnv set, which package initialization notices. It runs
// bubblewrap, passes the signals it gets on to it, and waits until
// bubblewrap and every process of the sandbox have ended (it is their
// subreaper, so the sandbox's first process comes back to it when
// bubblewrap dies). Then it tells the starting thread (by writing to the
// "ended" pipe) and waits for it to finish with the sandbox (the
// "released" pipe reaching its end: AfterExit, the placeholders) before it
// exits with bubblewrap's status. So the caller's cmd.Wait returns only
// once the sandbox is gone and the project is as it should be. Bubblewrap,
// and so the confined command, get neither pipe.

// supervisorEnv names the variable that makes a program the supervisor;
// its value is the supervisor's spec, as JSON.
const supervisorEnv = "SANDBOXAUTH_CONFINE_SUPERVISOR"

// supervisorSpec is what the supervisor needs to know.
type supervisorSpec struct {
	Bwrap    string `json:"bwrap"`
	Ended    int    `json:"ended"`    // descriptor: written when the sandbox has ended
	Released int    `json:"released"` // descriptor: reaches its end when the caller is done
	MaxFD    int    `json:"maxfd"`    // descriptors 0..MaxFD but the two above go to bubblewrap
}

// runSupervisor runs bubblewrap with args and returns the exit status to
// leave with.
func runSupervisor(spec string, args []string) int {
	var s supervisorSpec
	if err := json.Unmarshal([]byte(spec), &s); err != nil || s.Bwrap == "" {
		fmt.Fprintf(os.Stderr, "sandboxauth confinement: bad supervisor spec: %v\n", err)
		return 126
	}
	ended := os.NewFile(uintptr(s.Ended), "ended")
	released := os.NewFile(uintptr(s.Released), "released")
	_ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
	files := make([]uintptr, s.MaxFD+1)
	for i := range files {
		files[i] = uintptr(i)
	}
	files[s.Ended], files[s.Released] = ^uintptr(0), ^uintptr(0) // closed in bubblewrap
	env := slices.DeleteFunc(os.Environ(), func(e string) bool { return strings.HasPrefix(e, supervisorEnv+"=") })
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT)
	pid, err := syscall.ForkExec(s.Bwrap, append([]string{s.Bwrap}, args...), &syscall.ProcAttr{Env: env, Files: files})
	status := 126
	if err != nil {
		fmt.Fprintf(os.Stderr, "sandboxauth confinement: starting %s: %v\n", s.Bwrap, err)
	} else {
		go func() {
			for sig := range sigs {
				_ = syscall.Kill(pid, sig.(syscall.Signal))
			}
		}()
		var ws syscall.WaitStatus
		for {
			_, err := syscall.Wait4(pid, &ws, 0, nil)
			if err != syscall.EINTR {
				break
			}
		}
		switch {
		case ws.Exited():
			status = ws.ExitStatus()
		case ws.Signaled():
			status = 128 + int(ws.Signal())
		}
		// Whatever of the sandbox is left came back to this process when
		// bubblewrap ended: wait for all of it.
		for {
			_, err := syscall.Wait4(-1, nil, 0, nil)
			if err == syscall.ECHILD {
				break
			}
		}
	}
	_, _ = ended.Write([]byte{1})
	_, _ = io.Copy(io.Discard, released)
	return status
}

// control holds the descriptors of the filter and of the two pipes.
type control struct {
	filter               *os.File // read end: bubblewrap reads the filter from it
	endedR, endedW       *os.File // the supervisor writes a byte to endedW when the sandbox has ended
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

// childFiles are the descriptors the supervisor gets, in order, after the
// caller's ExtraFiles: the filter, the "ended" pipe's write end and the
// "released" pipe's read end.
func (c *control) childFiles() []*os.File {
	return []*os.File{c.filter, c.endedW, c.releasedR}
}

// supervise returns the supervisor's argv and environment entry for
// running bwrap with args, the filter being descriptor filterFD, the two
// pipes the next ones, and maxFD the last descriptor the child gets.
func (c *control) supervise(bwrap string, args []string, filterFD, maxFD int) (argv []string, env string, err error) {
	spec, err := json.Marshal(supervisorSpec{Bwrap: bwrap, Ended: filterFD + 1, Released: filterFD + 2, MaxFD: maxFD})
	if err != nil {
		return nil, "", err
	}
	return append([]string{"sandboxauth-confine-supervisor"}, args...), supervisorEnv + "=" + string(spec), nil
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

// closeChildEnds closes this process's copies of what the supervisor got.
func (c *control) closeChildEnds() {
	for _, f := range []*os.File{c.filter, c.endedW, c.releasedR} {
		if f != nil {
			f.Close()
		}
	}
}

// waitEnded returns when the sandbox has ended, or the supervisor has died.
func (c *control) waitEnded() {
	var b [1]byte
	_, _ = c.endedR.Read(b[:])
}

// closeOurEnds lets the supervisor exit.
func (c *control) closeOurEnds() {
	c.endedR.Close()
	c.releasedW.Close()
}
