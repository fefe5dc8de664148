package sandboxauth

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/confine"
)

func requireConfinement(t *testing.T) {
	t.Helper()
	if err := confine.Available(); err != nil {
		t.Skipf("this kernel cannot confine commands, so WithConfinement cannot be tested here: %v", err)
	}
}

type policyCtor func(*ShellAllowedCommands, ...Option) (Authorizer, <-chan UserRequest, error)

var bothPolicies = map[string]policyCtor{"sandbox": NewSandboxAuthorizer, "permissive": NewPermissiveSandboxAuthorizer}

// TestProjectCodeAskedUnconfined: without confinement, project code is
// asked about under both policies (the Permissive policy used to run
// ./build.sh, a "none" command, and the Sandbox policy go test, a safe one),
// with a reason that says nothing confines it.
func TestProjectCodeAskedUnconfined(t *testing.T) {
	sb := newSandbox(t)
	for name, ctor := range bothPolicies {
		a, ch, err := ctor(NewShellAllowedCommands())
		require.NoError(t, err)
		for _, argv := range [][]string{{"go", "test", "./..."}, {"./build.sh"}, {"npm", "test"}, {"bash", "-lc", "pytest -q"}} {
			seen, err := answering(t, ch, false, func() error { return a.IsShellAuthorized(false, "", sb, sb, argv) })
			require.ErrorIs(t, err, ErrAuthorizationDenied, "%s %q", name, argv)
			require.Len(t, seen, 1)
			assert.Contains(t, seen[0].Rule, "runs project code", "%s %q", name, argv)
			assert.Contains(t, seen[0].Rule, "nothing confines it")
			assert.Equal(t, CommandCheckResultDangerous, seen[0].Classification)
		}
		a.Close()
	}
}

// TestProjectCodeAskedConfinedWithNetwork: confined with the network and
// every file readable, project code is asked about with a reason that
// says so and how to change it; it said "nothing confines it" (round 19).
func TestProjectCodeAskedConfinedWithNetwork(t *testing.T) {
	requireConfinement(t)
	sb := newSandbox(t)
	p := confine.DefaultPolicy("")
	p.Network = true
	a, ch, err := NewSandboxAuthorizer(NewShellAllowedCommands(), WithConfinement(p))
	require.NoError(t, err)
	defer a.Close()
	seen, err := answering(t, ch, false, func() error { return a.IsShellAuthorized(false, "", sb, sb, []string{"go", "test", "./..."}) })
	require.ErrorIs(t, err, ErrAuthorizationDenied)
	require.Len(t, seen, 1)
	assert.Contains(t, seen[0].Rule, "confined but with the network and every file the user can read")
	assert.Contains(t, seen[0].Rule, `"readable"`)
	assert.NotContains(t, seen[0].Rule, "nothing confines it")
}

// TestProjectCodeAllowedConfined: with WithConfinement, project code runs
// without asking under both policies and the decision log says it relies
// on confinement; a request for permission is still asked, saying so;
// blocked stays blocked and what reaches outside visibly is decided as
// without confinement.
func TestProjectCodeAllowedConfined(t *testing.T) {
	requireConfinement(t)
	sb := newSandbox(t)
	for name, ctor := range bothPolicies {
		var buf bytes.Buffer
		cmds := NewShellAllowedCommands()
		cmds.SetSplitCompound(true)
		a, ch, err := ctor(cmds, WithConfinement(confine.DefaultPolicy("")), WithDecisionLog(slog.New(slog.NewJSONHandler(&buf, nil))))
		require.NoError(t, err)
		for _, argv := range [][]string{{"go", "test", "./..."}, {"./build.sh"}, {"bash", "-c", "go vet ./... && go test ./..."}, {"make"}} {
			require.NoError(t, a.IsShellAuthorized(false, "", sb, sb, argv), "%s %q", name, argv)
		}
		var rec map[string]any
		require.NoError(t, json.Unmarshal([]byte(strings.SplitN(buf.String(), "\n", 2)[0]), &rec))
		assert.Equal(t, "allow", rec["outcome"])
		assert.Equal(t, "confined: rule: project code: go test", rec["rule"])

		seen, err := answering(t, ch, true, func() error { return a.IsShellAuthorized(true, "a clean run", sb, sb, []string{"go", "test", "./..."}) })
		require.NoError(t, err)
		require.Len(t, seen, 1)
		assert.Contains(t, seen[0].Rule, "runs confined", name)

		assert.ErrorIs(t, a.IsShellAuthorized(false, "", sb, sb, []string{"bash", "-c", "go test ./... && curl x"}), ErrBlockedCommand, name)
		assert.ErrorIs(t, a.IsShellAuthorized(false, "", sb, sb, []string{"timeout", "5", "curl", "x"}), ErrBlockedCommand, name)
		for _, argv := range [][]string{
			{"bash", "-c", "go test ./... > /tmp/out.log"},
			{"go", "test", "-exec", "x", "./..."},
			{"bash", "-c", "go test ./... && cat ~/.ssh/id_rsa"},
			{"rm", "-rf", "internal"},
		} {
			seen, err := answering(t, ch, false, func() error { return a.IsShellAuthorized(false, "", sb, sb, argv) })
			assert.ErrorIs(t, err, ErrAuthorizationDenied, "%s %q", name, argv)
			assert.Len(t, seen, 1, "%s %q", name, argv)
		}
		a.Close()
	}
}

