package confine

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// TestCommandsOwnUnixSockets: the UNIX servers a command makes for itself
// still answer it through the guard's check that the sandbox made them
// (socketmakers_linux.go), with and without Network: in one process or
// another of the sandbox, by an absolute or a relative name, in the
// sandbox or its private /tmp, under a name the command renamed or linked
// since, and as real programs make them (asyncio, an HTTP server over a
// UNIX socket with curl, node's net, ssh-agent with ssh-add, git's
// credential cache daemon).
func TestCommandsOwnUnixSockets(t *testing.T) {
	asyncio := `
import asyncio, sys
path = sys.argv[1]
async def handle(r, w):
    w.write(await r.read(5)); await w.drain(); w.close()
async def main():
    server = await asyncio.start_unix_server(handle, path)
    r, w = await asyncio.open_unix_connection(path)
    w.write(b"hello"); await w.drain()
    print("OK" if await r.read(5) == b"hello" else "WRONG")
    server.close()
asyncio.run(main())
`
	// Binds at argv[1], moves it to argv[2] by rename or link (argv[3]),
	// and connects there from a child process.
	moved := `
import os, socket, subprocess, sys
s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(5)
(os.rename if sys.argv[3] == "rename" else os.link)(sys.argv[1], sys.argv[2])
subprocess.run([sys.executable, "-c", "import socket, sys; c = socket.socket(socket.AF_UNIX); c.connect(sys.argv[1]); c.send(bytes([104, 105]))", sys.argv[2]], check=True)
c, _ = s.accept()
print("OK" if c.recv(2) == b"hi" else "WRONG")
`
	httpServer := `
import http.server, os, socketserver, sys
class Server(socketserver.UnixStreamServer):
    def get_request(self):
        request, _ = super().get_request()
        return request, ("local", 0)
open("index.html", "w").write("OK\n")
with Server(sys.argv[1], http.server.SimpleHTTPRequestHandler) as s:
    s.handle_request()
`
	node := `
const net = require('net');
const server = net.createServer(c => { c.end('OK\n'); server.close(); });
server.listen(process.argv[1], () => {
  net.connect(process.argv[1]).on('data', d => process.stdout.write(d));
});
`
	cases := []struct {
		name, tool, script string
	}{
		{"asyncio-absolute", "python3", `python3 -c '` + asyncio + `' "$PWD/a.sock"`},
		{"asyncio-relative", "python3", `mkdir sub && cd sub && python3 -c '` + asyncio + `' a.sock`},
		{"asyncio-private-tmp", "python3", `python3 -c '` + asyncio + `' /tmp/a.sock`},
		{"renamed-by-the-command", "python3", `mkdir sub && python3 -c '` + moved + `' sub/a.sock "$PWD/b.sock" rename`},
		{"linked-by-the-command", "python3", `python3 -c '` + moved + `' a.sock b.sock link`},
		{"http-server-over-unix-socket", "curl", `python3 -c '` + httpServer + `' "$PWD/http.sock" & for i in $(seq 100); do [ -S http.sock ] && break; sleep 0.05; done; curl -sS --unix-socket "$PWD/http.sock" http://localhost/index.html; wait`},
		{"node-net", "node", `node -e "` + strings.ReplaceAll(node, `"`, `\"`) + `" "$PWD/n.sock"`},
		{"ssh-agent", "ssh-agent", `eval "$(ssh-agent -s -a "$PWD/agent.sock")" >/dev/null; ssh-add -l >/dev/null 2>&1; rc=$?; ssh-agent -k >/dev/null; [ $rc = 1 ] && echo OK || echo "ssh-add: $rc"`},
		// A socket file of an earlier run that no one listens on: the
		// connect is refused as the kernel refuses it, and programs that
		// clean such a file up go on.
		{"stale-socket", "python3", `python3 -c '
import socket
s = socket.socket(socket.AF_UNIX); s.bind("stale.sock"); s.close()
try:
    socket.socket(socket.AF_UNIX).connect("stale.sock")
except ConnectionRefusedError:
    print("OK")
'`},
		{"git-credential-cache-stale-socket", "git", `mkdir -m 700 gc && python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind("gc/socket")' && printf 'protocol=https\nhost=example.com\nusername=u\npassword=secret\n\n' | git credential-cache --socket "$PWD/gc/socket" store && printf 'protocol=https\nhost=example.com\n\n' | git credential-cache --socket "$PWD/gc/socket" get | grep -q password=secret && echo OK; git credential-cache --socket "$PWD/gc/socket" exit`},
		{"git-credential-cache", "git", `printf 'protocol=https\nhost=example.com\nusername=u\npassword=secret\n\n' | git credential-cache --socket "$PWD/gc/socket" store && printf 'protocol=https\nhost=example.com\n\n' | git credential-cache --socket "$PWD/gc/socket" get | grep -q password=secret && echo OK; git credential-cache --socket "$PWD/gc/socket" exit`},
	}
	for _, network := range []bool{false, true} {
		for _, tc := range cases {
			name := tc.name
			if network {
				name += "-network"
			}
			t.Run(name, func(t *testing.T) {
				if _, err := exec.LookPath(tc.tool); err != nil {
					t.Skipf("%s is not installed, so this pattern cannot be tried: %v", tc.tool, err)
				}
				sb, _, p := dirs(t)
				p.Network = network
				out, err := sh(t, p, sb, tc.script)
				assert.NoError(t, err, out)
				assert.Contains(t, out, "OK", "a socket the command made did not answer it")
			})
		}
	}
}

