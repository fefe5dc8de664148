package confine_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/sandboxauth/sandboxauth/confine"
)

// A build step runs confined to its project: it writes its output inside,
// and its attempt to write elsewhere fails without touching anything.
func ExampleRun() {
	project, _ := os.MkdirTemp("", "project")
	defer os.RemoveAll(project)
	elsewhere, _ := os.MkdirTemp("", "elsewhere")
	defer os.RemoveAll(elsewhere)

	p := confine.Policy{Sandbox: project, Writable: []string{"/dev/null"}}
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

// Available tells, before any command runs, whether the kernel confines.
func ExampleAvailable() {
	if err := confine.Available(); err != nil {
		fmt.Println("ask about project code instead:", err)
		return
	}
	fmt.Println("commands can run confined")
	// Output: commands can run confined
}
