package confine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/internal/userdb"
)

func TestWritesOutsideFail(t *testing.T) {
	sb, out, p := dirs(t)
	for _, tc := range []struct{ name, script, created string }{
		{"redirect", "echo x > " + out + "/x", "x"},
		{"append", "echo x >> " + out + "/y", "y"},
		{"touch", "touch " + out + "/t", "t"},
		{"mkdir", "mkdir " + out + "/d", "d"},
		{"symlink", "ln -s /etc/passwd " + out + "/l", "l"},
		{"copy", "echo x > a && cp a " + out + "/c", "c"},
		{"move out", "echo x > m && mv m " + out + "/m", "m"},
		{"fifo", "mkfifo " + out + "/f", "f"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg, err := sh(t, p, sb, tc.script)
			var ee *exec.ExitError
			require.ErrorAs(t, err, &ee, "the write outside succeeded: %s", msg)
			require.NoFileExists(t, filepath.Join(out, tc.created))
			require.NoDirExists(t, filepath.Join(out, tc.created))
		})
	}
	entries, err := os.ReadDir(out)
	require.NoError(t, err)
	require.Empty(t, entries)
}

func TestRemoveOutsideFails(t *testing.T) {
	sb, out, p := dirs(t)
	victim := filepath.Join(out, "keep")
	require.NoError(t, os.WriteFile(victim, []byte("data"), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(out, "dir"), 0o755))
	for _, script := range []string{
		"rm -f " + victim,
		"rm -rf " + out + "/dir",
		": > " + victim, // truncate
		"mv " + victim + " " + sb + "/stolen",
	} {
		msg, err := sh(t, p, sb, script)
		require.Error(t, err, "%s: %s", script, msg)
		b, rerr := os.ReadFile(victim)
		require.NoError(t, rerr, script)
		require.Equal(t, "data", string(b), script)
		require.DirExists(t, filepath.Join(out, "dir"))
	}
}

func TestInsideWorks(t *testing.T) {
	sb, _, p := dirs(t)
	require.NoError(t, os.WriteFile(filepath.Join(sb, "old"), []byte("x"), 0o644))
	msg, err := sh(t, p, sb, `set -e
echo hello > new
echo more >> new
mkdir -p a/b/c && echo deep > a/b/c/f
mv a/b/c/f a/g && ln -s g a/link && cat a/link > /dev/null
: > old && rm old
mkfifo pipe && rm pipe
rm -r a/b && truncate -s 0 a/g
cat new`)
	require.NoError(t, err, msg)
	require.Equal(t, "hello\nmore\n", msg)
	require.NoFileExists(t, filepath.Join(sb, "old"))
	require.NoDirExists(t, filepath.Join(sb, "a", "b"))
	fi, err := os.Stat(filepath.Join(sb, "a", "g"))
	require.NoError(t, err)
	require.Zero(t, fi.Size())
}

func TestWritableListed(t *testing.T) {
	sb, out, p := dirs(t)
	p.Writable = append(p.Writable, out, filepath.Join(out, "missing-is-skipped"))
	msg, err := sh(t, p, sb, "echo x > "+out+"/ok")
	require.NoError(t, err, msg)
	require.FileExists(t, filepath.Join(out, "ok"))
}

// TestNoDeviceNodes: a confined command cannot create a device node, even
// as root, even in the sandbox (one naming a disk would write past every
// rule); unconfined root can.
func TestNoDeviceNodes(t *testing.T) {
	sb, _, p := dirs(t)
	if os.Geteuid() != 0 {
		t.Skip("only root can create device nodes at all, so there is nothing to refuse here")
	}
	if out, ok := run(t, nil, "mknod", filepath.Join(sb, "free")); !ok {
		t.Skipf("root cannot create device nodes here even unconfined: %s", out)
	}
	out, ok := run(t, &p, "mknod", filepath.Join(sb, "dev"))
	assert.False(t, ok, out)
	assert.Regexp(t, "permission denied|operation not permitted", out)
	assert.NoFileExists(t, filepath.Join(sb, "dev"))
}

