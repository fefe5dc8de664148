package programs

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestWrites: the words a program writes, creates or deletes are found
// past the options its spec knows to be unsafe, and not at all when an
// option is unknown.
func TestWrites(t *testing.T) {
	tests := []struct {
		command string
		args    []string
		want    []string
		ok      bool
	}{
		{"rm", []string{"-rf", "~", "build"}, []string{"~", "build"}, true},
		{"rm", []string{"-f", "--", "-x"}, []string{"-x"}, true},
		{"touch", []string{"-d", "now", "a"}, []string{"a"}, true},
		{"cp", []string{"/etc/hostname", "b"}, []string{"b"}, true},
		{"cp", []string{"-t", "d", "a", "b"}, []string{"d"}, true},
		{"mv", []string{"a", "b", "d"}, []string{"d", "a", "b"}, true},
		{"cat", []string{"a"}, nil, true},
		{"sort", []string{"-o", "/etc/x", "a"}, []string{"/etc/x"}, true},
		{"find", []string{".", "-fprint", "/etc/x"}, []string{"/etc/x"}, true},
		{"rm", []string{"--frobnicate", "a"}, nil, false},
	}
	for _, tt := range tests {
		sp := Form(tt.command, tt.args)
		if !assert.NotNil(t, sp, tt.command) {
			continue
		}
		got, ok := Writes(sp, tt.args[len(sp.Prefix):])
		assert.Equal(t, tt.ok, ok, "%s %v", tt.command, tt.args)
		assert.Equal(t, tt.want, got, "%s %v", tt.command, tt.args)
	}
}
