package sandboxauth

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/toolpolicy"
)

func TestToolPolicyAuthorizer(t *testing.T) {
	f := newFixture(t)
	cfg, err := toolpolicy.ParseConfig(strings.NewReader(`{
		"tools": {"profile": "coding", "deny": ["write"]},
		"agents": [{"id": "reader", "tools": {"allow": ["read", "ls"]}}]
	}`))
	require.NoError(t, err)
	coder, err := cfg.Resolve(toolpolicy.Query{})
	require.NoError(t, err)
	reader, err := cfg.Resolve(toolpolicy.Query{AgentID: "reader"})
	require.NoError(t, err)

	cases := []struct {
		name   string
		policy *toolpolicy.Policy
		call   func(a Authorizer) error
		want   error
		asked  bool
	}{
		{"allowed tool reads inside", coder, func(a Authorizer) error { return a.IsAuthorizedForRead(false, "", "read", f.sandbox, f.inFile) }, nil, false},
		{"allowed tool, fallback refuses outside", coder, func(a Authorizer) error { return a.IsAuthorizedForRead(false, "", "read", f.sandbox, f.outFile) }, ErrOutsideSandbox, false},
		{"denied tool", coder, func(a Authorizer) error { return a.IsAuthorizedForWrite(false, "", "write", f.sandbox, f.inFile) }, ErrToolNotPermitted, false},
		{"denied tool even requested", coder, func(a Authorizer) error { return a.IsAuthorizedForWrite(true, "pls", "write", f.sandbox, f.inFile) }, ErrToolNotPermitted, false},
		{"unknown tool", coder, func(a Authorizer) error { return a.IsAuthorizedForRead(false, "", "browser", f.sandbox, f.inFile) }, ErrToolNotPermitted, false},
		{"alias and case", coder, func(a Authorizer) error {
			return a.IsAuthorizedForWrite(false, "", " Apply-Patch ", f.sandbox, f.inFile)
		}, nil, false},
		{"invalid tool name", coder, func(a Authorizer) error { return a.IsAuthorizedForRead(false, "", "re ad", f.sandbox, f.inFile) }, ErrToolNotPermitted, false},
		{"requested inside: fallback asks", coder, func(a Authorizer) error { return a.IsAuthorizedForRead(true, "pls", "read", f.sandbox, f.inFile) }, nil, true},
		{"shell with exec allowed", coder, func(a Authorizer) error { return a.IsShellAuthorized(false, "", f.sandbox, f.sandbox, []string{"ls"}) }, nil, false},
		{"shell blocked by fallback", coder, func(a Authorizer) error {
			return a.IsShellAuthorized(false, "", f.sandbox, f.sandbox, []string{"curl", "x"})
		}, ErrBlockedCommand, false},
		{"shell without exec", reader, func(a Authorizer) error { return a.IsShellAuthorized(false, "", f.sandbox, f.sandbox, []string{"ls"}) }, ErrToolNotPermitted, false},
		{"agent layer narrows", reader, func(a Authorizer) error { return a.IsAuthorizedForWrite(false, "", "edit", f.sandbox, f.inFile) }, ErrToolNotPermitted, false},
		{"agent layer allows read", reader, func(a Authorizer) error { return a.IsAuthorizedForRead(false, "", "read", f.sandbox, f.inFile) }, nil, false},
		{"bad input is not a denial", coder, func(a Authorizer) error { return a.IsAuthorizedForRead(false, "", "read", f.sandbox, "rel") }, ErrInvalidPath, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fallback, ch, err := NewSandboxAuthorizer(testCommands())
			require.NoError(t, err)
			defer fallback.Close()
			a := NewToolPolicyAuthorizer(c.policy, fallback)
			defer a.Close()
			seen, err := answering(t, ch, true, func() error { return c.call(a) })
			if c.want == nil {
				assert.NoError(t, err)
			} else {
				assert.ErrorIs(t, err, c.want)
				assert.Equal(t, c.want != ErrInvalidPath, isDenied(err))
			}
			assert.Equal(t, c.asked, len(seen) == 1)
		})
	}
}

func TestToolPolicyAuthorizerMessage(t *testing.T) {
	f := newFixture(t)
	p, err := toolpolicy.Compile(toolpolicy.Layer{Name: "global", Allow: []string{"read"}})
	require.NoError(t, err)
	a := NewToolPolicyAuthorizer(p, NewAutoApproveAuthorizer())
	defer a.Close()
	err = a.IsAuthorizedForWrite(false, "", "write", f.sandbox, f.inFile)
	require.ErrorIs(t, err, ErrToolNotPermitted)
	assert.Contains(t, err.Error(), `"write"`)
	assert.Contains(t, err.Error(), "not in the allow list")
	assert.Contains(t, err.Error(), "Use one of the tools")
}

func TestToolPolicyAuthorizerNilParts(t *testing.T) {
	f := newFixture(t)
	p, err := toolpolicy.Compile(toolpolicy.Layer{Name: "global", Allow: []string{"*"}})
	require.NoError(t, err)
	for _, a := range []Authorizer{NewToolPolicyAuthorizer(nil, NewAutoApproveAuthorizer()), NewToolPolicyAuthorizer(p, nil)} {
		assert.ErrorIs(t, a.IsAuthorizedForRead(false, "", "read", f.sandbox, f.inFile), ErrInvalidConfig)
		a.Close()
	}
}

func isDenied(err error) bool {
	_, ok := err.(*denial)
	return ok
}
