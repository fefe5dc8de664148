package sandboxauth

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// autoAllowed runs argv through a real Sandbox authorizer and reports whether
// it ran without anybody being asked, and the error otherwise.
func autoAllowed(t *testing.T, a Authorizer, ch <-chan UserRequest, sb string, argv []string) (bool, error) {
	t.Helper()
	seen, err := answering(t, ch, false, func() error { return a.IsShellAuthorized(false, "", sb, sb, argv) })
	return err == nil && len(seen) == 0, err
}

// TestSandboxPolicyCorpus pins the figures at the level of the
// policy, not only the classifier: no adversarial command runs without a
// person under the Sandbox policy (with per-segment analysis off and on), the
// blocked ones are refused outright, and at least 95% of the everyday ones run
// without asking.
func TestSandboxPolicyCorpus(t *testing.T) {
	sb := newSandbox(t)
	adversarial := loadCorpus(t, "adversarial.jsonl")
	benign := loadCorpus(t, "benign.jsonl")
	for _, split := range []bool{false, true} {
		cmds := NewShellAllowedCommands()
		cmds.SetSplitCompound(split)
		a, ch, err := NewSandboxAuthorizer(cmds)
		require.NoError(t, err)
		for _, e := range adversarial {
			ok, err := autoAllowed(t, a, ch, sb, e.Argv)
			assert.False(t, ok, "split=%v: %q (%s) ran without asking", split, e.Argv, e.Why)
			if e.Must == "blocked" {
				assert.True(t, errors.Is(err, ErrBlockedCommand), "split=%v: %q must be refused as blocked, got %v", split, e.Argv, err)
			}
		}
		if split {
			allowed := 0
			for _, e := range benign {
				if ok, _ := autoAllowed(t, a, ch, sb, e.Argv); ok {
					allowed++
				}
			}
			rate := 100 * float64(allowed) / float64(len(benign))
			t.Logf("Sandbox policy: adversarial %d/%d not auto-allowed; benign %d/%d auto-allowed (%.1f%%)", len(adversarial), len(adversarial), allowed, len(benign), rate)
			assert.GreaterOrEqual(t, rate, 95.0)
		}
		a.Close()
	}
}