// TestOutsideSocketMovedByCommand: an outside program's socket that lies
// in the sandbox unmasked (bound after the start) stays out of reach
// under every name the command can give it: a hard link it makes to the
// socket file (link(2) of the socket's inode) and a rename, with and
// without Network. The guard asks who bound the file, not what it is
// called.
func TestOutsideSocketMovedByCommand(t *testing.T) {
	for _, network := range []bool{false, true} {
		for _, how := range []string{"link", "rename"} {
			name := how
			if network {
				name += "-network"
			}
			t.Run(name, func(t *testing.T) {
				sb, _, p := dirs(t)
				p.Network = network
				cmd := exec.Command("python3", "-c", `
import os, socket, sys, time
while not os.path.exists("go"):
    time.sleep(0.01)
(os.link if sys.argv[1] == "link" else os.rename)("outside.sock", "mine.sock")
print("moved", flush=True)
c = socket.socket(socket.AF_UNIX)
try:
    c.connect("mine.sock")
    print("REACHED", flush=True)
except OSError as e:
    print("refused:", e, flush=True)
`, how)
				cmd.Dir = sb
				var out bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &out
				require.NoError(t, Start(cmd, p))
				reached := lateListener(t, "unix", filepath.Join(sb, "outside.sock"))
				require.NoError(t, os.WriteFile(filepath.Join(sb, "go"), nil, 0o644))
				_ = cmd.Wait()
				time.Sleep(50 * time.Millisecond)
				assert.Contains(t, out.String(), "moved")
				assert.Contains(t, out.String(), "refused: [Errno 111] Connection refused")
				assert.NotContains(t, out.String(), "REACHED")
				assert.Zero(t, reached.Load(), "the command reached an outside program's socket under a name it gave it: %s", out.String())
			})
		}
	}
}

