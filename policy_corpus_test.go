package sandboxauth

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/confine"
)

// autoAllowed runs argv through a real Sandbox authorizer and reports whether
// it ran without anybody being asked, and the error otherwise.
func autoAllowed(t *testing.T, a Authorizer, ch <-chan UserRequest, sb string, argv []string) (bool, error) {
	t.Helper()
	seen, err := answering(t, ch, false, func() error { return a.IsShellAuthorized(false, "", sb, sb, argv) })
	return err == nil && len(seen) == 0, err
}

// TestSandboxPolicyCorpus pins the figures at the level of the
// policy, not only the classifier, without and with confinement: no
// adversarial command runs without a person under the Sandbox policy (with
// per-segment analysis off and on) except, under confinement, those that run
// project code alone; the blocked ones are refused outright; at least 95% of
// the everyday ones run without asking with confinement, and without it
// everything but project code does at that rate while project code is
// always asked about.
func TestSandboxPolicyCorpus(t *testing.T) {
	sb := newSandbox(t)
	adversarial := loadCorpus(t, "adversarial.jsonl")
	benign := loadCorpus(t, "benign.jsonl")
	for _, confined := range []bool{false, true} {
		var opts []Option
		if confined {
			if err := confine.Available(); err != nil {
				t.Logf("confinement is not available here, so the confined half is not run: %v", err)
				continue
			}
			opts = append(opts, WithConfinement(confine.Policy{}))
		}
		for _, split := range []bool{false, true} {
			cmds := NewShellAllowedCommands()
			cmds.SetSplitCompound(split)
			a, ch, err := NewSandboxAuthorizer(cmds, opts...)
			require.NoError(t, err)
			contained := 0
			for _, e := range adversarial {
				ok, err := autoAllowed(t, a, ch, sb, e.Argv)
				if ok && confined {
					c, cerr := cmds.Classify(CommandSite{SandboxDir: sb}, e.Argv)
					require.NoError(t, cerr)
					assert.True(t, c.ProjectCode, "confined split=%v: %q (%s) ran without asking and is not project code (%s)", split, e.Argv, e.Why, c.Rule)
					contained++
					continue
				}
				assert.False(t, ok, "confined=%v split=%v: %q (%s) ran without asking", confined, split, e.Argv, e.Why)
				if e.Must == "blocked" {
					assert.True(t, errors.Is(err, ErrBlockedCommand), "split=%v: %q must be refused as blocked, got %v", split, e.Argv, err)
				}
			}
			if split {
				allowed, plain, others := 0, 0, 0
				for _, e := range benign {
					ok, _ := autoAllowed(t, a, ch, sb, e.Argv)
					if ok {
						allowed++
					}
					if e.Project {
						assert.Equal(t, confined, ok, "confined=%v: project code %q", confined, e.Argv)
						continue
					}
					others++
					if ok {
						plain++
					}
				}
				rate := 100 * float64(allowed) / float64(len(benign))
				rest := 100 * float64(plain) / float64(others)
				t.Logf("Sandbox policy, confined=%v: adversarial %d/%d asked or refused (%d more project code, confined); benign %d/%d auto-allowed (%.1f%%), %d/%d not project code (%.1f%%)",
					confined, len(adversarial)-contained, len(adversarial), contained, allowed, len(benign), rate, plain, others, rest)
				assert.GreaterOrEqual(t, rest, 95.0)
				if confined {
					assert.GreaterOrEqual(t, rate, 95.0)
				}
			}
			a.Close()
		}
	}
}
