package sandboxauth_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

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
	var want strings.Builder
	for _, line := range strings.SplitAfter(string(m[1]), "\n") {
		want.WriteString(strings.TrimPrefix(line, "\t"))
	}
	block := regexp.MustCompile("(?s)## Quick start\n\n```go\n(.*?)```\n").FindSubmatch(readme)
	require.NotNil(t, block, "the README's quick start")
	assert.True(t, strings.HasSuffix(string(block[1]), want.String()), "the README's quick start is Example_quickStart's code:\n%s", want.String())
	assert.Contains(t, string(block[1]), "SetSplitCompound(true)")
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
