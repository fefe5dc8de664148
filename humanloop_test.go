package sandboxauth

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/codeunit"
)

// hitlFixture is a sandbox with .env, .git/config, .git/hooks, src/ and a
// link named innocent -> .env.
func hitlFixture(t *testing.T) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	sb := filepath.Join(root, "sb")
	for _, d := range []string{".git/hooks", "src/pkg", "config"} {
		require.NoError(t, os.MkdirAll(filepath.Join(sb, d), 0o755))
	}
	for _, f := range []string{".env", ".env.local", "config/.env", ".git/config", "src/main.go", "src/pkg/a.go"} {
		require.NoError(t, os.WriteFile(filepath.Join(sb, f), []byte("x"), 0o644))
	}
	require.NoError(t, os.Symlink(".env", filepath.Join(sb, "innocent")))
	return sb
}

func TestProtectedPaths(t *testing.T) {
	sb := hitlFixture(t)
	cases := []struct {
		op    Operation
		path  string
		asked bool
	}{
		{OpRead, ".env", true},
		{OpWrite, ".env", true},
		{OpRead, ".env.local", true},
		{OpRead, "config/.env", true},
		{OpRead, "innocent", true}, // a link to .env
		{OpRead, ".git/config", false},
		{OpWrite, ".git/config", true},
		{OpWrite, ".git/hooks/pre-commit", true},
		{OpWrite, ".git/HEAD", true},
		{OpWrite, "sub/.git/config", true},
		{OpWrite, ".gitignore", false},
		{OpRead, "src/main.go", false},
		{OpWrite, "src/main.go", false},
	}
	for _, policy := range []string{"sandbox", "permissive"} {
		for _, c := range cases {
			t.Run(policy+"/"+string(c.op)+"/"+c.path, func(t *testing.T) {
				newA := NewSandboxAuthorizer
				if policy == "permissive" {
					newA = NewPermissiveSandboxAuthorizer
				}
				a, ch, err := newA(testCommands())
				require.NoError(t, err)
				defer a.Close()
				p := filepath.Join(sb, c.path)
				seen, err := answering(t, ch, false, func() error {
					if c.op == OpRead {
						return a.IsAuthorizedForRead(false, "", "read_file", sb, p)
					}
					return a.IsAuthorizedForWrite(false, "", "write_file", sb, p)
				})
				if !c.asked {
					assert.NoError(t, err)
					assert.Empty(t, seen)
					return
				}
				require.Len(t, seen, 1)
				assert.ErrorIs(t, err, ErrAuthorizationDenied)
				assert.Contains(t, seen[0].Prompt, "protected path")
				assert.Contains(t, seen[0].Rule, "protected path")
			})
		}
	}

	// Configurable: none, or others.
	a, _, err := NewSandboxAuthorizer(testCommands(), WithProtectedPaths())
	require.NoError(t, err)
	assert.NoError(t, a.IsAuthorizedForRead(false, "", "read_file", sb, sb+"/.env"))
	a.Close()
	a, ch, err := NewSandboxAuthorizer(testCommands(), WithProtectedPaths(ProtectedPath{Pattern: "src/pkg/", Write: true}))
	require.NoError(t, err)
	defer a.Close()
	assert.NoError(t, a.IsAuthorizedForRead(false, "", "read_file", sb, sb+"/.env"))
	seen, err := answering(t, ch, false, func() error { return a.IsAuthorizedForWrite(false, "", "edit", sb, sb+"/src/pkg/a.go") })
	assert.ErrorIs(t, err, ErrAuthorizationDenied)
	assert.Len(t, seen, 1)
}

func TestHeadless(t *testing.T) {
	f := newFixture(t)
	for _, newA := range []func(*ShellAllowedCommands, ...Option) (Authorizer, <-chan UserRequest, error){NewSandboxAuthorizer, NewPermissiveSandboxAuthorizer} {
		a, ch, err := newA(testCommands(), WithHeadless())
		require.NoError(t, err)
		err = a.IsAuthorizedForRead(true, "pls", "read_file", f.sandbox, f.inFile)
		assert.ErrorIs(t, err, ErrNoUser)
		assert.ErrorIs(t, err, ErrDenied)
		assert.Contains(t, err.Error(), "without one")
		err = a.IsShellAuthorized(false, "", f.sandbox, f.sandbox, []string{"rm", "x"})
		assert.ErrorIs(t, err, ErrNoUser)
		assert.NoError(t, a.IsShellAuthorized(false, "", f.sandbox, f.sandbox, []string{"ls"}), "what needs nobody still runs")
		assert.ErrorIs(t, a.IsShellAuthorized(false, "", f.sandbox, f.sandbox, []string{"curl", "x"}), ErrBlockedCommand)
		assert.Len(t, ch, 0, "nothing is ever sent")
		a.Close()
	}
}

