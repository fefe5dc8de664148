package hookstart

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestIsHookCall(t *testing.T) {
	tests := []struct {
		args []string
		want bool
	}{
		{[]string{"hook", "--for", "claude-code"}, true},
		{[]string{"hook", "--for=codex", "--config", "p.json"}, true},
		{[]string{"hook"}, true}, // a usage error, still a hook process
		{[]string{"hook", "install", "--for", "codex"}, false},
		{[]string{"run", "--", "hook"}, false},
		{[]string{"check", "--", "go", "test"}, false},
		{[]string{"version"}, false},
		{nil, false},
		{[]string{"-test.run=TestX"}, false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, IsHookCall(tt.args), "%q", tt.args)
	}
}
