package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// TestEscapeCorpus replays every payload of testdata/escapes through the
// real CLI (sandboxauth run --sandbox SB -- ./payload.sh), then does what
// the user would do next, and fails on any sign that the payload acted
// outside its sandbox. testdata/escapes/README.md says what counts and how
// to add a case.
func TestEscapeCorpus(t *testing.T) {
	requireLandlock(t)
	payloads, err := filepath.Glob(filepath.Join("testdata", "escapes", "*.sh"))
	require.NoError(t, err)
	require.NotEmpty(t, payloads)
	for _, p := range payloads {
		c := readEscapeCase(t, p)
		t.Run(strings.TrimSuffix(filepath.Base(p), ".sh"), func(t *testing.T) {
			for _, prog := range c.needs {
				if _, err := exec.LookPath(prog); err != nil {
					t.Skipf("this payload runs %s, which is not installed", prog)
				}
			}
			runtime.LockOSThread() // for the keyring: see addKey
			w := newEscapeWorld(t)
			escapes := w.replay(t, c, true)
			assert.Empty(t, escapes, "%s (%s) acted outside its sandbox", filepath.Base(p), c.family)
		})
	}
}

// TestEscapeCorpusUnconfined is the corpus's control: each payload, run
// as plain project code with nothing confining it (in a session of its
// own, so that no controlling terminal is reached), does act outside, so
// TestEscapeCorpus's checks can see what they look for.
func TestEscapeCorpusUnconfined(t *testing.T) {
	payloads, err := filepath.Glob(filepath.Join("testdata", "escapes", "*.sh"))
	require.NoError(t, err)
	for _, p := range payloads {
		c := readEscapeCase(t, p)
		t.Run(strings.TrimSuffix(filepath.Base(p), ".sh"), func(t *testing.T) {
			for _, prog := range c.needs {
				if _, err := exec.LookPath(prog); err != nil {
					t.Skipf("this payload runs %s, which is not installed", prog)
				}
			}
			runtime.LockOSThread() // for the keyring: see addKey
			w := newEscapeWorld(t)
			escapes := w.replay(t, c, false)
			t.Logf("unconfined, %s did: %s", filepath.Base(p), strings.Join(escapes, "; "))
			assert.NotEmpty(t, escapes, "%s (%s), unconfined, did nothing the checks see", filepath.Base(p), c.family)
		})
	}
}

// escapeCase is one payload and what its header says.
type escapeCase struct {
	path, family string
	needs        []string
	runs         int
	env          []string
	later        []string
	terminal     bool
	net          bool // run with --net: TCP and UDP to the machine's loopback are allowed then
}

func readEscapeCase(t *testing.T, path string) escapeCase {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	c := escapeCase{path: path, runs: 1}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		key, value, ok := strings.Cut(strings.TrimPrefix(line, "# "), ": ")
		if !strings.HasPrefix(line, "# ") || !ok {
			continue
		}
		switch key {
		case "family":
			c.family = value
		case "needs":
			c.needs = append(c.needs, strings.Fields(value)...)
		case "runs":
			c.runs, err = strconv.Atoi(value)
			require.NoError(t, err, "%s: runs", path)
		case "env":
			c.env = append(c.env, value)
		case "later":
			c.later = append(c.later, value)
		case "net":
			require.Equal(t, "on", value, "%s: net", path)
			c.net = true
		case "stdin":
			require.Equal(t, "terminal", value, "%s: stdin", path)
			c.terminal = true
		}
	}
	require.NoError(t, sc.Err())
	require.NotEmpty(t, c.family, "%s has no family line", path)
	return c
}

