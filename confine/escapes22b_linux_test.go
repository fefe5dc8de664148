package confine

// Escapes found in round 22b of red-teaming confine (the kernel surface):
// each test asserts that the escape does not happen, and failed before
// its fix. Locks on outside files (flock, fcntl F_SETLK), the user's
// inotify instances and a terminal's TOSTOP, found in the same round, are
// documented as limits (doc.go, "What is not enforced").

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// escape22bEnv makes the test binary, run confined, do one thing of this
// file's (see init) instead of running the tests.
const escape22bEnv = "CONFINE_ESCAPE22B"

// init runs the confined half of the tests below: it does what
// CONFINE_ESCAPE22B names to the file os.Args[1], creates the file
// os.Args[2] (in the sandbox) to say it holds it, and keeps holding it
// until os.Args[3] exists (or 20 seconds have passed).
func init() {
	how, ok := os.LookupEnv(escape22bEnv)
	if !ok {
		return
	}
	if len(os.Args) < 4 {
		fmt.Fprintln(os.Stderr, "escape22b: want target, ready, stop")
		os.Exit(2)
	}
	target, ready, stop := os.Args[1], os.Args[2], os.Args[3]
	var err error
	switch how {
	case "lease":
		// A read lease on an outside file of the user's (the command runs
		// as its owner): every open of it for writing blocks until the
		// lease is given up or lease-break-time (45 s) has passed.
		var fd int
		if fd, err = unix.Open(target, unix.O_RDONLY, 0); err == nil {
			_, err = unix.FcntlInt(uintptr(fd), unix.F_SETLEASE, unix.F_RDLCK)
		}
	case "snapshot-ioctl":
		// The ioctls that snapshot a subvolume, on a directory of the
		// sandbox (where a snapshot would go): the filter answers EPERM
		// before the file system is asked (ENOTTY where it is not btrfs
		// or bcachefs).
		var fd int
		if fd, err = unix.Open(target, unix.O_RDONLY|unix.O_DIRECTORY, 0); err == nil {
			arg := make([]byte, 4096)
			for _, req := range snapshotIoctls {
				_, _, e := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), uintptr(req), uintptr(unsafe.Pointer(&arg[0])))
				fmt.Fprintf(os.Stderr, "escape22b: ioctl %#x: %v\n", req, e)
				if e != unix.EPERM {
					err = fmt.Errorf("ioctl %#x was not refused by the filter: %v", req, e)
				}
			}
		}
	default:
		err = fmt.Errorf("unknown %q", how)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "escape22b %s: %v\n", how, err)
		os.Exit(3)
	}
	if err := os.WriteFile(ready, nil, 0o600); err != nil {
		os.Exit(4)
	}
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(stop); err == nil {
			break
		}
	}
	os.Exit(0)
}

// holdConfined starts the test binary confined by p in p's sandbox doing
// how to target, waits until it holds it, and returns a function that
// lets it end and waits for the sandbox to be gone.
func holdConfined(t *testing.T, p Policy, how, target string) (end func()) {
	t.Helper()
	ready := filepath.Join(p.Sandbox, "ready")
	stop := filepath.Join(p.Sandbox, "stop")
	cmd := exec.Command(testBinary(t), target, ready, stop)
	cmd.Env = append(os.Environ(), escape22bEnv+"="+how)
	cmd.Dir = p.Sandbox
	var out lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, Start(cmd, p))
	ended := make(chan error, 1)
	go func() { ended <- cmd.Wait() }()
	end = func() {
		_ = os.WriteFile(stop, nil, 0o600)
		select {
		case <-ended:
		case <-time.After(30 * time.Second):
			t.Errorf("the confined command did not end")
		}
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(ready); err == nil {
			return end
		}
		select {
		case err := <-ended:
			t.Logf("the confined command ended before holding %s (%v): %s", how, err, out.String())
			return func() {}
		default:
		}
		if time.Now().After(deadline) {
			end()
			t.Fatalf("the confined command did not get to hold %s: %s", how, out.String())
		}
	}
}

// TestEscape22bLeaseOutsideFile (round 22b): a confined command, running
// as the owner of the user's files, takes a read lease (fcntl
// F_SETLEASE) on any outside file of the user's it can read (the user's
// shell rc, ~/.gitconfig, an editor's open file): every outside open of it
// for writing then blocks until the command gives the lease up or
// lease-break-time (45 s by default) has passed, and an O_NONBLOCK open
// fails with EWOULDBLOCK. By hand: `echo new >> ~/victim/cfg` took 9.95
// s, the rest of the command's run.
//
//	payload.sh: python3 -c 'import fcntl,os,signal,time; signal.signal(signal.SIGIO, signal.SIG_IGN); fcntl.fcntl(os.open("'$HOME'/victim/cfg", os.O_RDONLY), fcntl.F_SETLEASE, fcntl.F_RDLCK); time.sleep(3600)'
func TestEscape22bLeaseOutsideFile(t *testing.T) {
	_, outside, p := dirs(t)
	target := filepath.Join(outside, "cfg")
	require.NoError(t, os.WriteFile(target, []byte("x"), 0o644))
	end := holdConfined(t, p, "lease", target)
	defer end()
	fd, err := unix.Open(target, unix.O_WRONLY|unix.O_APPEND|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err == nil {
		unix.Close(fd)
	}
	assert.False(t, errors.Is(err, unix.EWOULDBLOCK), "a confined command holds a lease on a file outside its sandbox: an outside open for writing would block (%v)", err)
}

// lockedBuffer collects a confined command's output (written by the
// goroutines of exec.Cmd, read by the test).
type lockedBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	return len(p), nil
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}

