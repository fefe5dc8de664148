package confine

import (
	"fmt"
	"os"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The sandbox's first process, the helper, is what kills the sandbox when
// a mount over one of its paths is lost and what ends it when the run is
// stopped: it must get the CPU whenever it wakes. It runs as the same
// user as the command, and the kernel lets a process change the
// scheduling of any other of its user: the command could make every
// thread of the helper SCHED_IDLE (sched_setscheduler), give it nice 19
// (setpriority) and the idle I/O class (ioprio_set), pin it to one CPU
// (sched_setaffinity) that it keeps busy, or move its memory to a far
// node (migrate_pages, move_pages); the helper would then run seconds
// late, or only when the command let it. It could also make itself
// favoured over the helper: a real-time policy (SCHED_FIFO, SCHED_RR)
// where the user's RLIMIT_RTPRIO allows one (limits.conf's rtprio for
// audio users), a lower nice value where RLIMIT_NICE allows.
//
// So a command may change the scheduling of the calling thread only, and
// only to make it run less:
//
//   - the system-call filter refuses with EPERM sched_setscheduler,
//     sched_setparam, sched_setattr, migrate_pages and move_pages (and
//     prlimit, seccomp_linux.go) unless their target is 0, the caller;
//     setpriority and ioprio_set unless they name one process
//     (PRIO_PROCESS, IOPRIO_WHO_PROCESS) and it is 0 (a process group or
//     a user holds the helper: the command is in the helper's process
//     group); and prctl(PR_SCHED_CORE) unless on the caller's thread or
//     thread group (a core-scheduling cookie of the helper's would keep
//     it off CPUs whose sibling runs the command). The kernel's target
//     is a pid_t or an int, so the low word of the argument is what it
//     reads.
//   - sched_setaffinity of another target than 0 returns 0 and changes
//     nothing. glibc's pthread_create sets the affinity a thread is
//     created with by its ID, from the creating thread, and fails when
//     that fails: OpenMP with OMP_PROC_BIND, OMP_PLACES or
//     GOMP_CPU_AFFINITY would then not start ("Thread creation failed").
//     Ignored, its threads run where the scheduler puts them. A program
//     that reads the affinity back (taskset -p) sees it unchanged.
//   - the caller's other threads and its children have non-zero IDs as
//     the helper's threads do, and the filter cannot tell them apart:
//     renice -p, chrt -p and ionice -p of a running process, a thread
//     changing its own policy or nice value by its ID
//     (pthread_setschedparam, node's os.setPriority(process.pid, ...))
//     fail; nice, taskset, chrt and ionice that start a program, and a
//     process changing itself by pid 0 (Python's os.sched_setaffinity(0,
//     ...), os.nice, node's os.setPriority(0, ...)), work.
//   - the helper sets its own RLIMIT_RTPRIO and RLIMIT_NICE, soft and
//     hard, to 0 before it starts the command, which inherits them and,
//     without CAP_SYS_RESOURCE in the machine's user namespace, cannot
//     raise them: no real-time policy, and no nice value lower than the
//     one it started with (SCHED_DEADLINE needs CAP_SYS_NICE already).
//
// Then the command's processes are scheduled as the helper is or worse.
// A fair share is not enough, though: with the same slice, a woken thread
// of the helper waits behind the command's busy processes, tens to
// hundreds of milliseconds with a hundred of them. So the helper's
// threads that kill (the mount watch, the watch on bubblewrap) take the
// shortest slice (helperSlice), and the command cannot take one
// (refuseSlices).
//
// Undoing, when the helper wakes, what was done to it would not do: a
// helper made to wait may not wake in time. Nor would a watcher outside
// the sandbox that kills it: a PID namespace ends with its first
// process's exit, which runs on the helper's scheduling, so such a
// watcher would have to kill every process of the sandbox itself.

// ownTaskCalls are the system calls whose first argument names the task
// they change (0: the caller).
var ownTaskCalls = [...]uint32{
	unix.SYS_SCHED_SETSCHEDULER,
	unix.SYS_SCHED_SETPARAM,
	unix.SYS_SCHED_SETATTR,
	unix.SYS_MIGRATE_PAGES,
	unix.SYS_MOVE_PAGES,
}

// ioprioWhoProcess is linux/ioprio.h's IOPRIO_WHO_PROCESS, which
// x/sys/unix does not name: ioprio_set's target is one process (or
// thread).
const ioprioWhoProcess = 1

// schedulingJumps emits the filter's dispatch of the calls that change a
// task's scheduling to schedulingFilter's labels.
func schedulingJumps(a *asm) {
	for _, nr := range ownTaskCalls {
		a.jumpIf(unix.BPF_JEQ, nr, "own-task", "")
	}
	a.jumpIf(unix.BPF_JEQ, unix.SYS_SCHED_SETAFFINITY, "sched_setaffinity", "")
	a.jumpIf(unix.BPF_JEQ, unix.SYS_SETPRIORITY, "setpriority", "")
	a.jumpIf(unix.BPF_JEQ, unix.SYS_IOPRIO_SET, "ioprio_set", "")
	a.jumpIf(unix.BPF_JEQ, unix.SYS_PRCTL, "prctl", "")
}

// schedulingFilter emits the checks schedulingJumps leads to, which end
// at the filter's "allow" and "eperm" labels, or return 0 undone.
func schedulingFilter(a *asm) {
	a.label("own-task") // (pid, ...): pid is a pid_t, 0 the caller
	a.load(offArg(0))
	a.jumpIf(unix.BPF_JEQ, 0, "allow", "eperm")
	a.label("sched_setaffinity") // (pid, len, mask): another pid's is ignored
	a.load(offArg(0))
	a.jumpIf(unix.BPF_JEQ, 0, "allow", "")
	// errno 0: the call returns 0, undone.
	a.ret(unix.SECCOMP_RET_ERRNO)
	a.label("setpriority") // setpriority(which, who, prio): ints
	a.load(offArg(0))
	a.jumpIf(unix.BPF_JEQ, unix.PRIO_PROCESS, "own-who", "eperm")
	a.label("ioprio_set") // ioprio_set(which, who, ioprio): ints
	a.load(offArg(0))
	a.jumpIf(unix.BPF_JEQ, ioprioWhoProcess, "own-who", "eperm")
	a.label("own-who")
	a.load(offArg(1))
	a.jumpIf(unix.BPF_JEQ, 0, "allow", "eperm")
	a.label("prctl") // prctl(PR_SCHED_CORE, cmd, pid, scope, cookie)
	a.load(offArg(0))
	a.jumpIf(unix.BPF_JEQ, unix.PR_SCHED_CORE, "", "allow")
	a.load(offArg(2))
	a.jumpIf(unix.BPF_JEQ, 0, "", "eperm")
	a.load(offArg(3))
	a.jumpIf(unix.BPF_JEQ, unix.PR_SCHED_CORE_SCOPE_THREAD, "allow", "")
	a.jumpIf(unix.BPF_JEQ, unix.PR_SCHED_CORE_SCOPE_THREAD_GROUP, "allow", "eperm")
}

// capScheduling sets the calling process's RLIMIT_RTPRIO and RLIMIT_NICE
// to 0, soft and hard: the command the helper starts inherits them, and
// can then neither take a real-time policy nor lower its nice value, so
// none of its processes is scheduled ahead of the helper.
func capScheduling() error {
	for _, r := range []struct {
		res  int
		name string
	}{{unix.RLIMIT_RTPRIO, "RLIMIT_RTPRIO"}, {unix.RLIMIT_NICE, "RLIMIT_NICE"}} {
		if err := unix.Setrlimit(r.res, &unix.Rlimit{}); err != nil {
			return fmt.Errorf("setrlimit(%s, 0): %v", r.name, err)
		}
	}
	return nil
}

// helperSlice is the time slice the helper's threads that kill ask for
// (the kernel's least, 0.1 ms; the default is some milliseconds). Linux's
// fair scheduler (EEVDF, 6.6 and later) runs first, among tasks of the
// same weight, the one whose virtual deadline is earliest, a slice past
// where it starts; and from 6.12 a waking task with a shorter slice
// preempts the running one. So a thread of the helper that wakes when a
// mount is lost runs at once, however many processes of the command wait
// for the CPU with their default slice; with the default slice it waited
// behind them, tens to hundreds of milliseconds on a busy machine.
const helperSlice = 100_000 // nanoseconds

// schedAttr is the kernel's struct sched_attr (linux/sched/types.h), 56
// bytes.
type schedAttr struct {
	size, policy     uint32
	flags            uint64
	nice             int32
	priority         uint32
	runtime          uint64 // a fair task's slice (Linux 6.12), in ns
	deadline, period uint64
	utilMin, utilMax uint32
}

// setSlice gives the calling thread the slice slice (0: the kernel's
// default), keeping its policy and nice value. Kernels before 6.12 take
// the call and ignore the slice. A thread whose policy is not SCHED_OTHER
// or SCHED_BATCH (a caller that runs the helper otherwise) is left alone.
func setSlice(slice uint64) error {
	policy, _, errno := unix.RawSyscall(unix.SYS_SCHED_GETSCHEDULER, 0, 0, 0)
	if errno != 0 {
		return os.NewSyscallError("sched_getscheduler", errno)
	}
	if policy != unix.SCHED_NORMAL && policy != unix.SCHED_BATCH {
		return nil
	}
	// getpriority returns 20 - nice, so as not to be negative.
	prio, err := unix.Getpriority(unix.PRIO_PROCESS, 0)
	if err != nil {
		return fmt.Errorf("getpriority: %v", err)
	}
	attr := schedAttr{policy: uint32(policy), nice: int32(20 - prio), runtime: slice}
	attr.size = uint32(unsafe.Sizeof(attr))
	if _, _, errno := unix.RawSyscall(unix.SYS_SCHED_SETATTR, 0, uintptr(unsafe.Pointer(&attr)), 0); errno != 0 {
		return os.NewSyscallError("sched_setattr", errno)
	}
	return nil
}

// onShortSlice runs f on a thread of its own with the slice helperSlice
// (see there); f is what kills the sandbox. Not getting the slice is no
// reason not to kill.
func onShortSlice(f func()) {
	go func() {
		runtime.LockOSThread()
		_ = setSlice(helperSlice)
		f()
	}()
}

// refuseSlices installs, on the calling thread (the one the command is
// started from, which has given up the helper's slice), slicesFilter: the
// command cannot take the short slice the helper's threads have, which
// would run its processes as soon as the helper's again.
func refuseSlices() error {
	f, err := slicesFilter()
	if err != nil {
		return err
	}
	prog := unix.SockFprog{Len: uint16(len(f)), Filter: &f[0]}
	if _, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, 0, uintptr(unsafe.Pointer(&prog))); errno != 0 {
		return os.NewSyscallError("seccomp", errno)
	}
	return nil
}

// slicesFilter is a filter under which sched_setattr, the only call that
// sets a slice, fails with EPERM. The sandbox's filter has let the helper
// make it on itself (pid 0); the command makes every other scheduling
// change with sched_setscheduler and setpriority, which chrt uses for all
// but SCHED_DEADLINE (which needs a capability the command lacks). Calls
// of another architecture are the sandbox's filter's to kill.
func slicesFilter() ([]unix.SockFilter, error) {
	var a asm
	a.load(offArch)
	a.jumpIf(unix.BPF_JEQ, auditArch(), "", "allow")
	a.load(offNr)
	a.jumpIf(unix.BPF_JEQ, unix.SYS_SCHED_SETATTR, "", "allow")
	a.ret(unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM))
	a.label("allow")
	a.ret(unix.SECCOMP_RET_ALLOW)
	return a.assemble()
}