func TestDecisionLog(t *testing.T) {
	f := newFixture(t)
	var buf bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&buf, nil))
	a, ch, err := NewSandboxAuthorizer(testCommands(), WithDecisionLog(logger))
	require.NoError(t, err)
	defer a.Close()

	require.NoError(t, a.IsShellAuthorized(false, "", f.sandbox, "", []string{"ls", "-la"}))
	assert.ErrorIs(t, a.IsAuthorizedForWrite(false, "", "write_file", f.sandbox, f.outFile), ErrOutsideSandbox)
	_, err = answering(t, ch, true, func() error {
		return ForToolCall(a, "call-7").IsAuthorizedForRead(true, "need it", "read_file", f.sandbox, f.inFile)
	})
	require.NoError(t, err)
	assert.ErrorIs(t, a.IsShellAuthorized(false, "", f.sandbox, "", nil), ErrEmptyCommand)

	var recs []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &m), line)
		recs = append(recs, m)
	}
	require.Len(t, recs, 4, "one record per decision")
	assert.Equal(t, "allow", recs[0]["outcome"])
	assert.Equal(t, "policy", recs[0]["decided_by"])
	assert.Equal(t, "shell", recs[0]["operation"])
	assert.Equal(t, []any{"ls", "-la"}, recs[0]["argv"])
	assert.Equal(t, "safe", recs[0]["class"])
	assert.Equal(t, f.sandbox, recs[0]["cwd"])
	assert.NotEmpty(t, recs[0]["rule"])
	assert.Equal(t, "sandbox", recs[0]["policy"])

	assert.Equal(t, "deny", recs[1]["outcome"])
	assert.Equal(t, "WARN", recs[1]["level"])
	assert.Equal(t, "write_file", recs[1]["tool"])
	assert.Equal(t, []any{f.outFile}, recs[1]["paths"])
	assert.Equal(t, "outside the sandbox", recs[1]["rule"])

	assert.Equal(t, "allow", recs[2]["outcome"])
	assert.Equal(t, "person", recs[2]["decided_by"])
	assert.Equal(t, "call-7", recs[2]["tool_call_id"])
	assert.Equal(t, "need it", recs[2]["reason"])
	assert.Contains(t, recs[2], "waited")

	assert.Equal(t, "error", recs[3]["outcome"])
	assert.Equal(t, "input", recs[3]["decided_by"])
}

func TestForToolCall(t *testing.T) {
	f := newFixture(t)
	base, ch, err := NewSandboxAuthorizer(testCommands())
	require.NoError(t, err)
	defer base.Close()
	unit, err := codeunit.NewCodeUnit("sb", f.sandbox)
	require.NoError(t, err)
	wrapped := NewCodeUnitAuthorizer(unit, base)
	defer wrapped.Close()

	for name, a := range map[string]Authorizer{"direct": base, "through a wrapper": wrapped} {
		t.Run(name, func(t *testing.T) {
			seen, err := answering(t, ch, true, func() error {
				return ForToolCall(a, "toolu_42").IsAuthorizedForRead(true, "", "read_file", f.sandbox, f.inFile)
			})
			require.NoError(t, err)
			require.Len(t, seen, 1)
			assert.Equal(t, "toolu_42", seen[0].ToolCallID)
			seen, err = answering(t, ch, true, func() error {
				return ForToolCall(a, "toolu_43").IsShellAuthorized(false, "", f.sandbox, f.sandbox, []string{"rm", "x"})
			})
			require.NoError(t, err)
			require.Len(t, seen, 1)
			assert.Equal(t, "toolu_43", seen[0].ToolCallID)
		})
	}
	// A foreign authorizer still works through a view, without the ID.
	assert.NoError(t, ForToolCall(foreign{NewAutoApproveAuthorizer()}, "x").IsAuthorizedForRead(false, "", "r", f.sandbox, f.inFile))
}

// foreign hides the package's own authorizer behind the public interface.
type foreign struct{ Authorizer }

