package sandboxauth_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sandboxauth/sandboxauth"
	"github.com/sandboxauth/sandboxauth/auth"
	"github.com/sandboxauth/sandboxauth/codeunit"
)

// The agent's main loop: tool calls run in their own goroutines and block
// while a person is asked; the loop shows each request and answers it.
func Example() {
	sandbox, _ := os.MkdirTemp("", "sandbox")
	defer os.RemoveAll(sandbox)

	authorizer, userRequests, err := sandboxauth.NewSandboxAuthorizer(sandboxauth.NewShellAllowedCommands())
	if err != nil {
		fmt.Println(err)
		return
	}

	// The agent: its tools consult the authorizer before they act.
	events := make(chan string)
	go func() {
		defer close(events)
		err := authorizer.IsAuthorizedForRead(true, "the user asked about the API key", "read_file", sandbox, filepath.Join(sandbox, ".env"))
		events <- fmt.Sprintf("read .env: allowed=%v", err == nil)
		err = authorizer.IsAuthorizedForWrite(false, "", "write_file", sandbox, "/etc/hosts")
		events <- fmt.Sprintf("write /etc/hosts: outside the sandbox=%v", errors.Is(err, sandboxauth.ErrOutsideSandbox))
		err = authorizer.IsAuthorizedForWrite(true, "clean up", "delete_file", sandbox, filepath.Join(sandbox, "go.mod"))
		events <- fmt.Sprintf("delete go.mod: refused by the user=%v", errors.Is(err, sandboxauth.ErrAuthorizationDenied))
	}()

	// The main event loop.
	for {
		select {
		case req, ok := <-userRequests:
			if !ok {
				return // authorizer closed
			}
			fmt.Printf("asked: %s %s (%s)\n", req.ToolName, req.Operation, req.Reason)
			if req.ToolName == "read_file" { // a person's yes or no
				req.Allow()
			} else {
				req.Disallow()
			}
		case evt, ok := <-events:
			if !ok {
				authorizer.Close()
				continue
			}
			fmt.Println(evt)
		}
	}
	// Output:
	// asked: read_file read (the user asked about the API key)
	// read .env: allowed=true
	// write /etc/hosts: outside the sandbox=true
	// asked: delete_file write (clean up)
	// delete go.mod: refused by the user=true
}

// readFileTool is a tool that consults an authorizer before it reads.
// It depends on the auth package only.
type readFileTool struct {
	authz   auth.Authorizer
	sandbox string
}

// Run reads path, relative to the sandbox or absolute. A refusal is returned
// as the tool's result, so that the model reads why and what to do instead.
func (t readFileTool) Run(path string) (string, error) {
	if !filepath.IsAbs(path) {
		path = filepath.Join(t.sandbox, path)
	}
	if err := t.authz.IsAuthorizedForRead(false, "", "read_file", t.sandbox, path); err != nil {
		return "", err
	}
	b, err := os.ReadFile(path)
	return string(b), err
}

// Wrapping a tool: the tool asks before it reads.
func Example_wrapTool() {
	sandbox, _ := os.MkdirTemp("", "sandbox")
	defer os.RemoveAll(sandbox)
	_ = os.WriteFile(filepath.Join(sandbox, "notes.txt"), []byte("hello"), 0o644)

	authorizer, _, _ := sandboxauth.NewSandboxAuthorizer(sandboxauth.NewShellAllowedCommands())
	defer authorizer.Close()
	tool := readFileTool{authz: authorizer, sandbox: sandbox}

	text, err := tool.Run("notes.txt")
	fmt.Printf("%q %v\n", text, err)
	_, err = tool.Run("../../../etc/passwd")
	fmt.Println(errors.Is(err, sandboxauth.ErrDenied), errors.Is(err, sandboxauth.ErrOutsideSandbox))
	// Output:
	// "hello" <nil>
	// true true
}

// A subagent confined to one package of a repository, under its parent's
// authorizer.
func ExampleNewCodeUnitAuthorizer() {
	repo, _ := os.MkdirTemp("", "repo")
	defer os.RemoveAll(repo)
	_ = os.MkdirAll(filepath.Join(repo, "parser"), 0o755)

	parent, _, _ := sandboxauth.NewSandboxAuthorizer(sandboxauth.NewShellAllowedCommands())
	defer parent.Close()

	unit, _ := codeunit.NewCodeUnit("parser", filepath.Join(repo, "parser"))
	sub := sandboxauth.NewCodeUnitAuthorizer(unit, parent)
	defer sub.Close() // closes the subagent's view only

	err := sub.IsAuthorizedForWrite(false, "", "edit", repo, filepath.Join(repo, "parser", "lexer.go"))
	fmt.Println(err)
	err = sub.IsAuthorizedForWrite(false, "", "edit", repo, filepath.Join(repo, "main.go"))
	fmt.Println(errors.Is(err, sandboxauth.ErrOutsideCodeUnit))
	// Output:
	// <nil>
	// true
}
