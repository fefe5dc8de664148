package confine

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// TestFilterScheduling runs the filter on the calls that change a task's
// scheduling: the caller's own (0) passes, any other target is refused.
func TestFilterScheduling(t *testing.T) {
	arch := auditArch()
	if arch == 0 {
		t.Skip("no system-call filter is built for this architecture")
	}
	const allow, eperm, ignored = unix.SECCOMP_RET_ALLOW, unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM), unix.SECCOMP_RET_ERRNO
	type filterCase struct {
		name string
		nr   uint32
		args [6]uint64
		want uint32
	}
	var tests []filterCase
	for _, nr := range ownTaskCalls {
		tests = append(tests,
			filterCase{fmt.Sprintf("system call %d on the caller", nr), nr, [6]uint64{0, 5}, allow},
			filterCase{fmt.Sprintf("system call %d on PID 1", nr), nr, [6]uint64{1, 5}, eperm},
			filterCase{fmt.Sprintf("system call %d on a thread", nr), nr, [6]uint64{4321}, eperm},
			// The kernel reads a pid_t: the high word is not the target.
			filterCase{fmt.Sprintf("system call %d on PID 1, high bits set", nr), nr, [6]uint64{1<<32 | 1}, eperm},
			filterCase{fmt.Sprintf("system call %d on 0, high bits set", nr), nr, [6]uint64{1 << 32}, allow})
	}
	tests = append(tests, []filterCase{
		{"sched_setaffinity of the caller", unix.SYS_SCHED_SETAFFINITY, [6]uint64{0, 8}, allow},
		{"sched_setaffinity of PID 1, ignored", unix.SYS_SCHED_SETAFFINITY, [6]uint64{1, 8}, ignored},
		{"sched_setaffinity of a thread, ignored", unix.SYS_SCHED_SETAFFINITY, [6]uint64{4321, 8}, ignored},
		{"sched_setaffinity of PID 1, high bits set, ignored", unix.SYS_SCHED_SETAFFINITY, [6]uint64{1<<32 | 1, 8}, ignored},
		{"setpriority of the caller", unix.SYS_SETPRIORITY, [6]uint64{unix.PRIO_PROCESS, 0, 10}, allow},
		{"setpriority of PID 1", unix.SYS_SETPRIORITY, [6]uint64{unix.PRIO_PROCESS, 1, 19}, eperm},
		{"setpriority of the caller's process group (the helper's)", unix.SYS_SETPRIORITY, [6]uint64{unix.PRIO_PGRP, 0, 19}, eperm},
		{"setpriority of the user's processes", unix.SYS_SETPRIORITY, [6]uint64{unix.PRIO_USER, 0, 19}, eperm},
		{"setpriority of another process group", unix.SYS_SETPRIORITY, [6]uint64{unix.PRIO_PGRP, 1, 19}, eperm},
		{"setpriority of an unknown kind", unix.SYS_SETPRIORITY, [6]uint64{7, 0, 19}, eperm},
		{"ioprio_set of the caller", unix.SYS_IOPRIO_SET, [6]uint64{ioprioWhoProcess, 0, 3 << 13}, allow},
		{"ioprio_set of PID 1", unix.SYS_IOPRIO_SET, [6]uint64{ioprioWhoProcess, 1, 3 << 13}, eperm},
		{"ioprio_set of the caller's process group", unix.SYS_IOPRIO_SET, [6]uint64{2, 0, 3 << 13}, eperm},
		{"ioprio_set of the user's processes", unix.SYS_IOPRIO_SET, [6]uint64{3, 0, 3 << 13}, eperm},
		{"prctl PR_SET_NAME", unix.SYS_PRCTL, [6]uint64{unix.PR_SET_NAME, 0}, allow},
		{"prctl PR_SET_DUMPABLE", unix.SYS_PRCTL, [6]uint64{unix.PR_SET_DUMPABLE, 0}, allow},
		{"PR_SCHED_CORE_CREATE for the caller's thread", unix.SYS_PRCTL, [6]uint64{unix.PR_SCHED_CORE, unix.PR_SCHED_CORE_CREATE, 0, unix.PR_SCHED_CORE_SCOPE_THREAD}, allow},
		{"PR_SCHED_CORE_CREATE for the caller's thread group", unix.SYS_PRCTL, [6]uint64{unix.PR_SCHED_CORE, unix.PR_SCHED_CORE_CREATE, 0, unix.PR_SCHED_CORE_SCOPE_THREAD_GROUP}, allow},
		{"PR_SCHED_CORE_CREATE for the caller's process group", unix.SYS_PRCTL, [6]uint64{unix.PR_SCHED_CORE, unix.PR_SCHED_CORE_CREATE, 0, unix.PR_SCHED_CORE_SCOPE_PROCESS_GROUP}, eperm},
		{"PR_SCHED_CORE_SHARE_TO PID 1", unix.SYS_PRCTL, [6]uint64{unix.PR_SCHED_CORE, unix.PR_SCHED_CORE_SHARE_TO, 1, unix.PR_SCHED_CORE_SCOPE_THREAD}, eperm},
		{"PR_SCHED_CORE of an unknown scope", unix.SYS_PRCTL, [6]uint64{unix.PR_SCHED_CORE, unix.PR_SCHED_CORE_CREATE, 0, 9}, eperm},
		{"sched_getaffinity of PID 1 (reading)", unix.SYS_SCHED_GETAFFINITY, [6]uint64{1}, allow},
		{"getpriority of PID 1 (reading)", unix.SYS_GETPRIORITY, [6]uint64{unix.PRIO_PROCESS, 1}, allow},
	}...)
	for _, network := range []bool{false, true} {
		prog, err := filterProgram(unixSocketsFor(network), addressReuseFor(network, true))
		require.NoError(t, err)
		for _, tt := range tests {
			assert.Equal(t, tt.want, runFilter(t, prog, arch, tt.nr, tt.args), "%s (Network %v)", tt.name, network)
		}
	}
}

