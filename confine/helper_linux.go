package confine

import (
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// The helper is the calling program itself, started by bubblewrap inside
// the view as the sandbox's first process (PID 1 of its PID namespace,
// bubblewrap's --as-pid-1). It:
//
//  1. marks every descriptor but the command's close-on-exec, and makes
//     itself undumpable, so that the command can neither use its pipes
//     nor reach it through /proc or ptrace;
//  2. puts its thread in a Landlock domain that lets it write only
//     beneath the view's writable places, and starts the command from
//     that thread, so the command inherits the domain;
//  3. reaps every process of the sandbox (orphans come to PID 1); when the
//     command exits, kills what it left behind, and waits until nothing
//     of the sandbox is left;
//  4. tells the starting thread (a byte on the "ended" pipe) and waits for
//     it to finish with the sandbox (the "released" pipe reaching its end:
//     Policy.AfterExit, the placeholders), then exits with the command's
//     status, and bubblewrap with it. So the caller's cmd.Wait returns
//     only once the sandbox is gone and the project is as it should be.
//
// Mounts decide what is writable by where a file lies; Landlock decides by
// the path it was reached through, and it covers what a read-only mount
// does not: a FIFO or socket file of an outside program (writing into a
// named pipe changes no file system), and a file system mounted on the
// machine after the command started (it arrives in the view with its own
// flags, writable). Landlock has to come after bubblewrap's mounts, which
// it would forbid, hence a step inside.
//
// Every program that imports this package can be the helper: package
// initialization looks for helperEnv, and a program started with it runs
// the helper and never its own main. The variable is removed before the
// command runs.

// helperEnv names the variable that makes a program the helper; its value
// is the helper's spec, as JSON.
const helperEnv = "SANDBOXAUTH_CONFINE_HELPER"

// helperPath is where the calling program is bound in the view: /run is
// the command's own empty file system, where bubblewrap can make the
// mount point whatever the program's own path.
const helperPath = "/run/sandboxauth-confine-helper"

// saySlack is how long the helper, once it has killed the sandbox for a
// lost mount, waits for its message on the command's standard error
// before it lets the sandbox end: the write blocks while a terminal's
// output is suspended (the command's tcflow, put back only after the
// end).
const saySlack = time.Second

// helperSpec is what the helper needs to know.
type helperSpec struct {
	Path     string     `json:"path"`              // the program to execute, with the helper's arguments as its argv
	Writable []string   `json:"writable"`          // paths in the view beneath which writing is allowed
	ReadsFD  int        `json:"readsFD,omitempty"` // descriptor: the reading rules, JSON, where hidden paths lie outside them
	Reads    *readRules `json:"-"`                 // read from ReadsFD (too large for an argument)
	// ruleset receives the Landlock ruleset, built while the rest is
	// prepared (hundreds of rules, where hidden paths lie outside the
	// writable places).
	ruleset   <-chan rulesetResult
	Watch     []string `json:"watch"`     // paths whose mounts are watched (see mountWatch)
	ABI       int      `json:"abi"`       // the kernel's Landlock ABI, as the starter found it
	Keep      int      `json:"keep"`      // descriptors 0..Keep-1 go to the command
	Ended     int      `json:"ended"`     // descriptor: written when the sandbox has ended
	Released  int      `json:"released"`  // descriptor: reaches its end when the caller is done
	Lifeline  int      `json:"lifeline"`  // descriptor: reaches its end when bubblewrap is gone
	LifelineW int      `json:"lifelineW"` // descriptor: the lifeline's write end, closed at once
	// GuardConnect puts the command's connect calls behind the helper
	// (see connectguard_linux.go), and with Network its SO_REUSEADDR
	// (addressreuse_linux.go).
	GuardConnect bool `json:"guardConnect"`
	// Network says the command shares the machine's network namespace:
	// abstract UNIX names are then the machine's, and the guard connects
	// them from the command's Landlock domain (see connectguard_linux.go).
	Network bool `json:"network"`
}

func init() {
	v, ok := os.LookupEnv(helperEnv)
	if !ok {
		return
	}
	os.Exit(runHelper(v, os.Args[1:]))
}

// runHelper runs the sandbox's first process and returns the status to
// exit with.
func runHelper(spec string, argv []string) int {
	var s helperSpec
	if err := json.Unmarshal([]byte(spec), &s); err != nil || len(argv) == 0 || s.Keep < 3 || s.Ended < s.Keep || s.Released < s.Keep {
		fmt.Fprintf(os.Stderr, "sandboxauth confinement: bad helper spec %q for %q\n", spec, argv)
		return 126
	}
	if os.Getpid() != 1 {
		// Outside a PID namespace of its own (the variable set by hand),
		// killing "everything left" would kill every process of the user.
		fmt.Fprintf(os.Stderr, "sandboxauth confinement: %s is set, but this is not the first process of a sandbox; unset it\n", helperEnv)
		return 126
	}
	if s.ReadsFD >= s.Keep {
		f := os.NewFile(uintptr(s.ReadsFD), "reads")
		err := json.NewDecoder(f).Decode(&s.Reads)
		f.Close()
		if err != nil || s.Reads == nil {
			fmt.Fprintf(os.Stderr, "sandboxauth confinement: reading the reading rules: %v\n", err)
			return 126
		}
	}
	ended := os.NewFile(uintptr(s.Ended), "ended")
	released := os.NewFile(uintptr(s.Released), "released")
	// Once bubblewrap is gone nothing may go on: its parent-death signal
	// should end this process, but may have been lost while bubblewrap
	// set the sandbox up.
	var orphaned atomic.Bool
	if s.LifelineW >= s.Keep && s.Lifeline >= s.Keep {
		unix.Close(s.LifelineW)
		onShortSlice(func() {
			// bubblewrap writes its status there; the end of file is
			// what counts.
			var b [512]byte
			for {
				n, err := unix.Read(s.Lifeline, b[:])
				if err == unix.EINTR || n > 0 {
					continue
				}
				break
			}
			orphaned.Store(true)
			_ = unix.Kill(-1, unix.SIGKILL)
		})
	}
	status := 126
	word := endedLost // what the "ended" pipe says (see endedHeld)
	watch, err := newMountWatch(s.Watch)
	if err == nil {
		// Only once every descriptor this process closes by number is
		// closed (the lifeline's write end above, which bubblewrap may
		// not have passed on): the ruleset's builder opens and closes
		// descriptors meanwhile, and must not have one closed under it,
		// nor close the mount table's when it reuses the number.
		ruleset := make(chan rulesetResult, 1)
		s.ruleset = ruleset
		go func() {
			fd, err := fileRuleset(s.ABI, s.Writable, s.Reads)
			ruleset <- rulesetResult{fd, err}
		}()
		var pid int
		if pid, err = startCommand(s, argv); err == nil {
			var reaped, stopped, lostAny atomic.Bool
			said := make(chan struct{})
			onShortSlice(func() {
				lost, err := watch.lost()
				lostAny.Store(true)
				if reaped.Load() {
					return // the command has ended: nothing to stop
				}
				stopped.Store(true)
				defer close(said)
				if err == nil {
					err = fmt.Errorf("%s was renamed or removed outside while the command ran, which lifts its protection inside; the command was stopped", lost)
				}
				// Kill first, then say why: the standard error is the
				// command's too, and a write to it can block for as long
				// as the command chooses (a terminal whose output it
				// suspended with tcflow, a pipe it filled).
				orphaned.Store(true) // kill what is left, as when bubblewrap is gone
				_ = unix.Kill(-1, unix.SIGKILL)
				fmt.Fprintf(os.Stderr, "sandboxauth confinement: %v\n", err)
			})
			status = reapAll(pid, &orphaned)
			reaped.Store(true)
			if stopped.Load() {
				// Say why before the sandbox ends, unless the write
				// blocks: then it is the kill that counts.
				select {
				case <-said:
				case <-time.After(saySlack):
				}
			}
			// Nothing of the command is left: if every mount is still
			// there, none was detached while it could act.
			if !lostAny.Load() && watch.held() {
				word = endedHeld
			}
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "sandboxauth confinement: %v\n", err)
	}
	_, _ = ended.Write([]byte{word})
	var b [1]byte
	for {
		if _, err := released.Read(b[:]); err != nil {
			break
		}
	}
	return status
}

// startCommand starts the command from a thread of its own, restricted,
// which then ends; it returns the command's PID.
func startCommand(s helperSpec, argv []string) (int, error) {
	// The command gets descriptors 0..Keep-1 and nothing else, whatever
	// bubblewrap passed on.
	if err := unix.CloseRange(uint(s.Keep), ^uint(0), unix.CLOSE_RANGE_CLOEXEC); err != nil {
		return 0, fmt.Errorf("close_range: %v", err)
	}
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return 0, fmt.Errorf("prctl(PR_SET_DUMPABLE): %v", err)
	}
	// No process of the command is scheduled ahead of this one
	// (scheduling_linux.go).
	if err := capScheduling(); err != nil {
		return 0, err
	}
	// The signals are taken while the rest is prepared (each is a round
	// trip with the runtime's signal thread); the command starts only
	// once they all are.
	taken := make(chan struct{})
	go func() {
		takeSignals()
		close(taken)
	}()
	env := make([]string, 0, len(os.Environ()))
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, helperEnv+"=") {
			env = append(env, e)
		}
	}
	files := make([]uintptr, s.Keep)
	for i := range files {
		files[i] = uintptr(i)
	}
	return startRestricted(s, argv, env, files, taken)
}