func TestReadable(t *testing.T) {
	sb, out, p := dirs(t)
	require.NoError(t, os.WriteFile(filepath.Join(out, "secret"), []byte("s3cret"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(sb, "mine"), []byte("mine"), 0o644))
	extra, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(extra, "lib"), []byte("lib"), 0o644))

	// Reads unrestricted (nil): the secret can be read.
	msg, err := sh(t, p, sb, "cat "+out+"/secret")
	require.NoError(t, err)
	require.Equal(t, "s3cret", msg)

	p.Readable = []string{extra}
	for _, tc := range []struct {
		script, want string
		ok           bool
	}{
		{"cat mine", "mine", true},
		{"cat " + extra + "/lib", "lib", true},
		{"ls " + extra, "lib\n", true},
		{"cat " + out + "/secret", "", false},
		{"ls " + out, "", false},
		{"cp " + out + "/secret " + sb + "/copy", "", false},
	} {
		msg, err := sh(t, p, sb, tc.script)
		if tc.ok {
			require.NoError(t, err, "%s: %s", tc.script, msg)
			require.Equal(t, tc.want, msg, tc.script)
		} else {
			require.Error(t, err, "%s: %s", tc.script, msg)
			require.NotContains(t, msg, "s3cret")
		}
	}
	require.NoFileExists(t, filepath.Join(sb, "copy"))
}

// TestCallerUnconfined: after many confined starts from concurrent
// goroutines, no thread of this process has no_new_privs (which Start sets
// together with the Landlock domain), and the process still writes
// outside, from fresh locked threads and through a child it starts plainly.
func TestCallerUnconfined(t *testing.T) {
	sb, out, p := dirs(t)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 5; j++ {
				cmd := exec.Command("/bin/sh", "-c", "echo x > "+out+"/denied")
				cmd.Dir = sb
				if err := Run(cmd, p); err == nil {
					t.Errorf("a confined write outside succeeded")
				}
			}
		}()
	}
	wg.Wait()
	require.NoFileExists(t, filepath.Join(out, "denied"))

	// The threads that started the commands are retired once the commands
	// have ended; none is ever handed back to the runtime, so every thread
	// left is free of no_new_privs.
	require.Eventually(t, func() bool {
		tasks, err := filepath.Glob("/proc/self/task/*/status")
		if err != nil || len(tasks) == 0 {
			return false
		}
		for _, st := range tasks {
			b, err := os.ReadFile(st)
			if err == nil && !strings.Contains(string(b), "NoNewPrivs:\t0") {
				return false
			}
		}
		return true
	}, 10*time.Second, 10*time.Millisecond, "a thread of the caller keeps no_new_privs")
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			if err := os.WriteFile(filepath.Join(out, fmt.Sprintf("direct%d", i)), []byte("x"), 0o644); err != nil {
				t.Errorf("the caller cannot write outside: %v", err)
			}
		}(i)
	}
	wg.Wait()
	require.NoError(t, exec.Command("/bin/sh", "-c", "echo x > "+out+"/plain").Run())
	require.FileExists(t, filepath.Join(out, "plain"))
}

func TestInvalidPolicy(t *testing.T) {
	sb := t.TempDir()
	file := filepath.Join(sb, "f")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	for _, tc := range []struct {
		name string
		p    Policy
	}{
		{"empty sandbox", Policy{}},
		{"relative sandbox", Policy{Sandbox: "project"}},
		{"missing sandbox", Policy{Sandbox: filepath.Join(sb, "missing")}},
		{"file sandbox", Policy{Sandbox: file}},
		{"relative writable", Policy{Sandbox: sb, Writable: []string{"tmp"}}},
		{"relative readable", Policy{Sandbox: sb, Readable: []string{""}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command("/bin/true")
			err := Start(cmd, tc.p)
			require.Error(t, err)
			require.False(t, errors.Is(err, ErrUnavailable), "%v", err)
			require.Nil(t, cmd.Process, "nothing may start")
		})
	}
	require.Error(t, Start(nil, Policy{Sandbox: sb}))
}

// TestUnsafePolicy: a policy that would leave a way out is refused before
// anything starts, and the error says which entry and why.
func TestUnsafePolicy(t *testing.T) {
	requireConfinement(t)
	sb, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	home, err := os.UserHomeDir()
	require.NoError(t, err)
	require.NoError(t, os.Mkdir(filepath.Join(sb, "cache"), 0o755))
	require.NoError(t, os.Mkdir(filepath.Join(sb, "real"), 0o755))
	require.NoError(t, os.Symlink("real", filepath.Join(sb, ".vscode")))
	victim := victimDir(t)
	require.NoError(t, os.Symlink(victim, filepath.Join(sb, "out")))
	for _, tc := range []struct {
		name, want string
		p          Policy
	}{
		{"the root as sandbox", "whole file system", Policy{Sandbox: "/"}},
		{"a writable entry inside the sandbox", "inside the sandbox", Policy{Sandbox: sb, Writable: []string{filepath.Join(sb, "cache")}}},
		{"a private entry inside the sandbox", "inside the sandbox", Policy{Sandbox: sb, Private: []string{filepath.Join(sb, "cache")}}},
		{"a writable entry through a link in the sandbox", "inside the sandbox", Policy{Sandbox: sb, Writable: []string{filepath.Join(sb, "out")}}},
		{"the home directory", "home directory", Policy{Sandbox: sb, Writable: []string{home}}},
		{"the root directory", "home directory", Policy{Sandbox: sb, Writable: []string{"/"}}},
		{"a writable entry under a hidden one", "hidden path", Policy{Sandbox: sb, Writable: []string{victim}, Hidden: []string{filepath.Dir(victim)}}},
		{"a read-only path through a symbolic link", "symbolic link", Policy{Sandbox: sb, ReadOnly: []string{filepath.Join(sb, ".vscode", "tasks.json")}}},
		{"the whole sandbox read-only", "is itself kept read-only", Policy{Sandbox: sb, ReadOnly: []string{sb}}},
		{"the sandbox inside a read-only path", "kept read-only because programs run", Policy{Sandbox: filepath.Join(sb, "real"), ReadOnly: []string{sb}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command("/bin/true")
			err := Start(cmd, tc.p)
			require.ErrorIs(t, err, ErrUnsafePolicy)
			require.Contains(t, err.Error(), tc.want)
			require.Nil(t, cmd.Process, "nothing may start")
		})
	}
}