// TestFilterSlices: the command-only filter refuses sched_setattr,
// whatever its target, and lets everything else through.
func TestFilterSlices(t *testing.T) {
	arch := auditArch()
	if arch == 0 {
		t.Skip("no system-call filter is built for this architecture")
	}
	prog, err := slicesFilter()
	require.NoError(t, err)
	const allow, eperm = unix.SECCOMP_RET_ALLOW, unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
	for _, tt := range []struct {
		name string
		nr   uint32
		args [6]uint64
		want uint32
	}{
		{"sched_setattr of the caller", unix.SYS_SCHED_SETATTR, [6]uint64{0}, eperm},
		{"sched_setattr of PID 1", unix.SYS_SCHED_SETATTR, [6]uint64{1}, eperm},
		{"sched_setscheduler of the caller", unix.SYS_SCHED_SETSCHEDULER, [6]uint64{0, unix.SCHED_IDLE}, allow},
		{"sched_getattr", unix.SYS_SCHED_GETATTR, [6]uint64{0}, allow},
		{"read", unix.SYS_READ, [6]uint64{}, allow},
	} {
		assert.Equal(t, tt.want, runFilter(t, prog, arch, tt.nr, tt.args), tt.name)
	}
	// Another architecture's number is not read as this one's.
	assert.Equal(t, uint32(allow), runFilter(t, prog, unix.AUDIT_ARCH_I386, unix.SYS_SCHED_SETATTR, [6]uint64{}))
}

