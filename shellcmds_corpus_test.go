package sandboxauth

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// corpusEntry is one line of testdata/commands/*.jsonl.
type corpusEntry struct {
	Argv     []string `json:"argv"`
	Must     string   `json:"must"` // adversarial: "blocked" or "not_safe"
	Want     string   `json:"want"` // benign: "safe"
	Why      string   `json:"why"`
	Cat      string   `json:"cat"`
	Compound bool     `json:"compound"`
	// Policy marks an adversarial command that only an authorizer refuses
	// (it reads or writes one of the default protected paths); the
	// classifier alone, which knows no protected paths, may find it safe.
	Policy bool `json:"policy"`
	// Project marks an everyday command that runs project code: allowed
	// only under confinement.
	Project bool `json:"project"`
}

func loadCorpus(t *testing.T, name string) []corpusEntry {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "commands", name))
	require.NoError(t, err)
	defer f.Close()
	var out []corpusEntry
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for line := 1; sc.Scan(); line++ {
		var e corpusEntry
		require.NoError(t, json.Unmarshal(sc.Bytes(), &e), "%s:%d", name, line)
		require.NotEmpty(t, e.Argv, "%s:%d", name, line)
		out = append(out, e)
	}
	require.NoError(t, sc.Err())
	return out
}

// newSandbox makes a temporary sandbox holding a few project files, a
// symlink to a file outside and a .git directory. It returns the real path.
func newSandbox(t testing.TB) string {
	t.Helper()
	sb, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	for _, d := range []string{"internal/config", "internal/shell", "testdata/golden", "testdata/out", "cmd/app", ".git/hooks", ".git/objects", ".git/refs/heads", "sub"} {
		require.NoError(t, os.MkdirAll(filepath.Join(sb, d), 0o755))
	}
	// .git holds what makes git take it as a repository: HEAD, objects, refs.
	require.NoError(t, os.WriteFile(filepath.Join(sb, ".git/HEAD"), []byte("ref: refs/heads/main\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(sb, "scripts"), 0o755))
	for _, f := range []string{"go.mod", "go.sum", "main.go", "README.md", "CHANGELOG.md", ".gitignore", "a.txt", "b.txt", "package.json", "internal/config/config.go",
		"manage.py", "scripts/build.js", "scripts/test.sh", "build.sh"} {
		body := "x\n"
		if f == "package.json" { // read by Corepack's shims: a JSON object
			body = `{"name": "app", "private": true, "packageManager": "pnpm@9.1.0"}` + "\n"
		}
		require.NoError(t, os.WriteFile(filepath.Join(sb, f), []byte(body), 0o644))
	}
	require.NoError(t, os.Symlink("/etc/passwd", filepath.Join(sb, "passwd-link")))
	require.NoError(t, os.Symlink("/", filepath.Join(sb, "root-link")))
	return sb
}

// TestAdversarialCorpus: no adversarial command is ever safe, in plain
// Check or in Classify inside a sandbox, with per-segment analysis off or
// on; the "blocked" ones are blocked everywhere.
func TestAdversarialCorpus(t *testing.T) {
	entries := loadCorpus(t, "adversarial.jsonl")
	require.GreaterOrEqual(t, len(entries), 200)
	sb := newSandbox(t)
	notSafe := 0
	for _, split := range []bool{false, true} {
		s := NewShellAllowedCommands()
		s.SetSplitCompound(split)
		for _, e := range entries {
			if e.Policy {
				continue // pinned by TestSandboxPolicyCorpus
			}
			chk, err := s.Check(e.Argv)
			require.NoError(t, err, "%q", e.Argv)
			// The sandbox is the working directory, and a site with the
			// working directory left empty means the same.
			for _, site := range []CommandSite{{SandboxDir: sb, Cwd: sb}, {SandboxDir: sb}} {
				c, err := s.Classify(site, e.Argv)
				require.NoError(t, err, "%q", e.Argv)
				require.NotEqual(t, CommandCheckResultSafe, c.Result,
					"split=%v %q (%s: %s) was classified safe by %s", split, e.Argv, e.Cat, e.Why, c.Rule)
				require.NotEmpty(t, c.Rule, "%q", e.Argv)
				if e.Must == "blocked" {
					require.Equal(t, CommandCheckResultBlocked, c.Result,
						"split=%v %q (%s) must be blocked; got %v by %s", split, e.Argv, e.Why, c.Result, c.Rule)
				}
			}
			require.NotEqual(t, CommandCheckResultSafe, chk, "split=%v Check(%q) (%s) is safe", split, e.Argv, e.Why)
			if e.Must == "blocked" {
				require.Equal(t, CommandCheckResultBlocked, chk, "split=%v Check(%q) must be blocked", split, e.Argv)
			}
			if !split {
				notSafe++
			}
		}
	}
	t.Logf("adversarial: %d/%d not safe", notSafe, len(entries))
}

// TestBenignCorpus: every everyday command is safe or, where the corpus
// says it runs project code, labelled project code (and nothing else). With
// confinement (project code allowed) at least 95% run without asking;
// without it, at least 95% of the rest do. Compound ones are analysed with
// per-segment analysis on.
func TestBenignCorpus(t *testing.T) {
	entries := loadCorpus(t, "benign.jsonl")
	require.GreaterOrEqual(t, len(entries), 120)
	sb := newSandbox(t)
	plain := NewShellAllowedCommands()
	split := NewShellAllowedCommands()
	split.SetSplitCompound(true)
	safe, project, others := 0, 0, 0
	for _, e := range entries {
		s := plain
		if e.Compound {
			s = split
			// Without per-segment analysis a compound script is inscrutable.
			c, err := plain.Classify(CommandSite{SandboxDir: sb}, e.Argv)
			require.NoError(t, err)
			require.Equal(t, CommandCheckResultInscrutable, c.Result, "%q", e.Argv)
		}
		c, err := s.Classify(CommandSite{SandboxDir: sb}, e.Argv)
		require.NoError(t, err, "%q", e.Argv)
		require.Equal(t, e.Project, c.ProjectCode, "%q: project code label (%v: %s)", e.Argv, c.Result, c.Rule)
		switch {
		case e.Project:
			require.Equal(t, CommandCheckResultDangerous, c.Result, "%q", e.Argv)
			project++
		case c.Result == CommandCheckResultSafe:
			safe++
			others++
		default:
			others++
			t.Logf("not auto-allowed: %q -> %v (%s: %s)", e.Argv, c.Result, c.Rule, c.Reason)
		}
	}
	confined := 100 * float64(safe+project) / float64(len(entries))
	unconfined := 100 * float64(safe) / float64(others)
	t.Logf("benign: %d/%d auto-allowed with confinement (%.1f%%); without, %d/%d of those that do not run project code (%.1f%%)",
		safe+project, len(entries), confined, safe, others, unconfined)
	require.GreaterOrEqual(t, confined, 95.0)
	require.GreaterOrEqual(t, unconfined, 95.0)
}

// TestGuardsHold fails if a safe entry of the default lists loses a guard:
// each command here matches a safe entry but for its dangerous flag.
func TestGuardsHold(t *testing.T) {
	s := NewShellAllowedCommands()
	sb := newSandbox(t)
	for _, argv := range [][]string{
		{"find", ".", "-exec", "rm", "{}", ";"},
		{"find", ".", "-exec", "rm", "{}", "+"},
		{"find", ".", "-execdir", "sh", "-c", "x", "{}", "+"},
		{"find", ".", "-ok", "rm", "{}", "+"},
		{"find", ".", "-okdir", "rm", "{}", "+"},
		{"find", ".", "-delete"},
		{"find", ".", "-fprint", "out"},
		{"find", ".", "-fprint0", "out"},
		{"find", ".", "-fprintf", "out", "%p"},
		{"find", ".", "-fls", "out"},
		{"git", "log", "--output=out"},
		{"git", "log", "--ext-diff"},
		{"git", "log", "--textconv"},
		{"git", "diff", "--output", "out"},
		{"git", "diff", "--ext-diff"},
		{"git", "show", "--textconv", "HEAD"},
		{"git", "branch", "-d", "x"},
		{"git", "branch", "-D", "x"},
		{"git", "branch", "-m", "x"},
		{"git", "branch", "-M", "x"},
		{"git", "branch", "--delete", "x"},
		{"git", "branch", "--move", "x", "y"},
		{"git", "branch", "--set-upstream-to=o/x"},
		{"git", "branch", "-u", "o/x"},
		{"git", "grep", "-O", "x"},
		{"git", "reflog", "expire"},
		{"git", "stash", "drop"},
		{"git", "tag", "-d", "v1"},
		{"git", "remote", "add", "x", "y"},
		{"rg", "--pre", "cat", "x"},
		{"rg", "--pre=cat", "x"},
		{"rg", "--search-zip", "x"},
		{"rg", "-z", "x"},
		{"sed", "-i", "s/a/b/", "a.txt"},
		{"sed", "--in-place", "s/a/b/", "a.txt"},
		{"sed", "s/a/b/w out", "a.txt"},
		{"sed", "w out", "a.txt"},
		{"sed", "r other", "a.txt"},
		{"sed", "1e id", "a.txt"},
		{"sed", "s/a/id/e", "a.txt"},
		{"sort", "-o", "out", "a.txt"},
		{"sort", "--output=out", "a.txt"},
		{"go", "test", "-exec", "x", "./..."},
		{"go", "test", "-toolexec", "x", "./..."},
		{"go", "test", "-o", "x", "./..."},
		{"go", "build", "-toolexec=x", "./..."},
		{"go", "vet", "-vettool=x", "./..."},
		{"awk", "BEGIN{system(\"id\")}"},
		{"awk", "{print > \"out\"}", "a.txt"},
		{"awk", "{print | \"sh\"}", "a.txt"},
		{"awk", "BEGIN{\"id\" | getline}"},
		{"gawk", "-f", "prog.awk"},
		{"tee", ".git/config"},
		{"gofmt", "-w", "main.go"},
		{"cargo", "test", "--config", "x"},
		{"tar", "-tf", "x.tar", "--to-command=sh"},
		{"printf", "-v", "x", "y"},
		{"date", "-s", "now"},
	} {
		chk, err := s.Check(argv)
		require.NoError(t, err)
		require.NotEqual(t, CommandCheckResultSafe, chk, "Check(%q)", argv)
		c, err := s.Classify(CommandSite{SandboxDir: sb}, argv)
		require.NoError(t, err)
		require.NotEqual(t, CommandCheckResultSafe, c.Result, "Classify(%q) safe by %s", argv, c.Rule)
		// Nor does confinement allow it: project code with an excluded
		// option is not labelled as project code alone.
		require.False(t, c.ProjectCode, "Classify(%q) is project code alone (%s)", argv, c.Rule)
		// The guarded command without its dangerous part is still safe, so
		// the test really exercises the guard.
	}
	for _, argv := range [][]string{
		{"find", ".", "-name", "*.go"}, {"git", "log", "--oneline"}, {"git", "branch", "-a"}, {"rg", "-n", "x"},
		{"sed", "-n", "1p", "a.txt"}, {"sort", "a.txt"}, {"go", "test", "./..."}, {"awk", "{print $1}", "a.txt"},
		{"tee", "out.log"}, {"gofmt", "-l", "."}, {"cargo", "test"},
	} {
		c, err := s.Classify(CommandSite{SandboxDir: sb}, argv)
		require.NoError(t, err)
		if argv[0] == "go" || argv[0] == "cargo" {
			// Project code: allowed only under confinement.
			require.True(t, c.ProjectCode, "Classify(%q): %s %s", argv, c.Rule, c.Reason)
			continue
		}
		require.Equal(t, CommandCheckResultSafe, c.Result, "Classify(%q): %s %s", argv, c.Rule, c.Reason)
	}
}
