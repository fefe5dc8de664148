package confine

import (
	"bytes"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestEscape13UnixRawIsDatagram: without Network the filter refuses
// socket(AF_UNIX, SOCK_DGRAM) and socketpair(AF_UNIX, SOCK_DGRAM), but
// the kernel makes SOCK_RAW of AF_UNIX a datagram socket (af_unix.c,
// unix_create: "case SOCK_RAW: sock->type = SOCK_DGRAM"), which the
// filter lets through. Such a socket (alone or from socketpair) sends to
// any path in sight with sendto: a datagram socket an outside program
// binds after the start (under the home directory) gets the command's
// datagrams.
//
//	python3 -c 'import socket; socket.socket(socket.AF_UNIX, socket.SOCK_RAW).sendto(b"x", "'$HOME/v/dg.sock'")'
func TestEscape13UnixRawIsDatagram(t *testing.T) {
	sb, outside, p := dirs(t)
	py, err := exec.LookPath("python3")
	require.NoError(t, err, "the payload is a python3 script")
	sock := filepath.Join(outside, "dg.sock")
	cmd := exec.Command("/bin/sh", "-c", `while [ ! -e ready ]; do sleep 0.02; done
"$0" - "$1" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_RAW)
s.sendto(b"raw", sys.argv[1])
a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_RAW | socket.SOCK_CLOEXEC)
a.sendto(b"pair", sys.argv[1])
PY`, py, sock)
	cmd.Dir = sb
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, Start(cmd, p))

	l, err := net.ListenPacket("unixgram", sock)
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
		t.Fatalf("the command sent %q to a datagram socket outside (AF_UNIX SOCK_RAW): %s", m, out.String())
	case <-time.After(100 * time.Millisecond):
	}
}
