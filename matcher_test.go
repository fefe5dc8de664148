package sandboxauth

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCommandMatcherMatches(t *testing.T) {
	tests := []struct {
		name string
		m    CommandMatcher
		argv []string
		want bool
	}{
		{"bare", CommandMatcher{Command: "curl"}, []string{"curl", "x"}, true},
		{"base name", CommandMatcher{Command: "curl"}, []string{"/usr/bin/curl"}, true},
		{"relative path", CommandMatcher{Command: "curl"}, []string{"../../bin/curl"}, true},
		{"case", CommandMatcher{Command: "curl"}, []string{"CURL"}, true},
		{"exe", CommandMatcher{Command: "curl"}, []string{"curl.exe"}, true},
		{"versioned", CommandMatcher{Command: "python"}, []string{"python3.12", "-c", "x"}, true},
		{"pip3", CommandMatcher{Command: "pip", CommandArgsPrefix: []string{"install"}}, []string{"pip3", "install", "x"}, true},
		{"other name", CommandMatcher{Command: "curl"}, []string{"curlx"}, false},
		{"empty matcher", CommandMatcher{}, []string{"ls"}, false},
		{"empty argv", CommandMatcher{Command: "ls"}, nil, false},

		{"prefix", CommandMatcher{Command: "go", CommandArgsPrefix: []string{"test"}}, []string{"go", "test", "."}, true},
		{"prefix not first", CommandMatcher{Command: "go", CommandArgsPrefix: []string{"test"}}, []string{"go", "help", "test"}, false},
		{"prefix too short", CommandMatcher{Command: "go", CommandArgsPrefix: []string{"mod", "tidy"}}, []string{"go", "mod"}, false},
		{"prefix two", CommandMatcher{Command: "go", CommandArgsPrefix: []string{"mod", "tidy"}}, []string{"go", "mod", "tidy"}, true},

		{"flag exact", CommandMatcher{Command: "npm", Flags: []string{"--global"}}, []string{"npm", "i", "--global", "x"}, true},
		{"flag =value", CommandMatcher{Command: "npm", Flags: []string{"--location"}}, []string{"npm", "i", "--location=global"}, true},
		{"flag space value", CommandMatcher{Command: "npm", Flags: []string{"--global"}}, []string{"npm", "--global x"}, true},
		{"flag abbreviation", CommandMatcher{Command: "sort", Flags: []string{"--output"}}, []string{"sort", "--out=x"}, true},
		{"flag longer name", CommandMatcher{Command: "git", Flags: []string{"--output"}}, []string{"git", "--output-indicator-new=+"}, false},
		{"flag absent", CommandMatcher{Command: "npm", Flags: []string{"--global"}}, []string{"npm", "i", "x"}, false},
		{"short flag", CommandMatcher{Command: "rm", Flags: []string{"-f"}}, []string{"rm", "-f", "x"}, true},
		{"short bundle", CommandMatcher{Command: "rm", Flags: []string{"-f"}}, []string{"rm", "-rf", "x"}, true},
		{"short bundle reversed", CommandMatcher{Command: "rm", Flags: []string{"-f"}}, []string{"rm", "-fr", "x"}, true},
		{"short attached value", CommandMatcher{Command: "sort", Flags: []string{"-o"}}, []string{"sort", "-o/tmp/x"}, true},
		{"short in long", CommandMatcher{Command: "rm", Flags: []string{"-f"}}, []string{"rm", "--force-not"}, false},
		{"after operand", CommandMatcher{Command: "rm", Flags: []string{"-r"}}, []string{"rm", "x", "-r"}, true},
		{"stops at --", CommandMatcher{Command: "rm", Flags: []string{"-r"}}, []string{"rm", "--", "-r"}, false},
		{"any of flags", CommandMatcher{Command: "rm", Flags: []string{"-r", "-f"}}, []string{"rm", "-f"}, true},
		{"flags after prefix only", CommandMatcher{Command: "git", CommandArgsPrefix: []string{"branch"}, Flags: []string{"-d"}}, []string{"git", "branch", "x"}, false},

		{"except absent", CommandMatcher{Command: "find", ExceptFlags: []string{"-exec"}}, []string{"find", ".", "-name", "x"}, true},
		{"except present", CommandMatcher{Command: "find", ExceptFlags: []string{"-exec"}}, []string{"find", ".", "-exec", "rm", "{}", "+"}, false},
		{"find no bundling", CommandMatcher{Command: "find", ExceptFlags: []string{"-d"}}, []string{"find", ".", "-delete"}, true},
		{"find ignores --", CommandMatcher{Command: "find", ExceptFlags: []string{"-exec"}}, []string{"find", "--", ".", "-exec", "x"}, false},
		{"except bundle", CommandMatcher{Command: "sed", ExceptFlags: []string{"-i"}}, []string{"sed", "-Ei", "s/a/b/", "f"}, false},
		{"except long =", CommandMatcher{Command: "git", CommandArgsPrefix: []string{"log"}, ExceptFlags: []string{"--output"}}, []string{"git", "log", "--output=x"}, false},
		{"except after --", CommandMatcher{Command: "rg", ExceptFlags: []string{"--pre"}}, []string{"rg", "--", "--pre=x"}, true},
		{"except word", CommandMatcher{Command: "git", CommandArgsPrefix: []string{"reflog"}, ExceptFlags: []string{"expire"}}, []string{"git", "reflog", "expire"}, false},
		{"except word absent", CommandMatcher{Command: "git", CommandArgsPrefix: []string{"reflog"}, ExceptFlags: []string{"expire"}}, []string{"git", "reflog", "-n", "3"}, true},

		{"go one dash", CommandMatcher{Command: "go", ExceptFlags: []string{"-o"}}, []string{"go", "build", "-o", "x"}, false},
		{"go two dashes", CommandMatcher{Command: "go", ExceptFlags: []string{"-o"}}, []string{"go", "build", "--o=x"}, false},
		{"go =", CommandMatcher{Command: "go", ExceptFlags: []string{"-exec"}}, []string{"go", "test", "-exec=x"}, false},
		{"go --exec=", CommandMatcher{Command: "go", ExceptFlags: []string{"-exec"}}, []string{"go", "test", "--exec=x"}, false},
		{"go no bundling", CommandMatcher{Command: "go", ExceptFlags: []string{"-o"}}, []string{"go", "test", "-count=1"}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.m.Matches(tc.argv))
		})
	}
}

func TestCommandMatcherString(t *testing.T) {
	m := CommandMatcher{Command: "git", CommandArgsPrefix: []string{"log"}, Flags: []string{"-p"}, ExceptFlags: []string{"--output", "--ext-diff"}}
	assert.Equal(t, "git log [-p] (except --output, --ext-diff)", m.String())
}
