package confine

// Escapes found in the fifth round of red-teaming confine: each test
// asserts that the escape does NOT happen, and fails while it does.

import (
	"bytes"
	"encoding/binary"
	"fmt"
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

// The test binary, run with CONFINE_ESCAPE5 set, gives the file it names
// a POSIX ACL whose owning-group entry grants nothing while the mask (what
// the mode's group bits show) still grants read and write: the mode is
// unchanged. (init runs before TestMain, so helper's list is left alone.)
func init() {
	if os.Getenv("CONFINE_ESCAPE5_TTY") != "" {
		// Stop the terminal's output (tcflow TCOOFF) and shrink its
		// window: neither is a termios setting.
		err := unix.IoctlSetInt(1, unix.TCXONC, unix.TCOOFF)
		if err == nil {
			err = unix.IoctlSetWinsize(1, unix.TIOCSWINSZ, &unix.Winsize{Row: 3, Col: 4})
		}
		if err != nil {
			os.Exit(3)
		}
		os.Exit(0) // nothing written: the output is stopped
	}
	path := os.Getenv("CONFINE_ESCAPE5_ACL")
	if path == "" {
		return
	}
	const userObj, groupObj, mask, other = 0x01, 0x04, 0x10, 0x20
	acl := binary.LittleEndian.AppendUint32(nil, 2) // POSIX_ACL_XATTR_VERSION
	for _, e := range [][2]uint16{{userObj, 6}, {groupObj, 0}, {mask, 6}, {other, 6}} {
		acl = binary.LittleEndian.AppendUint16(acl, e[0])
		acl = binary.LittleEndian.AppendUint16(acl, e[1])
		acl = binary.LittleEndian.AppendUint32(acl, 0xffffffff)
	}
	if err := unix.Setxattr(path, "system.posix_acl_access", acl, 0); err != nil {
		fmt.Fprintln(os.Stderr, "setxattr:", err)
		os.Exit(3)
	}
	fmt.Fprintln(os.Stderr, "acl set on", path)
	os.Exit(0)
}

// TestEscapeDeviceNodeACL: the device nodes' modes and times are put back
// after the run (restoreDevices), but not their POSIX ACLs, which their
// owner may set (system.posix_acl_access is not one of the extended
// attributes an owner cannot set, and neither the filter nor Landlock
// stops setxattr). A command running as root gives the machine's
// /dev/full (or /dev/null) an ACL whose owning-group entry is --- and
// whose mask is rw-: the mode still reads crw-rw-rw- (now with a "+"),
// so nothing is put back, and the ACL stays after the run: every process
// of the machine whose group is root but whose user is not (a service
// running with group root) can no longer open it. Only ids mapped in the
// sandbox (0) can be named, so this is group 0 only; and it is the
// system's device, not the sandbox's.
//
//	python3 -c 'import os,struct; os.setxattr("/dev/null","system.posix_acl_access",struct.pack("<I",2)+b"".join(struct.pack("<HHI",t,p,0xffffffff) for t,p in [(1,6),(4,0),(0x10,6),(0x20,6)]))'
func TestEscapeDeviceNodeACL(t *testing.T) {
	sb, _, p := dirs(t)
	const dev = "/dev/full"
	t.Cleanup(func() { _ = unix.Removexattr(dev, "system.posix_acl_access") })
	cmd := exec.Command(testBinary(t))
	cmd.Dir = sb
	cmd.Env = append(os.Environ(), "CONFINE_ESCAPE5_ACL="+dev)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := Run(cmd, p)
	t.Log(out.String(), err)
	if os.Getuid() != 0 {
		t.Log("not root: the device nodes are not the command's, so this run cannot show the escape")
	}
	sz, err := unix.Getxattr(dev, "system.posix_acl_access", nil)
	assert.Error(t, err, "the confined command left a POSIX ACL (%d bytes) on the machine's %s after the run", sz, dev)
}

// TestEscapeTerminalFlowAndWindow: the terminal's termios and exclusive
// mode are put back after the run (restoreTerminals), but not its flow
// state nor its window size, which are no termios settings. The command
// stops the output of the user's terminal (tcflow(1, TCOOFF), the ioctl
// TCXONC) and exits without writing: after `sandboxauth run` returns,
// every later write to the terminal (the user's shell prompt, the next
// command) blocks until someone thinks of Ctrl-Q; and it sets the window
// size (TIOCSWINSZ) to 3x4, which later programs (less, vim, ls) use.
//
//	python3 -c 'import termios,fcntl,struct; termios.tcflow(1, termios.TCOOFF); fcntl.ioctl(1, termios.TIOCSWINSZ, struct.pack("HHHH",3,4,0,0))'
func TestEscapeTerminalFlowAndWindow(t *testing.T) {
	sb, _, p := dirs(t)
	ptmx, tty := openPty(t)
	t.Cleanup(func() { _ = unix.IoctlSetInt(int(tty.Fd()), unix.TCXONC, unix.TCOON) })
	got := make(chan string, 16)
	go func() {
		b := make([]byte, 256)
		for {
			n, err := ptmx.Read(b)
			if err != nil {
				return
			}
			got <- string(b[:n])
		}
	}()
	require.NoError(t, unix.IoctlSetWinsize(int(tty.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 40, Col: 100}))
	before, err := unix.IoctlGetWinsize(int(tty.Fd()), unix.TIOCGWINSZ)
	require.NoError(t, err)

	cmd := exec.Command(testBinary(t))
	cmd.Dir = sb
	cmd.Env = append(os.Environ(), "CONFINE_ESCAPE5_TTY=1")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	t.Log(Run(cmd, p))

	after, err := unix.IoctlGetWinsize(int(tty.Fd()), unix.TIOCGWINSZ)
	require.NoError(t, err)
	assert.Equal(t, *before, *after, "the confined command's window size outlived it on the user's terminal")
	go func() { _, _ = io.WriteString(tty, "after the run\n") }()
	seen := ""
	deadline := time.After(2 * time.Second)
	for !bytes.Contains([]byte(seen), []byte("after the run")) {
		select {
		case s := <-got:
			seen += s
			continue
		case <-deadline:
		}
		break
	}
	assert.Contains(t, seen, "after the run", "the user's terminal's output stayed stopped (TCOOFF) after the confined command ended")
}

// TestDeviceNodesSharedAcrossRuns: a run that began while another run's
// command had changed a device node (an ACL on /dev/full) noted the
// changed state and put it back after the first run had restored it, so
// the change stayed on the machine (two root runs at once, round 21's
// tests beside the lead's). The runs share one note now, taken by the
// first.
func TestDeviceNodesSharedAcrossRuns(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("the device nodes are root's: only a command running as root can change them")
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	const dev = "/dev/full"
	t.Cleanup(func() { _ = unix.Removexattr(dev, "system.posix_acl_access") })
	sbA, _, pA := dirs(t)
	sbB, _, pB := dirs(t)
	a := exec.Command("/bin/sh", "-c", `python3 -c 'import os,struct; os.setxattr("`+dev+`","system.posix_acl_access",struct.pack("<I",2)+b"".join(struct.pack("<HHI",t,p,0xffffffff) for t,p in [(1,6),(4,0),(0x10,6),(0x20,6)]))' && touch set; while [ ! -e go ]; do sleep 0.05; done`)
	a.Dir = sbA
	require.NoError(t, Start(a, pA))
	require.Eventually(t, func() bool { _, err := os.Stat(filepath.Join(sbA, "set")); return err == nil }, 10*time.Second, 10*time.Millisecond)
	b := exec.Command("/bin/sh", "-c", `touch started; while [ ! -e go ]; do sleep 0.05; done`)
	b.Dir = sbB
	require.NoError(t, Start(b, pB))
	require.Eventually(t, func() bool { _, err := os.Stat(filepath.Join(sbB, "started")); return err == nil }, 10*time.Second, 10*time.Millisecond)
	require.NoError(t, os.WriteFile(filepath.Join(sbA, "go"), nil, 0o644))
	require.NoError(t, a.Wait())
	require.NoError(t, os.WriteFile(filepath.Join(sbB, "go"), nil, 0o644))
	require.NoError(t, b.Wait())
	sz, err := unix.Getxattr(dev, "system.posix_acl_access", nil)
	assert.Error(t, err, "an ACL (%d bytes) that the first run's command set on %s stayed after both runs", sz, dev)
}
