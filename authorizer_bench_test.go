package sandboxauth

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sandboxauth/sandboxauth/internal/repotrust"
)

func benchSandbox(b *testing.B) (sb, file string) {
	b.Helper()
	root, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	sb = filepath.Join(root, "sb")
	dir := filepath.Join(sb, "a", "b", "c", "d")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	file = filepath.Join(dir, "file.go")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		b.Fatal(err)
	}
	// A repository with the configuration `git init` and a remote leave,
	// which git commands read through.
	for _, d := range []string{".git/objects/info", ".git/objects/pack", ".git/refs/heads", ".git/refs/tags", ".git/hooks"} {
		if err := os.MkdirAll(filepath.Join(sb, d), 0o755); err != nil {
			b.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(sb, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	config := "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n" +
		"[remote \"origin\"]\n\turl = https://example.com/project.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n" +
		"[branch \"main\"]\n\tremote = origin\n\tmerge = refs/heads/main\n"
	if err := os.WriteFile(filepath.Join(sb, ".git", "config"), []byte(config), 0o644); err != nil {
		b.Fatal(err)
	}
	return sb, file
}

// BenchmarkIsAuthorizedForRead: an existing file four directories below the
// sandbox, allowed by the Sandbox policy.
func BenchmarkIsAuthorizedForRead(b *testing.B) {
	sb, file := benchSandbox(b)
	a, _, err := NewSandboxAuthorizer(NewShellAllowedCommands())
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := a.IsAuthorizedForRead(false, "", "read_file", sb, file); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIsShellAuthorizedSafe: `git status` in the sandbox, allowed.
func BenchmarkIsShellAuthorizedSafe(b *testing.B) {
	sb, _ := benchSandbox(b)
	a, _, err := NewSandboxAuthorizer(NewShellAllowedCommands())
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	argv := []string{"git", "status"}
	// The repository's facts are kept once its files are older than the
	// racy window, as they are in a session.
	time.Sleep(repotrust.RacyWindow + 10*time.Millisecond)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := a.IsShellAuthorized(false, "", sb, sb, argv); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIsShellAuthorizedPaths: `cat a/b/c/d/file.go` (a path argument
// resolved against the sandbox), allowed.
func BenchmarkIsShellAuthorizedPaths(b *testing.B) {
	sb, _ := benchSandbox(b)
	a, _, err := NewSandboxAuthorizer(NewShellAllowedCommands())
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	argv := []string{"cat", "a/b/c/d/file.go"}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := a.IsShellAuthorized(false, "", sb, sb, argv); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIsShellAuthorizedGranted: `make build`, which runs project code
// and is asked about, allowed by a session grant for make.
func BenchmarkIsShellAuthorizedGranted(b *testing.B) {
	sb, _ := benchSandbox(b)
	grants := NewGrants()
	if err := grants.Add(Grant{Operation: OpShell, Command: []string{"make"}}); err != nil {
		b.Fatal(err)
	}
	a, _, err := NewSandboxAuthorizer(NewShellAllowedCommands(), WithGrants(grants), WithHeadless())
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	argv := []string{"make", "build"}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := a.IsShellAuthorized(false, "", sb, sb, argv); err != nil {
			b.Fatal(err)
		}
	}
}