// TestSchedulingOwnOnly runs the programs that change scheduling, and the
// calls they make, confined: on the command itself (by pid 0, or through
// a program it starts) they work; on the helper (PID 1 and each of its
// threads, by the calls or through /proc), on a process of the command's
// own by its ID, on the process group (the helper's) or on the user they
// are refused (an affinity: ignored, and read back unchanged); and what would
// schedule the command ahead of the helper (a real-time policy, a lower
// nice value) is refused even where the caller's limits allow it.
func TestSchedulingOwnOnly(t *testing.T) {
	_, _, p := dirs(t)
	var cpus unix.CPUSet
	require.NoError(t, unix.SchedGetaffinity(0, &cpus))
	if cpus.Count() < 2 || !cpus.IsSet(0) {
		t.Skip("pinning to CPU 0 is seen only where this process may run on CPU 0 and another")
	}
	for _, prog := range []string{"taskset", "renice", "ionice", "chrt", "nice", "python3"} {
		if _, err := exec.LookPath(prog); err != nil {
			t.Skipf("%s is not installed: the scheduling programs are run confined", prog)
		}
	}
	// Raise this process's real-time and nice limits (root only) so that
	// the command inherits limits that would let it favour itself.
	favourable := false
	var oldRT, oldNice unix.Rlimit
	if unix.Getrlimit(unix.RLIMIT_RTPRIO, &oldRT) == nil && unix.Getrlimit(unix.RLIMIT_NICE, &oldNice) == nil &&
		unix.Setrlimit(unix.RLIMIT_RTPRIO, &unix.Rlimit{Cur: 99, Max: 99}) == nil {
		t.Cleanup(func() { _ = unix.Setrlimit(unix.RLIMIT_RTPRIO, &oldRT) })
		if unix.Setrlimit(unix.RLIMIT_NICE, &unix.Rlimit{Cur: 40, Max: 40}) == nil {
			t.Cleanup(func() { _ = unix.Setrlimit(unix.RLIMIT_NICE, &oldNice) })
			favourable = true
		}
	}
	py := func(code string) string {
		return fmt.Sprintf(`python3 -c '
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
def sc(nr, *args):
    if libc.syscall(nr, *[ctypes.c_long(a) for a in args]) < 0:
        sys.exit(ctypes.get_errno())
helper_threads = [int(t) for t in os.listdir("/proc/1/task")]
%s'`, code)
	}
	type schedCase struct {
		name, script string
		works        bool
		favoured     bool // only meaningful where the caller's limits allow it
	}
	cases := []schedCase{
		// The command itself: works.
		{"nice -n 10", `test "$(nice -n 10 nice)" = 10`, true, false},
		{"taskset -c 0", `taskset -c 0 true`, true, false},
		{"ionice -c 3", `test "$(ionice -c 3 ionice)" = idle`, true, false},
		{"chrt -i 0", `chrt -i 0 true`, true, false},
		{"chrt -b 0", `chrt -b 0 true`, true, false},
		{"os.sched_setaffinity(0)", py(`os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})`), true, false},
		{"os.nice", py(`os.nice(3)`), true, false},
		{"os.setpriority(PRIO_PROCESS, 0)", py(`os.setpriority(os.PRIO_PROCESS, 0, 7)`), true, false},
		{"os.sched_setscheduler(0, SCHED_IDLE)", py(`os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))`), true, false},

		// The helper: refused.
		{"renice -p 1", `renice -n 19 -p 1`, false, false},
		{"taskset -p 1 (ignored)", `b=$(taskset -p 1); taskset -p -c 0 1; test "$(taskset -p 1)" != "$b"`, false, false},
		{"ionice -p 1", `ionice -c 3 -p 1`, false, false},
		{"chrt -i -p 1", `chrt -i -p 0 1`, false, false},
		{"every helper thread SCHED_IDLE", py(`
for t in helper_threads:
    try:
        os.sched_setscheduler(t, os.SCHED_IDLE, os.sched_param(0))
        sys.exit(0)
    except OSError:
        pass
sys.exit(1)`), false, false},
		{"every helper thread pinned (ignored)", py(`
for t in helper_threads:
    os.sched_setaffinity(t, {0})
    if os.sched_getaffinity(t) == {0}:
        sys.exit(0)
sys.exit(1)`), false, false},
		{"every helper thread at nice 19", py(`
for t in helper_threads:
    try:
        os.setpriority(os.PRIO_PROCESS, t, 19)
        sys.exit(0)
    except OSError:
        pass
sys.exit(1)`), false, false},
		{"sched_setparam of PID 1", py(fmt.Sprintf(`
param = ctypes.c_int(0)
sc(%d, 1, ctypes.addressof(param))`, unix.SYS_SCHED_SETPARAM)), false, false},
		{"sched_setattr of PID 1 (SCHED_IDLE)", py(fmt.Sprintf(`
attr = (ctypes.c_uint32 * 14)()
attr[0], attr[1] = 56, 5
sc(%d, 1, ctypes.addressof(attr), 0)`, unix.SYS_SCHED_SETATTR)), false, false},
		{"the process group (the helper's) at nice 19", `renice -n 19 -g 0`, false, false},
		{"the user's processes at nice 19", `renice -n 19 -u "$(id -u)"`, false, false},
		{"the process group's I/O idle", `ionice -c 3 -P 0`, false, false},
		{"the user's I/O idle", `ionice -c 3 -u "$(id -u)"`, false, false},
		// Through /proc: the session's autogroup (the helper's too), the
		// helper's timer slack and OOM score.
		{"/proc/1/autogroup", `echo 19 > /proc/1/autogroup`, false, false},
		{"/proc/self/autogroup (the helper's session)", `echo 19 > /proc/self/autogroup`, false, false},
		{"/proc/1/timerslack_ns", `echo 999999999 > /proc/1/timerslack_ns`, false, false},
		{"/proc/1/oom_score_adj", `echo 1000 > /proc/1/oom_score_adj`, false, false},
		// A process of the command's own, by its ID: refused too (the
		// filter cannot tell it from the helper's threads).
		{"taskset -p of a child (ignored)", `sleep 5 & taskset -p -c 0 $!; m=$(taskset -p $!); kill $!; case "$m" in *": 1") exit 0;; esac; exit 1`, false, false},
		{"renice -p of a child", `sleep 5 & renice -n 5 -p $!; s=$?; kill $!; exit $s`, false, false},

		// A slice of its own (Linux 6.12): the helper's threads that kill
		// have the shortest, which lets them run first.
		{"sched_setattr of the caller (a 0.1 ms slice)", py(fmt.Sprintf(`
attr = (ctypes.c_uint32 * 14)()
attr[0], attr[6] = 56, 100000
sc(%d, 0, ctypes.addressof(attr), 0)`, unix.SYS_SCHED_SETATTR)), false, false},

		// Ahead of the helper: refused by the limits the helper sets.
		{"chrt -f 1 (SCHED_FIFO)", `chrt -f 1 true`, false, true},
		{"chrt -r 1 (SCHED_RR)", `chrt -r 1 true`, false, true},
		{"sched_setattr of the caller (SCHED_FIFO)", py(fmt.Sprintf(`
attr = (ctypes.c_uint32 * 14)()
attr[0], attr[1], attr[6] = 56, 1, 1
sc(%d, 0, ctypes.addressof(attr), 0)`, unix.SYS_SCHED_SETATTR)), false, true},
		{"a lower nice value", py(`os.setpriority(os.PRIO_PROCESS, 0, os.getpriority(os.PRIO_PROCESS, 0) - 5)`), false, true},
		{"setrlimit RLIMIT_RTPRIO back up", py(`import resource; resource.setrlimit(resource.RLIMIT_RTPRIO, (99, 99))`), false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.favoured && !favourable {
				t.Skip("this process cannot raise RLIMIT_RTPRIO and RLIMIT_NICE (it needs CAP_SYS_RESOURCE): the command's inherited limits are too low to favour it, with or without the helper's")
			}
			// A sandbox each: a call that worked would change the
			// helper for the cases after it.
			out, err := sh(t, p, p.Sandbox, c.script)
			if c.works {
				assert.NoError(t, err, "%s failed confined: %s: %s", c.name, c.script, out)
			} else {
				assert.Error(t, err, "%s worked confined: %s: %s", c.name, c.script, out)
			}
		})
	}
}

