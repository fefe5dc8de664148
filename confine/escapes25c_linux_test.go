package confine

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Round 25c's escapes: each test asserts that the escape does not happen,
// and fails while it still does.

// TestEscape25cOutsideSocketInSandboxNotMasked: the sockets of outside
// programs that lie inside the writable places when the command starts are
// masked from the names /proc/net/unix gives, and the connect guard lets
// the command reach any socket inside the writable places. Three kinds of
// outside sockets in the sandbox are missed by the names, so an unconfined
// outside program's server there answers the command: one bound by a
// relative name (/proc/net/unix shows "app.sock", which does not start
// with '/', and is skipped: gunicorn --bind unix:app.sock, uwsgi, php-fpm
// with a relative listen, a dev server started in the project), one
// renamed after it was bound (/proc/net/unix keeps the name it was bound
// by: ssh's ControlMaster binds a temporary name and renames it, as does
// any program or user who moves a socket), and one bound by a program of
// another network namespace (a container given the project by a bind
// mount, a program under unshare -n, flatpak: /proc/net/unix lists the
// caller's namespace only), and one bound by a program that sees the
// sandbox at another path (a mount namespace of its own on the same
// network: /proc/net/unix names a path that leads nowhere here), and one
// whose absolute name holds two spaces, a tab or a trailing space
// (listeningSockets splits each line at white space and joins the path
// back with single spaces). With and without Network.
func TestEscape25cOutsideSocketInSandboxNotMasked(t *testing.T) {
	for _, network := range []bool{false, true} {
		name := "without-network"
		if network {
			name = "with-network"
		}
		t.Run(name, func(t *testing.T) {
			sb, _, p := dirs(t)
			p.Network = network

			// Bound by a relative name, from inside the sandbox.
			wd, err := os.Getwd()
			require.NoError(t, err)
			require.NoError(t, os.Chdir(sb))
			relative := lateListener(t, "unix", "relative.sock")
			require.NoError(t, os.Chdir(wd))

			// Bound in a directory, then renamed into the sandbox.
			sub := filepath.Join(sb, "sub")
			require.NoError(t, os.Mkdir(sub, 0o755))
			renamed := lateListener(t, "unix", filepath.Join(sub, "bound.sock"))
			require.NoError(t, os.Rename(filepath.Join(sub, "bound.sock"), filepath.Join(sb, "renamed.sock")))

			// Bound by a program of another network namespace.
			other := filepath.Join(sb, "other-netns.sock")
			marker := filepath.Join(victimDir(t), "reached")
			server := exec.Command("unshare", "-r", "-n", "python3", "-c", `
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1]); s.listen(5)
while True:
    c, _ = s.accept()
    open(sys.argv[2], "a").write("reached\n")
    c.close()
`, other, marker)
			require.NoError(t, server.Start())
			t.Cleanup(func() { _ = server.Process.Kill(); _ = server.Wait() })
			require.Eventually(t, func() bool { _, err := os.Lstat(other); return err == nil }, 5*time.Second, 10*time.Millisecond)

			// Bound by a program of the same network namespace that sees the
			// sandbox at another path (a mount namespace of its own: a dev
			// container on the host's network given the project at
			// /workspace, a bind mount or bindfs of the project
			// elsewhere): /proc/net/unix names the path it bound, which
			// leads nowhere in the caller's view.
			alias := victimDir(t)
			aliasMarker := filepath.Join(victimDir(t), "reached")
			aliased := exec.Command("unshare", "-r", "-m", "sh", "-c", `mount --bind "$1" "$2" && exec python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1]); s.listen(5)
while True:
    c, _ = s.accept()
    open(sys.argv[2], "a").write("reached\n")
    c.close()
' "$2/aliased.sock" "$3"`, "sh", sb, alias, aliasMarker)
			require.NoError(t, aliased.Start())
			t.Cleanup(func() { _ = aliased.Process.Kill(); _ = aliased.Wait() })
			require.Eventually(t, func() bool { _, err := os.Lstat(filepath.Join(sb, "aliased.sock")); return err == nil }, 5*time.Second, 10*time.Millisecond)

			// Bound by an absolute name that /proc/net/unix shows as it is
			// but that the masking reads back split at white space and
			// joined with single spaces: two spaces, a tab, a trailing
			// space (a folder named "Project  copy", "notes ").
			var spaced []*atomic.Int32
			var spacedNames []string
			for _, name := range []string{"two  spaces.sock", "tab\tin.sock", "trailing.sock "} {
				spaced = append(spaced, lateListener(t, "unix", filepath.Join(sb, name)))
				spacedNames = append(spacedNames, filepath.Join(sb, name))
			}

			for _, target := range []string{"relative.sock", filepath.Join(sb, "relative.sock"), "renamed.sock", filepath.Join(sb, "renamed.sock"), other, filepath.Join(sb, "aliased.sock")} {
				out, ok := run(t, &p, "unix", target)
				assert.False(t, ok, "the command reached an outside program's socket %s in the sandbox: %s", target, out)
			}
			for i, target := range spacedNames {
				out, ok := run(t, &p, "unix", target)
				assert.False(t, ok, "the command reached an outside program's socket %q in the sandbox: %s", target, out)
				time.Sleep(50 * time.Millisecond)
				assert.Zero(t, spaced[i].Load(), "an outside program's socket %q (white space in its name) in the sandbox was reached", target)
			}
			time.Sleep(50 * time.Millisecond)
			assert.Zero(t, relative.Load(), "an outside program's socket bound by a relative name in the sandbox was reached")
			assert.Zero(t, renamed.Load(), "an outside program's socket renamed into the sandbox was reached")
			b, _ := os.ReadFile(marker)
			assert.Zero(t, strings.Count(string(b), "reached"), "a socket of a program in another network namespace, in the sandbox, was reached")
			b, _ = os.ReadFile(aliasMarker)
			assert.Zero(t, strings.Count(string(b), "reached"), "a socket bound through another path to the sandbox (another mount namespace) was reached")
		})
	}
}

