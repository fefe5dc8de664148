package sandboxauth_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/sandboxauth/sandboxauth"
)

// Session grants: a person answers "allow, and don't ask again", and later
// calls within the scope the prompt stated run without asking. A
// one-command bash -c script is the same command; an option is not part of
// the granted scope.
func ExampleGrants() {
	sandbox, _ := os.MkdirTemp("", "sandbox")
	defer os.RemoveAll(sandbox)

	grants := sandboxauth.NewGrants()
	a, userRequests, _ := sandboxauth.NewSandboxAuthorizer(nil, sandboxauth.WithGrants(grants))
	defer a.Close()

	// run decides argv on its own goroutine while this one plays the person.
	run := func(answer func(sandboxauth.UserRequest), argv ...string) {
		done := make(chan error)
		go func() { done <- a.IsShellAuthorized(false, "", sandbox, sandbox, argv) }()
		select {
		case req := <-userRequests:
			fmt.Printf("%v: asked (may grant: %s)\n", argv, strings.ReplaceAll(req.SessionScope, sandbox, "SANDBOX"))
			answer(req)
			fmt.Printf("  -> %v\n", <-done == nil)
		case err := <-done:
			fmt.Printf("%v: not asked -> %v\n", argv, err == nil)
		}
	}
	grant := func(req sandboxauth.UserRequest) { req.AllowForSession() }
	refuse := func(req sandboxauth.UserRequest) { req.Disallow() }

	run(grant, "git", "push", "origin")
	run(refuse, "git", "push", "origin", "main")
	run(refuse, "bash", "-c", "git push origin release")
	run(refuse, "git", "push", "origin", "--force")
	fmt.Println(grants.List()[0])
	// Output:
	// [git push origin]: asked (may grant: run `git push origin` with any further operands (no options))
	//   -> true
	// [git push origin main]: not asked -> true
	// [bash -c git push origin release]: not asked -> true
	// [git push origin --force]: asked (may grant: run exactly `git push origin --force` in SANDBOX)
	//   -> false
	// run `git push origin` with any further operands (no options)
}