// escapeWorld is what lies outside the sandbox for one payload: a fake
// home under the real one (never under a temporary directory, which the
// sandbox does not see at all), with credentials, a victim directory, a
// module cache and a repository; listeners on every kind of socket; a
// process; a key in the kernel keyring; a terminal.
type escapeWorld struct {
	home, sb, victim, origin string
	secrets                  []string
	runToken                 string
	env                      []string
	heard                    *hearing
	proc                     *exec.Cmd
	procLimits               []byte
	netlink                  int
	keyID                    int
	ptmx, pts                *os.File
}

// hearing collects what the listeners got.
type hearing struct {
	mu  sync.Mutex
	got []string
}

func (h *hearing) add(format string, args ...any) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.got = append(h.got, fmt.Sprintf(format, args...))
}

func (h *hearing) all() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.got...)
}

func token(t *testing.T, prefix string) string {
	t.Helper()
	b := make([]byte, 8)
	_, err := rand.Read(b)
	require.NoError(t, err)
	return prefix + hex.EncodeToString(b)
}

func newEscapeWorld(t *testing.T) *escapeWorld {
	t.Helper()
	realHome, err := os.UserHomeDir()
	require.NoError(t, err)
	home, err := os.MkdirTemp(realHome, "escape-corpus-")
	require.NoError(t, err)
	t.Cleanup(func() { _ = exec.Command("chmod", "-R", "u+rwX", home).Run(); _ = os.RemoveAll(home) })
	home, err = filepath.EvalSymlinks(home)
	require.NoError(t, err)
	w := &escapeWorld{
		home:     home,
		sb:       filepath.Join(home, "src", "proj"),
		victim:   filepath.Join(home, "victim"),
		origin:   filepath.Join(home, "origin"),
		runToken: token(t, "CORPUSRUN"),
		heard:    &hearing{},
		netlink:  -1,
	}
	cred, dotenv, envVar, proc, key := token(t, "SECRETCRED"), token(t, "SECRETENV"), token(t, "SECRETVAR"), token(t, "SECRETPROC"), token(t, "SECRETKEY")
	w.secrets = []string{cred, dotenv, envVar, proc, key}

	write := func(rel, content string, mode os.FileMode) {
		p := filepath.Join(home, rel)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), mode))
	}
	for _, rel := range []string{".ssh/id_ed25519", ".aws/credentials", ".netrc", ".git-credentials", ".config/gh/hosts.yml", ".npmrc", ".docker/config.json", ".bash_history", ".kube/config"} {
		write(rel, "token = "+cred+"\n", 0o600)
	}
	write("victim/victim.txt", "the victim's own words\n", 0o644)
	write("go/pkg/mod/example.com/m@v1.0.0/m.go", "package m\n", 0o444)
	require.NoError(t, os.Chmod(filepath.Join(home, "go/pkg/mod/example.com/m@v1.0.0"), 0o555))
	write(".cache/go-build/README", "the user's build cache\n", 0o644)
	write(".config/go/telemetry/mode", "off\n", 0o644) // the go command writes no counters to the home
	write(".gitconfig", "[user]\n\tname = t\n\temail = t@example.com\n", 0o644)
	write("net-config.json", `{"confine": {"network": true, "readable": [`+strconv.Quote(home)+`]}}`, 0o644) // for the net: on cases

	w.env = append(os.Environ(),
		"HOME="+home, "GOMODCACHE="+filepath.Join(home, "go/pkg/mod"), "GOPATH="+filepath.Join(home, "go"),
		"GOFLAGS=", "GOPROXY=off", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	if _, err := exec.LookPath("git"); err == nil {
		for _, dir := range []string{w.sb, w.origin} {
			require.NoError(t, os.MkdirAll(dir, 0o755))
			w.user(t, dir, "git", "init", "-q")
			require.NoError(t, os.WriteFile(filepath.Join(dir, "README"), []byte("readme\n"), 0o644))
			w.user(t, dir, "git", "add", "README")
			w.user(t, dir, "git", "commit", "-q", "-m", "first")
		}
	} else {
		require.NoError(t, os.MkdirAll(w.sb, 0o755))
	}
	require.NoError(t, os.WriteFile(filepath.Join(w.sb, ".env"), []byte("API_KEY="+dotenv+"\n"), 0o600))

	w.listen(t)
	w.startProcess(t, proc)
	w.addKey(t, key)
	w.openTerminal(t)
	w.env = append(w.env,
		"CORPUS_VICTIM="+w.victim, "CORPUS_ORIGIN="+w.origin, "CORPUS_RUN="+w.runToken,
		"CORPUS_PID="+strconv.Itoa(w.proc.Process.Pid), "AWS_SECRET_ACCESS_KEY="+envVar)
	return w
}

