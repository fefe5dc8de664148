package confine

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// streamKinds is a Python snippet that prints what the command's
// descriptors 0, 1 and 2 are: "file", "pipe", "char", "socket" or "other".
const streamKinds = `
import os, stat, sys
def kind(fd):
    m = os.fstat(fd).st_mode
    return "file" if stat.S_ISREG(m) else "pipe" if stat.S_ISFIFO(m) else "char" if stat.S_ISCHR(m) else "socket" if stat.S_ISSOCK(m) else "other"
sys.stderr.write(" ".join(kind(fd) for fd in (0, 1, 2)) + "\n")
`

// TestStreamRelayKinds: which of the caller's files the command is given
// as they are and which through a pipe (streamrelay_linux.go): output to a
// regular file or a socket is relayed, output to a pipe or a character
// device is not; input from a regular file open for reading only, or
// from a socket, is given as it is, one open for writing too, or a
// directory (whose descriptor leads into the caller's view), is
// relayed.
func TestStreamRelayKinds(t *testing.T) {
	sb, outside, p := dirs(t)
	openFile := func(flag int) *os.File {
		path := filepath.Join(outside, "stream")
		require.NoError(t, os.WriteFile(path, []byte("input\n"), 0o644))
		f, err := os.OpenFile(path, flag, 0)
		require.NoError(t, err)
		t.Cleanup(func() { f.Close() })
		return f
	}
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	require.NoError(t, err)
	defer null.Close()
	pr, pw, err := os.Pipe()
	require.NoError(t, err)
	defer pr.Close()
	defer pw.Close()
	a, b, err := socketPair()
	require.NoError(t, err)
	defer a.Close()
	defer b.Close()

	for _, tc := range []struct {
		name   string
		stdin  func() *os.File
		stdout func() *os.File
		want   string // the kinds of 0 and 1
	}{
		{"read-only-file-in", func() *os.File { return openFile(os.O_RDONLY) }, func() *os.File { return null }, "file char"},
		{"read-write-file-in", func() *os.File { return openFile(os.O_RDWR) }, func() *os.File { return null }, "pipe char"},
		{"appended-file-out", func() *os.File { return null }, func() *os.File { return openFile(os.O_WRONLY | os.O_APPEND) }, "char pipe"},
		{"file-out", func() *os.File { return null }, func() *os.File { return openFile(os.O_WRONLY) }, "char pipe"},
		{"pipe-out", func() *os.File { return null }, func() *os.File { return pw }, "char pipe"},
		{"socket-out", func() *os.File { return null }, func() *os.File { return a }, "char pipe"},
		// A socket may never end: relayed, it would hold cmd.Wait back
		// until its peer closed it.
		{"socket-in", func() *os.File { return b }, func() *os.File { return null }, "socket char"},
		{"directory-in", func() *os.File {
			d, err := os.Open(outside)
			require.NoError(t, err)
			t.Cleanup(func() { d.Close() })
			return d
		}, func() *os.File { return null }, "pipe char"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command("python3", "-c", streamKinds)
			cmd.Dir = sb
			var errOut bytes.Buffer
			cmd.Stdin, cmd.Stdout, cmd.Stderr = tc.stdin(), tc.stdout(), &errOut
			err := Run(cmd, p)
			if tc.name != "directory-in" { // the relay's read fails: EISDIR
				require.NoError(t, err, errOut.String())
			}
			assert.Equal(t, tc.want, strings.Join(strings.Fields(errOut.String())[:2], " "))
		})
	}
}

// socketPair returns the two ends of a connected UNIX stream pair as
// files.
func socketPair() (*os.File, *os.File, error) {
	dir, err := os.MkdirTemp("", "pair")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(dir)
	l, err := net.Listen("unix", filepath.Join(dir, "s"))
	if err != nil {
		return nil, nil, err
	}
	defer l.Close()
	c, err := net.Dial("unix", filepath.Join(dir, "s"))
	if err != nil {
		return nil, nil, err
	}
	defer c.Close()
	s, err := l.Accept()
	if err != nil {
		return nil, nil, err
	}
	defer s.Close()
	fa, err := c.(*net.UnixConn).File()
	if err != nil {
		return nil, nil, err
	}
	fb, err := s.(*net.UnixConn).File()
	if err != nil {
		fa.Close()
		return nil, nil, err
	}
	return fa, fb, nil
}

