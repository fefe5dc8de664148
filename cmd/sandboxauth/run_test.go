package main

import (
	"encoding/json"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/sandboxauth/sandboxauth/confine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runEnv runs the binary in dir with extra environment and standard input
// from stdin (not a terminal).
func runEnv(t *testing.T, dir string, env []string, stdin string, args ...string) result {
	t.Helper()
	return runWith(t, dir, append(os.Environ(), env...), stdin, args...)
}

func requireLandlock(t *testing.T) {
	t.Helper()
	if err := confine.Available(); err != nil {
		t.Skipf("this kernel cannot confine commands, so run refuses everything here: %v", err)
	}
}

// project makes a sandbox with a Go module whose test body is given, a
// private temporary directory for the toolchain, and the environment that
// points the toolchain at it.
func project(t *testing.T, testBody string) (sb string, env []string, config string) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not installed")
	}
	sb, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	tmp := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(sb, "go.mod"), []byte("module example.com/m\n\ngo 1.21\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(sb, "m_test.go"), []byte("package m\n\nimport (\n\t\"net\"\n\t\"os\"\n\t\"testing\"\n)\n\nvar _, _ = net.Dial, os.WriteFile\n\nfunc TestM(t *testing.T) {\n"+testBody+"\n}\n"), 0o644))
	// The tests' own Go build cache, shared on purpose, keeps the confined
	// go test fast (a sandbox's private copy starts empty).
	gocache, err := exec.Command("go", "env", "GOCACHE").Output()
	require.NoError(t, err)
	config = filepath.Join(t.TempDir(), "config.json")
	body, err := json.Marshal(map[string]any{"confine": map[string]any{"writable": []string{strings.TrimSpace(string(gocache))}}})
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(config, body, 0o644))
	return sb, []string{"TMPDIR=" + tmp, "GOTOOLCHAIN=local", "GOFLAGS=", "GOPROXY=off", "GOCACHE=" + strings.TrimSpace(string(gocache))}, config
}

// TestRunMaliciousTest: go test is project code, so run starts it without
// asking, confined: a test that writes outside the sandbox or connects out
// fails, nothing is written and the listener sees nothing; the exit status
// is go test's.
func TestRunMaliciousTest(t *testing.T) {
	requireLandlock(t)
	outside := homeVictim(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	sb, env, config := project(t, `	if err := os.WriteFile("`+outside+`/pwned", []byte("x"), 0o644); err != nil {
		t.Error(err)
	}
	if c, err := net.Dial("tcp", "`+l.Addr().String()+`"); err != nil {
		t.Error(err)
	} else {
		c.Close()
	}`)
	r := runEnv(t, sb, env, "", "run", "--config", config, "--", "go", "test", "./...")
	assert.Equal(t, 1, r.code, "stdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	assert.Contains(t, r.stdout, "pwned: read-only file system")
	assert.Contains(t, r.stdout, "connect: connection refused", "the machine's loopback is not the command's")
	assert.Contains(t, r.stderr, "no network (--net")
	assert.Contains(t, r.stderr, "no UNIX datagram sockets")
	assert.NoFileExists(t, filepath.Join(outside, "pwned"))
	assertNoConnection(t, l)

	// With --net, project code could send the user's files out: it is asked
	// about, and with no terminal refused before anything runs.
	r = runEnv(t, sb, env, "", "run", "--config", config, "--net", "--", "go", "test", "./...")
	assert.Equal(t, exitRunRefused, r.code, "stderr:\n%s", r.stderr)
	assert.Contains(t, r.stderr, "sandboxauth run: refused `go test ./...`: it needs your approval (the command runs project code (go test), and with --net the network is open and reads are not restricted, so the confinement would not stop it from sending your files out), and standard input is not a terminal to ask on.")
	assert.NotContains(t, r.stderr, "nothing confines it", "confinement is there, with the network open")
	assert.NotContains(t, r.stderr, "agent", "a person typed the command")
	assertNoConnection(t, l)
}

// TestRunBuildScriptWritingOutside: ./build.sh writing outside the project
// fails confined, nothing is written there, and run says what was withheld
// and where to allow it: in a --config file when run had none, in the very
// file it was given otherwise. Following that advice lets the write happen.
func TestRunBuildScriptWritingOutside(t *testing.T) {
	requireLandlock(t)
	outside := homeVictim(t)
	sb, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(sb, "build.sh"), []byte("#!/bin/sh\nset -e\nmkdir -p dist\necho built > dist/app\necho x > "+outside+"/written\n"), 0o755))
	dir := t.TempDir()
	closed, open := filepath.Join(dir, "closed.json"), filepath.Join(dir, "open.json")
	require.NoError(t, os.WriteFile(closed, []byte(`{"confine": {"network": false}}`), 0o644))
	require.NoError(t, os.WriteFile(open, []byte(`{"confine": {"writable": ["`+outside+`"]}}`), 0o644))

	r := runEnv(t, sb, nil, "", "run", "--", "./build.sh")
	assert.Equal(t, 2, r.code, "the script's own status: stderr:\n%s", r.stderr)
	assert.Contains(t, r.stderr, outside+"/written: Read-only file system")
	assert.Contains(t, r.stderr, `files outside `+sb+` read-only ("writable": ["/abs/dir"] in the "confine" section of a policy file given with --config adds a directory)`)
	assert.NoFileExists(t, filepath.Join(outside, "written"))
	assert.FileExists(t, filepath.Join(sb, "dist", "app"), "the project itself is writable")

	r = runEnv(t, sb, nil, "", "run", "--config", closed, "--", "./build.sh")
	assert.Equal(t, 2, r.code, "stderr:\n%s", r.stderr)
	assert.Contains(t, r.stderr, `("writable": ["/abs/dir"] in the "confine" section of `+closed+` adds a directory)`)
	assert.Contains(t, r.stderr, `no network (--net, or "network": true in the "confine" section of `+closed+`, allows it)`)
	assert.NoFileExists(t, filepath.Join(outside, "written"))

	r = runEnv(t, sb, nil, "", "run", "--config", open, "--", "./build.sh")
	assert.Equal(t, 0, r.code, "with the directory writable: stderr:\n%s", r.stderr)
	assert.FileExists(t, filepath.Join(outside, "written"))
}

