package confine

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUnixDatagramBoundAfterStart: a datagram socket an outside program
// binds under the home directory after the command started (so no mask
// covers it) receives nothing from the command, which sends to its path
// without connecting, from a socket of its own and from one of a pair: an
// AF_UNIX datagram socket is not made without Network.
func TestUnixDatagramBoundAfterStart(t *testing.T) {
	sb, _, p := dirs(t)
	outside := filepath.Join(victimDir(t), "journal.sock")
	cmd := exec.Command(testBinary(t), outside, "ready")
	cmd.Dir = sb
	cmd.Env = append(os.Environ(), "CONFINE_TEST_HELPER=unixgram-send-when")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, Start(cmd, p))

	l, err := net.ListenPacket("unixgram", outside)
	require.NoError(t, err)
	defer l.Close()
	got := make(chan string, 4)
	go func() {
		buf := make([]byte, 64)
		for {
			n, _, err := l.ReadFrom(buf)
			if err != nil {
				return
			}
			got <- string(buf[:n])
		}
	}()
	require.NoError(t, os.WriteFile(filepath.Join(sb, "ready"), nil, 0o644))
	_ = cmd.Wait()
	select {
	case m := <-got:
		t.Fatalf("the command sent %q to a datagram socket outside: %s", m, out.String())
	case <-time.After(50 * time.Millisecond):
	}
	assert.Contains(t, out.String(), "socket: permission denied")
	assert.Contains(t, out.String(), "socketpair: permission denied")
	assert.Equal(t, 3, cmd.ProcessState.ExitCode(), out.String())
}

// TestUnixSocketModes puts a process (not confined: only the filter) under
// each AF_UNIX mode of the system-call filter, in the kernel, and checks
// what it can make. The mode without the helper's guard is what a
// confined command gets where Yama keeps the helper from copying its
// sockets.
func TestUnixSocketModes(t *testing.T) {
	if auditArch() == 0 {
		t.Skip("no system-call filter is built for this architecture")
	}
	const refused = "permission denied"
	noDgram := map[string]string{"socket stream": "ok", "socketpair stream": "ok", "socket seqpacket": "ok", "socketpair seqpacket": "ok", "socket dgram": refused, "socketpair dgram": refused, "socket udp": "ok"}
	pairs := map[string]string{"socket stream": refused, "socketpair stream": "ok", "socket seqpacket": refused, "socketpair seqpacket": "ok", "socket dgram": refused, "socketpair dgram": refused, "socket udp": "ok"}
	for mode, want := range map[unixSockets]map[string]string{unixNoDatagrams: noDgram, unixPairsOnly: pairs} {
		cmd := exec.Command(testBinary(t), fmt.Sprint(int(mode)))
		cmd.Env = append(os.Environ(), "CONFINE_TEST_HELPER=unix-filter")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		require.NoError(t, err, "mode %d: %s", mode, stderr.String())
		got := map[string]string{}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			k, v, _ := strings.Cut(line, ": ")
			got[k] = v
		}
		assert.Equal(t, want, got, "mode %d", mode)
	}
}
