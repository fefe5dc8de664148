package sandboxauth_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sandboxauth/sandboxauth"
	"github.com/sandboxauth/sandboxauth/toolpolicy"
)

// The strict Sandbox policy: safe commands run, blocked ones are refused,
// anything outside the sandbox is refused, and the rest is asked about.
// nil commands mean the default lists.
func ExampleNewSandboxAuthorizer() {
	sandbox, _ := os.MkdirTemp("", "sandbox")
	defer os.RemoveAll(sandbox)

	a, userRequests, err := sandboxauth.NewSandboxAuthorizer(nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer a.Close()

	fmt.Println(a.IsShellAuthorized(false, "", sandbox, sandbox, []string{"git", "status"}))
	err = a.IsShellAuthorized(false, "", sandbox, sandbox, []string{"curl", "https://example.com"})
	fmt.Println(errors.Is(err, sandboxauth.ErrBlockedCommand))
	err = a.IsAuthorizedForRead(false, "", "read_file", sandbox, "/etc/passwd")
	fmt.Println(errors.Is(err, sandboxauth.ErrOutsideSandbox))

	// A dangerous command asks a person. The call blocks, so it runs on
	// its own goroutine while this one answers.
	done := make(chan error)
	go func() { done <- a.IsShellAuthorized(false, "", sandbox, sandbox, []string{"rm", "-rf", "build"}) }()
	req := <-userRequests
	fmt.Println(req.Classification, req.Argv)
	req.Disallow()
	fmt.Println(errors.Is(<-done, sandboxauth.ErrAuthorizationDenied))
	// Output:
	// <nil>
	// true
	// true
	// dangerous [rm -rf build]
	// true
}

// The Permissive Sandbox policy asks, rather than refuses, about paths
// outside the sandbox, and runs commands on no list.
func ExampleNewPermissiveSandboxAuthorizer() {
	sandbox, _ := os.MkdirTemp("", "sandbox")
	defer os.RemoveAll(sandbox)

	a, userRequests, _ := sandboxauth.NewPermissiveSandboxAuthorizer(nil)
	defer a.Close()

	fmt.Println(a.IsShellAuthorized(false, "", sandbox, sandbox, []string{"mytool", "--check"}))
	done := make(chan error)
	go func() { done <- a.IsAuthorizedForRead(false, "", "read_file", sandbox, "/etc/hostname") }()
	req := <-userRequests
	fmt.Println(req.Operation, req.Paths)
	req.Allow()
	fmt.Println(<-done)
	// Output:
	// <nil>
	// read [/etc/hostname]
	// <nil>
}

// AutoApprove allows every well-formed call, for agents that something
// else confines (a container, a virtual machine). Malformed calls are still
// errors.
func ExampleNewAutoApproveAuthorizer() {
	a := sandboxauth.NewAutoApproveAuthorizer()
	defer a.Close()
	fmt.Println(a.IsShellAuthorized(false, "", "/work", "/work", []string{"curl", "https://example.com"}))
	err := a.IsAuthorizedForRead(false, "", "read_file", "/work", "relative/path")
	fmt.Println(errors.Is(err, sandboxauth.ErrInvalidPath))
	// Output:
	// <nil>
	// true
}

// A tool policy in front of an authorizer: tools the agent was not given
// are refused before any path or command is looked at.
func ExampleNewToolPolicyAuthorizer() {
	sandbox, _ := os.MkdirTemp("", "sandbox")
	defer os.RemoveAll(sandbox)

	policy, _ := toolpolicy.Compile(toolpolicy.Layer{Name: "reviewer", Allow: []string{"read_file"}})
	fallback, _, _ := sandboxauth.NewSandboxAuthorizer(nil)
	defer fallback.Close()
	a := sandboxauth.NewToolPolicyAuthorizer(policy, fallback)
	defer a.Close()

	fmt.Println(a.IsAuthorizedForRead(false, "", "read_file", sandbox, filepath.Join(sandbox, "main.go")))
	err := a.IsAuthorizedForWrite(false, "", "write_file", sandbox, filepath.Join(sandbox, "main.go"))
	fmt.Println(errors.Is(err, sandboxauth.ErrToolNotPermitted))
	err = a.IsShellAuthorized(false, "", sandbox, sandbox, []string{"ls"})
	fmt.Println(errors.Is(err, sandboxauth.ErrToolNotPermitted))
	// Output:
	// <nil>
	// true
	// true
}

// The default command lists, and a list of one's own added to them.
func ExampleNewShellAllowedCommands() {
	commands := sandboxauth.NewShellAllowedCommands()
	commands.AddSafe(sandboxauth.CommandMatcher{Command: "just", CommandArgsPrefix: []string{"lint"}, Reason: "runs the linters"})
	for _, argv := range [][]string{{"ls", "-la"}, {"curl", "x"}, {"just", "lint"}, {"rm", "-rf", "x"}, {"bash", "-c", "a | b"}} {
		class, _ := commands.Check(argv)
		fmt.Println(argv, class)
	}
	// Output:
	// [ls -la] safe
	// [curl x] blocked
	// [just lint] safe
	// [rm -rf x] dangerous
	// [bash -c a | b] inscrutable
}

// Without a person (CI), what the policy would ask about is refused with
// ErrNoUser, and nothing is sent on the channel of user requests.
func ExampleWithHeadless() {
	sandbox, _ := os.MkdirTemp("", "sandbox")
	defer os.RemoveAll(sandbox)

	a, userRequests, _ := sandboxauth.NewSandboxAuthorizer(nil, sandboxauth.WithHeadless())
	defer a.Close()
	err := a.IsShellAuthorized(false, "", sandbox, sandbox, []string{"rm", "-rf", "build"})
	fmt.Println(errors.Is(err, sandboxauth.ErrNoUser), errors.Is(err, sandboxauth.ErrDenied), len(userRequests))
	// Output:
	// true true 0
}