// TestEscape25cAppendedStreamTruncated: a caller that appends the
// command's output to a file of the user's (sandboxauth run ... >>
// ~/build.log, an agent's log of its tool calls) gives the command the
// open file description itself. Reopening it through /proc/self/fd/1 is
// refused (Landlock), but the descriptor it was given can be truncated
// (ftruncate), made to write anywhere (F_SETFL without O_APPEND, put back
// only after the run, then pwrite at 0), and its earlier content zeroed
// (fallocate PUNCH_HOLE, which O_APPEND does not restrict): the command
// erases or rewrites what the user's file held before the run, a file
// outside the sandbox.
func TestEscape25cAppendedStreamTruncated(t *testing.T) {
	for _, tc := range []struct{ name, code string }{
		{"ftruncate", "os.ftruncate(1, 0)"},
		// O_APPEND belongs to the open file description, which the
		// command may change (put back only after the run), and then
		// write anywhere in the file.
		{"clear-append", "import fcntl; fcntl.fcntl(1, fcntl.F_SETFL, fcntl.fcntl(1, fcntl.F_GETFL) & ~os.O_APPEND); os.pwrite(1, b'OVERWRITTEN', 0)"},
		// FALLOC_FL_PUNCH_HOLE|FALLOC_FL_KEEP_SIZE: zeroes the earlier
		// content in place.
		{"punch-hole", "import ctypes; libc = ctypes.CDLL(None, use_errno=True); r = libc.fallocate(1, 3, ctypes.c_long(0), ctypes.c_long(4096)); assert r == 0, ctypes.get_errno()"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sb, outside, p := dirs(t)
			log := filepath.Join(outside, "build.log")
			const earlier = "the user's earlier log line\n"
			require.NoError(t, os.WriteFile(log, []byte(earlier), 0o644))
			f, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND, 0)
			require.NoError(t, err)
			defer f.Close()
			cmd := exec.Command("python3", "-c", `
import os
try:
    `+tc.code+`
    os.write(2, b"DONE\n")
except Exception as e:
    os.write(2, ("failed: %r\n" % e).encode())
`)
			cmd.Dir = sb
			var errOut bytes.Buffer
			cmd.Stdout, cmd.Stderr = f, &errOut
			_ = Run(cmd, p)
			b, err := os.ReadFile(log)
			require.NoError(t, err)
			assert.True(t, strings.HasPrefix(string(b), earlier), "the command erased the user's file it was given to append to: now %q (%s)", b, errOut.String())
		})
	}
}

