package confine

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// TestTakeSignals: once the helper has taken its signals (takeSignals),
// no signal ends, crashes or stops it, whichever the Go runtime would act
// on. Every signal from 1 to 64 that the process catches is sent, with
// kill, to a process doing the same (not a PID 1 here; as PID 1 the
// kernel drops for it, from inside its namespace, every signal it does
// not catch), and the process must still answer, not stopped, after each
// one, and exit 0 at the end.
func TestTakeSignals(t *testing.T) {
	cmd := exec.Command(testBinary(t))
	cmd.Env = append(os.Environ(), "CONFINE_TEST_HELPER=take-signals")
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	lines := make(chan string)
	go func() {
		r := bufio.NewReader(stdout)
		for {
			l, err := r.ReadString('\n')
			if err != nil {
				close(lines)
				return
			}
			lines <- l
		}
	}()
	// echo has the process answer a line: once it has, a signal sent
	// before has been handled by the thread that read it, or is being
	// handled by another (hence the short wait after).
	echo := func(what string) bool {
		if _, err := fmt.Fprintln(stdin, what); err != nil {
			return false
		}
		select {
		case l := <-lines:
			time.Sleep(10 * time.Millisecond)
			return l == what+"\n"
		case <-time.After(5 * time.Second):
			return false
		}
	}
	require.True(t, echo("ready"))
	pid := cmd.Process.Pid
	caught := caughtSignals(t, pid)
	var sent []unix.Signal
	for sig := unix.Signal(1); sig <= 64; sig++ {
		if caught&(1<<(sig-1)) == 0 {
			continue
		}
		require.NoError(t, unix.Kill(pid, sig), "signal %d", sig)
		sent = append(sent, sig)
		answered := echo(strconv.Itoa(int(sig)))
		state := procState(pid)
		require.NotEqual(t, "T", state, "signal %d (%v) stopped the process", sig, sig)
		require.True(t, answered, "signal %d (%v) ended the process (state %q)", sig, sig, state)
	}
	assert.Contains(t, sent, unix.SIGSEGV)
	assert.Contains(t, sent, unix.SIGTERM)
	require.NoError(t, stdin.Close())
	assert.NoError(t, cmd.Wait())
}

// caughtSignals is the mask of the signals process pid catches (bit N-1
// for signal N), from /proc.
func caughtSignals(t *testing.T, pid int) uint64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	require.NoError(t, err)
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "SigCgt:"); ok {
			mask, err := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
			require.NoError(t, err)
			return mask
		}
	}
	t.Fatal("no SigCgt in /proc/PID/status")
	return 0
}

// procState is the state letter of process pid (R, S, T, Z, ...), "" when
// it is gone.
func procState(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return ""
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 || i+2 >= len(s) {
		return ""
	}
	return s[i+2 : i+3]
}
