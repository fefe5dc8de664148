package classify

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestPosixlyCorrect: with POSIXLY_CORRECT, GNU getopt stops at the first
// operand, so grep KEY a -e .env reads .env (verified with GNU grep 3.8).
// Set by an assignment, it makes the command not safe; inherited by the
// commands this process starts, the argv is judged both ways.
func TestPosixlyCorrect(t *testing.T) {
	sb := engineSandbox(t)
	c := &Commands{}
	c.AddDefaults()
	site := Site{SandboxDir: sb, Cwd: filepath.Join(sb)}
	leak := []string{"grep", "KEY", "main.go", "-e", ".env"}
	v := c.Classify(site, protectedDefaults(t), nil, leak, nil)
	assert.Equal(t, Safe, v.Result(), "without POSIXLY_CORRECT, -e gives the pattern: %s", v.Rule())
	v = c.Classify(site, protectedDefaults(t), nil, append([]string{"env", "POSIXLY_CORRECT=1"}, leak...), nil)
	assert.NotEqual(t, Safe, v.Result(), "an assignment: %s", v.Rule())
	t.Setenv("POSIXLY_CORRECT", "1")
	v = c.Classify(site, protectedDefaults(t), nil, leak, nil)
	assert.Equal(t, Dangerous, v.Result(), "inherited: %s", v.Rule())
	v = c.Classify(site, protectedDefaults(t), nil, []string{"grep", "-n", "KEY", "main.go"}, nil)
	assert.Equal(t, Safe, v.Result(), "options before the operands read the same both ways: %s", v.Rule())
}