// TestEscape25cStoppedTerminalHoldsBackTheMountKill: when a mount over a
// path of the sandbox is lost (the user's git renames a new .git/config
// over it, an editor saves .env), the helper writes why on its standard
// error, which is the command's, and only then kills the sandbox
// (helper_linux.go). A command whose standard error is the user's
// terminal suspends the terminal's output first (tcflow(2, TCOOFF), as
// Ctrl-S does; put back only when the sandbox has ended): the helper's
// write blocks, the kill never comes, and the command goes on for as long
// as it likes with the path unprotected: it appends to the new
// .git/config (or reads the new .env), where the documented window is a
// fraction of a millisecond.
func TestEscape25cStoppedTerminalHoldsBackTheMountKill(t *testing.T) {
	sb, _, p := dirs(t)
	config := filepath.Join(sb, "config")
	require.NoError(t, os.WriteFile(config, []byte("old\n"), 0o644))
	p.ReadOnly = []string{config}
	ptmx, tty := openPty(t)
	go func() { _, _ = io.Copy(io.Discard, ptmx) }()
	cmd := exec.Command("python3", "-c", `
import termios, time
termios.tcflow(2, termios.TCOOFF)
open("started", "w").close()
deadline = time.time() + 6
while time.time() < deadline:
    try:
        if "NEW" in open("config").read():
            end = time.time() + 2
            while time.time() < end:
                with open("config", "a") as f:
                    f.write("evil\n")
                time.sleep(0.05)
            print("WROTE", flush=True)
            break
    except OSError:
        pass
    time.sleep(0.01)
time.sleep(2)
open("survived", "w").close()
print("SURVIVED", flush=True)
`)
	cmd.Dir = sb
	var out bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, &out, tty
	require.NoError(t, Start(cmd, p))
	require.Eventually(t, func() bool { _, err := os.Stat(filepath.Join(sb, "started")); return err == nil }, 10*time.Second, 10*time.Millisecond)
	time.Sleep(200 * time.Millisecond)
	renameOver(t, config, "NEW\n")
	_ = cmd.Wait()
	b, err := os.ReadFile(config)
	require.NoError(t, err)
	// A command polling for the rename may win the documented window
	// (a fraction of a millisecond) once; it must not go on writing.
	assert.LessOrEqual(t, strings.Count(string(b), "evil"), 1, "the command went on writing the user's new .git/config after the mount was lost: %q %s", b, out.String())
	assert.NotContains(t, out.String(), "SURVIVED", "the command was not stopped when the mount was lost")
	_, err = os.Stat(filepath.Join(sb, "survived"))
	assert.True(t, os.IsNotExist(err), "the command went on after the mount was lost")
}

// TestEscape25cHelperStarved: prlimit on the helper is refused, but its
// scheduling is not: the command (same user) sets every thread of the
// helper (/proc/1/task) to SCHED_IDLE and pins them to one CPU
// (sched_setscheduler, sched_setaffinity; setpriority and ioprio_set
// work too) and keeps that CPU busy with processes of its own. The helper
// then hardly runs: when the user's git renames a new .git/config over
// the read-only one, the kill that should follow within a millisecond
// comes seconds later (or when the command lets the CPU go), and the
// command appends to the new .git/config meanwhile. Ending the run
// (SIGTERM to sandboxauth run, bubblewrap killed) is delayed the same:
// the starved helper is the one that kills, and as PID 1 it is the one
// whose exit ends the namespace (45 s in a manual run).
func TestEscape25cHelperStarved(t *testing.T) {
	sb, _, p := dirs(t)
	config := filepath.Join(sb, "config")
	require.NoError(t, os.WriteFile(config, []byte("old\n"), 0o644))
	p.ReadOnly = []string{config}
	cmd := exec.Command("python3", "-c", `
import os, time, signal
cpus = sorted(os.sched_getaffinity(0))
first, last = cpus[0], cpus[-1]
os.sched_setaffinity(0, {last})
for tid in os.listdir("/proc/1/task"):
    tid = int(tid)
    try:
        os.sched_setaffinity(tid, {first})
        os.sched_setscheduler(tid, os.SCHED_IDLE, os.sched_param(0))
        os.setpriority(os.PRIO_PROCESS, tid, 19)
    except OSError as e:
        print("helper thread", tid, e, flush=True)
spinners = []
for _ in range(32):
    pid = os.fork()
    if pid == 0:
        os.sched_setaffinity(0, {first})
        while True:
            pass
    spinners.append(pid)
first_content = open("config").read()
open("started", "w").close()
deadline = time.time() + 8
while time.time() < deadline:
    if open("config").read() != first_content:
        end = time.time() + 2
        while time.time() < end:
            with open("config", "a") as f:
                f.write("evil\n")
            time.sleep(0.05)
        print("WROTE", flush=True)
        break
for pid in spinners:
    os.kill(pid, signal.SIGKILL)
`)
	cmd.Dir = sb
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, Start(cmd, p))
	require.Eventually(t, func() bool { _, err := os.Stat(filepath.Join(sb, "started")); return err == nil }, 20*time.Second, 10*time.Millisecond)
	time.Sleep(500 * time.Millisecond)
	renameOver(t, config, "NEW\n")
	_ = cmd.Wait()
	b, err := os.ReadFile(config)
	require.NoError(t, err)
	// A command polling for the rename may win the documented window
	// (a fraction of a millisecond, a few when the CPUs are busy) once;
	// the helper must stop it before it writes again 50 ms later.
	assert.LessOrEqual(t, strings.Count(string(b), "evil"), 1, "the starved helper let the command go on writing the user's new file: %d appends: %s", strings.Count(string(b), "evil"), out.String())
}