// TestConfinementScope: confinement declared for another sandbox, or one
// that allows the network with reads unrestricted, does not allow project
// code; one that allows the network but restricts reads does.
func TestConfinementScope(t *testing.T) {
	requireConfinement(t)
	sb := newSandbox(t)
	other := filepath.Join(filepath.Dir(sb), "elsewhere")
	for _, tc := range []struct {
		p       confine.Policy
		allowed bool
	}{
		{confine.Policy{}, true},
		{confine.Policy{Sandbox: sb}, true},
		{confine.Policy{Sandbox: other}, false},
		{confine.Policy{Network: true}, false},
		{confine.Policy{Network: true, Readable: []string{}}, true},
	} {
		a, ch, err := NewSandboxAuthorizer(NewShellAllowedCommands(), WithConfinement(tc.p))
		require.NoError(t, err)
		seen, err := answering(t, ch, false, func() error { return a.IsShellAuthorized(false, "", sb, sb, []string{"go", "test", "./..."}) })
		if tc.allowed {
			assert.NoError(t, err, "%+v", tc.p)
			assert.Empty(t, seen)
		} else {
			assert.ErrorIs(t, err, ErrAuthorizationDenied, "%+v", tc.p)
			assert.Len(t, seen, 1)
		}
		a.Close()
	}
}

// TestProjectCodeSessionGrant: without confinement, a person may grant
// project code for the session; the grant then covers it, and only it.
func TestProjectCodeSessionGrant(t *testing.T) {
	sb := newSandbox(t)
	g := NewGrants()
	a, ch, err := NewSandboxAuthorizer(NewShellAllowedCommands(), WithGrants(g))
	require.NoError(t, err)
	defer a.Close()
	done := make(chan []UserRequest)
	go func() {
		var seen []UserRequest
		for req := range ch {
			seen = append(seen, req)
			require.NotNil(t, req.AllowForSession, "a session grant is offered for %q", req.Argv)
			req.AllowForSession()
		}
		done <- seen
	}()
	require.NoError(t, a.IsShellAuthorized(false, "", sb, sb, []string{"go", "test", "./..."}))
	require.NoError(t, a.IsShellAuthorized(false, "", sb, sb, []string{"go", "test", "./internal/..."}), "the grant covers later runs")
	a.Close()
	seen := <-done
	require.Len(t, seen, 1, "asked once")
	require.Len(t, g.List(), 1)
	assert.Equal(t, []string{"go", "test"}, g.List()[0].Command)
}

