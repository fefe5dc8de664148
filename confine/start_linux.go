package confine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/sandboxauth/sandboxauth/internal/pathres"
)

// support returns the bubblewrap to use and the Landlock ABI when this
// machine can confine a command with the given network setting, and an
// error wrapping ErrUnavailable otherwise. It does not start anything.
func support(network bool) (bwrap string, abi int, err error) {
	if auditArch() == 0 {
		return "", 0, fmt.Errorf("confine: no system-call filter is built for %s, and confinement needs one: %w", runtime.GOARCH, ErrUnavailable)
	}
	if bwrap, err = findBwrap(); err != nil {
		return "", 0, err
	}
	abi = landlockABI()
	if abi < 1 {
		return "", 0, fmt.Errorf("confine: this Linux kernel does not enforce Landlock, which keeps a confined command from writing into outside pipes and file systems mounted after it started; it needs Linux 5.13 or later with \"landlock\" in its lsm= boot parameter: %w", ErrUnavailable)
	}
	if err := checkScope(abi, network); err != nil {
		return "", 0, err
	}
	return bwrap, abi, nil
}

func available() error {
	bwrap, _, err := support(false)
	if err != nil {
		return err
	}
	return probe(bwrap)
}

func start(cmd *exec.Cmd, p *Policy, finished func()) (err error) {
	if a := cmd.SysProcAttr; a != nil && (a.Pdeathsig != 0 || a.Cloneflags != 0 || a.Unshareflags != 0 || a.Chroot != "" || a.Credential != nil || len(a.UidMappings) > 0 || len(a.GidMappings) > 0 || a.UseCgroupFD || a.Foreground || a.Ctty != 0) {
		return errors.New("confine: cmd.SysProcAttr sets namespaces, credentials, a chroot, a cgroup, a terminal or a parent-death signal, which confinement sets itself; leave them unset")
	}
	bwrap, abi, err := support(p.Network)
	if err != nil {
		return err
	}
	if err := namespacesForbidden(bwrap); err != nil {
		return err
	}
	if err := executable(cmd); err != nil {
		return err
	}
	guarded := connectGuardable()
	filter, err := filterProgram(unixSocketsFor(guarded), addressReuseFor(p.Network, guarded))
	if err != nil {
		return err
	}
	sandbox, _, ok := existing(p.Sandbox)
	if !ok {
		return fmt.Errorf("confine: Policy.Sandbox %q cannot be resolved", p.Sandbox)
	}
	// The writable places, less those the view refuses anyway (the home
	// directory or above: resolveView says so, better than a complaint
	// about the bookkeeping could).
	writable := writableOutsideHome(p.Writable)
	book, err := bookkeepingDir(sandbox, writable)
	if err != nil {
		return err
	}
	if p.PrivateRoot == "" {
		p.PrivateRoot = filepath.Join(book, "private")
	}
	// The records of every sandbox are out of the command's sight.
	p.Hidden = append(slices.Clone(p.Hidden), bookkeepingHidden()...)
	lock, err := lockPlaceholders(book, sandbox, writable)
	if err != nil {
		return err
	}
	v, err := resolveView(cmd, p)
	if rerr := lock.record(v.created); err == nil && rerr != nil {
		err = fmt.Errorf("confine: recording placeholders: %w", rerr)
	}
	if err != nil {
		lock.release()
		return err
	}

	ctl, err := newControl(encodeFilter(filter))
	if err != nil {
		lock.release()
		return err
	}
	defer ctl.closeChildEnds()
	// Everything the child needs is made before cmd is changed, so that a
	// failure leaves the caller's cmd as it was.
	n := len(cmd.ExtraFiles)
	src, err := openSources(v, 3+n+len(ctl.childFiles()))
	if err != nil {
		ctl.closeOurEnds()
		ctl.closeLifeline()
		lock.release()
		return err
	}
	defer src.close()
	argv := slices.Clone(cmd.Args)
	if len(argv) == 0 {
		argv = []string{cmd.Path}
	}
	keep := 3 + n
	spec, err := ctl.helperSpec(cmd.Path, v, src, abi, keep, guarded, p.Network)
	if err != nil {
		ctl.closeOurEnds()
		ctl.closeLifeline()
		lock.release()
		return fmt.Errorf("confine: %w", err)
	}

	cmd.Env = commandEnv(cmd.Environ(), v, p.Network, p.HiddenEnv, p.HiddenEnvUserinfo)
	cmd.ExtraFiles = append(append(cmd.ExtraFiles, ctl.childFiles()...), src.files...)
	cmd.Args = append([]string{bwrap}, bwrapArgs(v, p.Network, keep, src, spec, argv)...)
	cmd.Path = bwrap
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL

	// The caller's files that the command must not hold are relayed
	// (streamrelay_linux.go); the terminals and flags below are those of
	// the streams it is given.
	restoreStreams := relayStreams(cmd)
	devicesDone := sharedDevices(book)
	terminalsDone := sharedTerminals(book, cmd.Stdin, cmd.Stdout, cmd.Stderr)
	flags := snapshotStreamFlags(cmd.Stdin, cmd.Stdout, cmd.Stderr)
	afterExit := func() {
		devicesDone()
		terminalsDone()
		restoreStreamFlags(flags)
		lock.release()
		if p.MountsHeld != nil {
			p.MountsHeld(ctl.held)
		}
		if p.AfterExit != nil {
			p.AfterExit()
		}
	}
	errc := make(chan error, 1)
	onRetiredThread(func() { runFrom(cmd, lock, ctl, afterExit, finished, errc) })
	err = <-errc
	cmd.ExtraFiles = cmd.ExtraFiles[:n]
	if err != nil {
		restoreStreams()
		// Nothing ran: this closes their descriptors.
		devicesDone()
		terminalsDone()
		restoreStreamFlags(flags)
	}
	return err
}

