package sandboxauth_test

import (
	"errors"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/sandboxauth/sandboxauth"
)

// The README's quick start, as it is printed there (TestReadmeQuickStart
// compares the two): build the authorizer, give it to the tools, run each
// tool call on a goroutine of its own and answer the questions on the
// agent's main loop, which ends when the calls have returned.
func Example_quickStart() {
	sandboxDir, _ := os.MkdirTemp("", "sandbox")
	defer os.RemoveAll(sandboxDir)
	// quick start: begin
	commands := sandboxauth.NewShellAllowedCommands()
	commands.SetSplitCompound(true) // judge `ls && git status` command by command, as `sandboxauth hook` does
	authz, userRequests, err := sandboxauth.NewSandboxAuthorizer(commands)
	if err != nil {
		log.Fatal(err)
	}
	defer authz.Close()

	// Give authz (an auth.Authorizer) to your tools. Each tool asks before it acts and
	// returns a refusal to the model as its result: the message says what was refused,
	// why, and what to do instead.
	shellTool := func(argv []string) error {
		if err := authz.IsShellAuthorized(false, "", sandboxDir, sandboxDir, argv); err != nil {
			return err
		}
		return nil // run argv here
	}

	// A call that needs a person BLOCKS until its request is answered, so each tool call
	// runs on a goroutine of its own while the agent's main loop answers the requests.
	type result struct {
		argv []string
		err  error
	}
	results := make(chan result)
	calls := [][]string{{"bash", "-c", "ls && git status"}, {"rm", "-rf", "build"}}
	for _, argv := range calls {
		go func() { results <- result{argv, shellTool(argv)} }()
	}
	for pending := len(calls); pending > 0; {
		select {
		case req := <-userRequests:
			fmt.Printf("asked: %s (%s)\n", strings.Join(req.Argv, " "), req.Classification)
			req.Disallow() // or req.Allow(): the person's answer
		case r := <-results:
			pending--
			fmt.Printf("%s: allowed=%v refused by the person=%v\n", strings.Join(r.argv, " "), r.err == nil, errors.Is(r.err, sandboxauth.ErrAuthorizationDenied))
		}
	}
	// quick start: end

	// Unordered output:
	// bash -c ls && git status: allowed=true refused by the person=false
	// asked: rm -rf build (dangerous)
	// rm -rf build: allowed=false refused by the person=true
}