// TestUnsafeSandbox: a sandbox whose files the user's programs obey or
// run is refused before anything starts: the home directory (HOME, or
// the user database's when HOME is unset), an ancestor of it, a place
// where programs keep settings (~/.config, ~/.local, ~/.cache, the XDG
// variables' places) and a directory on PATH. A directory merely beside
// them, and a PATH that names / or the home directory, refuse nothing.
func TestUnsafeSandbox(t *testing.T) {
	requireConfinement(t)
	home, err := filepath.EvalSymlinks(victimDir(t))
	require.NoError(t, err)
	bin := filepath.Join(home, "tools", "bin")
	xdg := filepath.Join(home, "xdg-data")
	for _, d := range []string{filepath.Join(home, ".config", "app"), filepath.Join(home, ".local", "bin"), filepath.Join(home, ".cache", "x"), bin, filepath.Join(xdg, "y"), filepath.Join(home, "proj")} {
		require.NoError(t, os.MkdirAll(d, 0o755))
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_DATA_HOME", xdg)
	t.Setenv("PATH", bin+":/:"+home+":"+os.Getenv("PATH"))
	for _, tc := range []struct{ sandbox, want string }{
		{home, "holds the home directory"},
		{filepath.Dir(home), "holds the home directory"},
		{filepath.Join(home, ".config", "app"), "where programs keep settings"},
		{filepath.Join(home, ".local", "bin"), "where programs keep settings"},
		{filepath.Join(home, ".cache", "x"), "where programs keep settings"},
		{filepath.Join(xdg, "y"), "where programs keep settings"},
		{bin, "a directory on PATH"},
	} {
		cmd := exec.Command("/bin/true")
		err := Start(cmd, Policy{Sandbox: tc.sandbox})
		require.ErrorIs(t, err, ErrUnsafePolicy, tc.sandbox)
		assert.Contains(t, err.Error(), tc.want, tc.sandbox)
		assert.Nil(t, cmd.Process, "nothing may start")
	}
	cmd := exec.Command("/bin/true")
	cmd.Dir = filepath.Join(home, "proj")
	assert.NoError(t, Run(cmd, Policy{Sandbox: filepath.Join(home, "proj")}), "a project beside them")

	// A project in a toolchain's home is refused; a Go project under
	// ~/go/src is not.
	crate := filepath.Join(home, ".cargo", "registry", "src", "x")
	gosrc := filepath.Join(home, "go", "src", "example.com", "p")
	require.NoError(t, os.MkdirAll(crate, 0o755))
	require.NoError(t, os.MkdirAll(gosrc, 0o755))
	err = Start(exec.Command("/bin/true"), Policy{Sandbox: crate})
	require.ErrorIs(t, err, ErrUnsafePolicy)
	assert.Contains(t, err.Error(), "toolchains")
	cmd = exec.Command("/bin/true")
	cmd.Dir = gosrc
	assert.NoError(t, Run(cmd, Policy{Sandbox: gosrc}), "a Go project under ~/go/src")

	// A dotfiles project that ~/.config links into holds it.
	dots := filepath.Join(home, "dotfiles")
	require.NoError(t, os.MkdirAll(filepath.Join(dots, "config"), 0o755))
	require.NoError(t, os.RemoveAll(filepath.Join(home, ".config")))
	require.NoError(t, os.Symlink(filepath.Join(dots, "config"), filepath.Join(home, ".config")))
	err = Start(exec.Command("/bin/true"), Policy{Sandbox: dots})
	require.ErrorIs(t, err, ErrUnsafePolicy)
	assert.Contains(t, err.Error(), "holds")
}

// TestCredentialsHiddenWithoutHOME: with HOME unset, empty or pointing
// elsewhere, DefaultPolicy still hides the credentials of the home the
// user database gives for the user.
func TestCredentialsHiddenWithoutHOME(t *testing.T) {
	real, ok := userdb.HomeOfUID(os.Geteuid())
	if !ok {
		t.Skip("the user database has no home for this user")
	}
	want := filepath.Join(real, ".ssh")
	if r, err := filepath.EvalSymlinks(real); err == nil {
		want = filepath.Join(r, ".ssh")
	}
	for _, home := range []string{"", "relative", t.TempDir()} {
		t.Setenv("HOME", home)
		assert.Contains(t, DefaultPolicy(t.TempDir()).Hidden, want, "HOME=%q", home)
	}
	os.Unsetenv("HOME")
	assert.Contains(t, DefaultPolicy(t.TempDir()).Hidden, want, "HOME unset")
}

func TestRunReturnsExitStatus(t *testing.T) {
	sb, _, p := dirs(t)
	cmd := exec.Command("/bin/sh", "-c", "exit 7")
	cmd.Dir = sb
	var ee *exec.ExitError
	require.ErrorAs(t, Run(cmd, p), &ee)
	require.Equal(t, 7, ee.ExitCode())
	// A command that does not exist fails as exec.Cmd does.
	cmd = exec.Command(filepath.Join(sb, "missing"))
	err := Start(cmd, p)
	require.Error(t, err)
	require.False(t, errors.Is(err, ErrUnavailable))
	// Started twice is an error.
	cmd = exec.Command("/bin/true")
	cmd.Dir = sb
	require.NoError(t, Run(cmd, p))
	require.Error(t, Start(cmd, p))
	// A working directory the command would not see is an error, not a
	// failure inside.
	cmd = exec.Command("/bin/true")
	cmd.Dir = t.TempDir()
	err = Start(cmd, p)
	require.ErrorContains(t, err, "out of the command's sight")
	require.Nil(t, cmd.Process)
}

// TestRunWaitsForAfterExit: Run returns only once AfterExit has run and
// nothing of the sandbox is left, whether the command ends on its own or
// its context ends the sandbox (a signal to bubblewrap, after which
// cmd.Wait alone returns at once); Start and cmd.Wait report the signal.
func TestRunWaitsForAfterExit(t *testing.T) {
	sb, _, p := dirs(t)
	for _, tc := range []struct {
		name    string
		timeout time.Duration
		script  string
		status  string
	}{
		{"ends on its own", time.Minute, "exit 3", "exit status 3"},
		{"context ends it", 300 * time.Millisecond, "trap '' TERM INT HUP; (sleep 60 &); sleep 60", "signal: killed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), tc.timeout)
			defer cancel()
			var ran atomic.Bool
			q := p
			q.AfterExit = func() {
				time.Sleep(100 * time.Millisecond) // a slow move-aside
				ran.Store(true)
			}
			cmd := exec.CommandContext(ctx, "/bin/sh", "-c", tc.script)
			cmd.Dir = sb
			err := Run(cmd, q)
			require.Error(t, err)
			assert.Equal(t, tc.status, err.Error())
			assert.True(t, ran.Load(), "Run returned before AfterExit had run")
		})
	}
}

