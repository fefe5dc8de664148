package shell

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestIsOperator(t *testing.T) {
	for _, w := range []string{"|", "||", "&&", ";", "&", "{", "}", ">", ">>", "<", "2>", "2>>", "2>&1", ">&2", "1>&-", "0<&3", "&>", "&>>", ">|", "<>", "$"} {
		assert.True(t, IsOperator(w), w)
	}
	for _, w := range []string{"a|b", "x>y", "-E", "", "2", "2&>", ">&x", "2>&1x", "foo", "'|'", "{}", "\\;"} {
		assert.False(t, IsOperator(w), w)
	}
}

func TestHasSubstitution(t *testing.T) {
	for _, w := range []string{"$(id)", "a${HOME}", "`id`", "<(ls)", ">(cat)", "x$(y)z"} {
		assert.True(t, HasSubstitution(w), w)
	}
	for _, w := range []string{"$HOME", "a(b)", "x<(y)", "price$", "", "{}"} {
		assert.False(t, HasSubstitution(w), w)
	}
}
