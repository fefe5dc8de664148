package sandboxauth_test

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/sandboxauth/sandboxauth"
)

// Cancelling a tool call withdraws its question: the call returns at once
// with ErrCallCanceled (and the context's error), and the request's Done
// channel is closed so that a user interface can take it down.
func ExampleContextAuthorizer() {
	sandbox, _ := os.MkdirTemp("", "sandbox")
	defer os.RemoveAll(sandbox)

	a, userRequests, _ := sandboxauth.NewSandboxAuthorizer(nil)
	defer a.Close()
	ca := a.(sandboxauth.ContextAuthorizer)

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		done <- ca.IsShellAuthorizedContext(ctx, false, "", sandbox, sandbox, []string{"rm", "-rf", "build"})
	}()

	req := <-userRequests // the question is shown ...
	cancel()              // ... and the user cancels the tool call instead
	err := <-done
	<-req.Done
	fmt.Println(errors.Is(err, sandboxauth.ErrCallCanceled), errors.Is(err, context.Canceled), errors.Is(err, sandboxauth.ErrDenied))
	req.Allow() // too late: ignored
	// Output:
	// true true true
}

// ForToolCall tags the requests and log records of one tool call with its
// ID, so that a user interface can show the question next to the call.
func ExampleForToolCall() {
	sandbox, _ := os.MkdirTemp("", "sandbox")
	defer os.RemoveAll(sandbox)

	a, userRequests, _ := sandboxauth.NewSandboxAuthorizer(nil)
	defer a.Close()

	done := make(chan error)
	go func() {
		done <- sandboxauth.ForToolCall(a, "toolu_01").IsShellAuthorized(false, "", sandbox, sandbox, []string{"rm", "-rf", "build"})
	}()
	req := <-userRequests
	fmt.Println(req.ToolCallID)
	req.Allow()
	fmt.Println(<-done)
	// Output:
	// toolu_01
	// <nil>
}