// assertNoConnection: the first connection l accepts is one made now.
func assertNoConnection(t *testing.T, l net.Listener) {
	t.Helper()
	own, err := net.Dial("tcp", l.Addr().String())
	require.NoError(t, err)
	defer own.Close()
	c, err := l.Accept()
	require.NoError(t, err)
	defer c.Close()
	assert.Equal(t, own.LocalAddr().String(), c.RemoteAddr().String(), "the listener saw a connection from the confined command")
}

func TestRunExitStatus(t *testing.T) {
	requireLandlock(t)
	sb, env, config := project(t, "")
	for _, tc := range []struct {
		argv []string
		code int
	}{
		{[]string{"go", "test", "./..."}, 0},
		{[]string{"ls", "missing"}, 2},
		{[]string{"false"}, 1},
		{[]string{"./missing"}, exitRunNotFound},
		{[]string{"gti", "status"}, exitRunNotFound},
	} {
		r := runEnv(t, sb, env, "", append([]string{"run", "--config", config, "--"}, tc.argv...)...)
		assert.Equal(t, tc.code, r.code, "%q: stderr:\n%s", tc.argv, r.stderr)
	}
	r := runEnv(t, sb, env, "", "run", "--", "gti", "status")
	assert.Equal(t, "sandboxauth run: gti: command not found (no such program in any directory of PATH); nothing ran\n", r.stderr, "a mistyped program is not a refusal")
	r = runEnv(t, sb, env, "", "run", "--", "ls")
	assert.Equal(t, exitOK, r.code)
	assert.Contains(t, r.stdout, "go.mod")
}

func TestRunRefusals(t *testing.T) {
	requireLandlock(t)
	sb := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(sb, "build"), 0o755))
	for _, tc := range []struct {
		argv []string
		why  string
	}{
		{[]string{"curl", "https://example.com"}, "blocked"},
		{[]string{"timeout", "5", "wget", "x"}, "blocked"},
		{[]string{"rm", "-rf", "build"}, "it needs your approval (the command is dangerous: recursive or forced removal), and standard input is not a terminal"},
		{[]string{"sh", "-c", "echo x > /etc/passwd"}, "it writes outside the sandbox"},
		{[]string{"rm", "-rf", "/"}, "it writes outside the sandbox " + sb + " (writes outside sandbox: /)"},
	} {
		r := runIn(t, sb, "", append([]string{"run", "--"}, tc.argv...)...)
		assert.Equal(t, exitRunRefused, r.code, "%q", tc.argv)
		assert.Contains(t, r.stderr, "sandboxauth run: refused `", "%q", tc.argv)
		assert.Contains(t, r.stderr, tc.why, "%q", tc.argv)
		assert.NotContains(t, r.stderr, "agent", "%q: a person typed the command", tc.argv)
		assert.Empty(t, r.stdout)
	}
	assert.DirExists(t, filepath.Join(sb, "build"), "nothing ran")

	r := runIn(t, sb, "", "run")
	assert.Equal(t, exitRunUsage, r.code)
	r = runIn(t, sb, "", "run", "--bogus", "--", "ls")
	assert.Equal(t, exitRunUsage, r.code)
	r = runIn(t, sb, "", "run", "--sandbox", filepath.Join(sb, "missing"), "--", "ls")
	assert.Equal(t, exitRunUsage, r.code)
	r = runIn(t, sb, "", "run", "--help")
	assert.Equal(t, exitOK, r.code)
	assert.Contains(t, r.stdout, "run it")
}