// startRestricted puts a thread of its own in a Landlock domain that
// allows writing only beneath s.Writable and (where the kernel scopes)
// neither signalling nor reaching the abstract sockets of a process
// outside the domain, starts the command from that thread, and lets the
// thread end with the goroutine (it stays locked). So the command is in
// the domain and no thread of the helper is: the command cannot signal
// the helper (which would end it, and the sandbox with it, before the
// caller is done), nor ptrace it or read its /proc entries. With Network
// and the connect guard the thread stays instead, to connect abstract
// names from the domain (connectguard_linux.go): Landlock then lets the
// command signal that one thread, and what keeps the helper is the rest
// (a PID 1 gets only the signals it handles, and drops those that would
// end it; it is undumpable).
func startRestricted(s helperSpec, argv, env []string, files []uintptr, taken <-chan struct{}) (int, error) {
	type started struct {
		pid int
		err error
	}
	res := make(chan started, 1)
	onRetiredThread(func() {
		pid, guard, err := forkRestricted(s, argv, env, files, taken)
		res <- started{pid, err}
		if guard != nil && guard.inDomain != nil {
			// With Network this thread, in the command's domain, stays:
			// it makes the command's connects to abstract names.
			guard.connectInDomain()
		}
	})
	r := <-res
	return r.pid, r.err
}

