package programs

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCopyDestination(t *testing.T) {
	tests := []struct {
		line    string
		dest    string
		sources string
		noDir   bool
		ok      bool
	}{
		{"cp a b dir", "dir", "a b", false, true},
		{"cp -t dir a b", "dir", "a b", false, true},
		{"mv -T a b", "b", "a", true, true},
		{"cp --target-directory=dir a", "dir", "a", false, true},
		{"cp a", "", "", false, false},
	}
	for _, tt := range tests {
		w := strings.Fields(tt.line)
		sp := Form(w[0], w[1:])
		if !assert.NotNil(t, sp, tt.line) {
			continue
		}
		p := Acquire(sp, w[1:])
		assert.Nil(t, p.Problem, tt.line)
		dest, sources, noDir, ok := CopyDestination(p)
		Release(p)
		assert.Equal(t, tt.ok, ok, tt.line)
		assert.Equal(t, tt.dest, dest, tt.line)
		assert.Equal(t, tt.sources, strings.Join(sources, " "), tt.line)
		assert.Equal(t, tt.noDir, noDir, tt.line)
	}
}