// TestRunYarnSettingsNotUnderstood: yarn settings at the top of the
// project that are not understood keep the whole project read-only, which
// confinement refuses; the refusal names the file and how to write it,
// and once it is written as yarn writes it the command runs.
func TestRunYarnSettingsNotUnderstood(t *testing.T) {
	requireLandlock(t)
	sb := t.TempDir()
	settings := filepath.Join(sb, ".yarnrc.yml")
	require.NoError(t, os.WriteFile(settings, []byte("{yarnPath: .yarn/releases/yarn.cjs}\n"), 0o644))
	r := runIn(t, sb, "", "run", "--", "true")
	assert.Equal(t, exitRunRefused, r.code)
	assert.Contains(t, r.stderr, "yarn's settings "+settings+" are not understood")
	assert.Contains(t, r.stderr, "write the file as yarn writes it (block YAML")

	require.NoError(t, os.WriteFile(settings, []byte("yarnPath: .yarn/releases/yarn.cjs\n"), 0o644))
	r = runIn(t, sb, "", "run", "--", "true")
	assert.Equal(t, exitOK, r.code, r.stderr)
}

// TestRunTerminal asks on a real terminal: y runs the command (confined),
// anything else refuses it.
func TestRunTerminal(t *testing.T) {
	requireLandlock(t)
	for _, answer := range []string{"y", "n"} {
		sb := t.TempDir()
		require.NoError(t, os.Mkdir(filepath.Join(sb, "build"), 0o755))
		cmd := exec.Command(bin, "run", "--", "rm", "-rf", "build")
		cmd.Dir = sb
		f, err := pty.Start(cmd)
		if err != nil {
			t.Skipf("no pseudo-terminal available: %v", err)
		}
		tm := newTerminal(f)
		tm.expect(t, "sandboxauth run: `rm -rf build` in "+sb+" needs your approval: the command is dangerous: recursive or forced removal.")
		tm.expect(t, "It would run confined: writes only beneath "+sb)
		tm.expect(t, "[y/N] ")
		tm.typeLine(t, answer)
		if answer != "y" {
			tm.expect(t, "you answered no; nothing ran")
		}
		err = cmd.Wait()
		f.Close()
		if answer == "y" {
			require.NoError(t, err, tm.output())
			assert.NoDirExists(t, filepath.Join(sb, "build"))
		} else {
			var ee *exec.ExitError
			require.ErrorAs(t, err, &ee)
			assert.Equal(t, exitRunRefused, ee.ExitCode())
			assert.DirExists(t, filepath.Join(sb, "build"))
		}
	}
}

// homeVictim makes a directory under the user's home directory (never a
// temporary directory, which a confined command's view replaces), removed
// at the end: the place a confined command must not write.
func homeVictim(t *testing.T) string {
	t.Helper()
	home, err := os.UserHomeDir()
	require.NoError(t, err)
	d, err := os.MkdirTemp(home, "sandboxauth-victim-")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(d) })
	return d
}