// user runs a program as the user would, unconfined, and returns its
// output; it fails the test only where the setup needs it to work.
func (w *escapeWorld) user(t *testing.T, dir string, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	c := exec.CommandContext(ctx, name, args...)
	c.Dir, c.Env = dir, w.env
	out, err := c.CombinedOutput()
	if name == "git" && (args[0] == "init" || args[0] == "add" || (args[0] == "commit" && args[len(args)-1] == "first")) {
		require.NoError(t, err, "%s %v: %s", name, args, out)
	}
	return string(out)
}

// listen starts a listener on every kind of socket the payloads aim at,
// each recording whatever reaches it.
func (w *escapeWorld) listen(t *testing.T) {
	t.Helper()
	accept := func(name string, l net.Listener) {
		t.Cleanup(func() { _ = l.Close() })
		go func() {
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				b := make([]byte, 256)
				_ = c.SetReadDeadline(time.Now().Add(time.Second))
				n, _ := c.Read(b)
				w.heard.add("%s listener: a connection (%q)", name, b[:n])
				_ = c.Close()
			}
		}()
	}
	receive := func(name string, pc net.PacketConn) {
		t.Cleanup(func() { _ = pc.Close() })
		go func() {
			b := make([]byte, 4096)
			for {
				n, _, err := pc.ReadFrom(b)
				if err != nil {
					return
				}
				w.heard.add("%s listener: a datagram (%q)", name, b[:n])
			}
		}()
	}
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	accept("TCP", tcp)
	udp, err := net.ListenPacket("udp", "127.0.0.1:0")
	require.NoError(t, err)
	receive("UDP", udp)
	unixPath, gramPath := filepath.Join(w.home, "agent.sock"), filepath.Join(w.home, "dgram.sock")
	us, err := net.Listen("unix", unixPath)
	require.NoError(t, err)
	accept("UNIX stream", us)
	ug, err := net.ListenPacket("unixgram", gramPath)
	require.NoError(t, err)
	receive("UNIX datagram", ug)
	abstract := token(t, "sandboxauth-corpus-")
	ua, err := net.Listen("unix", "@"+abstract)
	require.NoError(t, err)
	accept("abstract UNIX", ua)
	w.env = append(w.env, "CORPUS_TCP="+tcp.Addr().String(), "CORPUS_UDP="+udp.LocalAddr().String(),
		"CORPUS_UNIX="+unixPath, "CORPUS_UNIXGRAM="+gramPath, "CORPUS_ABSTRACT="+abstract)

	fd, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_RAW|unix.SOCK_CLOEXEC, unix.NETLINK_USERSOCK)
	if err != nil {
		t.Logf("no NETLINK_USERSOCK listener here (%v); the netlink payload is judged by the other checks", err)
		w.env = append(w.env, "CORPUS_NETLINK=1")
		return
	}
	t.Cleanup(func() { _ = unix.Close(fd) })
	port := uint32(0x5a000000) | uint32(os.Getpid()&0xffff)
	require.NoError(t, unix.Bind(fd, &unix.SockaddrNetlink{Family: unix.AF_NETLINK, Pid: port}))
	w.netlink = fd
	w.env = append(w.env, "CORPUS_NETLINK="+strconv.FormatUint(uint64(port), 10))
}