// threadAffinityProgram makes a thread with an affinity attribute, as
// OpenMP does with OMP_PROC_BIND: glibc sets it by the new thread's ID,
// and pthread_create fails when that fails.
const threadAffinityProgram = `#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
static void *run(void *arg) { return arg; }
int main(void) {
	pthread_attr_t attr;
	cpu_set_t set;
	pthread_t th;
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	pthread_attr_init(&attr);
	pthread_attr_setaffinity_np(&attr, sizeof set, &set);
	int err = pthread_create(&th, &attr, run, NULL);
	if (err != 0) {
		fprintf(stderr, "pthread_create: %s\n", strerror(err));
		return 1;
	}
	pthread_join(th, NULL);
	puts("thread made");
	return 0;
}
`

// TestSchedulingThreadAffinityAttribute: a thread created with an
// affinity (OpenMP's binding, pthread_attr_setaffinity_np) is made
// confined; the affinity set by its ID is ignored rather than refused,
// which would fail the thread's creation. Built with the system's C
// compiler.
func TestSchedulingThreadAffinityAttribute(t *testing.T) {
	sb, _, p := dirs(t)
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no C compiler (cc) to build the threaded program with")
	}
	src := filepath.Join(sb, "affinity.c")
	require.NoError(t, os.WriteFile(src, []byte(threadAffinityProgram), 0o644))
	build, err := exec.Command(cc, "-pthread", "-o", filepath.Join(sb, "affinity"), src).CombinedOutput()
	require.NoError(t, err, "%s", build)
	out, err := sh(t, p, sb, "./affinity")
	require.NoError(t, err, "%s", out)
	assert.Contains(t, out, "thread made")
}

