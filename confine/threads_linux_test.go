package confine

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// retiredThread runs onRetiredThread(f) where f marks its thread with
// no_new_privs (a per-thread attribute that the runtime never clears) and
// reports its thread ID; it returns an error when f ran on the main
// thread, or when that thread is still there, or another marked, once f
// has returned.
func retiredThread() error {
	tid := make(chan int)
	onRetiredThread(func() {
		_ = unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
		tid <- unix.Gettid()
	})
	t := <-tid
	if t == unix.Getpid() {
		return fmt.Errorf("f ran on the main thread")
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		_, err := os.Stat("/proc/self/task/" + strconv.Itoa(t))
		if os.IsNotExist(err) {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("thread %d outlived f", t)
		}
	}
	if n, _ := unix.PrctlRetInt(unix.PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0); n != 0 {
		return fmt.Errorf("the calling thread got f's attribute")
	}
	return nil
}

// TestOnRetiredThread: f never runs on the main thread, and its thread
// ends with it, whether onRetiredThread is called from the main goroutine
// of a fresh process (which then waits, leaving the main thread free for
// the goroutine onRetiredThread starts, as the helper does) or from many
// goroutines at once.
func TestOnRetiredThread(t *testing.T) {
	cmd := exec.Command(testBinary(t))
	cmd.Env = append(os.Environ(), "CONFINE_TEST_HELPER=retired-thread")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "from the main thread: %s", out)

	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			assert.NoError(t, retiredThread())
		}()
	}
	wg.Wait()
}
