package sandboxauth

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/codeunit"
)

func codeUnitFixture(t *testing.T) (sb string, unit *codeunit.CodeUnit) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	sb = filepath.Join(root, "sb")
	for _, d := range []string{"unit/inner", "other"} {
		require.NoError(t, os.MkdirAll(filepath.Join(sb, d), 0o755))
	}
	for _, f := range []string{"unit/a.go", "unit/inner/b.go", "other/c.go"} {
		require.NoError(t, os.WriteFile(filepath.Join(sb, f), nil, 0o644))
	}
	require.NoError(t, os.Symlink("../other", filepath.Join(sb, "unit", "esc")))
	unit, err = codeunit.NewCodeUnit("unit", filepath.Join(sb, "unit"))
	require.NoError(t, err)
	return sb, unit
}

func TestCodeUnitAuthorizer(t *testing.T) {
	sb, unit := codeUnitFixture(t)
	in, out, esc := sb+"/unit/a.go", sb+"/other/c.go", sb+"/unit/esc/c.go"
	cases := []struct {
		name      string
		call      func(a Authorizer) error
		want      error // nil: allowed; a sentinel: refused with it
		askedBase bool  // the fallback asks a person
	}{
		{"read_file inside", func(a Authorizer) error { return a.IsAuthorizedForRead(false, "", "read_file", sb, in) }, nil, false},
		{"read_file outside unit", func(a Authorizer) error { return a.IsAuthorizedForRead(false, "", "read_file", sb, out) }, ErrOutsideCodeUnit, false},
		{"read_file through link out", func(a Authorizer) error { return a.IsAuthorizedForRead(false, "", "read_file", sb, esc) }, ErrOutsideCodeUnit, false},
		{"ls outside unit", func(a Authorizer) error { return a.IsAuthorizedForRead(false, "", "ls", sb, sb+"/other") }, ErrOutsideCodeUnit, false},
		{"diagnostics outside", func(a Authorizer) error { return a.IsAuthorizedForRead(false, "", "diagnostics", sb, out) }, ErrOutsideCodeUnit, false},
		{"run_tests outside", func(a Authorizer) error { return a.IsAuthorizedForRead(false, "", "run_tests", sb, out) }, ErrOutsideCodeUnit, false},
		{"read_file subdir not included", func(a Authorizer) error {
			return a.IsAuthorizedForRead(false, "", "read_file", sb, sb+"/unit/inner/b.go")
		}, ErrOutsideCodeUnit, false},
		{"grep outside unit goes to fallback", func(a Authorizer) error { return a.IsAuthorizedForRead(false, "", "grep", sb, out) }, nil, false},
		{"Claude Code's Read outside unit", func(a Authorizer) error { return a.IsAuthorizedForRead(false, "", "Read", sb, out) }, ErrOutsideCodeUnit, false},
		{"Gemini CLI's list_directory outside unit", func(a Authorizer) error { return a.IsAuthorizedForRead(false, "", "list_directory", sb, out) }, ErrOutsideCodeUnit, false},
		{"web_fetch outside unit goes to fallback", func(a Authorizer) error { return a.IsAuthorizedForRead(false, "", "web_fetch", sb, out) }, nil, false},
		{"write inside", func(a Authorizer) error { return a.IsAuthorizedForWrite(false, "", "edit", sb, in) }, nil, false},
		{"write outside unit any tool", func(a Authorizer) error { return a.IsAuthorizedForWrite(false, "", "edit", sb, out) }, ErrOutsideCodeUnit, false},
		{"write mixed", func(a Authorizer) error { return a.IsAuthorizedForWrite(false, "", "edit", sb, in, out) }, ErrOutsideCodeUnit, false},
		{"write outside unit even requested", func(a Authorizer) error { return a.IsAuthorizedForWrite(true, "pls", "edit", sb, out) }, ErrOutsideCodeUnit, false},
		{"write outside sandbox: fallback refuses", func(a Authorizer) error { return a.IsAuthorizedForWrite(false, "", "edit", sb, "/etc/passwd") }, ErrOutsideCodeUnit, false},
		{"requested inside: the fallback asks", func(a Authorizer) error { return a.IsAuthorizedForRead(true, "pls", "read_file", sb, in) }, nil, true},
		{"shell is not confined", func(a Authorizer) error { return a.IsShellAuthorized(false, "", sb, sb+"/other", []string{"ls"}) }, nil, false},
		{"shell blocked by the fallback", func(a Authorizer) error { return a.IsShellAuthorized(false, "", sb, sb, []string{"curl", "x"}) }, ErrBlockedCommand, false},
		{"bad input", func(a Authorizer) error { return a.IsAuthorizedForWrite(false, "", "edit", sb, "rel") }, ErrInvalidPath, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fallback, ch, err := NewSandboxAuthorizer(testCommands())
			require.NoError(t, err)
			defer fallback.Close()
			a := NewCodeUnitAuthorizer(unit, fallback)
			defer a.Close()
			seen, err := answering(t, ch, true, func() error { return c.call(a) })
			if c.want == nil {
				assert.NoError(t, err)
			} else {
				assert.ErrorIs(t, err, c.want)
				if c.want != ErrInvalidPath {
					assert.ErrorIs(t, err, ErrDenied)
				}
			}
			assert.Equal(t, c.askedBase, len(seen) == 1, "requests: %d", len(seen))
		})
	}
}