// rulesetResult is a Landlock ruleset's descriptor, or why there is none.
type rulesetResult struct {
	fd  int
	err error
}

// forkRestricted restricts the calling thread and starts the command from
// it (see startRestricted) once taken is closed. It returns the command's
// PID and the guard of its connect calls, if any, already serving.
func forkRestricted(s helperSpec, argv, env []string, files []uintptr, taken <-chan struct{}) (int, *connectGuard, error) {
	r := <-s.ruleset
	fd, err := r.fd, r.err
	if err != nil {
		return 0, nil, err
	}
	err = restrictThread(fd)
	unix.Close(fd)
	if err != nil {
		return 0, nil, err
	}
	listener := -1
	if s.GuardConnect {
		if listener, err = installConnectFilter(addressReuseFor(s.Network, true)); err != nil {
			return 0, nil, err
		}
	}
	// The command gets the default slice, and cannot take the helper's
	// (scheduling_linux.go). Where the slice cannot be set, this thread
	// has the default one already.
	_ = setSlice(0)
	if err := refuseSlices(); err != nil {
		return 0, nil, err
	}
	<-taken
	pid, err := syscall.ForkExec(s.Path, argv, &syscall.ProcAttr{Env: env, Files: files})
	if err != nil {
		return 0, nil, fmt.Errorf("%s: %w", s.Path, err)
	}
	if listener < 0 {
		return pid, nil, nil
	}
	g := newConnectGuard(listener, s.Writable, s.Network)
	go g.serve()
	return pid, g, nil
}

