package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bin is the sandboxauth binary, built once by TestMain (with -race when
// the tests run with -race, so that the demo's goroutines are checked too).
var bin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "sandboxauth-cmd-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin = filepath.Join(dir, "sandboxauth")
	if given := os.Getenv("SANDBOXAUTH_TEST_CLI"); given != "" {
		// A binary built beforehand, for a user who cannot build one (CI
		// runs the escape corpus as an unprivileged user without a module
		// cache): the tests run that binary as it is.
		bin = given
	} else if out, err := goBuild(bin, "."); err != nil {
		fmt.Fprintf(os.Stderr, "building sandboxauth: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	// A race-built binary sleeps a second at exit, waiting for reports
	// (GORACE atexit_sleep_ms); the tests wait for the process instead.
	os.Setenv("GORACE", raceOptions)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// goBuild builds the package pkg into out as every binary the tests run is
// built: go build with the toolchain's defaults, and -race when the tests
// run with it. BenchmarkHookLatency builds its yardstick the same way, so
// that the two are compared like with like.
func goBuild(out, pkg string) ([]byte, error) {
	args := []string{"build", "-o", out}
	if raceEnabled {
		args = append(args, "-race")
	}
	return exec.Command("go", append(args, pkg)...).CombinedOutput()
}

// raceOptions are the race detector's settings for the binaries the tests
// run: no sleep at exit, and a race ends the process with a report.
const raceOptions = "atexit_sleep_ms=0 halt_on_error=1"

// result is what one run of the binary did.
type result struct {
	stdout, stderr string
	code           int
}

// hangGuard bounds a run of the binary so that a bug that blocks it fails
// the test instead of hanging it. It is not a timing assertion.
const hangGuard = 2 * time.Minute

// runIn runs the binary in dir with stdin and args.
func runIn(t *testing.T, dir, stdin string, args ...string) result {
	t.Helper()
	return runWith(t, dir, nil, stdin, args...)
}

// runWith runs the binary in dir with exactly the environment env (nil:
// this process's), standard input from stdin (not a terminal) and args,
// and returns what it printed and its exit status.
func runWith(t *testing.T, dir string, env []string, stdin string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	require.NoError(t, ctx.Err(), "sandboxauth %v did not finish; stdout:\n%s\nstderr:\n%s", args, out.String(), errb.String())
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	require.NotContains(t, errb.String(), "DATA RACE")
	return result{stdout: out.String(), stderr: errb.String(), code: code}
}

// runBin runs the binary in a fresh temporary directory (the default
// sandbox).
func runBin(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	return runIn(t, t.TempDir(), stdin, args...)
}

func TestTopLevelUsage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		args       []string
		code       int
		stdout     []string // substrings of stdout
		stderr     []string // substrings of stderr
		quietOut   bool     // nothing on stdout
		quietError bool     // nothing on stderr
	}{
		{name: "no arguments", args: nil, code: exitUsage, stderr: []string{"Commands:", "check", "tools", "demo"}, quietOut: true},
		{name: "--help", args: []string{"--help"}, code: exitOK, stdout: []string{"Commands:", "check", "tools", "demo", "Exit status"}, quietError: true},
		{name: "-h", args: []string{"-h"}, code: exitOK, stdout: []string{"Commands:"}, quietError: true},
		{name: "help", args: []string{"help"}, code: exitOK, stdout: []string{"Commands:"}, quietError: true},
		{name: "help check", args: []string{"help", "check"}, code: exitOK, stdout: []string{"sandboxauth check", "Examples:"}, quietError: true},
		{name: "help unknown", args: []string{"help", "frobnicate"}, code: exitUsage, stderr: []string{`unknown command "frobnicate"`}},
		{name: "unknown command", args: []string{"frobnicate"}, code: exitUsage, stderr: []string{`unknown command "frobnicate"`, "Commands:"}, quietOut: true},
		{name: "flag instead of command", args: []string{"--json"}, code: exitUsage, stderr: []string{`unknown command "--json"`}},
		{name: "version", args: []string{"version"}, code: exitOK, stdout: []string{"sandboxauth "}, quietError: true},
		{name: "version with argument", args: []string{"version", "x"}, code: exitUsage, stderr: []string{"no arguments"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := runBin(t, "", tt.args...)
			assert.Equal(t, tt.code, r.code, "stdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
			for _, s := range tt.stdout {
				assert.Contains(t, r.stdout, s)
			}
			for _, s := range tt.stderr {
				assert.Contains(t, r.stderr, s)
			}
			if tt.quietOut {
				assert.Empty(t, r.stdout)
			}
			if tt.quietError {
				assert.Empty(t, r.stderr)
			}
		})
	}
}

// TestSubcommandHelp checks that every subcommand explains itself, with
// examples, on standard output and with status 0.
func TestSubcommandHelp(t *testing.T) {
	t.Parallel()
	for _, sub := range []string{"check", "tools", "demo", "version"} {
		for _, h := range []string{"--help", "-h", "-help"} {
			t.Run(sub+" "+h, func(t *testing.T) {
				t.Parallel()
				r := runBin(t, "", sub, h)
				assert.Equal(t, exitOK, r.code)
				assert.Contains(t, r.stdout, "Usage:\n  sandboxauth "+sub)
				if sub != "version" {
					assert.Contains(t, r.stdout, "Examples:")
					assert.Contains(t, r.stdout, "Flags:")
				}
				assert.Empty(t, r.stderr)
			})
		}
	}
}

// TestUnknownFlags checks the flag conventions: an unknown flag is a usage
// error (status 3) that names the flag and points to --help.
func TestUnknownFlags(t *testing.T) {
	t.Parallel()
	for _, sub := range []string{"check", "tools", "demo", "version"} {
		t.Run(sub, func(t *testing.T) {
			t.Parallel()
			r := runBin(t, "", sub, "--no-such-flag")
			assert.Equal(t, exitUsage, r.code)
			assert.Contains(t, r.stderr, "no-such-flag")
			assert.Contains(t, r.stderr, "sandboxauth "+sub+" --help")
			assert.Empty(t, r.stdout)
		})
	}
}
