package sandboxauth

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// projectEntry is one line of testdata/commands/projects.jsonl: commands
// that real projects' agent settings allow (harmless) or that such
// settings keep behind a question (risky: network, installs, deletes,
// history and remote changes).
type projectEntry struct {
	Argv        []string `json:"argv"`
	Kind        string   `json:"kind"` // "harmless" or "risky"
	ProjectCode bool     `json:"project_code"`
	// Repo is the public repository whose agent settings allow the
	// command (owner/name), for the entries collected with one.
	Repo string `json:"repo,omitempty"`
}

// projectsSandbox is newSandbox with the project files that the corpus's
// commands name (scripts run by an interpreter must exist to be the
// project's).
func projectsSandbox(t *testing.T) string {
	t.Helper()
	sb := newSandbox(t)
	for _, f := range []string{"main.py", "backend_test.py", "test_db_connection.py", "generate-schedule.js", "artisan"} {
		require.NoError(t, os.WriteFile(filepath.Join(sb, f), []byte("x\n"), 0o644))
	}
	return sb
}

func loadProjects(t *testing.T) []projectEntry {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "commands", "projects.jsonl"))
	require.NoError(t, err)
	defer f.Close()
	var out []projectEntry
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		var e projectEntry
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		require.NoError(t, dec.Decode(&e), "projects.jsonl:%d", line)
		require.NotEmpty(t, e.Argv, "projects.jsonl:%d", line)
		require.Contains(t, []string{"harmless", "risky"}, e.Kind, "projects.jsonl:%d", line)
		require.False(t, e.Kind == "risky" && e.ProjectCode, "projects.jsonl:%d: project code is harmless or risky, not both", line)
		if e.Repo != "" {
			owner, name, ok := strings.Cut(e.Repo, "/")
			require.True(t, ok && owner != "" && name != "" && !strings.Contains(name, "/"), "projects.jsonl:%d: repo %q is not owner/name", line, e.Repo)
		}
		out = append(out, e)
	}
	require.NoError(t, sc.Err())
	return out
}

// TestProjectsCorpus grades the Sandbox policy's classifier against what
// real projects allow their agents: at least 85% of the harmless commands
// that run no project code are auto-allowed, and at most 5% of the risky
// ones.
func TestProjectsCorpus(t *testing.T) {
	entries := loadProjects(t)
	require.GreaterOrEqual(t, len(entries), 600)
	sb := projectsSandbox(t)
	s := NewShellAllowedCommands()
	var harmless, harmlessSafe, risky, riskySafe int
	for _, e := range entries {
		c, err := s.Classify(CommandSite{SandboxDir: sb}, e.Argv)
		require.NoError(t, err, "%q", e.Argv)
		isSafe := c.Result == CommandCheckResultSafe
		switch {
		case e.Kind == "risky":
			risky++
			if isSafe {
				riskySafe++
				t.Logf("risky but safe: %q (%s)", e.Argv, c.Rule)
			}
		case !e.ProjectCode:
			harmless++
			if isSafe {
				harmlessSafe++
			} else {
				t.Logf("harmless but %s: %q (%s: %s)", c.Result, e.Argv, c.Rule, c.Reason)
			}
		}
	}
	t.Logf("harmless (no project code) auto-allowed: %d/%d; risky auto-allowed: %d/%d", harmlessSafe, harmless, riskySafe, risky)
	assert.GreaterOrEqual(t, float64(harmlessSafe), 0.85*float64(harmless), "harmless commands auto-allowed")
	assert.LessOrEqual(t, float64(riskySafe), 0.05*float64(risky), "risky commands auto-allowed")
}

// TestProjectsCorpusSources: the corpus holds at least 600 commands, and
// those collected with their source come from at least 100 public
// repositories.
func TestProjectsCorpusSources(t *testing.T) {
	entries := loadProjects(t)
	assert.GreaterOrEqual(t, len(entries), 600)
	repos := map[string]bool{}
	for _, e := range entries {
		if e.Repo != "" {
			repos[e.Repo] = true
		}
	}
	t.Logf("%d commands, %d of them from %d named repositories", len(entries), countWithRepo(entries), len(repos))
	assert.GreaterOrEqual(t, len(repos), 100)
}

func countWithRepo(entries []projectEntry) int {
	n := 0
	for _, e := range entries {
		if e.Repo != "" {
			n++
		}
	}
	return n
}