// startProcess starts an outside process with a secret in its environment
// and notes its limits.
func (w *escapeWorld) startProcess(t *testing.T, secret string) {
	t.Helper()
	w.proc = exec.Command("sleep", "600")
	w.proc.Env = append(os.Environ(), "CORPUS_PROCESS_SECRET="+secret)
	require.NoError(t, w.proc.Start())
	t.Cleanup(func() { _ = w.proc.Process.Kill(); _ = w.proc.Wait() })
	var err error
	w.procLimits, err = os.ReadFile(fmt.Sprintf("/proc/%d/limits", w.proc.Process.Pid))
	require.NoError(t, err)
}

// addKey puts a secret in a new session keyring, which the processes this
// goroutine starts inherit. Keyrings belong to a thread's credentials, so
// the goroutine holds its thread (newEscapeWorld's callers lock it and
// never unlock it: the thread ends with the test, and its keyring with
// it).
func (w *escapeWorld) addKey(t *testing.T, secret string) {
	t.Helper()
	if _, err := unix.KeyctlJoinSessionKeyring("sandboxauth-corpus-" + w.runToken); err != nil {
		t.Logf("no session keyring of its own here (%v); the keyring payload is judged by the other checks", err)
		return
	}
	id, err := unix.AddKey("user", "sandboxauth-corpus-"+w.runToken, []byte(secret), unix.KEY_SPEC_SESSION_KEYRING)
	if err != nil {
		t.Logf("no key in the session keyring here (%v); the keyring payload is judged by the other checks", err)
		return
	}
	w.keyID = id
	t.Cleanup(func() { _, _ = unix.KeyctlInt(unix.KEYCTL_INVALIDATE, id, 0, 0, 0) })
}

// openTerminal makes a pseudo-terminal outside the sandbox.
func (w *escapeWorld) openTerminal(t *testing.T) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	require.NoError(t, err)
	t.Cleanup(func() { _ = m.Close() })
	require.NoError(t, unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0))
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	require.NoError(t, err)
	s, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	w.ptmx, w.pts = m, s
	go func() { // what the command writes to its terminal is its own output
		b := make([]byte, 4096)
		for {
			if _, err := m.Read(b); err != nil {
				return
			}
		}
	}()
}

// replay plants the payload, runs it as many times as its header says, acts
// as the user, and reports every sign of an escape.
func (w *escapeWorld) replay(t *testing.T, c escapeCase, confined bool) []string {
	b, err := os.ReadFile(c.path)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(w.sb, "payload.sh"), b, 0o755))
	later := map[string]string{}
	for _, rel := range c.later {
		later[rel] = fingerprintTree(t, filepath.Join(w.sb, rel))
	}
	outside := w.snapshot(t)
	termBefore, err := unix.IoctlGetTermios(int(w.pts.Fd()), unix.TCGETS)
	require.NoError(t, err)

	var output strings.Builder
	for i := 0; i < c.runs; i++ {
		output.WriteString(w.run(t, c, confined))
	}
	t.Logf("%s: %s", c.family, output.String())

	// The user's next steps, unconfined.
	if _, err := exec.LookPath("git"); err == nil {
		for _, args := range [][]string{{"status"}, {"diff"}, {"commit", "-q", "--allow-empty", "-m", "later"}, {"log", "-1", "-p"}, {"checkout", "-q", "-b", "later"}} {
			t.Logf("git %v: %s", args, w.user(t, w.sb, "git", args...))
		}
		t.Logf("git log (origin): %s", w.user(t, w.origin, "git", "log", "-1", "-p"))
	}

	var escapes []string
	for _, got := range w.heard.all() {
		if c.net && (strings.HasPrefix(got, "TCP ") || strings.HasPrefix(got, "UDP ")) {
			continue // the network the run was given
		}
		escapes = append(escapes, got)
	}
	if w.netlink >= 0 {
		buf := make([]byte, 4096)
		if n, _, err := unix.Recvfrom(w.netlink, buf, unix.MSG_DONTWAIT); err == nil {
			escapes = append(escapes, fmt.Sprintf("NETLINK_USERSOCK listener: a message (%q)", buf[:n]))
		}
	}
	for _, d := range diffSnapshots(outside, w.snapshot(t)) {
		escapes = append(escapes, "outside the sandbox: "+d)
	}
	for rel, before := range later {
		if after := fingerprintTree(t, filepath.Join(w.sb, rel)); after != before {
			escapes = append(escapes, fmt.Sprintf("%s, which other programs obey later, changed:\nbefore: %s\nafter:  %s", rel, before, after))
		}
	}
	escapes = append(escapes, w.leaks(t, output.String())...)
	escapes = append(escapes, w.processChecks(t)...)
	if n, err := unix.IoctlGetInt(int(w.pts.Fd()), unix.TIOCINQ); err == nil && n > 0 {
		escapes = append(escapes, fmt.Sprintf("the terminal outside has %d bytes of input it was never typed", n))
	}
	if termAfter, err := unix.IoctlGetTermios(int(w.pts.Fd()), unix.TCGETS); err == nil && *termAfter != *termBefore {
		escapes = append(escapes, "the terminal's settings were left changed")
	}
	return escapes
}

