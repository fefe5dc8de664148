package confine

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// escape6Env makes the test binary, run confined, do one of this file's
// payloads (package initialization, before TestMain; never in the
// sandbox's first process, which is the helper).
const escape6Env = "CONFINE_TEST_ESCAPE6"

func init() {
	how := os.Getenv(escape6Env)
	if how == "" || os.Getenv(helperEnv) != "" {
		return
	}
	switch how {
	case "cpu-limit-pid1":
		// RLIMIT_CPU of the sandbox's first process set to one second,
		// then orphans for it to reap until it has spent that second.
		lim := unix.Rlimit{Cur: 1, Max: 1}
		if err := unix.Prlimit(1, unix.RLIMIT_CPU, &lim, nil); err != nil {
			os.Stderr.WriteString("prlimit: " + err.Error() + "\n")
			os.Exit(3)
		}
		os.Stderr.WriteString("prlimit on PID 1: ok\n")
		for i := 0; i < 100000; i++ {
			pid, _, errno := syscall.RawSyscall6(syscall.SYS_CLONE, uintptr(syscall.SIGCHLD), 0, 0, 0, 0, 0)
			if errno != 0 {
				continue
			}
			if pid == 0 {
				// The child forks a grandchild and exits: the
				// grandchild is orphaned to PID 1.
				syscall.RawSyscall6(syscall.SYS_CLONE, uintptr(syscall.SIGCHLD), 0, 0, 0, 0, 0)
				syscall.RawSyscall(syscall.SYS_EXIT_GROUP, 0, 0, 0)
			}
			var ws syscall.WaitStatus
			_, _ = syscall.Wait4(int(pid), &ws, 0, nil)
		}
		os.Stderr.WriteString("alive\n")
		os.Exit(0)
	case "ldisc":
		// The line discipline of the terminal on standard input, made
		// N_NULL (27): it drops everything written and typed.
		if err := unix.IoctlSetPointerInt(0, unix.TIOCSETD, 27); err != nil {
			os.Stderr.WriteString("TIOCSETD: " + err.Error() + "\n")
			os.Exit(3)
		}
		os.Exit(0)
	case "nonblock":
		// Standard input (the user's terminal, an open file description
		// shared with the user's shell) made non-blocking.
		fl, err := unix.FcntlInt(0, unix.F_GETFL, 0)
		if err == nil {
			_, err = unix.FcntlInt(0, unix.F_SETFL, fl|unix.O_NONBLOCK)
		}
		if err != nil {
			os.Stderr.WriteString("F_SETFL: " + err.Error() + "\n")
			os.Exit(3)
		}
		os.Exit(0)
	case "vsock-bind":
		// A vsock socket, bound to the port given (the one an outside
		// program listens on) and then to another, listening.
		port, _ := strconv.Atoi(os.Getenv(escape6Env + "_PORT"))
		fd, err := unix.Socket(unix.AF_VSOCK, unix.SOCK_STREAM, 0)
		if err != nil {
			os.Stderr.WriteString("vsock socket: " + err.Error() + "\n")
			os.Exit(3)
		}
		os.Stderr.WriteString("vsock socket: ok\n")
		err = unix.Bind(fd, &unix.SockaddrVM{CID: unix.VMADDR_CID_ANY, Port: uint32(port)})
		os.Stderr.WriteString(fmt.Sprintf("bind to the outside program's port %d: %v\n", port, err))
		fd2, _ := unix.Socket(unix.AF_VSOCK, unix.SOCK_STREAM, 0)
		if err := unix.Bind(fd2, &unix.SockaddrVM{CID: unix.VMADDR_CID_ANY, Port: uint32(port + 1)}); err == nil && unix.Listen(fd2, 1) == nil {
			os.Stderr.WriteString(fmt.Sprintf("listening on vsock port %d\n", port+1))
		}
		os.Exit(0)
	}
}

// TestEscapeFirstProcessCPULimit: the command cannot signal the sandbox's
// first process (Landlock scopes signals, ABI 6), but it can set its
// resource limits: prlimit(2) asks only for the same user IDs, and no
// Landlock or namespace rule covers it. With RLIMIT_CPU set to one second
// (soft and hard), the kernel kills the helper with SIGKILL once it has
// spent that second, which the command makes it do by leaving it orphans
// to reap (some 20000 double forks, a few seconds). The sandbox's first
// process ends at a moment the command chooses, with it the whole
// sandbox, and bubblewrap exits at once: a caller of Start whose cmd.Wait
// returns goes on before Policy.AfterExit (the quarantine) has run, which
// Start promises only for a kernel without Landlock's scoping (see
// TestEscapeFirstProcessEndedBySignal, the same by kill -ABRT 1).
// RLIMIT_AS or RLIMIT_NPROC (the Go runtime cannot make a thread) would
// crash it as well.
//
//	prlimit --pid 1 --cpu=1:1
//	while :; do (sleep 0 &); done   # orphans for PID 1 to reap
func TestEscapeFirstProcessCPULimit(t *testing.T) {
	_, _, p := dirs(t)
	out, err := runEscape6(t, p, "cpu-limit-pid1")
	t.Log(out, err)
	if strings.Contains(out, "prlimit: operation not permitted") {
		return // refused: the filter lets a process set only its own limits
	}
	assert.Contains(t, out, "alive", "the command's RLIMIT_CPU on the sandbox's first process ended it (and the sandbox) early (%v): %.200s", err, out)
}