// reapAll waits for every process of the sandbox and returns the
// command's exit status (128+N when signal N ended it). When the command
// has exited, or bubblewrap is gone (orphaned), what is left running is
// killed.
func reapAll(pid int, orphaned *atomic.Bool) int {
	status := 126
	ended := false
	for {
		if ended || orphaned.Load() {
			// Every process of the namespace but this one, again for any
			// that a dying one started.
			_ = unix.Kill(-1, unix.SIGKILL)
		}
		// __WALL: a process made by clone() with no exit signal is a
		// child too, and the sandbox has ended only once it is gone.
		var ws unix.WaitStatus
		p, err := unix.Wait4(-1, &ws, unix.WALL, nil)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return status // ECHILD: nothing of the sandbox is left
		}
		if p != pid {
			continue
		}
		switch {
		case ws.Exited():
			status = ws.ExitStatus()
		case ws.Signaled():
			status = 128 + int(ws.Signal())
		}
		ended = true
	}
}

// fatalSignals are the signals that end or crash a Go program that has
// not asked for them (os/signal's "Default behavior of signals in Go
// programs"). The runtime catches every other signal and does nothing,
// or leaves it at its default (SIGTSTP, SIGTTIN, SIGTTOU), which the
// kernel drops for a PID 1 when it comes from inside the namespace.
var fatalSignals = [...]os.Signal{
	unix.SIGHUP, unix.SIGINT, unix.SIGTERM, // exit
	unix.SIGQUIT, unix.SIGILL, unix.SIGTRAP, unix.SIGABRT, unix.SIGSTKFLT, unix.SIGSYS, // exit with a stack dump
	unix.SIGBUS, unix.SIGFPE, unix.SIGSEGV, // a crash when sent by kill or sigqueue
	unix.SIGPIPE, // exit, on a write to a closed standard error
}

// takeSignals makes every signal harmless to the helper. As PID 1 it gets
// only the signals it has a handler for, and only from inside, and the
// runtime has one for most: those on which it would end or crash are
// taken here and dropped (SIGABRT, or SIGSEGV sent with kill, would crash
// it). Handlers, unlike ignored signals, are not inherited: the command
// starts with the default for each. Only these are asked for, not every
// signal, because the runtime hands each one asked for to its signal
// thread and waits for the answer: 60 such round trips took 1.5 to 3 ms
// of every start.
func takeSignals() {
	sigs := make(chan os.Signal, 16)
	signal.Notify(sigs, fatalSignals[:]...)
	go func() {
		for range sigs {
		}
	}()
}

// helperWritable is where the command may write in view v: its writable
// places, its own /tmp, /var/tmp, /run and /dev/shm, and /dev
// (bubblewrap's, with only the harmless devices and its own terminals).
// Nothing under /proc: as root, the kernel's settings there would act on
// the whole machine.
func helperWritable(v *view) []string {
	out := []string{"/dev"}
	out = append(out, privateDirs[:]...)
	for _, b := range v.writable {
		out = append(out, b.Dst)
	}
	return out
}
