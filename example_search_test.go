package sandboxauth_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/sandboxauth/sandboxauth"
	"github.com/sandboxauth/sandboxauth/codeunit"
)

// A grep tool passes its glob patterns with ForSearch: a search that may
// read the project's .env asks, as a read of .env does; one limited to Go
// files runs.
func ExampleForSearch() {
	project, _ := os.MkdirTemp("", "project")
	defer os.RemoveAll(project)
	_ = os.WriteFile(filepath.Join(project, ".env"), []byte("TOKEN=secret\n"), 0o600)
	_ = os.WriteFile(filepath.Join(project, "main.go"), []byte("package main\n"), 0o644)

	a, userRequests, _ := sandboxauth.NewSandboxAuthorizer(nil)
	defer a.Close()

	fmt.Println(sandboxauth.ForSearch(a, "*.go").IsAuthorizedForRead(false, "", "Grep", project, project))

	done := make(chan error)
	go func() {
		done <- sandboxauth.ForSearch(a, ".env*").IsAuthorizedForRead(false, "", "Grep", project, project)
	}()
	req := <-userRequests
	fmt.Println(req.Rule[:len("protected path .env")])
	req.Disallow()
	fmt.Println(<-done != nil)
	// Output:
	// <nil>
	// protected path .env
	// true
}

// A subagent working on one code unit reads only its own files, but may
// search the whole sandbox for the callers of its code; WithCodeUnitSearch
// keeps its searches in the unit too.
func ExampleWithCodeUnitSearch() {
	repo, _ := os.MkdirTemp("", "repo")
	defer os.RemoveAll(repo)
	_ = os.MkdirAll(filepath.Join(repo, "parser"), 0o755)

	parent, _, _ := sandboxauth.NewSandboxAuthorizer(nil)
	defer parent.Close()
	unit, _ := codeunit.NewCodeUnit("parser", filepath.Join(repo, "parser"))

	sub := sandboxauth.NewCodeUnitAuthorizer(unit, parent)
	defer sub.Close()
	fmt.Println(sub.IsAuthorizedForRead(false, "", "Grep", repo, repo))
	fmt.Println(sub.IsAuthorizedForRead(false, "", "Read", repo, filepath.Join(repo, "main.go")) != nil)

	strict := sandboxauth.NewCodeUnitAuthorizer(unit, parent, sandboxauth.WithCodeUnitSearch())
	defer strict.Close()
	fmt.Println(strict.IsAuthorizedForRead(false, "", "Grep", repo, repo) != nil)
	// Output:
	// <nil>
	// true
	// true
}
