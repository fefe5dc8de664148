package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// terminal is the master side of a pseudo-terminal with everything the
// program wrote to it so far.
type terminal struct {
	f       *os.File
	mu      sync.Mutex
	buf     bytes.Buffer
	changed chan struct{} // receives after each read
	seen    int           // the end of the last expected text
}

func newTerminal(f *os.File) *terminal {
	tm := &terminal{f: f, changed: make(chan struct{}, 1)}
	go func() {
		b := make([]byte, 4096)
		for {
			n, err := f.Read(b)
			tm.mu.Lock()
			tm.buf.Write(b[:n])
			tm.mu.Unlock()
			select {
			case tm.changed <- struct{}{}:
			default:
			}
			if err != nil {
				return // EIO once the program has exited
			}
		}
	}()
	return tm
}

func (tm *terminal) output() string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return tm.buf.String()
}

// expect waits until the program has written s after the previous
// expected text, like a person waiting for a prompt before typing.
func (tm *terminal) expect(t *testing.T, s string) {
	t.Helper()
	guard := time.After(hangGuard)
	for {
		out := tm.output()
		if i := strings.Index(out[tm.seen:], s); i >= 0 {
			tm.seen += i + len(s)
			return
		}
		select {
		case <-tm.changed:
		case <-guard:
			require.FailNow(t, "the program did not print what was expected", "want %q after:\n%s", s, out[tm.seen:])
		}
	}
}

// typeLine types a line, as a person at the keyboard.
func (tm *terminal) typeLine(t *testing.T, s string) {
	t.Helper()
	_, err := tm.f.Write([]byte(s + "\n"))
	require.NoError(t, err)
}

// The test uses github.com/creack/pty (test-only, no dependencies of its
// own) because it is the portable way to give the program a real terminal
// and to wait for each prompt before typing, which a pipe or script(1)
// cannot do.

// TestDemoTerminal drives the demo through a real pseudo-terminal: it waits
// for each prompt before typing, answers a question, and ends the session
// with Ctrl-D.
func TestDemoTerminal(t *testing.T) {
	t.Parallel()
	sb := t.TempDir()
	cmd := exec.Command(bin, "demo", "--sandbox", sb)
	f, err := pty.Start(cmd)
	if err != nil {
		t.Skipf("no pseudo-terminal available: %v", err)
	}
	defer f.Close()
	tm := newTerminal(f)

	tm.expect(t, "sandboxauth demo: policy sandbox, sandbox "+sb)
	tm.expect(t, "> ")
	tm.typeLine(t, "read notes.txt")
	tm.expect(t, "read notes.txt\r\nallowed\r\n> ")

	tm.typeLine(t, "run rm -rf build")
	tm.expect(t, "command: rm -rf build")
	tm.expect(t, "Allow? [y/N/a] ")
	tm.typeLine(t, "y")
	tm.expect(t, "y\r\nallowed\r\n> ")

	tm.typeLine(t, "ask write notes.txt")
	tm.expect(t, "write_file wants to write this path.")
	tm.expect(t, "Allow? [y/N/a/d1] ")
	tm.typeLine(t, "") // Enter: the default is no
	tm.expect(t, "refused: sandboxauth: the user refused writing")
	tm.expect(t, "> ")

	tm.typeLine(t, "write /etc/hosts")
	tm.expect(t, "refused: sandboxauth:")
	tm.expect(t, "> ")

	_, err = f.Write([]byte{4}) // Ctrl-D: end of input
	require.NoError(t, err)
	tm.expect(t, "bye")
	require.NoError(t, cmd.Wait(), "exit status 0 after Ctrl-D")

	out := tm.output()
	assert.NotContains(t, out, "DATA RACE")
	// In a terminal the program does not echo input itself: the terminal
	// does, once.
	assert.Equal(t, 1, strings.Count(out, "read notes.txt"), out)
}