// TestRunInterrupted: an interrupt ends the confined command and run
// reports it as a shell would (128+N), after the sandbox is gone; also
// when run was started with interrupts ignored (nohup, a script's &),
// which bubblewrap would inherit, and when the command ignores them.
func TestRunInterrupted(t *testing.T) {
	requireLandlock(t)
	sb, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	script := filepath.Join(sb, "loop.sh")
	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\ntrap '' INT TERM HUP\necho started\nwhile :; do sleep 0.1; done\n"), 0o755))
	for _, tc := range []struct {
		name   string
		signal syscall.Signal
		ignore string
	}{
		{"SIGINT", syscall.SIGINT, ""},
		{"SIGTERM", syscall.SIGTERM, ""},
		{"SIGINT, started with it ignored", syscall.SIGINT, "INT HUP"},
		{"SIGHUP, started with it ignored", syscall.SIGHUP, "INT HUP"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command("/bin/sh", "-c", "trap '' "+tc.ignore+"; exec \"$0\" run -- ./loop.sh", bin)
			if tc.ignore == "" {
				cmd = exec.Command(bin, "run", "--", "./loop.sh")
			}
			cmd.Dir = sb
			out, err := cmd.StdoutPipe()
			require.NoError(t, err)
			require.NoError(t, cmd.Start())
			line := make([]byte, len("started\n"))
			_, err = io.ReadFull(out, line)
			require.NoError(t, err)
			require.NoError(t, cmd.Process.Signal(tc.signal))
			ended := make(chan error, 1)
			go func() { ended <- cmd.Wait() }()
			select {
			case err = <-ended:
			case <-time.After(20 * time.Second):
				_ = cmd.Process.Kill()
				t.Fatal("run did not end on the interrupt")
			}
			var ee *exec.ExitError
			require.ErrorAs(t, err, &ee)
			assert.Equal(t, 128+int(tc.signal), ee.ExitCode())
			procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
			for _, c := range procs {
				b, _ := os.ReadFile(c)
				assert.NotContains(t, string(b), "loop.sh", "a process of the sandbox outlived run: %s", c)
			}
		})
	}
}

// TestRunSurvivesGroupKill: agents end a tool call that takes too long by
// killing its process group with SIGKILL. run's cleanup still happens:
// the sandbox ends, the quarantine moves aside the repository the command
// made with a core.fsmonitor (which the user's next git status would run
// unconfined), and the placeholders of missing protected files are gone.
func TestRunSurvivesGroupKill(t *testing.T) {
	requireLandlock(t)
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	sb, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	marker := filepath.Join(homeVictim(t), "pwned")
	gitEnv := []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null"}
	git := func(args ...string) string {
		c := exec.Command("git", args...)
		c.Dir, c.Env = sb, append(os.Environ(), gitEnv...)
		out, err := c.CombinedOutput()
		require.NoError(t, err, "git %v: %s", args, out)
		return string(out)
	}
	git("init", "-q")
	git("commit", "-q", "--allow-empty", "-m", "x")
	require.NoError(t, os.WriteFile(filepath.Join(sb, "groupkill-payload.sh"), []byte(`#!/bin/sh
set -e
mkdir evil && cd evil && git init -q && git commit -q --allow-empty -m x
printf '[core]\n\tfsmonitor = "touch `+marker+`; false"\n' >> .git/config
cd .. && git update-index --add --cacheinfo 160000,$(git -C evil rev-parse HEAD),evil
echo started
while :; do sleep 1; done
`), 0o755))
	placeholder := filepath.Join(sb, ".envrc") // missing, so a placeholder during the run

	cmd := exec.Command(bin, "run", "--", "./groupkill-payload.sh")
	cmd.Dir, cmd.Env = sb, append(os.Environ(), gitEnv...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	line := make([]byte, len("started\n"))
	_, err = io.ReadFull(out, line)
	require.NoError(t, err)
	_, err = os.Lstat(placeholder)
	require.NoError(t, err, "the run's placeholder")
	require.NoError(t, syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL))
	_ = cmd.Wait()

	require.Eventually(t, func() bool {
		_, err := os.Lstat(filepath.Join(sb, "evil", ".git"))
		_, perr := os.Lstat(placeholder)
		return os.IsNotExist(err) && os.IsNotExist(perr)
	}, 20*time.Second, 20*time.Millisecond, "the quarantine did not move evil/.git aside, or a placeholder was left, after run was killed")
	git("status", "--short")
	assert.NoFileExists(t, marker, "the user's git status ran the fsmonitor of the repository the killed run's command made")
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, c := range procs {
		b, _ := os.ReadFile(c)
		// The name is this test's own: the escape corpus's payload.sh
		// runs beside it.
		assert.NotContains(t, string(b), "groupkill-payload.sh", "a process of the sandbox outlived run: %s", c)
	}
}