func TestSessionGrantsForCommands(t *testing.T) {
	f := newFixture(t)
	grants := NewGrants()
	cmds := NewShellAllowedCommands()
	a, ch, err := NewSandboxAuthorizer(cmds, WithGrants(grants))
	require.NoError(t, err)
	defer a.Close()
	run := func(argv ...string) ([]UserRequest, error) {
		return answering(t, ch, false, func() error { return a.IsShellAuthorized(false, "", f.sandbox, f.sandbox, argv) })
	}

	// First time: asked, with the scope stated; the person grants it.
	var first UserRequest
	errc := make(chan error, 1)
	go func() {
		errc <- a.IsShellAuthorized(false, "", f.sandbox, f.sandbox, []string{"npm", "run", "test", "unit"})
	}()
	first = <-ch
	require.NotNil(t, first.AllowForSession)
	assert.Equal(t, "run `npm run test` with any further operands (no options)", first.SessionScope)
	assert.Contains(t, first.Prompt, "npm run test")
	assert.Contains(t, first.Prompt, "rest of the session")
	first.AllowForSession()
	first.Disallow() // too late
	require.NoError(t, <-errc)
	assert.Equal(t, []Grant{{Operation: OpShell, Command: []string{"npm", "run", "test"}, Sandbox: f.sandbox}}, grants.List())

	// Later: covered commands run without asking; others still ask.
	seen, err := run("npm", "run", "test", "integration")
	assert.NoError(t, err)
	assert.Empty(t, seen)

	// In another sandbox (another project, whose tests are other code),
	// the grant does not apply.
	other, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	seen, err = answering(t, ch, false, func() error {
		return a.IsShellAuthorized(false, "", other, other, []string{"npm", "run", "test", "integration"})
	})
	assert.ErrorIs(t, err, ErrAuthorizationDenied)
	assert.Len(t, seen, 1)
	// A one-command script is the same command.
	seen, err = run("bash", "-c", "npm run test 'e2e'")
	assert.NoError(t, err)
	assert.Empty(t, seen)
	// Options are not operands: asked again.
	seen, err = run("npm", "run", "test", "--coverage")
	assert.ErrorIs(t, err, ErrAuthorizationDenied)
	assert.Len(t, seen, 1)
	seen, err = run("npm", "run", "build")
	assert.ErrorIs(t, err, ErrAuthorizationDenied)
	assert.Len(t, seen, 1)
	// A grant never takes a command outside the sandbox.
	seen, err = run("npm", "run", "test", "--prefix", "/etc")
	assert.ErrorIs(t, err, ErrAuthorizationDenied)
	assert.Len(t, seen, 1)
	// Nor through a shell or a wrapper.
	for _, argv := range [][]string{{"bash", "-c", "npm run test > out"}, {"bash", "-c", "npm run test; ls"}, {"timeout", "5", "npm", "run", "test"}, {"env", "npm", "run", "test"}} {
		seen, err = run(argv...)
		assert.ErrorIs(t, err, ErrAuthorizationDenied, "%v", argv)
		require.Len(t, seen, 1)
		assert.Nil(t, seen[0].AllowForSession, "no grant offered for %v", argv)
	}

	// Blocked commands are never widened, even by a grant forced into the store.
	grants.list = append(grants.list, Grant{Operation: OpShell, Command: []string{"curl"}})
	seen, err = run("curl", "https://example.com")
	assert.ErrorIs(t, err, ErrBlockedCommand)
	assert.Empty(t, seen)

	// Revoked: asks again.
	grants.Revoke(Grant{Operation: OpShell, Command: []string{"npm", "run", "test"}, Sandbox: f.sandbox})
	seen, err = run("npm", "run", "test")
	assert.ErrorIs(t, err, ErrAuthorizationDenied)
	assert.Len(t, seen, 1)
}

