package programs

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

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
