package sandboxauth

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// engineCase is one line of testdata/commands/adversarial-engine.jsonl: a
// command, with the files a model could have made earlier through allowed
// writes, that the shell engine must not auto-allow (must: "not_safe"), or
// an everyday command it must keep safe (want: "safe").
type engineCase struct {
	Argv     []string `json:"argv"`
	Must     string   `json:"must"`
	Want     string   `json:"want"`
	Cat      string   `json:"cat"`
	Why      string   `json:"why"`
	Compound bool     `json:"compound"`
	// Policy marks a case that only an authorizer refuses: it reads or
	// writes one of the default protected paths, which the classifier
	// alone does not know, or depends on a repository or project file that
	// Check, knowing no sandbox, does not look at.
	Policy bool `json:"policy"`
	Setup  struct {
		Files    []string          `json:"files"`
		Symlinks map[string]string `json:"symlinks"`
		// Write makes files with the given contents (after Files).
		Write map[string]string `json:"write"`
		// NoGit removes the sandbox's .git: the sandbox is no repository.
		NoGit bool `json:"nogit"`
		// Git are git commands run in the sandbox after the files are
		// made (a real repository: git init, add, commit), with no user
		// or system configuration; the case is skipped without git.
		Git [][]string `json:"git"`
	} `json:"setup"`
}

func loadEngineCases(t *testing.T) []engineCase {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "commands", "adversarial-engine.jsonl"))
	require.NoError(t, err)
	defer f.Close()
	var out []engineCase
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		var c engineCase
		require.NoError(t, json.Unmarshal(sc.Bytes(), &c), "line %d", line)
		require.True(t, (c.Must == "not_safe") != (c.Want == "safe"), "line %d: must or want", line)
		out = append(out, c)
	}
	require.NoError(t, sc.Err())
	return out
}

// engineSandbox is newSandbox without its links out, and with the case's
// own files and links, so that each case is refused for its own reason.
func engineSandbox(t *testing.T, c engineCase) string {
	t.Helper()
	sb := newSandbox(t)
	require.NoError(t, os.Remove(filepath.Join(sb, "passwd-link")))
	require.NoError(t, os.Remove(filepath.Join(sb, "root-link")))
	for _, f := range c.Setup.Files {
		p := filepath.Join(sb, f)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte("x\n"), 0o755))
	}
	for name, target := range c.Setup.Symlinks {
		p := filepath.Join(sb, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.Symlink(target, p))
	}
	for name, text := range c.Setup.Write {
		p := filepath.Join(sb, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	if c.Setup.NoGit {
		require.NoError(t, os.RemoveAll(filepath.Join(sb, ".git")))
	}
	for _, args := range c.Setup.Git {
		cmd := exec.Command("git", args...)
		cmd.Dir = sb
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
			"GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@example.com")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %q: %s", args, out)
	}
	return sb
}

// TestEngineCorpus replays the shell-engine cases (dialects, globs, split
// mode, wrappers that remove PATH): none of the adversarial ones is safe,
// with per-segment analysis on or off, in Check or in a sandbox prepared as
// the case says, nor allowed by the Sandbox policy; the everyday ones stay
// safe.
func TestEngineCorpus(t *testing.T) {
	cases := loadEngineCases(t)
	require.GreaterOrEqual(t, len(cases), 50)
	// The go command's cases assume the default GOTOOLCHAIN (auto): a
	// GOTOOLCHAIN=local in the test's environment would make them pass.
	t.Setenv("GOTOOLCHAIN", "")
	os.Unsetenv("GOTOOLCHAIN")
	_, gitErr := exec.LookPath("git")
	for _, c := range cases {
		if len(c.Setup.Git) > 0 && gitErr != nil {
			t.Logf("git is not installed: the case %q, which needs a real repository, is skipped", c.Argv)
			continue
		}
		sb := engineSandbox(t, c)
		if c.Policy {
			require.Equal(t, "not_safe", c.Must, "%q: a policy case is adversarial", c.Argv)
			for _, split := range []bool{false, true} {
				s := NewShellAllowedCommands()
				s.SetSplitCompound(split)
				a, _, err := NewSandboxAuthorizer(s, WithHeadless())
				require.NoError(t, err)
				err = a.IsShellAuthorized(false, "", sb, sb, c.Argv)
				require.Error(t, err, "split=%v %q (%s: %s) allowed by the Sandbox policy", split, c.Argv, c.Cat, c.Why)
				a.Close()
			}
			continue
		}
		for _, split := range []bool{false, true} {
			s := NewShellAllowedCommands()
			s.SetSplitCompound(split)
			got, err := s.Classify(CommandSite{SandboxDir: sb}, c.Argv)
			require.NoError(t, err)
			if c.Must == "not_safe" {
				require.NotEqual(t, CommandCheckResultSafe, got.Result, "split=%v %q (%s: %s) safe by %s", split, c.Argv, c.Cat, c.Why, got.Rule)
				chk, err := s.Check(c.Argv)
				require.NoError(t, err)
				require.NotEqual(t, CommandCheckResultSafe, chk, "split=%v Check(%q)", split, c.Argv)
				continue
			}
			if c.Compound && !split {
				continue
			}
			// Safe, or project code alone (allowed under confinement).
			require.True(t, got.Result == CommandCheckResultSafe || got.ProjectCode, "split=%v %q: %v %s (%s)", split, c.Argv, got.Result, got.Rule, got.Reason)
		}
		if c.Must == "not_safe" {
			s := NewShellAllowedCommands()
			s.SetSplitCompound(true)
			a, _, err := NewSandboxAuthorizer(s, WithHeadless())
			require.NoError(t, err)
			err = a.IsShellAuthorized(false, "", sb, sb, c.Argv)
			require.Error(t, err, "%q allowed by the Sandbox policy", c.Argv)
			a.Close()
		}
	}
}