// runFrom starts cmd and keeps its thread until bubblewrap has exited; it
// runs on a retired thread of its own (onRetiredThread): bubblewrap's
// parent-death signal, and through its --die-with-parent the sandbox's
// life, are tied to the thread that started it. (Landlock's scoping is
// the helper's ruleset's, which the command alone is in: a domain put on
// this thread would deny every rename across directories, which Landlock
// refuses in any domain that does not grant it, and a domain that
// grants it must handle file access, which forbids bubblewrap's mounts.)
// Once the sandbox has ended,
// afterExit runs (releasing the sandbox's placeholders before the
// caller's AfterExit), and only then is the helper let go, so that
// cmd.Wait returns after the project is as it was; then finished, if not
// nil, is called.
func runFrom(cmd *exec.Cmd, lock *placeholderLock, ctl *control, afterExit, finished func(), errc chan<- error) {
	fail := func(err error) {
		lock.release()
		ctl.closeOurEnds()
		ctl.closeLifeline()
		errc <- err
	}
	if err := cmd.Start(); err != nil {
		fail(err)
		return
	}
	pidfd, pidErr := unix.PidfdOpen(cmd.Process.Pid, 0)
	ctl.closeChildEnds()
	errc <- nil
	if pidErr != nil {
		pidfd = -1
	}
	ctl.waitEnded(pidfd)
	afterExit()        // releases the placeholders too
	ctl.closeOurEnds() // lets the helper exit
	if finished != nil {
		finished()
	}
	defer ctl.closeLifeline()
	if pidErr != nil {
		return
	}
	defer unix.Close(pidfd)
	waitReadable(pidfd)
}

// executable fails as cmd.Start would when cmd's program cannot be run:
// bubblewrap only finds out inside, where the error would be its exit
// status.
func executable(cmd *exec.Cmd) error {
	path := cmd.Path
	if !filepath.IsAbs(path) && cmd.Dir != "" {
		path = filepath.Join(cmd.Dir, path)
	}
	if err := unix.Access(path, unix.X_OK); err != nil {
		return &fs.PathError{Op: "fork/exec", Path: cmd.Path, Err: err}
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return &fs.PathError{Op: "fork/exec", Path: cmd.Path, Err: unix.EACCES}
	}
	return nil
}

// writableOutsideHome returns the writable places that exist and lie
// outside the home directory, resolved (the view refuses the home
// directory or above anyway).
func writableOutsideHome(places []string) []string {
	var out []string
	home, _ := os.UserHomeDir()
	for _, w := range places {
		if real, _, ok := existing(w); ok && (home == "" || !pathres.Within(real, home)) {
			out = append(out, real)
		}
	}
	return out
}