// TestCommandsSocketHandedOut: with Network, a listening socket the
// command made in its sandbox and handed to an outside program (over an
// abstract name the command bound, which an outside program may connect
// to: SCM_RIGHTS), then closed, is the outside program's server from then
// on: the command's connect to its path is refused, since no process of
// the sandbox holds it any more.
func TestCommandsSocketHandedOut(t *testing.T) {
	sb, _, p := dirs(t)
	p.Network = true
	name := "sandboxauth-test-handout-" + filepath.Base(sb)
	cmd := exec.Command("python3", "-c", `
import os, socket, sys, time
l = socket.socket(socket.AF_UNIX); l.bind("\0" + sys.argv[1]); l.listen(1)
s = socket.socket(socket.AF_UNIX); s.bind("served.sock"); s.listen(5)
c, _ = l.accept()
socket.send_fds(c, [b"x"], [s.fileno()])
c.recv(1)  # the outside program has it
s.close(); c.close()
d = socket.socket(socket.AF_UNIX)
try:
    d.connect("served.sock")
    print("REACHED", flush=True)
except OSError as e:
    print("refused:", e, flush=True)
`, name)
	cmd.Dir = sb
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, Start(cmd, p))

	// The outside program: takes the listening socket and serves on it.
	var c int
	var err error
	require.Eventually(t, func() bool {
		if c, err = unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0); err != nil {
			return false
		}
		if unix.Connect(c, &unix.SockaddrUnix{Name: "@" + name}) != nil {
			unix.Close(c)
			return false
		}
		return true
	}, 10*time.Second, 10*time.Millisecond)
	defer unix.Close(c)
	buf, oob := make([]byte, 1), make([]byte, unix.CmsgSpace(4))
	_, oobn, _, _, err := unix.Recvmsg(c, buf, oob, 0)
	require.NoError(t, err)
	msgs, err := unix.ParseSocketControlMessage(oob[:oobn])
	require.NoError(t, err)
	require.Len(t, msgs, 1)
	fds, err := unix.ParseUnixRights(&msgs[0])
	require.NoError(t, err)
	require.Len(t, fds, 1)
	served := os.NewFile(uintptr(fds[0]), "served")
	defer served.Close()
	accepted := make(chan struct{}, 1)
	go func() {
		if nfd, _, err := unix.Accept(fds[0]); err == nil {
			unix.Close(nfd)
			accepted <- struct{}{}
		}
	}()
	_, err = unix.Write(c, []byte("k"))
	require.NoError(t, err)
	_ = cmd.Wait()
	assert.Contains(t, out.String(), "refused: [Errno 111] Connection refused")
	select {
	case <-accepted:
		t.Errorf("the command reached the socket it handed to an outside program: %s", out.String())
	case <-time.After(100 * time.Millisecond):
	}
}

// TestMadeBySandboxFailsClosed: outside a sandbox (the test process is
// in the machine's namespaces, where it asks), a socket file no listening
// socket is bound to, and a socket an outside program holds when
// ownership is asked, are refused; one of this process's own is found.
func TestMadeBySandboxFailsClosed(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.sock")
	l, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	require.NoError(t, err)
	defer unix.Close(l)
	require.NoError(t, unix.Bind(l, &unix.SockaddrUnix{Name: path}))
	open := func() (int, unix.Stat_t) {
		fd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
		require.NoError(t, err)
		var st unix.Stat_t
		require.NoError(t, unix.Fstat(fd, &st))
		return fd, st
	}
	fd, st := open()
	defer unix.Close(fd)
	assert.Equal(t, errNotMadeHere, madeBySandbox(fd, &st, false), "a bound socket that does not listen cannot be connected to")
	require.NoError(t, unix.Listen(l, 1))
	assert.Equal(t, unix.Errno(0), madeBySandbox(fd, &st, false), "a listening socket of this network namespace")
	// Held by this process, which heldBySandbox leaves out as the
	// helper's own: no other process holds it.
	assert.Equal(t, errNotMadeHere, madeBySandbox(fd, &st, true), "a socket no other process of the namespace holds")
	other := st
	other.Ino++
	assert.Equal(t, errNotMadeHere, madeBySandbox(fd, &other, false), "another inode")
	other = st
	other.Ino |= 1 << 40
	assert.Equal(t, errCannotTell, madeBySandbox(fd, &other, false), "an inode number beyond 32 bits")
}

