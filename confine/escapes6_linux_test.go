package confine

import (
	"bytes"
	"os"
	"os/exec"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"golang.org/x/sys/unix"
)

// escape6Env makes the test binary, run confined, do one of this file's
// payloads (package initialization, before TestMain; never in the
// sandbox's first process, which is the helper).
const escape6Env = "CONFINE_TEST_ESCAPE6"

func init() {
	how := os.Getenv(escape6Env)
	if how == "" || os.Getenv(helperEnv) != "" {
		return
	}
	switch how {
	case "cpu-limit-pid1":
		// RLIMIT_CPU of the sandbox's first process set to one second,
		// then orphans for it to reap until it has spent that second.
		lim := unix.Rlimit{Cur: 1, Max: 1}
		if err := unix.Prlimit(1, unix.RLIMIT_CPU, &lim, nil); err != nil {
			os.Stderr.WriteString("prlimit: " + err.Error() + "\n")
			os.Exit(3)
		}
		os.Stderr.WriteString("prlimit on PID 1: ok\n")
		for i := 0; i < 100000; i++ {
			pid, _, errno := syscall.RawSyscall6(syscall.SYS_CLONE, uintptr(syscall.SIGCHLD), 0, 0, 0, 0, 0)
			if errno != 0 {
				continue
			}
			if pid == 0 {
				// The child forks a grandchild and exits: the
				// grandchild is orphaned to PID 1.
				syscall.RawSyscall6(syscall.SYS_CLONE, uintptr(syscall.SIGCHLD), 0, 0, 0, 0, 0)
				syscall.RawSyscall(syscall.SYS_EXIT_GROUP, 0, 0, 0)
			}
			var ws syscall.WaitStatus
			_, _ = syscall.Wait4(int(pid), &ws, 0, nil)
		}
		os.Stderr.WriteString("alive\n")
		os.Exit(0)
	}
}

// TestEscapeFirstProcessCPULimit: the command cannot signal the sandbox's
// first process (Landlock scopes signals, ABI 6), but it can set its
// resource limits: prlimit(2) asks only for the same user IDs, and no
// Landlock or namespace rule covers it. With RLIMIT_CPU set to one second
// (soft and hard), the kernel kills the helper with SIGKILL once it has
// spent that second, which the command makes it do by leaving it orphans
// to reap (some 20000 double forks, a few seconds). The sandbox's first
// process ends at a moment the command chooses, with it the whole
// sandbox, and bubblewrap exits at once: a caller of Start whose cmd.Wait
// returns goes on before Policy.AfterExit (the quarantine) has run, which
// Start promises only for a kernel without Landlock's scoping (see
// TestEscapeFirstProcessEndedBySignal, the same by kill -ABRT 1).
// RLIMIT_AS or RLIMIT_NPROC (the Go runtime cannot make a thread) would
// crash it as well.
//
//	prlimit --pid 1 --cpu=1:1
//	while :; do (sleep 0 &); done   # orphans for PID 1 to reap
func TestEscapeFirstProcessCPULimit(t *testing.T) {
	_, _, p := dirs(t)
	out, err := runEscape6(t, p, "cpu-limit-pid1")
	t.Log(out, err)
	assert.Contains(t, out, "alive", "the command's RLIMIT_CPU on the sandbox's first process ended it (and the sandbox) early (%v): %.200s", err, out)
}

// runEscape6 runs the test binary confined by p, in its sandbox, as this
// file's payload how, and returns its output and error.
func runEscape6(t *testing.T, p Policy, how string) (string, error) {
	t.Helper()
	cmd := exec.Command(testBinary(t))
	cmd.Env = append(os.Environ(), escape6Env+"="+how)
	cmd.Dir = p.Sandbox
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := Run(cmd, p)
	return out.String(), err
}
