package sandboxauth_test

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadmeQuickStart: the README's quick start is the code of
// Example_quickStart between its "quick start" markers, which the tests
// compile and run, so that the snippet a newcomer copies builds, uses one
// name for the authorizer and ends.
func TestReadmeQuickStart(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	src, err := os.ReadFile("example_quickstart_test.go")
	require.NoError(t, err)
	m := regexp.MustCompile("(?s)\n\t// quick start: begin\n(.*?)\t// quick start: end\n").FindSubmatch(src)
	require.NotNil(t, m)
	block := readmeQuickStart(t, readme)
	// The program's main is the sandbox directory and then the example's
	// code, indented as the example's is.
	assert.True(t, strings.HasSuffix(block, string(m[1])+"}\n"), "the README's quick start is Example_quickStart's code:\n%s", m[1])
	assert.True(t, strings.HasPrefix(block, "package main\n"), "a program a newcomer can save as it stands")
	assert.Contains(t, block, "SetSplitCompound(true)")
}

// readmeQuickStart returns the README's quick start program.
func readmeQuickStart(t *testing.T, readme []byte) string {
	t.Helper()
	block := regexp.MustCompile("(?s)## Quick start\n\n```go\n(.*?)```\n").FindSubmatch(readme)
	require.NotNil(t, block, "the README's quick start")
	return string(block[1])
}

// TestReadmeQuickStartRuns does what the README tells a newcomer: the quick
// start saved as main.go of a module of its own that requires the library
// (this checkout, through a replace directive), then go run. It must build,
// end, and print the lines the README shows.
func TestReadmeQuickStartRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program: not in -short")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH to build the quick start with")
	}
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	root, err := filepath.Abs(".")
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.go"), []byte(readmeQuickStart(t, readme)), 0o644))
	gomod := "module example.com/agent\n\ngo 1.24\n\nrequire github.com/sandboxauth/sandboxauth v0.0.0\n\nreplace github.com/sandboxauth/sandboxauth => " + root + "\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644))
	// The library's own checksums cover its dependencies.
	sum, err := os.ReadFile("go.sum")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644))

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, gobin, "run", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	out, err := cmd.Output()
	var stderr []byte
	if ee, ok := err.(*exec.ExitError); ok {
		stderr = ee.Stderr
	}
	require.NoError(t, err, "go run of the README's quick start:\n%s", stderr)

	shown := regexp.MustCompile("(?s)`go run .` prints these lines, in an order that may vary, and exits:\n\n```\n(.*?)```\n").FindSubmatch(readme)
	require.NotNil(t, shown, "the README shows what the quick start prints")
	assert.ElementsMatch(t, strings.Split(strings.TrimSpace(string(shown[1])), "\n"), strings.Split(strings.TrimSpace(string(out)), "\n"))
}

// TestReadmeExamplesExist: every Example the README names exists, and the
// README does not send readers to go doc for them (go doc shows none).
func TestReadmeExamplesExist(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	assert.NotContains(t, string(readme), "(`go doc -all .`, or the `Example*` functions)")
	files, err := filepath.Glob("*_test.go")
	require.NoError(t, err)
	have := map[string]bool{}
	fset := token.NewFileSet()
	for _, f := range files {
		af, err := parser.ParseFile(fset, f, nil, 0)
		require.NoError(t, err)
		for _, d := range af.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
				have[fd.Name.Name] = true
			}
		}
	}
	names := regexp.MustCompile("`(Example[A-Za-z_]*)`").FindAllStringSubmatch(string(readme), -1)
	require.NotEmpty(t, names)
	for _, n := range names {
		assert.True(t, have[n[1]], "the README names %s, which no test file of the root package defines", n[1])
	}
}

// TestReadmeTestCommandHasCITimeout: the test command on the README's first
// screen gives go test the time limit CI gives it. Without it a newcomer's
// run on a loaded two-core machine ended in go test's default ten minutes
// ("panic: test timed out after 10m0s" in the root package).
func TestReadmeTestCommandHasCITimeout(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	ci, err := os.ReadFile(filepath.Join(".ci", "run"))
	require.NoError(t, err)
	first := regexp.MustCompile(`(?m)^go vet ./\.\.\. && (go test -race .*?)\s+#`).FindSubmatch(readme)
	require.NotNil(t, first, "the README's test command")
	ciTimeout := regexp.MustCompile(`(?m)^go test -race .*?(-timeout=\S+)`).FindSubmatch(ci)
	require.NotNil(t, ciTimeout, "CI's go test -race line and its -timeout")
	assert.Contains(t, strings.Fields(string(first[1])), string(ciTimeout[1]))
}