// TestConnectFilterKeepsDumpable: the connect filter answers
// prctl(PR_SET_DUMPABLE, 0) with 0 without doing it (the guard must see
// every process's sockets), and lets every other prctl through.
func TestConnectFilterKeepsDumpable(t *testing.T) {
	for _, r := range []addressReuse{reuseOwnNamespace, reuseGuarded} {
		prog, err := connectFilter(r)
		require.NoError(t, err)
		for _, tc := range []struct {
			name string
			args [6]uint64
			want uint32
		}{
			{"PR_SET_DUMPABLE 0", [6]uint64{unix.PR_SET_DUMPABLE, 0}, unix.SECCOMP_RET_ERRNO},
			{"PR_SET_DUMPABLE 1", [6]uint64{unix.PR_SET_DUMPABLE, 1}, unix.SECCOMP_RET_ALLOW},
			{"PR_GET_DUMPABLE", [6]uint64{unix.PR_GET_DUMPABLE}, unix.SECCOMP_RET_ALLOW},
			{"PR_SET_NAME", [6]uint64{unix.PR_SET_NAME, 0}, unix.SECCOMP_RET_ALLOW},
		} {
			assert.Equal(t, tc.want, runFilter(t, prog, auditArch(), unix.SYS_PRCTL, tc.args), "%s, mode %d", tc.name, r)
		}
	}
}

// TestUndumpableCommandsSocket: a process of the command that asks not
// to be dumpable (ssh-agent, gpg-agent do) keeps its server reachable by
// the rest of the command, with Network too: the guard reads its
// descriptors.
func TestUndumpableCommandsSocket(t *testing.T) {
	for _, network := range []bool{false, true} {
		t.Run(map[bool]string{false: "without-network", true: "with-network"}[network], func(t *testing.T) {
			sb, _, p := dirs(t)
			p.Network = network
			out, err := sh(t, p, sb, `python3 -c '
import ctypes, os, socket, sys
libc = ctypes.CDLL(None, use_errno=True)
assert libc.prctl(4, 0, 0, 0, 0) == 0  # PR_SET_DUMPABLE
s = socket.socket(socket.AF_UNIX); s.bind("u.sock"); s.listen(5)
if os.fork() == 0:
    c = socket.socket(socket.AF_UNIX); c.connect("u.sock"); c.send(b"x"); os._exit(0)
c, _ = s.accept()
print("OK" if c.recv(1) == b"x" else "WRONG")
os.wait()
'`)
			assert.NoError(t, err, out)
			assert.Contains(t, out, "OK")
		})
	}
}

// TestUniqueInodes: the file systems whose device and inode number name
// one file are known; others (procfs here; btrfs, overlayfs) are not.
func TestUniqueInodes(t *testing.T) {
	for _, tc := range []struct {
		path string
		want bool
	}{{"/proc/self/stat", false}, {"/sys/kernel", false}, {"/dev/shm", true}} {
		var fs unix.Statfs_t
		if unix.Statfs(tc.path, &fs) != nil {
			continue
		}
		if tc.path == "/dev/shm" && fs.Type != unix.TMPFS_MAGIC {
			continue
		}
		fd, err := unix.Open(tc.path, unix.O_PATH|unix.O_CLOEXEC, 0)
		require.NoError(t, err)
		assert.Equal(t, tc.want, uniqueInodes(fd), tc.path)
		unix.Close(fd)
	}
}

