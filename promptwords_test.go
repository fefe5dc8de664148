package sandboxauth

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPromptsInWords: a question says why in words a person understands
// (the reason of the rule), not a list entry's internal form, and keeps the
// subject (a path) where the rule names one.
func TestPromptsInWords(t *testing.T) {
	sb := t.TempDir()
	tests := []struct {
		argv    []string
		words   string   // in the Rule and in the Prompt
		notSeen []string // in neither
	}{
		{[]string{"python3", "-c", "print(1)"}, "runs inline code or a module", []string{"[-c -m]"}},
		{[]string{"git", "-c", "core.pager=less", "log"}, "git -c sets configuration that can run programs", []string{"git global option"}},
		{[]string{"rm", "-rf", "build"}, "recursive or forced removal", []string{"[-r -R"}},
		{[]string{"cat", "/etc/hostname"}, "path outside sandbox: /etc/hostname", nil},
	}
	for _, tt := range tests {
		a, reqs, err := NewSandboxAuthorizer(nil)
		require.NoError(t, err)
		done := make(chan error, 1)
		go func() { done <- a.IsShellAuthorized(false, "", sb, sb, tt.argv) }()
		req := <-reqs
		req.Disallow()
		require.ErrorIs(t, <-done, ErrAuthorizationDenied)
		assert.Contains(t, req.Rule, tt.words, tt.argv)
		assert.Contains(t, req.Prompt, tt.words, tt.argv)
		for _, n := range tt.notSeen {
			assert.NotContains(t, req.Rule, n, tt.argv)
			assert.NotContains(t, req.Prompt, n, tt.argv)
		}
		a.Close()
	}
}