// runEscape6 runs the test binary confined by p, in its sandbox, as this
// file's payload how, and returns its output and error.
func runEscape6(t *testing.T, p Policy, how string) (string, error) {
	t.Helper()
	cmd := exec.Command(testBinary(t))
	cmd.Env = append(os.Environ(), escape6Env+"="+how)
	cmd.Dir = p.Sandbox
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := Run(cmd, p)
	return out.String(), err
}

// TestEscapeVsock: without Network the command gets a network namespace of
// its own, but AF_VSOCK (virtual machine sockets) is not separated by
// network namespaces, and neither the system-call filter nor Landlock
// refuses it. In a virtual machine (Firecracker, QEMU, Cloud
// Hypervisor, WSL, ...) the command creates vsock sockets in the
// machine's own port space: it can listen on a port the hypervisor's
// side connects to, take a port an outside program of the machine means
// to bind (an outside listener's port is "in use" from inside), and
// connect to the host (CID 2), whose agents and services are then one
// connect away. Shown here without sending anything: the command binds
// the port of an outside listener and gets EADDRINUSE (the same port
// space), and listens on the next port.
//
//	python3 -c 'import socket; s=socket.socket(socket.AF_VSOCK); s.bind((socket.VMADDR_CID_ANY, 5566)); s.listen()'
func TestEscapeVsock(t *testing.T) {
	_, _, p := dirs(t)
	port := 40000 + os.Getpid()%20000
	outside, err := unix.Socket(unix.AF_VSOCK, unix.SOCK_STREAM, 0)
	if err == nil {
		defer unix.Close(outside)
		if err := unix.Bind(outside, &unix.SockaddrVM{CID: unix.VMADDR_CID_ANY, Port: uint32(port)}); err == nil {
			_ = unix.Listen(outside, 1)
		}
	}
	t.Setenv(escape6Env+"_PORT", strconv.Itoa(port))
	out, _ := runEscape6(t, p, "vsock-bind")
	t.Log(out)
	assert.NotContains(t, out, "vsock socket: ok", "the confined command, without network, created a vsock socket")
	assert.NotContains(t, out, "address already in use", "the command's vsock port space is the machine's")
	assert.NotContains(t, out, "listening on vsock port", "the confined command listens on a vsock port the hypervisor side can reach")
}

// TestEscapeCredentialsRound6: more files that hold credentials in the
// home directory, readable by a confined command under DefaultPolicy:
// coding agents' and model tools' keys (Gemini CLI's ~/.gemini/.env,
// Windsurf/Codeium's API key, Simon Willison's llm keys, Ollama's private
// key, Hugging Face's stored tokens), Subversion's cached passwords,
// Poetry's auth.toml (written when no keyring is available), MinIO's
// client keys, CIFS credentials, FileZilla's saved sites, wget's and
// curl's settings (user and password), and shell and REPL history under
// other names (zsh's ~/.histfile, the default of zsh-newuser-install;
// ksh's ~/.sh_history; R, Julia, DuckDB).
//
//	cat ~/.gemini/.env ~/.ollama/id_ed25519 ~/.cache/huggingface/stored_tokens ...
func TestEscapeCredentialsRound6(t *testing.T) {
	requireConfinement(t)
	home := fakeHome(t)
	t.Setenv("GOCACHE", home+"/.cache/go-build")
	secrets := map[string]string{
		".gemini/.env":                       "GEMINI_API_KEY=GEMINIENVSECRET",
		".codeium/config.json":               `{"api_key":"CODEIUMSECRET"}`,
		".config/io.datasette.llm/keys.json": `{"openai":"LLMKEYSSECRET"}`,
		".ollama/id_ed25519":                 "OLLAMAKEYSECRET",
		".cache/huggingface/stored_tokens":   "[t]\nhf_token = HFSTOREDSECRET",
		".subversion/auth/svn.simple/0123":   "password\nSVNSECRET",
		".config/pypoetry/auth.toml":         "[http-basic.x]\npassword = \"POETRYSECRET\"",
		".mc/config.json":                    `{"secretKey":"MINIOSECRET"}`,
		".smbcredentials":                    "password=SMBSECRET",
		".config/filezilla/sitemanager.xml":  "<Pass>FILEZILLASECRET</Pass>",
		".wgetrc":                            "password = WGETSECRET",
		".curlrc":                            "user = \"u:CURLSECRET\"",
		".histfile":                          "export TOKEN=ZSHHISTFILESECRET",
		".sh_history":                        "export TOKEN=KSHHISTORYSECRET",
		".Rhistory":                          "Sys.setenv(KEY='RHISTORYSECRET')",
		".julia/logs/repl_history.jl":        "ENV[\"KEY\"]=\"JULIASECRET\"",
		".duckdb_history":                    "CREATE SECRET (KEY_ID 'DUCKDBSECRET')",
	}
	assertSecretsHidden(t, home, secrets)
}

