package sandboxauth

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCopyAndMoveTargets: cp and mv are safe for single files inside the
// sandbox, but what they create is checked, not only what they name: a file
// landing in an existing directory, a backup named by a suffix, a directory
// moved whole, a value attached to an option.
func TestCopyAndMoveTargets(t *testing.T) {
	sb := newSandbox(t)
	for _, d := range []string{".cargo", ".venv/bin", "ev/.gi/hooks", "nd"} {
		require.NoError(t, os.MkdirAll(filepath.Join(sb, d), 0o755))
	}
	for _, f := range []string{"config.toml", ".env", "f"} {
		require.NoError(t, os.WriteFile(filepath.Join(sb, f), []byte("x\n"), 0o644))
	}
	t.Setenv("PATH", filepath.Join(sb, ".venv/bin")+":/usr/bin:/bin")
	a, ch, err := NewSandboxAuthorizer(NewShellAllowedCommands())
	require.NoError(t, err)
	defer a.Close()

	cases := []struct {
		argv []string
		safe bool
	}{
		{[]string{"cp", "a.txt", "c.txt"}, true},
		{[]string{"cp", "a.txt", "sub"}, true},
		{[]string{"mv", "b.txt", "sub/b.txt"}, true},
		{[]string{"cp", "config.toml", ".cargo/"}, false}, // lands at .cargo/config.toml
		{[]string{"cp", "config.toml", ".cargo"}, false},
		{[]string{"cp", "-t", ".cargo", "config.toml"}, false},
		{[]string{"cp", "--target-directory=.cargo", "config.toml"}, false},
		{[]string{"mv", "-t.cargo", "config.toml"}, false},
		{[]string{"cp", "f", ".venv/bin"}, false}, // into a PATH directory
		{[]string{"cp", "-b", "-S", "t", "f", "sub/.gi"}, false},
		{[]string{"mv", "-T", "-b", "-S", "t", "nd", "ev/.gi"}, false},
		{[]string{"cp", "--suffix=.toml", "--backup", "f", "mise"}, false},
		{[]string{"cp", "-r", "ev/.", "."}, false},
		{[]string{"cp", "-a", "ev", "x"}, false},
		{[]string{"mv", "nd", ".venv/bi"}, false}, // a directory moved whole
		{[]string{"mv", "-T", "nd", "other"}, false},
		{[]string{"tar", "-tf", "a.tar", "-T.env"}, false}, // an attached value names a protected file
		{[]string{"tar", "tf", "a.tar", "-T.env"}, false},
		{[]string{"jq", "-n", "$ ENV.HOME"}, false},
		{[]string{"jq", "-n", "$#\nENV"}, false},
	}
	for _, c := range cases {
		seen, err := answering(t, ch, false, func() error { return a.IsShellAuthorized(false, "", sb, sb, c.argv) })
		if c.safe {
			assert.NoError(t, err, "%q", c.argv)
			assert.Empty(t, seen, "%q", c.argv)
		} else {
			assert.NotEmpty(t, seen, "%q ran without asking", c.argv)
		}
	}
}

// TestHooksPath: a core.hooksPath is trusted only when the directory it
// names is write-protected (as .husky/ is by default), since git add and
// even git status may run hooks.
func TestHooksPath(t *testing.T) {
	for _, c := range []struct {
		value string
		safe  bool
	}{
		{".husky/_", true},
		{".githooks", true},
		{"hooks", false},
		{"scripts/hooks", false},
		{"~/hooks", false},
		{"/usr/share/hooks", false},
	} {
		sb := newSandbox(t)
		require.NoError(t, os.WriteFile(filepath.Join(sb, ".git", "config"), []byte("[core]\n\thooksPath = "+c.value+"\n"), 0o644))
		a, ch, err := NewSandboxAuthorizer(NewShellAllowedCommands())
		require.NoError(t, err)
		seen, err := answering(t, ch, false, func() error { return a.IsShellAuthorized(false, "", sb, sb, []string{"git", "add", "a.txt"}) })
		if c.safe {
			assert.NoError(t, err, c.value)
			assert.Empty(t, seen, c.value)
		} else {
			require.Len(t, seen, 1, c.value)
			assert.Contains(t, seen[0].Rule, "core.hookspath", c.value)
		}
		a.Close()
	}
}