func TestSessionGrantsForPaths(t *testing.T) {
	sb := hitlFixture(t)
	grants := NewGrants()
	a, ch, err := NewPermissiveSandboxAuthorizer(testCommands(), WithGrants(grants))
	require.NoError(t, err)
	defer a.Close()

	// A read the model asks permission for: the person may pick one of the
	// offered directories, and only those.
	errc := make(chan error, 1)
	go func() { errc <- a.IsAuthorizedForRead(true, "need it", "read_file", sb, sb+"/config/app.yaml") }()
	req := <-ch
	assert.Equal(t, []string{sb + "/config", sb}, req.GrantDirs)
	assert.ErrorIs(t, req.AllowForSessionUnder("/"), ErrInvalidConfig)
	require.NoError(t, req.AllowForSessionUnder(sb+"/config"))
	require.NoError(t, <-errc)

	read := func(p string) ([]UserRequest, error) {
		return answering(t, ch, false, func() error { return a.IsAuthorizedForRead(true, "need it", "read_file", sb, p) })
	}
	seen, err := read(sb + "/config/other.yaml")
	assert.NoError(t, err)
	assert.Empty(t, seen)
	// A protected file below the granted directory is still asked about,
	// and offered only as itself.
	seen, err = read(sb + "/config/.env")
	assert.ErrorIs(t, err, ErrAuthorizationDenied, "a directory grant does not lift a protection")
	require.Len(t, seen, 1)
	assert.Nil(t, seen[0].GrantDirs)
	require.NotNil(t, seen[0].AllowForSession)
	go func() { errc <- a.IsAuthorizedForRead(false, "", "read_file", sb, sb+"/config/.env") }()
	req = <-ch
	req.AllowForSession()
	require.NoError(t, <-errc)
	seen, err = read(sb + "/config/.env")
	assert.NoError(t, err)
	assert.Empty(t, seen)
	seen, err = read(sb + "/.env")
	assert.ErrorIs(t, err, ErrAuthorizationDenied, "another protected file")
	assert.Len(t, seen, 1)
	_, err = answering(t, ch, false, func() error { return a.IsAuthorizedForWrite(false, "", "edit", sb, sb+"/config/.env") })
	assert.ErrorIs(t, err, ErrAuthorizationDenied, "a read grant is not a write grant")

	// Outside the sandbox: the Permissive policy asks, but offers no grant.
	seen, err = answering(t, ch, false, func() error { return a.IsAuthorizedForRead(false, "", "read_file", sb, "/etc/hostname") })
	assert.ErrorIs(t, err, ErrAuthorizationDenied)
	require.Len(t, seen, 1)
	assert.Nil(t, seen[0].AllowForSession)
	assert.Nil(t, seen[0].AllowForSessionUnder)
	// And a grant forced onto an outside path never applies.
	grants.list = append(grants.list, Grant{Operation: OpRead, Path: "/etc", Subtree: true})
	seen, err = answering(t, ch, false, func() error { return a.IsAuthorizedForRead(false, "", "read_file", sb, "/etc/hostname") })
	assert.ErrorIs(t, err, ErrAuthorizationDenied)
	assert.Len(t, seen, 1)
}

func TestSessionGrantDoesNotWidenStrictSandbox(t *testing.T) {
	f := newFixture(t)
	grants := NewGrants()
	require.NoError(t, grants.Add(Grant{Operation: OpRead, Path: f.outDir, Subtree: true}))
	a, _, err := NewSandboxAuthorizer(testCommands(), WithGrants(grants))
	require.NoError(t, err)
	defer a.Close()
	assert.ErrorIs(t, a.IsAuthorizedForRead(false, "", "read_file", f.sandbox, f.outFile), ErrOutsideSandbox)
	assert.ErrorIs(t, a.IsShellAuthorized(false, "", f.sandbox, f.outDir, []string{"ls"}), ErrOutsideSandbox)
}

// A grant made while other requests are pending does not answer them: each
// pending request waits for its own answer. Calls made after the grant are
// covered by it.
func TestSessionGrantAndPendingRequests(t *testing.T) {
	f := newFixture(t)
	grants := NewGrants()
	a, ch, err := NewSandboxAuthorizer(testCommands(), WithGrants(grants))
	require.NoError(t, err)
	defer a.Close()
	const n = 5
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		go func() { errs <- a.IsShellAuthorized(false, "", f.sandbox, f.sandbox, []string{"make", "test"}) }()
	}
	reqs := make([]UserRequest, 0, n)
	for i := 0; i < n; i++ {
		reqs = append(reqs, <-ch)
	}
	reqs[0].AllowForSession()
	require.NoError(t, <-errs)
	select {
	case err := <-errs:
		t.Fatalf("a pending call was answered by another's grant: %v", err)
	case <-time.After(50 * time.Millisecond):
	}
	assert.NoError(t, a.IsShellAuthorized(false, "", f.sandbox, f.sandbox, []string{"make", "test", "lint"}), "covered now")
	for _, r := range reqs[1:] {
		r.Disallow()
	}
	for i := 1; i < n; i++ {
		assert.ErrorIs(t, <-errs, ErrAuthorizationDenied)
	}
}
