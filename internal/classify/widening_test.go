package classify

import (
	"strings"
	"testing"

	"github.com/sandboxauth/sandboxauth/internal/programs"

	"github.com/stretchr/testify/assert"
)

// TestLetsThrough: safe entries that make the lists meaningless are
// found by what the engine knows of the program (its kind, the default
// dangerous entries it overrules, its spec's unsafe options); entries
// that pin a subcommand, file or module, or except the unsafe options,
// are not.
func TestLetsThrough(t *testing.T) {
	tests := []struct {
		name string
		m    Matcher
		want []string // substrings, one per expected finding
	}{
		{"shell", Matcher{Command: "bash"}, []string{"bash runs any script given to it"}},
		{"shell with -c", Matcher{Command: "sh", CommandArgsPrefix: []string{"-c"}}, []string{"sh runs any script"}},
		{"wrapper", Matcher{Command: "env"}, []string{"env runs any command given to it"}},
		{"xargs", Matcher{Command: "xargs"}, []string{"xargs runs any command"}},
		{"interpreter, versioned", Matcher{Command: "python3", CommandArgsPrefix: []string{"-c"}}, []string{"python3 -c (runs inline code or a module)"}},
		{"interpreter, bare", Matcher{Command: "python3"}, []string{"python3 -c (runs inline code or a module)"}},
		{"find", Matcher{Command: "find"}, []string{"find -exec, -execdir, -ok, -okdir (runs a command for each file)"}},
		{"rm", Matcher{Command: "rm"}, []string{"rm -r (recursive or forced removal)"}},
		{"git", Matcher{Command: "git"}, []string{"git ", "git ", "git ", "more that the default dangerous list asks about"}},
		{"find without its unsafe options", Matcher{Command: "find", ExceptFlags: programs.Form("find", nil).UnsafeNames()}, nil},
		{"ls follows links", Matcher{Command: "ls"}, []string{"ls -L (follows symbolic links"}},
		{"a module", Matcher{Command: "python3", CommandArgsPrefix: []string{"-m", "pytest"}}, nil},
		{"a script", Matcher{Command: "bash", CommandArgsPrefix: []string{"scripts/test.sh"}}, nil},
		{"a subcommand", Matcher{Command: "make", CommandArgsPrefix: []string{"test"}}, nil},
		{"a program the engine does not know", Matcher{Command: "frobnicate"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.m.LetsThrough()
			if tt.want == nil {
				assert.Empty(t, got)
				return
			}
			all := strings.Join(got, "\n")
			for _, w := range tt.want {
				assert.Contains(t, all, w)
			}
		})
	}
}
