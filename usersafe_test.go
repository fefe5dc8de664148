package sandboxauth

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUserSafeEntryIsFinal: a safe entry the user adds decides for the
// commands it matches, project code included, whether the command has a
// program spec (go test, cargo test) or not (pytest); the host's own
// project-code matchers (WithProjectCode) still label what they name.
func TestUserSafeEntryIsFinal(t *testing.T) {
	sb := newSandbox(t)
	tests := []struct {
		entry CommandMatcher
		argv  []string
		safe  bool // with the entry: safe (else project code, as without it)
	}{
		{CommandMatcher{Command: "go", CommandArgsPrefix: []string{"test"}}, []string{"go", "test", "./..."}, true},
		{CommandMatcher{Command: "go", CommandArgsPrefix: []string{"test"}}, []string{"go", "test", "-run", "TestX", "./internal/..."}, true},
		{CommandMatcher{Command: "go", CommandArgsPrefix: []string{"test"}}, []string{"go", "build", "./..."}, false},
		{CommandMatcher{Command: "go", CommandArgsPrefix: []string{"test"}}, []string{"go", "vet", "./..."}, false},
		{CommandMatcher{Command: "cargo", CommandArgsPrefix: []string{"test"}}, []string{"cargo", "test"}, true},
		{CommandMatcher{Command: "cargo", CommandArgsPrefix: []string{"test"}}, []string{"cargo", "test", "--workspace"}, true},
		{CommandMatcher{Command: "cargo", CommandArgsPrefix: []string{"test"}}, []string{"cargo", "build"}, false},
		{CommandMatcher{Command: "pytest"}, []string{"pytest", "-q"}, true},
		{CommandMatcher{Command: "go", CommandArgsPrefix: []string{"test"}, ExceptFlags: []string{"-race"}}, []string{"go", "test", "-race", "./..."}, false},
		{CommandMatcher{Command: "go", CommandArgsPrefix: []string{"test"}, ExceptFlags: []string{"-race"}}, []string{"go", "test", "./..."}, true},
	}
	for _, tt := range tests {
		t.Run(tt.entry.String()+" "+tt.argv[0]+" "+tt.argv[1], func(t *testing.T) {
			plain := NewShellAllowedCommands()
			c, err := plain.Classify(CommandSite{SandboxDir: sb}, tt.argv)
			require.NoError(t, err)
			require.True(t, c.ProjectCode, "without the entry %q is project code (%s)", tt.argv, c.Rule)

			s := NewShellAllowedCommands()
			s.AddSafe(tt.entry)
			c, err = s.Classify(CommandSite{SandboxDir: sb}, tt.argv)
			require.NoError(t, err)
			if tt.safe {
				assert.Equal(t, CommandCheckResultSafe, c.Result, "%q: %s", tt.argv, c.Rule)
				assert.False(t, c.ProjectCode)
				assert.Contains(t, c.Rule, tt.entry.String(), "the rule names the user's entry")
			} else {
				assert.True(t, c.ProjectCode, "%q: %s", tt.argv, c.Rule)
			}
		})
	}

	t.Run("the host's project-code matcher still labels", func(t *testing.T) {
		s := NewShellAllowedCommands()
		s.AddSafe(CommandMatcher{Command: "go", CommandArgsPrefix: []string{"test"}})
		a, ch, err := NewSandboxAuthorizer(s, WithProjectCode(CommandMatcher{Command: "go", CommandArgsPrefix: []string{"test"}}))
		require.NoError(t, err)
		defer a.Close()
		seen, err := answering(t, ch, false, func() error { return a.IsShellAuthorized(false, "", sb, sb, []string{"go", "test", "./..."}) })
		require.ErrorIs(t, err, ErrAuthorizationDenied)
		require.Len(t, seen, 1)
	})
	t.Run("a path outside is still checked", func(t *testing.T) {
		s := NewShellAllowedCommands()
		s.AddSafe(CommandMatcher{Command: "go", CommandArgsPrefix: []string{"test"}})
		c, err := s.Classify(CommandSite{SandboxDir: sb}, []string{"go", "test", "-coverprofile", "/tmp/x/c.out", "./..."})
		require.NoError(t, err)
		assert.NotEqual(t, CommandCheckResultSafe, c.Result, c.Rule)
	})
}

// TestUserSafeEntryIsFinalInPolicyFile: the same through the policy file,
// where the entry is reported as a widening, and through the Sandbox
// authorizer the file builds, which runs it without asking.
func TestUserSafeEntryIsFinalInPolicyFile(t *testing.T) {
	sb := newSandbox(t)
	c, err := ParseConfig([]byte(`{"commands": {"safe": {"add": [{"command": "go", "args": ["test"]}, {"command": "cargo", "args": ["test"]}, {"command": "pytest"}]}}}`))
	require.NoError(t, err)
	require.Len(t, c.Widenings(), 3)
	for i, what := range []string{"go test", "cargo test", "pytest"} {
		assert.Contains(t, c.Widenings()[i].Error(), "adds a safe command that runs project code ("+what+")")
	}
	plain, err := ParseConfig([]byte(`{"commands": {"safe": {"add": [{"command": "make", "args": ["--version"]}]}}}`))
	require.NoError(t, err)
	require.Len(t, plain.Widenings(), 1)
	assert.NotContains(t, plain.Widenings()[0].Error(), "project code")
	a, ch, err := c.NewAuthorizer()
	require.NoError(t, err)
	defer a.Close()
	for _, argv := range [][]string{{"go", "test", "./..."}, {"cargo", "test"}, {"pytest", "-q"}} {
		seen, err := answering(t, ch, false, func() error { return a.IsShellAuthorized(false, "", sb, sb, argv) })
		require.NoError(t, err, "%q", argv)
		assert.Empty(t, seen, "%q runs without a question", argv)
	}
	seen, err := answering(t, ch, false, func() error { return a.IsShellAuthorized(false, "", sb, sb, []string{"go", "build", "./..."}) })
	require.ErrorIs(t, err, ErrAuthorizationDenied, "go build is still asked about")
	require.Len(t, seen, 1)
}
