package sandboxauth

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// expectation is what a policy must make of a call.
type expectation int

const (
	expAllow expectation = iota // nil, nobody asked
	expAsk                      // one request; the answer decides
	expDeny                     // refused with the case's sentinel, nobody asked
)

// answering runs fn while a consumer answers every request on ch with yes
// (or no), and returns fn's error and the requests seen.
func answering(t *testing.T, ch <-chan UserRequest, yes bool, fn func() error) ([]UserRequest, error) {
	t.Helper()
	var (
		mu   sync.Mutex
		seen []UserRequest
		done = make(chan struct{})
		wg   sync.WaitGroup
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case req, ok := <-ch:
				if !ok {
					return
				}
				mu.Lock()
				seen = append(seen, req)
				mu.Unlock()
				if yes {
					req.Allow()
				} else {
					req.Disallow()
				}
			case <-done:
				return
			}
		}
	}()
	err := fn()
	close(done)
	wg.Wait()
	return seen, err
}

// fixture is a sandbox with a file inside, a directory and a file outside,
// and the commands used by the shell cases.
type fixture struct {
	root, sandbox, inFile, outDir, outFile string
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	f := fixture{
		root:    root,
		sandbox: filepath.Join(root, "sb"),
		outDir:  filepath.Join(root, "outside"),
	}
	f.inFile = filepath.Join(f.sandbox, "main.go")
	f.outFile = filepath.Join(f.outDir, "secret.txt")
	require.NoError(t, os.MkdirAll(filepath.Join(f.sandbox, "sub"), 0o755))
	require.NoError(t, os.MkdirAll(f.outDir, 0o755))
	require.NoError(t, os.WriteFile(f.inFile, []byte("package main\n"), 0o644))
	require.NoError(t, os.WriteFile(f.outFile, []byte("secret\n"), 0o644))
	return f
}

// testCommands are small explicit lists, so that these tests pin the
// policies, not the default lists.
func testCommands() *ShellAllowedCommands {
	s := &ShellAllowedCommands{}
	s.AddSafe(CommandMatcher{Command: "ls"})
	s.AddBlocked(CommandMatcher{Command: "curl"})
	s.AddDangerous(CommandMatcher{Command: "rm"})
	return s
}

type policyCase struct {
	name      string
	requested bool
	op        Operation
	paths     func(fixture) []string
	cwd       func(fixture) string
	argv      []string
}

func policyCases() []policyCase {
	in := func(f fixture) []string { return []string{f.inFile} }
	newIn := func(f fixture) []string { return []string{filepath.Join(f.sandbox, "sub", "new.go")} }
	out := func(f fixture) []string { return []string{f.outFile} }
	mixed := func(f fixture) []string { return []string{f.inFile, f.outFile} }
	sb := func(f fixture) string { return f.sandbox }
	sub := func(f fixture) string { return filepath.Join(f.sandbox, "sub") }
	outCwd := func(f fixture) string { return f.outDir }
	return []policyCase{
		{name: "read inside", op: OpRead, paths: in},
		{name: "read inside requested", op: OpRead, paths: in, requested: true},
		{name: "read outside", op: OpRead, paths: out},
		{name: "read outside requested", op: OpRead, paths: out, requested: true},
		{name: "read mixed", op: OpRead, paths: mixed},
		{name: "write inside", op: OpWrite, paths: in},
		{name: "write new file inside", op: OpWrite, paths: newIn},
		{name: "write inside requested", op: OpWrite, paths: in, requested: true},
		{name: "write outside", op: OpWrite, paths: out},
		{name: "write outside requested", op: OpWrite, paths: out, requested: true},
		{name: "write mixed", op: OpWrite, paths: mixed},
		{name: "shell safe", op: OpShell, cwd: sb, argv: []string{"ls", "-la"}},
		{name: "shell safe in subdir", op: OpShell, cwd: sub, argv: []string{"ls"}},
		{name: "shell safe requested", op: OpShell, cwd: sb, argv: []string{"ls"}, requested: true},
		{name: "shell blocked", op: OpShell, cwd: sb, argv: []string{"curl", "https://example.com"}},
		{name: "shell blocked requested", op: OpShell, cwd: sb, argv: []string{"curl", "x"}, requested: true},
		{name: "shell dangerous", op: OpShell, cwd: sb, argv: []string{"rm", "main.go"}},
		{name: "shell none", op: OpShell, cwd: sb, argv: []string{"frobnicate"}},
		{name: "shell none requested", op: OpShell, cwd: sb, argv: []string{"frobnicate"}, requested: true},
		{name: "shell inscrutable", op: OpShell, cwd: sb, argv: []string{"ls", "|", "frobnicate"}},
		{name: "shell safe cwd outside", op: OpShell, cwd: outCwd, argv: []string{"ls"}},
	}
}