// TestEscapeTerminalLineDiscipline: the settings of the user's terminal
// that the command changes are put back when the sandbox ends (termios,
// window size, exclusive mode, flow), but not its line discipline, which
// its owner may change (TIOCSETD; the filter lets it through). The
// command sets N_NULL, and after the run the user's terminal drops all
// that is written to it and typed on it: the shell that ran the command
// is deaf and mute until the terminal is closed.
//
//	python3 -c 'import fcntl,struct; fcntl.ioctl(0, 0x5423, struct.pack("i", 27))'
func TestEscapeTerminalLineDiscipline(t *testing.T) {
	sb, _, p := dirs(t)
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	require.NoError(t, err)
	defer ptmx.Close()
	require.NoError(t, unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0))
	n, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	require.NoError(t, err)
	tty, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	require.NoError(t, err)
	defer tty.Close()
	t.Cleanup(func() { _ = unix.IoctlSetPointerInt(int(tty.Fd()), unix.TIOCSETD, 0) })
	before, err := unix.IoctlGetInt(int(tty.Fd()), unix.TIOCGETD)
	require.NoError(t, err)

	cmd := exec.Command(testBinary(t))
	cmd.Dir = sb
	cmd.Env = append(os.Environ(), escape6Env+"=ldisc")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	t.Log(Run(cmd, p))

	after, err := unix.IoctlGetInt(int(tty.Fd()), unix.TIOCGETD)
	require.NoError(t, err)
	assert.Equal(t, before, after, "the confined command's line discipline outlived it on the user's terminal")
	got := make(chan string, 1)
	go func() {
		var seen []byte
		b := make([]byte, 256)
		for !bytes.Contains(seen, []byte("after the run")) {
			k, err := ptmx.Read(b)
			if err != nil {
				break
			}
			seen = append(seen, b[:k]...)
		}
		got <- string(seen)
	}()
	_, _ = io.WriteString(tty, "after the run\n")
	seen := ""
	select {
	case seen = <-got:
	case <-time.After(5 * time.Second):
	}
	assert.Contains(t, seen, "after the run", "what the user's programs write to the terminal after the run is lost")
}

// TestEscapeTerminalNonBlocking: the command's standard input is the
// user's terminal through the same open file description as the user's
// shell, whose status flags the command may change (fcntl F_SETFL), and
// which are not put back with the terminal's settings. The command makes
// it non-blocking: after the run, every program the user starts from that
// shell reads its terminal with EAGAIN ("cat: -: Resource temporarily
// unavailable"; programs that do not expect it exit or spin), until one
// resets the flag.
//
//	python3 -c 'import fcntl,os; fcntl.fcntl(0, fcntl.F_SETFL, fcntl.fcntl(0, fcntl.F_GETFL)|os.O_NONBLOCK)'
func TestEscapeTerminalNonBlocking(t *testing.T) {
	sb, _, p := dirs(t)
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	require.NoError(t, err)
	defer ptmx.Close()
	require.NoError(t, unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0))
	n, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	require.NoError(t, err)
	fd, err := unix.Open("/dev/pts/"+strconv.Itoa(n), unix.O_RDWR|unix.O_NOCTTY, 0) // blocking, as a shell's
	require.NoError(t, err)
	tty := os.NewFile(uintptr(fd), "tty")
	defer tty.Close()
	before, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
	require.NoError(t, err)
	require.Zero(t, before&unix.O_NONBLOCK)

	cmd := exec.Command(testBinary(t))
	cmd.Dir = sb
	cmd.Env = append(os.Environ(), escape6Env+"=nonblock")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	t.Log(Run(cmd, p))

	after, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
	require.NoError(t, err)
	assert.Zero(t, after&unix.O_NONBLOCK, "the confined command left the user's terminal non-blocking for the shell that ran it")
}
