package programs

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/sandboxauth/sandboxauth/internal/shell"
)

func TestParseShellInvocation(t *testing.T) {
	tests := []struct {
		args    []string
		script  string
		file    string
		problem string // a word of the problem; "" for none
	}{
		{[]string{"-c", "ls"}, "ls", "", ""},
		{[]string{"-lc", "ls"}, "ls", "", ""},
		{[]string{"-eux", "-c", "ls"}, "ls", "", ""},
		{[]string{"--login", "-c", "ls"}, "ls", "", ""},
		{[]string{"-o", "pipefail", "-c", "ls"}, "ls", "", ""},
		{[]string{"-oc", "pipefail", "ls"}, "ls", "", ""},
		{[]string{"build.sh"}, "", "build.sh", ""},
		{[]string{"-e", "build.sh"}, "", "build.sh", ""},
		{[]string{"--", "build.sh"}, "", "build.sh", ""},
		{[]string{"-c", "ls", "x"}, "", "", "$0"},
		{[]string{"-c"}, "", "", "without a script"},
		{[]string{}, "", "", "standard input"},
		{[]string{"-i", "-c", "ls"}, "", "", "-i"},
		{[]string{"+c", "ls"}, "", "", "+c"},
		{[]string{"--rcfile", "x", "-c", "ls"}, "", "", "--rcfile"},
		{[]string{"-o", "posix", "-c", "ls"}, "", "", "-o posix"},
		{[]string{"-o"}, "", "", "without a name"},
	}
	for _, tt := range tests {
		name := strings.Join(tt.args, " ")
		sc := ParseShellInvocation(tt.args)
		if tt.problem != "" {
			assert.Contains(t, sc.Problem, tt.problem, name)
			continue
		}
		assert.Empty(t, sc.Problem, name)
		assert.Equal(t, tt.script, sc.Script, name)
		assert.Equal(t, tt.script != "", sc.HasC, name)
		assert.Equal(t, tt.file, sc.File, name)
	}
}

func TestShellGrammars(t *testing.T) {
	ds, ok := ShellGrammars("sh")
	assert.True(t, ok)
	assert.Equal(t, []shell.Dialect{shell.POSIX, shell.Bash}, ds, "sh is read as dash and as bash")
	_, ok = ShellGrammars("fish")
	assert.False(t, ok)
	assert.Contains(t, ForeignShells(), "fish")
	assert.Contains(t, Shells(), "zsh")
	for _, f := range ForeignShells() {
		assert.NotContains(t, Shells(), f)
	}
}

func TestRsyncRemoteOperand(t *testing.T) {
	for a, want := range map[string]bool{
		"host:path": true, "user@host:/x": true, "host::module": true, "rsync://host/m": true,
		"./a:b": false, "dir/x:y": false, "local": false, "-e": false, "/abs/path": false,
	} {
		assert.Equal(t, want, RsyncRemoteOperand(a), a)
	}
}

func TestShellDefaultPathAndRunnerConfig(t *testing.T) {
	assert.True(t, strings.HasSuffix(ShellDefaultPath("bash"), ":."), "bash searches the working directory last")
	assert.True(t, strings.HasSuffix(ShellDefaultPath("zsh"), ":."), "an unknown default is taken as bash's")
	assert.NotContains(t, strings.Split(ShellDefaultPath("dash"), ":"), ".")
	assert.True(t, RunnerConfigOption("npm", []string{"test", "--script-shell=x"}))
	assert.False(t, RunnerConfigOption("npm", []string{"test"}))
	assert.False(t, RunnerConfigOption("pnpm", []string{"test", "--script-shell=x"}))
}