// run runs the planted payload once through the CLI and returns its output.
func (w *escapeWorld) run(t *testing.T, c escapeCase, confined bool) string {
	t.Helper()
	victimDir, err := os.Open(w.victim)
	require.NoError(t, err)
	defer victimDir.Close()
	victimFile, err := os.OpenFile(filepath.Join(w.victim, "victim.txt"), os.O_RDWR, 0)
	require.NoError(t, err)
	defer victimFile.Close()

	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	args := []string{"run", "--sandbox", w.sb}
	if c.net {
		// With the network and reads open, project code is asked about
		// (it could send the user's files out); with reads restricted to
		// the home (its credentials still hidden) it runs unasked.
		args = append(args, "--config", filepath.Join(w.home, "net-config.json"), "--net")
	}
	cmd := exec.CommandContext(ctx, bin, append(args, "--", "./payload.sh")...)
	if !confined {
		cmd = exec.CommandContext(ctx, "./payload.sh")
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	}
	cmd.Dir = w.sb
	cmd.Env = append([]string(nil), w.env...)
	for _, e := range c.env {
		cmd.Env = append(cmd.Env, strings.ReplaceAll(e, "$SB", w.sb))
	}
	cmd.ExtraFiles = []*os.File{victimDir, victimFile}
	if c.terminal {
		cmd.Stdin = w.pts
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	require.NotErrorIs(t, ctx.Err(), context.DeadlineExceeded, "the run did not end: %s", out.String())
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		require.NoError(t, err)
	}
	return out.String()
}

// leaks reports the secrets that reached the run's output or a file in the
// sandbox (the project's own .env aside).
func (w *escapeWorld) leaks(t *testing.T, output string) []string {
	t.Helper()
	var found []string
	check := func(where string, b []byte) {
		for _, s := range w.secrets {
			if bytes.Contains(b, []byte(s)) {
				found = append(found, fmt.Sprintf("a secret (%s...) in %s", s[:10], where))
			}
		}
	}
	check("the run's output", []byte(output))
	dotenv := filepath.Join(w.sb, ".env")
	_ = filepath.WalkDir(w.sb, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() || p == dotenv {
			return nil
		}
		if b, err := os.ReadFile(p); err == nil {
			check(p, b)
		}
		return nil
	})
	if w.keyID != 0 {
		buf := make([]byte, 256)
		if _, err := unix.KeyctlBuffer(unix.KEYCTL_READ, w.keyID, buf, 0); err != nil {
			found = append(found, fmt.Sprintf("the key in the session keyring is gone: %v", err))
		}
	}
	return found
}

