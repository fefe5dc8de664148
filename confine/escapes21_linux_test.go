package confine

// Escapes found in the twenty-first round of red-teaming confine: each
// test asserts that the escape does NOT happen, and fails while it does.

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// TestEscape21DeviceStateThroughOverlappingRuns (round 21): the device
// nodes' modes and ACLs are noted when a run starts and put back when it
// ends (restoreDevices), each run on its own. Two confined runs that
// overlap (the agent's `npm test &` and `make`, two commands of one
// session at once) undo each other's restore: the first run's command
// changes the machine's /dev/full (an ACL that denies its owning group,
// or mode 0600), the second starts while the change is there and notes it
// as the original, the first ends and puts the device back, the second
// ends and puts the change back, for good.
//
//	run A: python3 -c 'import os,struct; os.setxattr("/dev/full","system.posix_acl_access",...); os.chmod("/dev/full",0o600)'; sleep 3
//	run B (1 s later): sleep 5
//
// Verified with sandboxauth run as root: after both, /dev/full was
// crw-------+ (so with /dev/null every program of the machine not run by
// root would fail to open it). Found because TestEscapeDeviceNodeACL
// failed once in `go test -race ./confine -count=2` while other confined
// runs went on. Root only: the device nodes are not an unprivileged
// user's. The test sets only the ACL (the mode change, verified too,
// spreads to every confined run of the machine that overlaps: each notes
// the changed mode and puts it back, and while one such run is going the
// next one notes it again; it took a minute of chmod 666 to get rid of it
// while other sessions ran confined tests). Caution: this test (as
// TestEscapeDeviceNodeACL) can leave the ACL behind when other confined
// runs overlap it.
func TestEscape21DeviceStateThroughOverlappingRuns(t *testing.T) {
	sb, _, p := dirs(t)
	const dev = "/dev/full"
	var before unix.Stat_t
	require.NoError(t, unix.Stat(dev, &before))
	t.Cleanup(func() {
		_ = unix.Removexattr(dev, "system.posix_acl_access")
		_ = unix.Chmod(dev, before.Mode&0o7777)
	})
	started := filepath.Join(sb, "started")
	// The test binary sets the ACL (see escapes5); a copy in the sandbox,
	// since the command does not see the build's /tmp.
	bin, err := os.ReadFile(testBinary(t))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(sb, "setacl"), bin, 0o755))
	a := exec.Command("/bin/sh", "-c", "./setacl; touch "+started+"; sleep 2")
	a.Dir = sb
	a.Env = append(os.Environ(), "CONFINE_ESCAPE5_ACL="+dev)
	var outA, outB bytes.Buffer
	a.Stdout, a.Stderr = &outA, &outA
	doneA := make(chan error, 1)
	go func() { doneA <- Run(a, p) }()
	for i := 0; i < 100; i++ {
		if _, err := os.Stat(started); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	b := exec.Command("/bin/sh", "-c", "sleep 4")
	b.Dir = sb
	b.Stdout, b.Stderr = &outB, &outB
	errB := Run(b, p)
	errA := <-doneA
	t.Logf("run A: %v %s; run B: %v %s", errA, outA.String(), errB, outB.String())
	sz, err := unix.Getxattr(dev, "system.posix_acl_access", nil)
	assert.Error(t, err, "two overlapping confined runs left a POSIX ACL (%d bytes) on the machine's %s", sz, dev)
}

// TestEscape21TerminalStateThroughOverlappingRuns (round 21): the same
// for the user's terminal. Each run notes the terminal's settings when it
// starts and puts them back when it ends (restoreTerminals), so two runs
// on one terminal that overlap undo each other: the first turns echo and
// canonical mode off, the second starts and notes that, the first ends
// and restores, the second ends and turns them off again. After both,
// the user's shell types blind.
//
//	run A (terminal on stdin): stty -echo -icanon; sleep 3
//	run B (1 s later):          sleep 5
//
// Verified with sandboxauth run as root under script(1): stty showed
// "-icanon -echo" after both runs had ended.
func TestEscape21TerminalStateThroughOverlappingRuns(t *testing.T) {
	sb, _, p := dirs(t)
	ptmx, tty := openPty(t)
	go func() { _, _ = io.Copy(io.Discard, ptmx) }()
	before, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
	require.NoError(t, err)
	require.NotZero(t, before.Lflag&unix.ECHO, "the terminal echoes to begin with")
	started := filepath.Join(sb, "started")
	a := exec.Command("/bin/sh", "-c", "stty -echo -icanon; touch "+started+"; sleep 2")
	a.Dir = sb
	a.Stdin, a.Stdout, a.Stderr = tty, tty, tty
	doneA := make(chan error, 1)
	go func() { doneA <- Run(a, p) }()
	for i := 0; i < 100; i++ {
		if _, err := os.Stat(started); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	b := exec.Command("/bin/sh", "-c", "sleep 4")
	b.Dir = sb
	b.Stdin, b.Stdout, b.Stderr = tty, tty, tty
	errB := Run(b, p)
	t.Logf("run A: %v; run B: %v", <-doneA, errB)
	after, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
	require.NoError(t, err)
	assert.Equal(t, before.Lflag&(unix.ECHO|unix.ICANON), after.Lflag&(unix.ECHO|unix.ICANON), "two overlapping confined runs left the user's terminal without echo or canonical mode")
}
