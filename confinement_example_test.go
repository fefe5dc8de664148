package sandboxauth_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"

	"github.com/sandboxauth/sandboxauth"
	"github.com/sandboxauth/sandboxauth/confine"
)

// A shell tool that runs what it is allowed under kernel confinement may
// declare it: project code such as go test then needs nobody's approval,
// because whatever the tests do, they cannot write outside the sandbox or
// reach the network.
func ExampleWithConfinement() {
	sandbox, _ := os.MkdirTemp("", "project")
	defer os.RemoveAll(sandbox)
	policy := confine.DefaultPolicy(sandbox)
	// A build script the model wrote.
	_ = os.WriteFile(sandbox+"/build.sh", []byte("echo built > out.txt\n"), 0o644)

	authz, _, err := sandboxauth.NewSandboxAuthorizer(sandboxauth.NewShellAllowedCommands(),
		sandboxauth.WithConfinement(policy), sandboxauth.WithHeadless())
	if errors.Is(err, confine.ErrUnavailable) {
		fmt.Println("this kernel cannot confine: build the authorizer without WithConfinement")
		return
	}
	if err != nil {
		panic(err)
	}
	defer authz.Close()

	shell := func(argv ...string) {
		if err := authz.IsShellAuthorized(false, "", sandbox, sandbox, argv); err != nil {
			fmt.Println("refused:", argv[0])
			return
		}
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Dir = sandbox
		err := confine.Run(cmd, policy) // the promise WithConfinement made
		fmt.Println("ran:", argv[0], "error:", err != nil)
	}
	shell("sh", "build.sh")         // project code: allowed, and run confined
	shell("curl", "https://x.test") // blocked, confinement or not
	out, _ := os.ReadFile(sandbox + "/out.txt")
	fmt.Printf("out.txt: %s", out)
	// Output:
	// ran: sh error: false
	// refused: curl
	// out.txt: built
}
