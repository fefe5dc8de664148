package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// run's process outlives a kill of its process group. Agents end a tool
// call that takes too long by killing its process group, with SIGKILL
// (Codex does, on a timeout or on Ctrl-C), which nobody can catch: a run
// killed that way would leave its sandbox's cleanup undone (the
// quarantine of what the command left to run later, the placeholders of
// missing protected files, the user's terminal settings). So run does its
// work in a worker, the same program started again in a session of its
// own, which such a kill does not reach, and only waits for it: it passes
// the worker's exit status on, and the interrupts it gets (Ctrl-C, a
// SIGTERM) to the worker, which ends the sandbox and cleans up as when it
// is interrupted itself. The worker holds the read end of a pipe whose
// write end only the waiting process has: when that process is gone,
// however it ended, the worker reads end of file and interrupts itself.
//
// A kill of every process of the tree one by one (rather than of the
// group) still reaches the worker, which is a child of the waiting
// process.

// lifelineEnv names, in the worker's environment, its descriptor of the
// lifeline pipe. The worker removes it from its environment, so the
// command never sees it.
const lifelineEnv = "SANDBOXAUTH_RUN_LIFELINE"

// supervise runs run's work (args being run's arguments) in a worker and
// returns its exit status with true; it returns false when this process
// is the worker, or when e is not this program's own standard streams (a
// test driving run in-process), and run's work is to be done here.
func supervise(e *env, args []string) (int, bool) {
	if !e.detach {
		return 0, false
	}
	if v, ok := os.LookupEnv(lifelineEnv); ok {
		os.Unsetenv(lifelineEnv)
		if err := watchLifeline(v); err != nil {
			fmt.Fprintf(e.stderr, "sandboxauth run: %v\n", err)
			return exitRunUsage, true
		}
		return 0, false
	}
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(e.stderr, "sandboxauth run: refused: cannot find this program to start its worker: %v\n", err)
		return exitRunRefused, true
	}
	lifeR, lifeW, err := os.Pipe()
	if err != nil {
		fmt.Fprintf(e.stderr, "sandboxauth run: refused: %v\n", err)
		return exitRunRefused, true
	}
	defer lifeW.Close()
	w := exec.Command(exe, append([]string{"run"}, args...)...)
	w.Stdin, w.Stdout, w.Stderr = e.stdin, e.stdout, e.stderr
	if inBackground(e.stdin) || inBackground(e.stdout) || inBackground(e.stderr) {
		// The worker and the sandbox have sessions of their own, where
		// the terminal's job control cannot stop a read (SIGTTIN): given
		// the terminal, on any of its streams (a shell opens it for
		// reading and writing: 2>&1 or </dev/null leave the rest on it),
		// the command would take what the user types next at the shell's
		// prompt, passwords included. Its output goes
		// through this process, which job control does reach, so that
		// the command holds no descriptor of the terminal at all (and
		// the worker has no terminal settings to put back over the
		// shell's when it ends).
		fmt.Fprintln(e.stderr, "sandboxauth run: started in the background of your terminal, so the command reads nothing from it (its standard input is /dev/null) and its output comes through run.")
		w.Stdin = nil
		w.Stdout, w.Stderr = relayed{e.stdout}, relayed{e.stderr}
	}
	w.ExtraFiles = []*os.File{lifeR}
	w.Env = append(os.Environ(), lifelineEnv+"=3")
	w.SysProcAttr = &syscall.SysProcAttr{Setsid: true}

	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	defer signal.Stop(sigs)
	err = w.Start()
	lifeR.Close()
	if err != nil {
		fmt.Fprintf(e.stderr, "sandboxauth run: refused: cannot start its worker: %v\n", err)
		return exitRunRefused, true
	}
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			select {
			case s := <-sigs:
				_ = w.Process.Signal(s)
			case <-done:
				return
			}
		}
	}()
	err = w.Wait()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return exitOK, true
	case errors.As(err, &ee):
		if st, ok := ee.Sys().(syscall.WaitStatus); ok && st.Signaled() {
			return 128 + int(st.Signal()), true
		}
		return ee.ExitCode(), true
	}
	fmt.Fprintf(e.stderr, "sandboxauth run: %v\n", err)
	return exitRunRefused, true
}

// watchLifeline watches the lifeline whose descriptor v names: when the
// waiting process is gone, this process interrupts itself (SIGTERM), which
// ends the sandbox and runs its cleanup, or, before the command started,
// ends this process. It also keeps a write to a closed standard stream
// from killing this process before its cleanup (SIGPIPE is caught, so the
// write fails instead; the command still gets the default action).
func watchLifeline(v string) error {
	fd, err := strconv.Atoi(v)
	var st unix.Stat_t
	if err != nil || fd < 3 || unix.Fstat(fd, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFIFO {
		return fmt.Errorf("%s=%q does not name a pipe: it is set by sandboxauth run for its worker; unset it", lifelineEnv, v)
	}
	unix.CloseOnExec(fd)
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	life := os.NewFile(uintptr(fd), "lifeline")
	go func() {
		var b [1]byte
		_, _ = life.Read(b[:])
		_ = unix.Kill(os.Getpid(), unix.SIGTERM)
	}()
	return nil
}

// relayed hides the *os.File behind a writer, so that exec.Cmd gives the
// worker a pipe and copies what comes through it.
type relayed struct{ io.Writer }