// TestSchedulingStoppedRunEndsPromptly: a command that tries to starve
// the helper (every thread of it SCHED_IDLE, nice 19, pinned to one CPU)
// and keeps that CPU busy is ended promptly when the run is stopped
// (bubblewrap killed, as a SIGTERM to sandboxauth run does): the helper
// gets the parent-death signal, and the namespace ends with its exit,
// which runs on its scheduling. Starved, it took some 45 s.
func TestSchedulingStoppedRunEndsPromptly(t *testing.T) {
	sb, _, p := dirs(t)
	cmd := exec.Command("python3", "-c", `
import os, time
cpus = sorted(os.sched_getaffinity(0))
first = cpus[0]
for tid in os.listdir("/proc/1/task"):
    tid = int(tid)
    for f in (lambda: os.sched_setaffinity(tid, {first}),
              lambda: os.sched_setscheduler(tid, os.SCHED_IDLE, os.sched_param(0)),
              lambda: os.setpriority(os.PRIO_PROCESS, tid, 19)):
        try:
            f()
        except OSError:
            pass
for _ in range(32):
    if os.fork() == 0:
        os.sched_setaffinity(0, {first})
        while True:
            pass
while True:
    with open("beat", "w") as f:
        f.write(str(time.time()))
    time.sleep(0.02)
`)
	cmd.Dir = sb
	require.NoError(t, Start(cmd, p))
	beat := filepath.Join(sb, "beat")
	require.Eventually(t, func() bool { _, err := os.Stat(beat); return err == nil }, 20*time.Second, 10*time.Millisecond)
	time.Sleep(500 * time.Millisecond)
	require.NoError(t, cmd.Process.Kill())
	_ = cmd.Wait()
	stopped := time.Now()
	// The command is gone once its beat stops changing (it beats every
	// 20 ms when it gets the CPU).
	last, _ := os.ReadFile(beat)
	for {
		time.Sleep(500 * time.Millisecond)
		b, _ := os.ReadFile(beat)
		if string(b) == string(last) {
			break
		}
		last = b
		require.Less(t, time.Since(stopped), 10*time.Second, "the command went on for more than 10 s after the run was stopped")
	}
	t.Logf("the command's beat stopped within %v of the stop", time.Since(stopped))
}

// TestSchedulingHelperShortSlice: the helper's threads that kill the
// sandbox (the mount watch, the watch on bubblewrap) ask for the
// shortest slice, so that, woken, they run before the command's
// processes; the command has the default slice and cannot take a
// shorter one (the live case above). Read from the command's /proc
// (se.slice, Linux 6.12 and later).
func TestSchedulingHelperShortSlice(t *testing.T) {
	sb, _, p := dirs(t)
	config := filepath.Join(sb, "config")
	require.NoError(t, os.WriteFile(config, []byte("old\n"), 0o644))
	p.ReadOnly = []string{config} // a mount to watch
	out, err := sh(t, p, sb, `sleep 0.2; for f in /proc/1/task/*/sched /proc/self/sched; do printf '%s ' "$f"; grep '^se.slice' "$f" || echo none; done`)
	require.NoError(t, err, out)
	if !strings.Contains(out, "se.slice") {
		t.Skipf("this kernel does not show a task's slice (se.slice, Linux 6.12): %s", out)
	}
	var helperShort int
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		f := strings.Fields(line)
		require.GreaterOrEqual(t, len(f), 2, "%q", line)
		slice := f[len(f)-1]
		if strings.HasPrefix(f[0], "/proc/self/") {
			assert.NotEqual(t, strconv.Itoa(helperSlice), slice, "the command has the helper's short slice: %s", out)
		} else if slice == strconv.Itoa(helperSlice) {
			helperShort++
		}
	}
	assert.GreaterOrEqual(t, helperShort, 2, "the helper's mount watch and bubblewrap watch do not have the short slice: %s", out)
}