// TestRunDeepGitDirectoryBehindUnreadableDirectory: the quarantine looks
// for git directories at every depth, and a command hid one from it by
// taking the read permission of a directory on the way (chmod 111): git
// started beneath it (by path, through the search permission left)
// still found the git directory and ran its core.fsmonitor. The
// permission is now given back to its owner and the directory read. Run
// as an unprivileged user (nobody, when the tests run as root), whom
// permissions bind.
func TestRunDeepGitDirectoryBehindUnreadableDirectory(t *testing.T) {
	requireLandlock(t)
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	base, err := os.MkdirTemp("", "sandboxauth-unreadable-")
	require.NoError(t, err)
	t.Cleanup(func() { _ = exec.Command("chmod", "-R", "u+rwx", base).Run(); _ = os.RemoveAll(base) })
	require.NoError(t, os.Chmod(base, 0o755))
	home, sb := filepath.Join(base, "home"), filepath.Join(base, "project")
	require.NoError(t, os.MkdirAll(home, 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(sb, "a", "b", "c", "d", "e"), 0o755))
	exe := filepath.Join(base, "sandboxauth")
	b, err := os.ReadFile(bin)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(exe, b, 0o755))
	marker := filepath.Join(home, "pwned")
	require.NoError(t, os.WriteFile(filepath.Join(sb, "payload.sh"), []byte(`#!/bin/sh
set -e
(cd a/b/c/d/e && mkdir -p objects refs && echo 'ref: refs/heads/main' > HEAD
printf '[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = ../../../../..\n\tfsmonitor = "touch `+marker+`; false"\n' > config)
chmod 111 a/b
`), 0o755))
	var cred *syscall.Credential
	if os.Geteuid() == 0 {
		cred = &syscall.Credential{Uid: 65534, Gid: 65534}
		require.NoError(t, filepath.Walk(base, func(p string, _ os.FileInfo, err error) error {
			if err != nil {
				return err
			}
			return os.Lchown(p, 65534, 65534)
		}))
	}
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null"}
	do := func(dir string, name string, args ...string) string {
		c := exec.Command(name, args...)
		c.Dir, c.Env = dir, env
		c.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		out, _ := c.CombinedOutput()
		return string(out)
	}
	t.Log(do(sb, "git", "init", "-q"))
	t.Log(do(sb, "git", "commit", "-q", "--allow-empty", "-m", "x"))
	t.Log(do(sb, exe, "run", "--", "./payload.sh"))
	t.Log(do(filepath.Join(sb, "a", "b", "c", "d", "e"), "git", "status", "--short"))
	assert.NoFileExists(t, marker, "git status beneath a directory the command made unreadable ran the fsmonitor of the git directory it made there")
}

