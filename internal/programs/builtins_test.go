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