// TestWithProjectCode: users name their own project-code commands.
func TestWithProjectCode(t *testing.T) {
	sb := newSandbox(t)
	cmds := NewShellAllowedCommands()
	cmds.AddSafe(CommandMatcher{Command: "rake", CommandArgsPrefix: []string{"test"}})
	c, err := cmds.Classify(CommandSite{SandboxDir: sb}, []string{"rake", "test"})
	require.NoError(t, err)
	require.Equal(t, CommandCheckResultSafe, c.Result)
	// A user who lists a project-code command as safe has vouched for it.
	cmds.AddSafe(CommandMatcher{Command: "make", CommandArgsPrefix: []string{"test"}})
	c, err = cmds.Classify(CommandSite{SandboxDir: sb}, []string{"make", "test"})
	require.NoError(t, err)
	require.Equal(t, CommandCheckResultSafe, c.Result, c.Rule)
	c, err = cmds.Classify(CommandSite{SandboxDir: sb}, []string{"make", "install"})
	require.NoError(t, err)
	require.True(t, c.ProjectCode, c.Rule)

	a, ch, err := NewPermissiveSandboxAuthorizer(cmds, WithProjectCode(CommandMatcher{Command: "rake"}))
	require.NoError(t, err)
	seen, err := answering(t, ch, false, func() error { return a.IsShellAuthorized(false, "", sb, sb, []string{"rake", "test"}) })
	require.ErrorIs(t, err, ErrAuthorizationDenied)
	require.Len(t, seen, 1)
	assert.Contains(t, seen[0].Rule, "project code (rake)")
	a.Close()

	_, _, err = NewSandboxAuthorizer(cmds, WithProjectCode(CommandMatcher{}))
	assert.ErrorIs(t, err, ErrInvalidConfig)

	if confine.Available() == nil {
		a, _, err := NewSandboxAuthorizer(cmds, WithProjectCode(CommandMatcher{Command: "rake"}), WithConfinement(confine.Policy{}))
		require.NoError(t, err)
		assert.NoError(t, a.IsShellAuthorized(false, "", sb, sb, []string{"rake", "test"}))
		a.Close()
	}
}

func TestWithConfinementInvalid(t *testing.T) {
	for _, p := range []confine.Policy{
		{Sandbox: "relative"},
		{Sandbox: "/a/../b"},
		{Writable: []string{"tmp"}},
		{Readable: []string{""}},
	} {
		_, _, err := NewSandboxAuthorizer(NewShellAllowedCommands(), WithConfinement(p))
		assert.ErrorIs(t, err, ErrInvalidConfig, "%+v", p)
		assert.False(t, errors.Is(err, confine.ErrUnavailable), "%+v", p)
	}
	// On a kernel without Landlock the constructor's error wraps both.
	_, _, err := NewSandboxAuthorizer(NewShellAllowedCommands(), WithConfinement(confine.Policy{}))
	if confine.Available() != nil {
		assert.ErrorIs(t, err, ErrInvalidConfig)
		assert.ErrorIs(t, err, confine.ErrUnavailable)
	} else {
		assert.NoError(t, err)
	}
	err = unavailableConfinement(fmt.Errorf("no Landlock: %w", confine.ErrUnavailable))
	assert.ErrorIs(t, err, ErrInvalidConfig)
	assert.ErrorIs(t, err, confine.ErrUnavailable)
	assert.Contains(t, err.Error(), "WithConfinement")
}

// TestConfinedProjectCodeEndToEnd decides go test under the Sandbox policy
// with confinement, then runs it confined as promised: a test that writes
// outside the sandbox fails, and nothing is written.
func TestConfinedProjectCodeEndToEnd(t *testing.T) {
	requireConfinement(t)
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not installed")
	}
	sb, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	outside, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	target := filepath.Join(outside, "pwned")
	writeFiles(t, sb, map[string]string{
		"go.mod":    "module example.com/m\n\ngo 1.21\n",
		"m_test.go": "package m\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestX(t *testing.T) {\n\tif err := os.WriteFile(`" + target + "`, nil, 0o644); err != nil {\n\t\tt.Fatal(err)\n\t}\n}\n",
	})
	p := confine.DefaultPolicy(sb)
	p.Writable = []string{tmp, goEnv(t, "GOCACHE"), "/dev/null"}
	a, _, err := NewSandboxAuthorizer(NewShellAllowedCommands(), WithConfinement(p), WithHeadless())
	require.NoError(t, err)
	defer a.Close()
	argv := []string{"go", "test", "./..."}
	require.NoError(t, a.IsShellAuthorized(false, "", sb, sb, argv))
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = sb
	cmd.Env = append(cmd.Environ(), "TMPDIR="+tmp, "GOTOOLCHAIN=local", "GOFLAGS=", "GOPROXY=off")
	out, err := runConfined(cmd, p)
	require.Error(t, err, out)
	assert.Contains(t, out, "permission denied")
	assert.NoFileExists(t, target)
}

func runConfined(cmd *exec.Cmd, p confine.Policy) (string, error) {
	var b bytes.Buffer
	cmd.Stdout, cmd.Stderr = &b, &b
	err := confine.Run(cmd, p)
	return b.String(), err
}

func goEnv(t *testing.T, key string) string {
	t.Helper()
	out, err := exec.Command("go", "env", key).Output()
	require.NoError(t, err)
	return strings.TrimSpace(string(out))
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
	}
}