// TestStreamRelayKeepsEveryByte: a command writing 16 MiB to its standard
// output and error, both one file of the caller's opened to append,
// leaves the file's earlier content and every byte it wrote, in order
// within each stream; a file given as standard input, open for writing
// too, is read through whole and left as it was. No goroutine of the
// relays is left once Run has returned.
func TestStreamRelayKeepsEveryByte(t *testing.T) {
	sb, outside, p := dirs(t)
	log := filepath.Join(outside, "build.log")
	const earlier = "the user's earlier log line\n"
	require.NoError(t, os.WriteFile(log, []byte(earlier), 0o644))
	input := filepath.Join(outside, "input")
	in := bytes.Repeat([]byte("0123456789abcdef"), 1<<18) // 4 MiB
	require.NoError(t, os.WriteFile(input, in, 0o644))
	sum := sha256.Sum256(in)

	before := runtime.NumGoroutine()
	f, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND, 0)
	require.NoError(t, err)
	defer f.Close()
	inf, err := os.OpenFile(input, os.O_RDWR, 0)
	require.NoError(t, err)
	defer inf.Close()
	cmd := exec.Command("python3", "-c", `
import hashlib, os, sys
data = sys.stdin.buffer.read()
try:
    os.ftruncate(0, 0)
except OSError:
    pass
line = b"x" * 1023 + b"\n"
for i in range(8192):
    os.write(1, line)
os.write(2, b"stdin " + hashlib.sha256(data).hexdigest().encode() + b"\n")
for i in range(8192):
    os.write(1, line)
`)
	cmd.Dir = sb
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inf, f, f
	require.NoError(t, Run(cmd, p))

	b, err := os.ReadFile(log)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(b), earlier))
	rest := string(b[len(earlier):])
	want := "stdin " + hex.EncodeToString(sum[:]) + "\n"
	assert.Equal(t, 1, strings.Count(rest, want), "the command's standard error, through the same relay, holds the digest of what it read")
	rest = strings.Replace(rest, want, "", 1)
	assert.Equal(t, 16384*1024, len(rest), "every byte written arrived")
	assert.Equal(t, strings.Repeat(strings.Repeat("x", 1023)+"\n", 16384), rest)
	got, err := os.ReadFile(input)
	require.NoError(t, err)
	assert.Equal(t, len(in), len(got), "the command truncated its standard input, a file of the caller's")

	assertNoGoroutineLeft(t, before)
}

// TestStreamRelayEndsWithSandbox: a relay ends when the sandbox ends, not
// when the command's last descendant would: a background process of the
// command that keeps the relayed output open is killed with the sandbox,
// and Start's caller's Wait returns with the relay done.
func TestStreamRelayEndsWithSandbox(t *testing.T) {
	sb, outside, p := dirs(t)
	log := filepath.Join(outside, "out.log")
	f, err := os.Create(log)
	require.NoError(t, err)
	defer f.Close()
	before := runtime.NumGoroutine()
	cmd := exec.Command("/bin/sh", "-c", `(sleep 30; echo late) & echo started`)
	cmd.Dir = sb
	cmd.Stdout, cmd.Stderr = f, f
	require.NoError(t, Start(cmd, p))
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		assert.NoError(t, err)
	case <-time.After(20 * time.Second):
		t.Fatal("Wait did not return: the relay outlived the command")
	}
	b, err := os.ReadFile(log)
	require.NoError(t, err)
	assert.Equal(t, "started\n", string(b))
	assertNoGoroutineLeft(t, before)
}

// assertNoGoroutineLeft fails when, within 5 s, no more goroutines than
// before are running, and lists them. (It polls on the test's own
// goroutine: assert.Eventually runs its condition on another.)
func assertNoGoroutineLeft(t *testing.T, before int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if runtime.NumGoroutine() <= before {
			return
		}
	}
	buf := make([]byte, 1<<20)
	t.Errorf("goroutines left: %d before, %d now:\n%s", before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
}