func (c policyCase) run(a Authorizer, f fixture) error {
	switch c.op {
	case OpRead:
		return a.IsAuthorizedForRead(c.requested, "because", "read_file", f.sandbox, c.paths(f)...)
	case OpWrite:
		return a.IsAuthorizedForWrite(c.requested, "because", "write_file", f.sandbox, c.paths(f)...)
	}
	return a.IsShellAuthorized(c.requested, "because", f.sandbox, c.cwd(f), c.argv)
}

type want struct {
	exp      expectation
	sentinel error
}

var (
	allowed = want{exp: expAllow}
	asked   = want{exp: expAsk}
)

func denied(sentinel error) want { return want{exp: expDeny, sentinel: sentinel} }

func TestPolicies(t *testing.T) {
	outside, blocked := denied(ErrOutsideSandbox), denied(ErrBlockedCommand)
	table := map[string]map[string]want{
		"sandbox": {
			"read inside": allowed, "read inside requested": asked,
			"read outside": outside, "read outside requested": outside, "read mixed": outside,
			"write inside": allowed, "write new file inside": allowed, "write inside requested": asked,
			"write outside": outside, "write outside requested": outside, "write mixed": outside,
			"shell safe": allowed, "shell safe in subdir": allowed, "shell safe requested": asked,
			"shell blocked": blocked, "shell blocked requested": blocked,
			"shell dangerous": asked, "shell none": asked, "shell none requested": asked,
			"shell inscrutable": asked, "shell safe cwd outside": outside,
		},
		"permissive": {
			"read inside": allowed, "read inside requested": asked,
			"read outside": asked, "read outside requested": asked, "read mixed": asked,
			"write inside": allowed, "write new file inside": allowed, "write inside requested": asked,
			"write outside": asked, "write outside requested": asked, "write mixed": asked,
			"shell safe": allowed, "shell safe in subdir": allowed, "shell safe requested": asked,
			"shell blocked": blocked, "shell blocked requested": blocked,
			"shell dangerous": asked, "shell none": allowed, "shell none requested": asked,
			"shell inscrutable": asked, "shell safe cwd outside": asked,
		},
		"autoapprove": {},
	}
	constructors := map[string]func() (Authorizer, <-chan UserRequest){
		"sandbox": func() (Authorizer, <-chan UserRequest) {
			a, ch, err := NewSandboxAuthorizer(testCommands())
			require.NoError(t, err)
			return a, ch
		},
		"permissive": func() (Authorizer, <-chan UserRequest) {
			a, ch, err := NewPermissiveSandboxAuthorizer(testCommands())
			require.NoError(t, err)
			return a, ch
		},
		"autoapprove": func() (Authorizer, <-chan UserRequest) {
			return NewAutoApproveAuthorizer(), make(chan UserRequest)
		},
	}
	f := newFixture(t)
	for policy, wants := range table {
		for _, c := range policyCases() {
			w, ok := wants[c.name]
			if !ok {
				if policy != "autoapprove" {
					t.Fatalf("%s: no expectation for %q", policy, c.name)
				}
				w = allowed
			}
			t.Run(policy+"/"+c.name, func(t *testing.T) {
				for _, yes := range []bool{true, false} {
					a, ch := constructors[policy]()
					seen, err := answering(t, ch, yes, func() error { return c.run(a, f) })
					a.Close()
					switch w.exp {
					case expAllow:
						assert.NoError(t, err)
						assert.Empty(t, seen, "nobody may be asked")
					case expAsk:
						require.Len(t, seen, 1, "exactly one request")
						if yes {
							assert.NoError(t, err)
						} else {
							require.Error(t, err)
							assert.ErrorIs(t, err, ErrDenied)
							assert.ErrorIs(t, err, ErrAuthorizationDenied)
						}
						checkRequest(t, policy, c, f, seen[0])
					case expDeny:
						require.Error(t, err)
						assert.ErrorIs(t, err, ErrDenied)
						assert.ErrorIs(t, err, w.sentinel)
						assert.Empty(t, seen, "a refusal asks nobody")
					}
				}
			})
		}
	}
}

