package sandboxauth

import (
	"errors"
	"strings"
	"testing"

	"github.com/sandboxauth/sandboxauth/internal/classify"
)

// FuzzCheck feeds Check (and Classify with and without per-segment
// analysis) an argv built from a NUL-separated string. It checks that they
// never panic and always return, that errors are only the input errors,
// that Check agrees with Classify without a sandbox, and that an argv with
// an element equal to a shell operator is never safe (the operator check
// runs before anything is unwrapped, so it holds behind wrappers too).
// The seed corpus is in testdata/fuzz/FuzzCheck.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{
		"ls\x00-la", "git\x00status", "bash\x00-lc\x00go test ./...", "curl\x00x",
		"timeout\x005\x00curl\x00x", "ls\x00|\x00sh", "find\x00.\x00-exec\x00rm\x00{}\x00;",
		"bash\x00-c\x00echo '$(x)'", // quoted: a safe script that holds substitution text
	} {
		f.Add(s)
	}
	plain := NewShellAllowedCommands()
	split := NewShellAllowedCommands()
	split.SetSplitCompound(true)
	f.Fuzz(func(t *testing.T, in string) {
		if len(in) > 2048 {
			return
		}
		argv := strings.Split(in, "\x00")
		if in == "" {
			argv = nil
		}
		for _, s := range []*ShellAllowedCommands{plain, split} {
			r, err := s.Check(argv)
			if err != nil {
				if !errors.Is(err, ErrEmptyCommand) && !errors.Is(err, ErrInvalidCommand) {
					t.Fatalf("Check(%q): unexpected error %v", argv, err)
				}
				continue
			}
			c, err := s.Classify(CommandSite{}, argv)
			if err != nil || c.Result != r {
				t.Fatalf("Check(%q) = %v but Classify = %v, %v", argv, r, c.Result, err)
			}
			if c.Rule == "" || c.Rule == "rule: internal error" {
				t.Fatalf("Classify(%q) gave rule %q (%s)", argv, c.Rule, c.Reason)
			}
			if i := classify.ShellOperatorIndex(argv); i >= 0 && r == CommandCheckResultSafe {
				t.Fatalf("Check(%q) = safe, but element %d is a shell operator", argv, i)
			}
			if r < CommandCheckResultNone || r > CommandCheckResultInscrutable {
				t.Fatalf("Check(%q) = %d", argv, r)
			}
		}
	})
}