// processChecks reports an outside process that was stopped, killed or
// limited, and a process of the run that outlived it.
func (w *escapeWorld) processChecks(t *testing.T) []string {
	t.Helper()
	var found []string
	pid := w.proc.Process.Pid
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		found = append(found, "the outside process is gone")
	} else if f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:])); len(f) == 0 || f[0] != "S" {
		found = append(found, fmt.Sprintf("the outside process is in state %v", f))
	}
	if limits, err := os.ReadFile(fmt.Sprintf("/proc/%d/limits", pid)); err == nil && !bytes.Equal(limits, w.procLimits) {
		found = append(found, "the outside process's limits changed")
	}
	procs, _ := filepath.Glob("/proc/[0-9]*/environ")
	for _, p := range procs {
		if b, err := os.ReadFile(p); err == nil && bytes.Contains(b, []byte(w.runToken)) {
			cmdline, _ := os.ReadFile(filepath.Join(filepath.Dir(p), "cmdline"))
			found = append(found, fmt.Sprintf("a process of the run outlived it: %s %q", filepath.Dir(p), bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '})))
			if pid, err := strconv.Atoi(filepath.Base(filepath.Dir(p))); err == nil {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	}
	return found
}

// snapshot fingerprints everything under the fake home but the sandbox.
func (w *escapeWorld) snapshot(t *testing.T) map[string]string {
	t.Helper()
	m := map[string]string{}
	require.NoError(t, filepath.WalkDir(w.home, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			m[p] = "unreadable: " + err.Error()
			return nil
		}
		if p == w.sb {
			return filepath.SkipDir
		}
		m[p] = fingerprint(p)
		return nil
	}))
	return m
}

// fingerprint is what a file is: type, mode, owner, size, times, extended
// attributes, and content or link target.
func fingerprint(p string) string {
	var st unix.Stat_t
	if err := unix.Lstat(p, &st); err != nil {
		return "absent"
	}
	s := fmt.Sprintf("mode %o owner %d:%d size %d mtime %d.%09d", st.Mode, st.Uid, st.Gid, st.Size, st.Mtim.Sec, st.Mtim.Nsec)
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
		if b, err := os.ReadFile(p); err == nil {
			sum := sha256.Sum256(b)
			s += " sha256 " + hex.EncodeToString(sum[:8])
		}
	case unix.S_IFLNK:
		target, _ := os.Readlink(p)
		s += " -> " + target
	}
	buf := make([]byte, 4096)
	if n, err := unix.Llistxattr(p, buf); err == nil && n > 0 {
		names := strings.Split(strings.TrimRight(string(buf[:n]), "\x00"), "\x00")
		sort.Strings(names)
		for _, name := range names {
			v := make([]byte, 256)
			k, _ := unix.Lgetxattr(p, name, v)
			if k < 0 {
				k = 0
			}
			s += fmt.Sprintf(" xattr %s=%q", name, v[:k])
		}
	}
	return s
}

// fingerprintTree fingerprints p and everything beneath it.
func fingerprintTree(t *testing.T, p string) string {
	t.Helper()
	var lines []string
	_ = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
		if err != nil {
			lines = append(lines, q+": absent")
			return nil
		}
		lines = append(lines, q+": "+fingerprint(q))
		return nil
	})
	if len(lines) == 0 {
		return "absent"
	}
	return strings.Join(lines, "\n")
}

// diffSnapshots lists the files that appeared, went or changed.
func diffSnapshots(before, after map[string]string) []string {
	var d []string
	for p, a := range after {
		if b, ok := before[p]; !ok {
			d = append(d, p+" appeared ("+a+")")
		} else if a != b {
			d = append(d, fmt.Sprintf("%s changed:\nbefore: %s\nafter:  %s", p, b, a))
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			d = append(d, p+" went")
		}
	}
	sort.Strings(d)
	return d
}