// checkRequest checks that a request carries what a person needs to decide.
func checkRequest(t *testing.T, policy string, c policyCase, f fixture, req UserRequest) {
	t.Helper()
	assert.Equal(t, policy, req.Policy)
	assert.Equal(t, c.op, req.Operation)
	assert.Equal(t, c.requested, req.Requested)
	assert.Equal(t, "because", req.Reason)
	assert.Contains(t, req.Prompt, "because", "the model's reason is in the prompt")
	assert.Contains(t, req.Prompt, policy)
	assert.NotNil(t, req.Allow)
	assert.NotNil(t, req.Disallow)
	if c.op == OpShell {
		assert.Equal(t, c.argv, req.Argv)
		assert.Equal(t, c.cwd(f), req.Cwd)
		assert.Contains(t, req.Prompt, c.argv[0])
		assert.Contains(t, req.Prompt, c.cwd(f))
		assert.Contains(t, req.Prompt, req.Classification.String())
		return
	}
	assert.Nil(t, req.Argv)
	assert.Equal(t, c.paths(f), req.Paths)
	for _, p := range c.paths(f) {
		assert.Contains(t, req.Prompt, p)
	}
	if c.op == OpRead {
		assert.Equal(t, "read_file", req.ToolName)
		assert.Contains(t, req.Prompt, "read_file wants to read")
	} else {
		assert.Equal(t, "write_file", req.ToolName)
		assert.Contains(t, req.Prompt, "write_file wants to write")
	}
}

func TestInputErrors(t *testing.T) {
	f := newFixture(t)
	sandbox, _, err := NewSandboxAuthorizer(testCommands())
	require.NoError(t, err)
	defer sandbox.Close()
	permissive, _, err := NewPermissiveSandboxAuthorizer(testCommands())
	require.NoError(t, err)
	defer permissive.Close()
	auto := NewAutoApproveAuthorizer()
	defer auto.Close()

	cases := []struct {
		name string
		call func(a Authorizer) error
		kind error
	}{
		{"empty sandbox", func(a Authorizer) error { return a.IsAuthorizedForRead(false, "", "read_file", "", f.inFile) }, ErrInvalidPath},
		{"relative sandbox", func(a Authorizer) error { return a.IsAuthorizedForRead(false, "", "read_file", "sb", f.inFile) }, ErrInvalidPath},
		{"relative path", func(a Authorizer) error { return a.IsAuthorizedForRead(false, "", "read_file", f.sandbox, "main.go") }, ErrInvalidPath},
		{"empty path", func(a Authorizer) error { return a.IsAuthorizedForWrite(false, "", "write_file", f.sandbox, "") }, ErrInvalidPath},
		{"NUL in path", func(a Authorizer) error {
			return a.IsAuthorizedForWrite(false, "", "write_file", f.sandbox, f.sandbox+"/a\x00b")
		}, ErrInvalidPath},
		{"NUL in sandbox", func(a Authorizer) error {
			return a.IsAuthorizedForRead(false, "", "read_file", f.sandbox+"\x00", f.inFile)
		}, ErrInvalidPath},
		{"one bad path among good", func(a Authorizer) error {
			return a.IsAuthorizedForRead(false, "", "read_file", f.sandbox, f.inFile, "rel/x")
		}, ErrInvalidPath},
		{"empty command", func(a Authorizer) error { return a.IsShellAuthorized(false, "", f.sandbox, f.sandbox, nil) }, ErrEmptyCommand},
		{"empty command slice", func(a Authorizer) error { return a.IsShellAuthorized(false, "", f.sandbox, f.sandbox, []string{}) }, ErrEmptyCommand},
		{"empty program name", func(a Authorizer) error {
			return a.IsShellAuthorized(false, "", f.sandbox, f.sandbox, []string{"", "x"})
		}, ErrEmptyCommand},
		{"NUL in argv", func(a Authorizer) error {
			return a.IsShellAuthorized(false, "", f.sandbox, f.sandbox, []string{"ls", "a\x00"})
		}, ErrInvalidCommand},
		{"relative cwd", func(a Authorizer) error { return a.IsShellAuthorized(false, "", f.sandbox, "sub", []string{"ls"}) }, ErrInvalidPath},
		{"relative sandbox for shell", func(a Authorizer) error { return a.IsShellAuthorized(false, "", "sb", f.sandbox, []string{"ls"}) }, ErrInvalidPath},
	}
	for _, c := range cases {
		for name, a := range map[string]Authorizer{"sandbox": sandbox, "permissive": permissive, "autoapprove": auto} {
			t.Run(name+"/"+c.name, func(t *testing.T) {
				err := c.call(a)
				require.Error(t, err, "bad input is never authorized")
				assert.ErrorIs(t, err, c.kind)
				assert.NotErrorIs(t, err, ErrDenied, "bad input is not a denial")
			})
		}
	}
}