// TestCodeUnitAuthorizerSeedTools: the seed's contract. Reads by the
// read_file, ls, diagnostics and run_tests tools, under every agent's name
// for them, are confined to the unit; reads by the search tools go to the
// fallback (an agent can still find the callers of its code), unless
// WithCodeUnitSearch confines them too. Writes are confined whatever the
// tool.
func TestCodeUnitAuthorizerSeedTools(t *testing.T) {
	sb, unit := codeUnitFixture(t)
	out := sb + "/other"
	confined := []string{"read_file", "Read", "read_many_files", "read", "ls", "LS", "list_directory", "diagnostics", "run_tests"}
	search := []string{"grep", "Grep", "grep_search", "search_file_content", "glob", "Glob"}
	others := []string{"web_fetch", "WebFetch", "some_mcp_tool"}
	for _, withSearch := range []bool{false, true} {
		var opts []Option
		if withSearch {
			opts = append(opts, WithCodeUnitSearch())
		}
		fallback, _, err := NewSandboxAuthorizer(testCommands())
		require.NoError(t, err)
		a := NewCodeUnitAuthorizer(unit, fallback, opts...)
		for _, tool := range confined {
			assert.ErrorIs(t, a.IsAuthorizedForRead(false, "", tool, sb, out), ErrOutsideCodeUnit, "%s (search option %v)", tool, withSearch)
			assert.NoError(t, a.IsAuthorizedForRead(false, "", tool, sb, sb+"/unit/a.go"), tool)
		}
		for _, tool := range search {
			err := a.IsAuthorizedForRead(false, "", tool, sb, out)
			if withSearch {
				assert.ErrorIs(t, err, ErrOutsideCodeUnit, "%s is confined with WithCodeUnitSearch", tool)
			} else {
				assert.NoError(t, err, "%s goes to the fallback, which allows it inside the sandbox", tool)
			}
			assert.ErrorIs(t, a.IsAuthorizedForRead(false, "", tool, sb, "/etc"), ErrDenied, "%s outside the sandbox is refused", tool)
		}
		for _, tool := range append(others, search...) {
			assert.NoError(t, a.IsAuthorizedForRead(false, "", tool, sb, sb+"/unit/a.go"), tool)
			assert.ErrorIs(t, a.IsAuthorizedForWrite(false, "", tool, sb, out+"/c.go"), ErrOutsideCodeUnit, "writes by %s are confined", tool)
		}
		for _, tool := range others {
			assert.NoError(t, a.IsAuthorizedForRead(false, "", tool, sb, out), "%s goes to the fallback", tool)
		}
		a.Close()
		fallback.Close()
	}
}

func TestCodeUnitAuthorizerNeverAllowsWhatTheFallbackRefuses(t *testing.T) {
	sb, unit := codeUnitFixture(t)
	require.NoError(t, unit.IncludeEntireSubtree())
	fallback, _, err := NewSandboxAuthorizer(testCommands())
	require.NoError(t, err)
	defer fallback.Close()
	a := NewCodeUnitAuthorizer(unit, fallback)
	defer a.Close()
	// Inside the unit, but the fallback refuses: a link inside the unit
	// leading outside the sandbox.
	require.NoError(t, os.Symlink("/etc", filepath.Join(sb, "unit", "etc")))
	assert.ErrorIs(t, a.IsAuthorizedForRead(false, "", "web_fetch", sb, sb+"/unit/etc/passwd"), ErrOutsideSandbox)
}

func TestCodeUnitAuthorizerClose(t *testing.T) {
	sb, unit := codeUnitFixture(t)
	fallback, ch, err := NewSandboxAuthorizer(testCommands())
	require.NoError(t, err)
	defer fallback.Close()
	a := NewCodeUnitAuthorizer(unit, fallback)

	// A call waiting in the fallback's broker is withdrawn by the wrapper's Close.
	done := make(chan error, 1)
	go func() { done <- a.IsAuthorizedForRead(true, "", "read_file", sb, sb+"/unit/a.go") }()
	req := <-ch
	a.Close()
	a.Close()
	select {
	case err := <-done:
		assert.ErrorIs(t, err, ErrAuthorizerClosed)
	case <-time.After(10 * time.Second):
		t.Fatal("the pending call was not released by Close")
	}
	req.Allow() // too late: a no-op

	assert.ErrorIs(t, a.IsAuthorizedForRead(false, "", "read_file", sb, sb+"/unit/a.go"), ErrAuthorizerClosed)
	// The fallback is still open.
	assert.NoError(t, fallback.IsAuthorizedForRead(false, "", "read_file", sb, sb+"/unit/a.go"))
}

func TestCodeUnitAuthorizerNilParts(t *testing.T) {
	sb, unit := codeUnitFixture(t)
	for _, a := range []Authorizer{NewCodeUnitAuthorizer(nil, NewAutoApproveAuthorizer()), NewCodeUnitAuthorizer(unit, nil)} {
		err := a.IsAuthorizedForRead(false, "", "read_file", sb, sb+"/unit/a.go")
		assert.ErrorIs(t, err, ErrInvalidConfig)
		assert.ErrorIs(t, a.IsShellAuthorized(false, "", sb, sb, []string{"ls"}), ErrInvalidConfig)
		a.Close()
	}
}
