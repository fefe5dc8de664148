package pathres

import (
	"os"
	"strconv"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestResolveProcLinks: a path that passes a symbolic link in /proc (its
// own, or one a link in the sandbox leads to) is refused with
// ErrProcLink, by the kernel-first and the user-space resolver alike, and
// is never placed inside the sandbox: /proc/self/cwd names this process's
// working directory, not that of the command that will use the path. A
// path in /proc without symbolic links is resolved as any other.
func TestResolveProcLinks(t *testing.T) {
	// syscall.Lstat, not os.Lstat: go test records the paths a test
	// passes to package os as its inputs, and /proc/self/cwd, a new link
	// in every process, would keep the result from ever being cached.
	var st syscall.Stat_t
	if err := syscall.Lstat("/proc/self/cwd", &st); err != nil {
		t.Skipf("no procfs at /proc here: %v", err)
	}
	tr := buildSandboxTree(t)
	tr.link("sb/me", "/proc/self/cwd")
	tr.link("sb/proc-self", "/proc/self")
	tr.link("sb/mounts", "/proc/mounts")
	chdirUnrecorded(t, tr.path("sb")) // this process's cwd is inside the sandbox

	refused := []string{
		"/proc/self/cwd", "/proc/self/cwd/a", "/proc/self/cwd/file.txt", "/proc/thread-self/cwd/file.txt",
		"/proc/self/root" + tr.path("sb/file.txt"), "/proc/self/status", "/proc/mounts",
		"/proc/" + strconv.Itoa(os.Getpid()) + "/cwd/file.txt",
		tr.path("sb/me"), tr.path("sb/me/file.txt"), tr.path("sb/proc-self/cwd/file.txt"), tr.path("sb/mounts"),
	}
	for _, p := range refused {
		_, _, err := requireSameResolve(t, p)
		require.ErrorIs(t, err, ErrProcLink, p)
		requireSameContains(t, tr.path("sb"), p)
		_, inside, err := Contains(tr.path("sb"), p)
		assert.False(t, inside, p)
		assert.ErrorIs(t, err, ErrProcLink, p)
	}

	self := "/proc/" + strconv.Itoa(os.Getpid()) + "/status" // no link on the way
	_, got, err := requireSameResolve(t, self)
	require.NoError(t, err)
	assert.Equal(t, self, got)
}
