package programs

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestChangeDirectory(t *testing.T) {
	tests := []struct {
		line string
		ok   bool
		want DirChange
	}{
		{"cd sub", true, DirChange{Dir: "sub"}},
		{"cd -P -- sub", true, DirChange{Dir: "sub"}},
		{"cd -L -e /tmp", true, DirChange{Dir: "/tmp"}},
		{"pushd sub", true, DirChange{Dir: "sub"}},
		{"cd", true, DirChange{}},
		{"cd -", true, DirChange{}},
		{"cd -x sub", true, DirChange{}},
		{"cd a b", true, DirChange{}},
		{"popd", true, DirChange{Back: true}},
		{"popd +1", true, DirChange{Problem: "popd arguments are not analysed"}},
		{"ls sub", false, DirChange{}},
	}
	for _, tt := range tests {
		got, ok := ChangeDirectory(strings.Fields(tt.line))
		assert.Equal(t, tt.ok, ok, tt.line)
		assert.Equal(t, tt.want, got, tt.line)
	}
	_, ok := ChangeDirectory(nil)
	assert.False(t, ok)
}

func TestFindAndMatcherSyntax(t *testing.T) {
	for _, n := range []string{"find", "gfind", "bfs"} {
		assert.True(t, IsFind(n), n)
		assert.Equal(t, Find, MatcherSyntax(n), n)
	}
	assert.False(t, IsFind("fd"))
	for _, a := range []string{"-exec", "-execdir", "-ok", "-okdir"} {
		assert.True(t, FindExecAction(a), a)
	}
	assert.False(t, FindExecAction("-delete"))
	assert.False(t, FindExecAction("exec"))
	for _, n := range []string{"go", "gofmt", "goimports", "godoc", "gopls"} {
		assert.Equal(t, GoFlag, MatcherSyntax(n), n)
	}
	assert.Equal(t, Find, MatcherSyntax("java"))
	assert.Equal(t, GNU, MatcherSyntax("git"))
	assert.Equal(t, GNU, MatcherSyntax("ls"))
}

func TestShellDefaultPathAndRunnerConfig(t *testing.T) {
	assert.True(t, strings.HasSuffix(ShellDefaultPath("bash"), ":."), "bash searches the working directory last")
	assert.True(t, strings.HasSuffix(ShellDefaultPath("zsh"), ":."), "an unknown default is taken as bash's")
	assert.NotContains(t, strings.Split(ShellDefaultPath("dash"), ":"), ".")
	assert.True(t, RunnerConfigOption("npm", []string{"test", "--script-shell=x"}))
	assert.False(t, RunnerConfigOption("npm", []string{"test"}))
	assert.False(t, RunnerConfigOption("pnpm", []string{"test", "--script-shell=x"}))
}
