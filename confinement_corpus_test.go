package sandboxauth

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProjectsCorpusConfined grades the classifier with confinement against
// what real projects allow their agents: at least 92% of the harmless
// commands, project code included, run without asking (safe, or project
// code alone), and at most 5% of the risky ones. The corpus's own
// project-code marks and the classifier's label are compared and the
// differences logged.
func TestProjectsCorpusConfined(t *testing.T) {
	entries := loadProjects(t)
	require.GreaterOrEqual(t, len(entries), 600)
	sb := projectsSandbox(t)
	s := NewShellAllowedCommands()
	var harmless, harmlessAllowed, risky, riskyAllowed, disagree int
	for _, e := range entries {
		c, err := s.Classify(CommandSite{SandboxDir: sb}, e.Argv)
		require.NoError(t, err, "%q", e.Argv)
		allowed := c.Result == CommandCheckResultSafe || c.ProjectCode
		if c.ProjectCode != e.ProjectCode {
			disagree++
			t.Logf("project code: corpus %v, label %v: %q (%v: %s)", e.ProjectCode, c.ProjectCode, e.Argv, c.Result, c.Rule)
		}
		if c.ProjectCode {
			require.Equal(t, CommandCheckResultDangerous, c.Result, "%q", e.Argv)
		}
		if e.Kind == "risky" {
			risky++
			if allowed {
				riskyAllowed++
				t.Logf("risky but allowed under confinement: %q (%s)", e.Argv, c.Rule)
			}
			continue
		}
		harmless++
		if allowed {
			harmlessAllowed++
		} else {
			t.Logf("harmless but asked under confinement: %q (%v: %s)", e.Argv, c.Result, c.Rule)
		}
	}
	t.Logf("with confinement: harmless auto-allowed %d/%d (%.1f%%), risky %d/%d; label and corpus disagree on %d",
		harmlessAllowed, harmless, 100*float64(harmlessAllowed)/float64(harmless), riskyAllowed, risky, disagree)
	assert.GreaterOrEqual(t, float64(harmlessAllowed), 0.92*float64(harmless))
	assert.LessOrEqual(t, float64(riskyAllowed), 0.05*float64(risky))
}
