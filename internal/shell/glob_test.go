package shell

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// globTree makes a directory holding names that look like options, a
// symbolic link to a file outside, hidden files and a subdirectory.
func globTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"-rf", "--checkpoint-action=exec=sh x", "^", "a", "b", "B", "c.go", "x.go",
		".hidden", "!x", "[a]", "host:file", "Z9", "sub/inner.go", "sub/-n", "dir2/z.txt"} {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), nil, 0o644))
	}
	require.NoError(t, os.Symlink("/etc/passwd", filepath.Join(dir, "link")))
	require.NoError(t, os.Symlink("/etc", filepath.Join(dir, "etclink")))
	return dir
}

// shellExpand runs the real shell in dir and returns the words the glob
// expands to (the pattern itself when nothing matches).
func shellExpand(t *testing.T, shellName, dir, src string) []string {
	t.Helper()
	cmd := exec.Command(shellName, "-c", `for w in `+src+`; do printf '%s\n' "$w"; done`)
	cmd.Dir = dir
	cmd.Env = []string{"LC_ALL=C", "PATH=/usr/bin:/bin"}
	out, err := cmd.Output()
	require.NoError(t, err, "%s -c %q", shellName, src)
	return strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
}

// TestExpandAgreesWithShells drives bash and dash as a user would and
// checks that every expansion Expand calls exact is the shell's own.
func TestExpandAgreesWithShells(t *testing.T) {
	dir := globTree(t)
	patterns := []string{
		"*", "[!a]*", "[^a]*", "[[:punct:]]*", "[[:alpha:]]", "[[:upper:]]*", "[[.-.]]*", "[[=^=]]", "?",
		"??", "[a-c]", "[0-9]*", "*.go", "sub/*", "*/*.go", "*/", "l*", "[-]*", "[]a]", "[!]a]*", "\\**",
		"'-'*", "\"[\"*", "\"-\"*", "*[[:space:]]*", "[!-]*", "e*/pass*", "*x", "[[:digit:][:upper:]]*", "[!a-z]*",
		"--*", "*=*", "[b-c]", "[A-Z]*", "*:*", "sub/[-]*", "*/inner.go", "[s]ub/inner.go", "*/-n",
	}
	for _, sh := range []struct {
		name string
		d    Dialect
	}{{"bash", Bash}, {"dash", POSIX}} {
		if _, err := exec.LookPath(sh.name); err != nil {
			t.Logf("%s not installed: its expansions are not compared", sh.name)
			continue
		}
		exact := 0
		for _, src := range patterns {
			s, err := Parse("ls "+src, sh.d)
			require.NoError(t, err, src)
			c := s.Commands[0]
			require.NotNil(t, c.Globs, "%s has no glob", src)
			got, err := Expand(dir, c.Patterns[1], sh.d, DefaultGlobLimits())
			if err != nil {
				require.ErrorIs(t, err, ErrNotExact)
				t.Logf("%s %s: not exact (%v)", sh.name, src, err)
				continue
			}
			exact++
			if len(got) == 0 {
				got = []string{c.Args[1]}
			}
			want := shellExpand(t, sh.name, dir, src)
			require.Equal(t, want, got, "%s: %s", sh.name, src)
		}
		require.Greater(t, exact, len(patterns)*3/4, sh.name)
	}
}

func TestExpandNotExact(t *testing.T) {
	dir := globTree(t)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "é"), nil, 0o644))
	require.NoError(t, os.Symlink("missing", filepath.Join(dir, "sub", "dangling")))
	for _, c := range []struct {
		pat string
		d   Dialect
	}{
		{".*", Bash},            // . and .. in bash before 5.2
		{"?", Bash},             // é is one character or two bytes
		{"[a-Z]", Bash},         // mixed-case range
		{"[a-c]*", Bash},        // B lies between a and c in dictionary order
		{"[[.hyphen.]]*", Bash}, // named collating element
		{"[[=a=]]", Bash},       // letters have accented equivalents
		{"[[.-.]]*", POSIX},     // dash has no collating symbols
		{"[\\a]*", Bash},        // backslash inside brackets
		{"[[:word:]]", Bash},    // not a class dash knows
		{"*/dangling", Bash},    // dangling symbolic link
		{"*", MirBSDKorn},       // mksh patterns are not modelled
		{"sub//*", Bash},        // empty component
		{"[[:alpha:]", Bash},    // unterminated class
	} {
		_, err := Expand(dir, c.pat, c.d, DefaultGlobLimits())
		require.ErrorIs(t, err, ErrNotExact, "%v %q", c.d, c.pat)
	}
	_, err := Expand(dir, "*", Bash, GlobLimits{Entries: 3, Matches: 100})
	require.ErrorIs(t, err, ErrNotExact)
	_, err = Expand(dir, "*", Bash, GlobLimits{Entries: 100, Matches: 2})
	require.ErrorIs(t, err, ErrNotExact)
}

func TestExpandOptionLikeNames(t *testing.T) {
	dir := globTree(t)
	got, err := Expand(dir, "[!a]*", Bash, DefaultGlobLimits())
	require.NoError(t, err)
	require.Contains(t, got, "-rf")
	require.Contains(t, got, "--checkpoint-action=exec=sh x")
	require.NotContains(t, got, "a")
	require.NotContains(t, got, ".hidden")
	got, err = Expand(dir, "[^a]", POSIX, DefaultGlobLimits())
	require.NoError(t, err)
	require.Equal(t, []string{"^", "a"}, got) // dash: ^ is a member
	got, err = Expand(dir, "*", Bash, DefaultGlobLimits())
	require.NoError(t, err)
	require.True(t, slices.Contains(got, "link") && slices.Contains(got, "etclink"))
	got, err = Expand(dir, "etclink/pass*", Bash, DefaultGlobLimits())
	require.NoError(t, err)
	require.Contains(t, got, "etclink/passwd")
}

func TestMatchErrors(t *testing.T) {
	_, err := Match("a/b", "a", Bash)
	require.True(t, errors.Is(err, ErrNotExact))
	ok, err := Match("[!a]*", "-rf", Bash)
	require.NoError(t, err)
	require.True(t, ok)
	ok, err = Match("*", ".env", Bash)
	require.NoError(t, err)
	require.False(t, ok)
}