// TestOutsideSocketSameInodeOtherSubvolume: on btrfs, every subvolume
// numbers its inodes from the start, and the kernel names a socket's file
// by the file system's one device and the inode number, so a socket the
// command binds in a nested subvolume of its sandbox, once it has made
// files up to that number, has the device and inode of an outside
// program's socket in the sandbox (which, without Network, the helper's
// dump does not list): the guard took the one for the other. Sockets on
// btrfs are refused now. Needs root (a loop-mounted btrfs).
func TestOutsideSocketSameInodeOtherSubvolume(t *testing.T) {
	requireConfinement(t)
	if os.Geteuid() != 0 {
		t.Skip("mounting a btrfs image needs root")
	}
	for _, tool := range []string{"mkfs.btrfs", "btrfs", "mount", "umount"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: %v", tool, err)
		}
	}
	dir := t.TempDir()
	img, mnt := filepath.Join(dir, "btrfs.img"), filepath.Join(dir, "mnt")
	require.NoError(t, os.Mkdir(mnt, 0o755))
	f, err := os.Create(img)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(256<<20))
	f.Close()
	if out, err := exec.Command("mkfs.btrfs", "-q", img).CombinedOutput(); err != nil {
		t.Skipf("mkfs.btrfs: %v: %s", err, out)
	}
	if out, err := exec.Command("mount", "-o", "loop", img, mnt).CombinedOutput(); err != nil {
		t.Skipf("a loop mount is not possible here: %v: %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", "-l", mnt).Run() })
	sb := filepath.Join(mnt, "proj")
	out, err := exec.Command("btrfs", "subvolume", "create", sb).CombinedOutput()
	require.NoError(t, err, "%s", out)
	for _, network := range []bool{false, true} {
		t.Run(map[bool]string{false: "without-network", true: "with-network"}[network], func(t *testing.T) {
			p := Policy{Sandbox: sb, Network: network}
			for _, name := range []string{"go", "ino", "outside.sock", "nested"} {
				_ = exec.Command("btrfs", "subvolume", "delete", filepath.Join(sb, name)).Run()
				_ = os.Remove(filepath.Join(sb, name))
			}
			made, err := exec.Command("btrfs", "subvolume", "create", filepath.Join(sb, "nested")).CombinedOutput()
			require.NoError(t, err, "%s", made)
			// The outside socket's inode number, in the sandbox's
			// subvolume, lies beyond the nested one's first.
			for i := 0; i < 20; i++ {
				require.NoError(t, os.WriteFile(filepath.Join(sb, "file"+strconv.Itoa(i)), nil, 0o644))
			}
			cmd := exec.Command("python3", "-c", `
import os, socket, time
while not os.path.exists("go"):
    time.sleep(0.01)
want = int(open("ino").read())
os.chdir("nested")
i = 0
while True:
    path = "f%d" % i
    open(path, "w").close()
    if os.stat(path).st_ino >= want - 1:
        break
    i += 1
s = socket.socket(socket.AF_UNIX); s.bind("c%d.sock" % i); s.listen(5)
print("inode", os.stat("c%d.sock" % i).st_ino, "wanted", want, flush=True)
c = socket.socket(socket.AF_UNIX)
try:
    c.connect("../outside.sock")
    print("REACHED", flush=True)
except OSError as e:
    print("refused:", e, flush=True)
`)
			cmd.Dir = sb
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			require.NoError(t, Start(cmd, p))
			reached := lateListener(t, "unix", filepath.Join(sb, "outside.sock"))
			var st unix.Stat_t
			require.NoError(t, unix.Stat(filepath.Join(sb, "outside.sock"), &st))
			require.NoError(t, os.WriteFile(filepath.Join(sb, "ino"), []byte(strconv.FormatUint(st.Ino, 10)), 0o644))
			require.NoError(t, os.WriteFile(filepath.Join(sb, "go"), nil, 0o644))
			_ = cmd.Wait()
			t.Logf("%s", out.String())
			time.Sleep(50 * time.Millisecond)
			assert.Contains(t, out.String(), "refused: [Errno 13] Permission denied")
			assert.Zero(t, reached.Load(), "the command reached an outside program's socket through one of its own with the same inode number in another subvolume: %s", out.String())
		})
	}
}

// BenchmarkMadeBySandbox: the guard's check of one socket file, run in
// the test's own namespaces (the machine's network namespace, where the
// dump lists every program's listening UNIX sockets, and its PID
// namespace, where the scan reads every process's descriptors): without
// and with the scan (owned).
func BenchmarkMadeBySandbox(b *testing.B) {
	path := filepath.Join(b.TempDir(), "s.sock")
	l, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	require.NoError(b, err)
	defer unix.Close(l)
	require.NoError(b, unix.Bind(l, &unix.SockaddrUnix{Name: path}))
	require.NoError(b, unix.Listen(l, 1))
	fd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
	require.NoError(b, err)
	defer unix.Close(fd)
	var st unix.Stat_t
	require.NoError(b, unix.Fstat(fd, &st))
	for _, owned := range []bool{false, true} {
		b.Run(map[bool]string{false: "dump", true: "dump-and-scan"}[owned], func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				madeBySandbox(fd, &st, owned)
			}
		})
	}
}
