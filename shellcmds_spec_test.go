package sandboxauth

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/internal/programs"
)

// TestSpecProbes is generated from the specs: for every safe form, an
// unknown long option, an unknown short option (alone and inside a bundle
// of known flags), every spelling of each unsafe option, an abbreviation of
// each unsafe long option where the syntax allows abbreviations, and each
// unsafe option's =value form are never safe.
func TestSpecProbes(t *testing.T) {
	s := NewShellAllowedCommands()
	for _, sp := range programs.All() {
		if sp.TextOnly {
			continue // arguments are only text
		}
		base := append([]string{sp.Command}, sp.Prefix...)
		var probes [][]string
		add := func(words ...string) {
			probes = append(probes, append(append([]string(nil), base...), words...))
		}
		if sp.Syntax == programs.Find || sp.Syntax == programs.GoFlag || sp.Syntax == programs.GoTool {
			add("-zz-unknown-option")
		} else {
			add("--zz-unknown-option")
			add("--zz=zz")
			if c, ok := unusedShort(sp); ok {
				add("-" + c)
				if f, ok := knownFlag(sp); ok {
					add("-" + f + c)
				}
			}
		}
		for _, o := range sp.Options {
			if o.Unsafe == "" {
				continue
			}
			for _, n := range o.Names {
				add(n, "x")
				add(n+"=x", "y")
				if (sp.Syntax == programs.GNU || sp.Syntax == programs.Argparse) && strings.HasPrefix(n, "--") && len(n) > 4 {
					add(n[:len(n)-1], "x")
				}
			}
		}
		for _, argv := range probes {
			r, err := s.Check(argv)
			require.NoError(t, err)
			assert.NotEqual(t, safe, r, "%q must not be safe", argv)
		}
	}
}

// unusedShort returns a letter that is no short option of sp.
func unusedShort(sp *programs.Spec) (string, bool) {
	used := map[byte]bool{}
	for _, o := range sp.Options {
		for _, n := range o.Names {
			if len(n) == 2 {
				used[n[1]] = true
			}
		}
	}
	for _, c := range []byte("ZQjJWYKkXx") {
		if !used[c] && !(sp.Numeric && c >= '0' && c <= '9') {
			return string(c), true
		}
	}
	return "", false
}

// knownFlag returns a harmless short flag of sp that takes no value.
func knownFlag(sp *programs.Spec) (string, bool) {
	for _, o := range sp.Options {
		if o.Unsafe != "" || o.Arity != programs.NoValue {
			continue
		}
		for _, n := range o.Names {
			if len(n) == 2 && n[1] != '-' {
				return n[1:], true
			}
		}
	}
	return "", false
}

// TestRecursiveReadersAndProtectedFiles: a recursive reader over a tree
// that holds a protected file is not safe; the same reader over a tree
// without one, or one that skips hidden files, is.
func TestRecursiveReadersAndProtectedFiles(t *testing.T) {
	f := newFixture(t)
	require.NoError(t, os.WriteFile(filepath.Join(f.sandbox, ".env"), []byte("KEY=secret\n"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(f.sandbox, "sub", "a.go"), []byte("KEY\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(f.sandbox, "deep", "x"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(f.sandbox, "deep", "x", ".env.local"), []byte("KEY=secret\n"), 0o600))
	rules, err := compileProtected(DefaultProtectedPaths())
	require.NoError(t, err)
	s := NewShellAllowedCommands()
	tests := []struct {
		argv []string
		want CommandCheckResult
	}{
		{[]string{"grep", "-r", "KEY", "."}, dangerous},
		{[]string{"grep", "-rn", "KEY"}, dangerous},
		{[]string{"grep", "-rn", "KEY", "sub"}, safe},
		{[]string{"grep", "-r", "KEY", "deep"}, dangerous},
		{[]string{"grep", "-n", "KEY", "sub/a.go"}, safe},
		{[]string{"grep", "KEY", ".env"}, dangerous},
		{[]string{"rg", "KEY"}, safe},
		{[]string{"rg", "-n", "KEY", "sub"}, safe},
		{[]string{"rg", "--hidden", "KEY"}, dangerous},
		{[]string{"rg", "-uu", "KEY"}, dangerous},
		{[]string{"rg", "--no-ignore", "KEY", "deep"}, dangerous},
		{[]string{"rg", "-e", "-z", "sub"}, safe},
		// git prints files from history and the index by name.
		{[]string{"git", "log", "--oneline"}, safe},
		{[]string{"git", "show", "HEAD:.env"}, dangerous},
		{[]string{"git", "show", ":deep/x/.env.local"}, dangerous},
		{[]string{"git", "cat-file", "-p", "HEAD~2:.env"}, dangerous},
		{[]string{"git", "log", "-p", "--", ".env"}, dangerous},
		{[]string{"git", "show", "HEAD:sub/a.go"}, safe},
		{[]string{"git", "log", "--", "/etc/passwd"}, dangerous},
		{[]string{"git", "grep", "KEY"}, dangerous},
		{[]string{"git", "grep", "KEY", "--", "sub"}, safe},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.argv, " "), func(t *testing.T) {
			v := s.classifyProtected(CommandSite{SandboxDir: f.sandbox}, rules, nil, tt.argv, nil)
			assert.Equal(t, tt.want, v.Result, "%s: %s", v.Rule, v.Reason)
		})
	}
}

// TestSpecRefusalKeepsBlocked: a read-only form of a blocked program is
// safe by its spec; its other forms stay blocked (not merely asked about),
// and an unknown option of the read-only form is blocked too, because the
// blocked list names the program.
func TestSpecRefusalKeepsBlocked(t *testing.T) {
	s := NewShellAllowedCommands()
	tests := []struct {
		argv []string
		want CommandCheckResult
	}{
		{[]string{"crontab", "-l"}, safe},
		{[]string{"crontab", "-r"}, blocked},
		{[]string{"crontab", "-l", "-r"}, blocked},
		{[]string{"systemctl", "status", "nginx"}, safe},
		{[]string{"systemctl", "stop", "nginx"}, blocked},
		{[]string{"dpkg", "-l"}, safe},
		{[]string{"dpkg", "-i", "x.deb"}, blocked},
		{[]string{"brew", "list"}, safe},
		{[]string{"brew", "install", "x"}, blocked},
		{[]string{"docker", "ps"}, safe},
		{[]string{"docker", "run", "alpine"}, dangerous},
		{[]string{"tar", "-tf", "a.tar"}, safe},
		{[]string{"tar", "-xf", "a.tar"}, dangerous},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.argv, " "), func(t *testing.T) {
			r, err := s.Check(tt.argv)
			require.NoError(t, err)
			assert.Equal(t, tt.want, r)
		})
	}
}