func TestEmptyPathListAuthorizesNothing(t *testing.T) {
	f := newFixture(t)
	a, ch, err := NewSandboxAuthorizer(testCommands())
	require.NoError(t, err)
	defer a.Close()
	seen, err := answering(t, ch, false, func() error { return a.IsAuthorizedForWrite(true, "", "write_file", f.sandbox) })
	assert.NoError(t, err)
	assert.Empty(t, seen)
}

func TestEmptyCwdMeansSandbox(t *testing.T) {
	f := newFixture(t)
	for _, newA := range []func(*ShellAllowedCommands, ...Option) (Authorizer, <-chan UserRequest, error){NewSandboxAuthorizer, NewPermissiveSandboxAuthorizer} {
		a, _, err := newA(testCommands())
		require.NoError(t, err)
		assert.NoError(t, a.IsShellAuthorized(false, "", f.sandbox, "", []string{"ls"}))
		a.Close()
	}
}

func TestConstructorErrors(t *testing.T) {
	_, _, err := NewSandboxAuthorizer(testCommands(), WithRequestBuffer(0))
	assert.ErrorIs(t, err, ErrInvalidConfig)
	_, _, err = NewSandboxAuthorizer(testCommands(), nil)
	assert.ErrorIs(t, err, ErrInvalidConfig)
	a, ch, err := NewSandboxAuthorizer(testCommands())
	require.NoError(t, err)
	require.NotNil(t, ch)
	assert.Equal(t, 16, cap(ch))
	a.Close()
	a, ch, err = NewPermissiveSandboxAuthorizer(testCommands(), WithRequestBuffer(3))
	require.NoError(t, err)
	assert.Equal(t, 3, cap(ch))
	a.Close()
}

func TestRefusalMessagesGuideTheModel(t *testing.T) {
	f := newFixture(t)
	a, _, err := NewSandboxAuthorizer(testCommands())
	require.NoError(t, err)
	defer a.Close()

	err = a.IsAuthorizedForRead(false, "", "read_file", f.sandbox, f.outFile)
	require.Error(t, err)
	assert.Contains(t, err.Error(), f.outFile, "names what was refused")
	assert.Contains(t, err.Error(), "outside the sandbox", "says why")
	assert.Contains(t, err.Error(), "inside the sandbox", "says what to do instead")

	err = a.IsShellAuthorized(false, "", f.sandbox, f.sandbox, []string{"curl", "https://example.com"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "curl https://example.com")
	assert.Contains(t, err.Error(), "blocked")
	assert.Contains(t, err.Error(), "ask the user")

	a.Close()
	err = a.IsAuthorizedForRead(false, "", "read_file", f.sandbox, f.inFile)
	assert.ErrorIs(t, err, ErrAuthorizerClosed)
	assert.ErrorIs(t, err, ErrDenied)
	assert.Contains(t, err.Error(), "closed")
}

func TestClosedAuthorizersRefuseEverything(t *testing.T) {
	f := newFixture(t)
	s, _, err := NewSandboxAuthorizer(testCommands())
	require.NoError(t, err)
	p, _, err := NewPermissiveSandboxAuthorizer(testCommands())
	require.NoError(t, err)
	for name, a := range map[string]Authorizer{"sandbox": s, "permissive": p, "autoapprove": NewAutoApproveAuthorizer()} {
		a.Close()
		a.Close()
		for _, c := range policyCases() {
			err := c.run(a, f)
			assert.Truef(t, errors.Is(err, ErrAuthorizerClosed), "%s/%s: %v", name, c.name, err)
		}
	}
}

// nil commands mean the default lists, for both constructors that take them.
func TestNilCommandsMeanDefaults(t *testing.T) {
	f := newFixture(t)
	tests := []struct {
		name string
		argv []string
		want error // nil: allowed without asking
	}{
		{"a safe default runs", []string{"ls", "-la"}, nil},
		{"a blocked default is blocked", []string{"curl", "https://example.com"}, ErrBlockedCommand},
		{"a default git read runs", []string{"git", "status"}, nil},
	}
	ctors := map[string]func(*ShellAllowedCommands, ...Option) (Authorizer, <-chan UserRequest, error){
		"sandbox": NewSandboxAuthorizer, "permissive": NewPermissiveSandboxAuthorizer,
	}
	for cname, ctor := range ctors {
		for _, tt := range tests {
			t.Run(cname+"/"+tt.name, func(t *testing.T) {
				a, _, err := ctor(nil, WithHeadless())
				require.NoError(t, err)
				defer a.Close()
				err = a.IsShellAuthorized(false, "", f.sandbox, f.sandbox, tt.argv)
				if tt.want == nil {
					assert.NoError(t, err)
				} else {
					assert.ErrorIs(t, err, tt.want)
				}
			})
		}
	}
}