// TestEscape22bBtrfsSnapshotOfHiddenPaths (round 22b): on btrfs, a
// snapshot of a subvolume is made by an ioctl (BTRFS_IOC_SNAP_CREATE_V2)
// that needs no capability, only that the caller own the subvolume (as
// root: every subvolume root owned by root, / and /home on Fedora's
// default layout; as a user: a home that is a subvolume of its own, as
// systemd-homed makes them) and may write where the snapshot goes (the
// sandbox). The snapshot is a copy of the subvolume's tree as it is on
// disk, beneath the mounts that hide the credentials and the project's
// .env: the command reads them all from the copy. Verified as root (a home
// subvolume owned by root) and as sbtest (a subvolume owned by sbtest,
// mounted as its home).
//
//	payload.sh: btrfs subvolume snapshot "$HOME" ./snap; cat snap/.ssh/id_ed25519 snap/proj/.env
func TestEscape22bBtrfsSnapshotOfHiddenPaths(t *testing.T) {
	requireConfinement(t)
	mkfs, err := exec.LookPath("mkfs.btrfs")
	if err != nil {
		t.Skip("this test makes a btrfs file system, and btrfs-progs is not installed (TestSnapshotIoctlsRefused checks the filter everywhere)")
	}
	if os.Geteuid() != 0 {
		t.Skip("this test mounts a btrfs file system, which only root may (TestSnapshotIoctlsRefused checks the filter everywhere)")
	}
	victim := victimDir(t)
	img := filepath.Join(t.TempDir(), "btrfs.img")
	require.NoError(t, os.WriteFile(img, nil, 0o600))
	require.NoError(t, os.Truncate(img, 256<<20))
	out, err := exec.Command(mkfs, "-q", img).CombinedOutput()
	require.NoError(t, err, "%s", out)
	mnt := filepath.Join(victim, "mnt")
	require.NoError(t, os.Mkdir(mnt, 0o755))
	if out, err = exec.Command("mount", "-o", "loop", img, mnt).CombinedOutput(); err != nil {
		t.Skipf("this machine cannot mount a file system image (no loop device?), so the btrfs test cannot run: %v: %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", "-l", mnt).Run() })
	home := filepath.Join(mnt, "home")
	out, err = exec.Command("btrfs", "subvolume", "create", home).CombinedOutput()
	require.NoError(t, err, "%s", out)
	t.Setenv("HOME", home)
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("GOCACHE", filepath.Join(home, ".cache", "go-build"))
	const key, dotenv = "PRIVATE KEY 22b", "API_TOKEN=22b"
	require.NoError(t, os.MkdirAll(filepath.Join(home, ".ssh"), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(home, ".ssh", "id_ed25519"), []byte(key), 0o600))
	proj := filepath.Join(home, "proj")
	require.NoError(t, os.Mkdir(proj, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(proj, ".env"), []byte(dotenv), 0o600))
	p := DefaultPolicy(proj)
	p.Hidden = append(p.Hidden, filepath.Join(proj, ".env")) // as sandboxauth.ProtectConfinement does

	out2, _ := sh(t, p, proj, `cat "$HOME/.ssh/id_ed25519" .env`)
	require.NotContains(t, out2, key, "the key is not hidden at all")
	require.NotContains(t, out2, dotenv, "the .env is not hidden at all")

	out2, _ = sh(t, p, proj, `btrfs subvolume snapshot "$HOME" ./snap; cat snap/.ssh/id_ed25519 snap/proj/.env`)
	assert.NotContains(t, out2, key, "a confined command read a hidden credential from a btrfs snapshot of the home it made in the sandbox")
	assert.NotContains(t, out2, dotenv, "a confined command read the project's hidden .env from a btrfs snapshot it made in the sandbox")
	_ = exec.Command("btrfs", "subvolume", "delete", filepath.Join(proj, "snap")).Run()
}

// TestSnapshotIoctlsRefused: the filter refuses the ioctls that snapshot
// a subvolume (btrfs, bcachefs) on any file system, so that the answer
// does not depend on where the sandbox lies; see
// TestEscape22bBtrfsSnapshotOfHiddenPaths for what they would do on
// btrfs.
func TestSnapshotIoctlsRefused(t *testing.T) {
	sandbox, _, p := dirs(t)
	cmd := exec.Command(testBinary(t), sandbox, filepath.Join(sandbox, "ready"), filepath.Join(sandbox, "ready"))
	cmd.Env = append(os.Environ(), escape22bEnv+"=snapshot-ioctl")
	cmd.Dir = sandbox
	out, err := cmd.CombinedOutput()
	require.Error(t, err, "unconfined, the file system answers the ioctls, not a filter: %s", out)
	require.NotContains(t, string(out), "operation not permitted", "unconfined, the file system answers the ioctls, not a filter")

	cmd = exec.Command(testBinary(t), sandbox, filepath.Join(sandbox, "ready2"), filepath.Join(sandbox, "ready2"))
	cmd.Env = append(os.Environ(), escape22bEnv+"=snapshot-ioctl")
	cmd.Dir = sandbox
	var buf lockedBuffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	assert.NoError(t, Run(cmd, p), "a snapshot ioctl was not refused in the sandbox: %s", buf.String())
}
