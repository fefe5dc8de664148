package confine_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/sandboxauth/sandboxauth/confine"
)

// A build step runs confined to its project: it writes its output inside,
// and its attempt to write elsewhere fails without touching anything.
func ExampleRun() {
	project, _ := os.MkdirTemp("", "project")
	defer os.RemoveAll(project)
	elsewhere, _ := os.MkdirTemp("", "elsewhere")
	defer os.RemoveAll(elsewhere)

	p := confine.DefaultPolicy(project)
	cmd := exec.Command("sh", "-c", "echo built > out.txt && echo pwned > "+elsewhere+"/x 2>/dev/null")
	cmd.Dir = project
	err := confine.Run(cmd, p)
	if errors.Is(err, confine.ErrUnavailable) {
		fmt.Println("this kernel cannot confine; nothing ran")
		return
	}
	out, _ := os.ReadFile(filepath.Join(project, "out.txt"))
	_, statErr := os.Stat(filepath.Join(elsewhere, "x"))
	fmt.Printf("inside: %s", out)
	fmt.Println("command failed:", err != nil)
	fmt.Println("outside written:", statErr == nil)
	// Output:
	// inside: built
	// command failed: true
	// outside written: false
}

// A confined test suite starts a server on the loopback interface, which
// works; the network outside does not exist for it.
func ExampleRun_loopback() {
	project, _ := os.MkdirTemp("", "project")
	defer os.RemoveAll(project)
	script := `python3 -c "
import socket
s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen()
socket.create_connection(s.getsockname()).close()
print('loopback: ok')
try:
    socket.create_connection(('192.0.2.1', 80), timeout=2)
except OSError as e:
    print('outside:', e.strerror)
"`
	cmd := exec.Command("sh", "-c", script)
	cmd.Dir = project
	cmd.Stdout = os.Stdout
	if err := confine.Run(cmd, confine.DefaultPolicy(project)); errors.Is(err, confine.ErrUnavailable) {
		fmt.Println("this machine cannot confine; nothing ran")
	}
	// Output:
	// loopback: ok
	// outside: Network is unreachable
}

// A command stopped by its context (the caller gives up on it here) ends
// with its whole sandbox at once. cmd.Wait returns then without waiting
// for Policy.AfterExit; a caller that must not go on before the sandbox is
// cleaned up wraps AfterExit and waits for it too.
func ExampleStart_stopped() {
	project, _ := os.MkdirTemp("", "project")
	defer os.RemoveAll(project)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := exec.CommandContext(ctx, "sleep", "60")
	cmd.Dir = project

	p := confine.DefaultPolicy(project)
	cleaned := make(chan struct{})
	p.AfterExit = func() { close(cleaned) }
	if err := confine.Start(cmd, p); err != nil {
		fmt.Println("not started:", err)
		return
	}
	time.AfterFunc(200*time.Millisecond, cancel)
	err := cmd.Wait()
	<-cleaned
	fmt.Println("stopped:", err)
	// Output: stopped: signal: killed
}

// Available tells, before any command runs, whether the machine confines.
func ExampleAvailable() {
	if err := confine.Available(); err != nil {
		fmt.Println("ask about project code instead:", err)
		return
	}
	fmt.Println("commands can run confined")
	// Output: commands can run confined
}
