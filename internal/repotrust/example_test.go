package repotrust_test

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/sandboxauth/sandboxauth/internal/repotrust"
)

// A repository whose configuration names a file system monitor (hidden
// behind a byte order mark): a key outside the allow-list makes every git
// command in the repository not safe.
func ExampleCache_Facts() {
	sb, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(sb)
	sb, _ = filepath.EvalSymlinks(sb)
	for _, d := range []string{".git/objects", ".git/refs/heads"} {
		_ = os.MkdirAll(filepath.Join(sb, d), 0o755)
	}
	_ = os.WriteFile(filepath.Join(sb, ".git/HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	_ = os.WriteFile(filepath.Join(sb, ".git/config"), []byte("\xef\xbb\xbf[core]\n\tbare = false\n\tfsmonitor = ./m.sh\n"), 0o644)

	var cache repotrust.Cache
	cache.SetClock(func() time.Time { return time.Now().Add(time.Minute) })
	f, _ := cache.Facts(repotrust.Site{Cwd: sb, Sandbox: sb})
	for _, args := range [][]string{{"status"}, {"version"}} {
		ok, subject, _ := f.Decide(repotrust.GitCommand(args), nil)
		fmt.Println(args[0], ok, subject)
	}
	// Output:
	// status false core.fsmonitor
	// version false core.fsmonitor
}

// NpmTrusted reads the project's .npmrc files with an allow-list.
func ExampleNpmTrusted() {
	sb, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(sb)
	sb, _ = filepath.EvalSymlinks(sb)
	_ = os.WriteFile(filepath.Join(sb, ".npmrc"), []byte("save-exact=true\nlogs-dir=/home/someone/.ssh\n"), 0o644)
	ok, reason := repotrust.NpmTrusted(sb, sb)
	fmt.Println(ok, reason[len(sb):])
	// Output:
	// false /.npmrc:2:1: key logs-dir may change what npm runs, writes or contacts (only save-exact, save-prefix, engine-strict, fund, audit, update-notifier, progress, color and loglevel are harmless)
}