// TestNoSetIDFiles: the sandbox's mounts are nosuid for the command, but
// what it writes stays on the user's disk: a set-user-ID copy of a program
// left in the project (owned by root when the command ran as root) would
// run as its owner for whoever starts it after the run. Every way of
// setting the bits fails; making a file executable still works.
func TestNoSetIDFiles(t *testing.T) {
	sb, _, p := dirs(t)
	script := `cp /bin/true x && chmod 4755 x; chmod u+s x; chmod g+s x
install -m 6755 /bin/true y
command -v python3 >/dev/null && python3 -c '
import os
for flags in (os.O_CREAT | os.O_WRONLY, os.O_TMPFILE | os.O_WRONLY):
    try:
        fd = os.open("z" if flags & os.O_CREAT else ".", flags, 0o4755); os.close(fd)
    except OSError as e: print("open:", e)
try: os.mknod("w", 0o104755)
except OSError as e: print("mknod:", e)
'
cp /bin/true e && chmod 755 e && ./e && echo executable`
	out, _ := sh(t, p, sb, script)
	assert.Contains(t, out, "executable", out)
	entries, err := os.ReadDir(sb)
	require.NoError(t, err)
	for _, e := range entries {
		fi, err := e.Info()
		require.NoError(t, err)
		assert.Zero(t, fi.Mode()&(os.ModeSetuid|os.ModeSetgid), "%s is %v: %s", e.Name(), fi.Mode(), out)
	}
}