// TestRunsOverlap: a run in the background (a dev server) does not hold
// up a run beside it in the same project, and what the second one's
// command leaves is judged when it ends, the first still running: a
// repository deep in the project with a core.fsmonitor is moved aside,
// and the user's git status there runs nothing.
func TestRunsOverlap(t *testing.T) {
	requireLandlock(t)
	sb, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	home, err := os.MkdirTemp(os.Getenv("HOME"), "run-overlap-")
	require.NoError(t, err)
	defer os.RemoveAll(home)
	marker := filepath.Join(home, "pwned")
	require.NoError(t, os.WriteFile(filepath.Join(sb, "server.sh"), []byte("#!/bin/sh\ntouch server-started\nwhile [ ! -e server-stop ]; do sleep 0.05; done\n"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(sb, "tests.sh"), []byte(`#!/bin/sh
set -e
test -e server-started
test ! -e server-stop
d=a/b/c/d/e/f
mkdir -p $d/.git/objects $d/.git/refs/heads
echo 'ref: refs/heads/main' > $d/.git/HEAD
printf '[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tfsmonitor = "touch `+marker+`; false"\n' > $d/.git/config
`), 0o755))
	server := exec.Command(bin, "run", "--", "./server.sh")
	server.Dir = sb
	require.NoError(t, server.Start())
	defer func() {
		_ = os.WriteFile(filepath.Join(sb, "server-stop"), nil, 0o644)
		_ = server.Wait()
	}()
	require.Eventually(t, func() bool {
		_, err := os.Stat(filepath.Join(sb, "server-started"))
		return err == nil
	}, 20*time.Second, 10*time.Millisecond)
	tests := exec.Command(bin, "run", "--", "./tests.sh")
	tests.Dir = sb
	out, err := tests.CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.NotContains(t, string(out), "waiting")
	require.Nil(t, server.ProcessState, "the server ended before the tests")
	status := exec.Command("git", "status", "--short")
	status.Dir = filepath.Join(sb, "a/b/c/d/e/f")
	statusOut, _ := status.CombinedOutput()
	t.Logf("git status: %s", statusOut)
	assert.NoFileExists(t, marker, "git status ran the fsmonitor of a repository the tests made beside the server")
}

// TestRunNestedSaysItWaits: a run of a directory inside a project whose
// confined commands are running (a dev server) waits for them to end; it
// used to wait without a word. It now says for whom and what to do.
func TestRunNestedSaysItWaits(t *testing.T) {
	requireLandlock(t)
	sb, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, os.Mkdir(filepath.Join(sb, "sub"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(sb, "server.sh"), []byte("#!/bin/sh\ntouch server-started\nwhile [ ! -e server-stop ]; do sleep 0.05; done\n"), 0o755))
	server := exec.Command(bin, "run", "--", "./server.sh")
	server.Dir = sb
	require.NoError(t, server.Start())
	stop := func() { _ = os.WriteFile(filepath.Join(sb, "server-stop"), nil, 0o644) }
	defer func() {
		stop()
		_ = server.Wait()
	}()
	require.Eventually(t, func() bool {
		_, err := os.Stat(filepath.Join(sb, "server-started"))
		return err == nil
	}, 20*time.Second, 10*time.Millisecond)

	nested := exec.Command(bin, "run", "--", "true")
	nested.Dir = filepath.Join(sb, "sub")
	out := &lockedWriter{}
	nested.Stdout, nested.Stderr = out, out
	require.NoError(t, nested.Start())
	require.Eventually(t, func() bool { return strings.Contains(out.String(), "waiting for the confined commands running in "+sb) }, 20*time.Second, 10*time.Millisecond, "%s", out)
	assert.Contains(t, out.String(), "--sandbox "+sb)
	stop()
	require.NoError(t, nested.Wait(), "%s", out)
}

// lockedWriter collects a running program's output for a test that reads
// it before the program has ended.
type lockedWriter struct {
	mu sync.Mutex
	b  strings.Builder
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *lockedWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// TestRunInBackgroundGetsNoTerminal (round 22a): run started in the
// background of an interactive shell (run ... &) gave the command the
// terminal as its standard input, and the sandbox, in a session of its
// own, is out of the reach of job control (no SIGTTIN): the command took
// what the user typed next at the shell's prompt, a password included.
// run now gives such a command /dev/null and says so.
func TestRunInBackgroundGetsNoTerminal(t *testing.T) {
	requireLandlock(t)
	shell, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	sb, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	cmd := exec.Command(shell, "--norc", "--noprofile", "-i")
	cmd.Dir = sb
	cmd.Env = append(os.Environ(), "PS1=$ ")
	f, err := pty.Start(cmd)
	if err != nil {
		t.Skipf("no pseudo-terminal available: %v", err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait(); _ = f.Close() })
	tm := newTerminal(f)
	tm.expect(t, "$ ")
	require.NoError(t, os.WriteFile(filepath.Join(sb, "reader.sh"), []byte("#!/bin/sh\ntouch started\ntimeout 3 cat > stolen.txt\n"), 0o755))
	tm.typeLine(t, bin+" run --sandbox . -- ./reader.sh &")
	require.Eventually(t, func() bool {
		_, err := os.Stat(filepath.Join(sb, "started"))
		return err == nil
	}, 20*time.Second, 10*time.Millisecond, "the confined command did not start: %s", tm.output())
	// The markers are quoted in what is typed, so that the terminal's
	// echo of a line does not pass for the shell's output.
	tm.typeLine(t, `read -s -p "Pass""word:" pw; echo "$pw" > got.txt; echo "ty""ped"`)
	tm.expect(t, "Password:")
	tm.typeLine(t, "hunter2-TTYSECRET")
	tm.expect(t, "typed")
	tm.typeLine(t, `wait; echo "all""-done"`)
	tm.expect(t, "all-done")
	assert.Contains(t, tm.output(), "started in the background of your terminal")
	stolen, _ := os.ReadFile(filepath.Join(sb, "stolen.txt"))
	got, err := os.ReadFile(filepath.Join(sb, "got.txt"))
	require.NoError(t, err, "the shell did not get the line typed: %s", tm.output())
	assert.Equal(t, "hunter2-TTYSECRET\n", string(got))
	assert.NotContains(t, string(stolen), "hunter2", "a confined command in the background read what the user typed at the shell's prompt")
}
