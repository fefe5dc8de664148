package sandboxauth

import (
	"bufio"
	"encoding/json"
	"os"
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
	Setup    struct {
		Files    []string          `json:"files"`
		Symlinks map[string]string `json:"symlinks"`
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
	for _, c := range cases {
		sb := engineSandbox(t, c)
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
