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

// TestSetSpec: set is safe only with the options of error handling and
// tracing; bare set prints every variable, and -k, -a, -o posix and
// positional parameters change how later commands are read.
func TestSetSpec(t *testing.T) {
	sp := Lookup("set", nil)
	if !assert.NotNil(t, sp) {
		return
	}
	tests := map[string]bool{
		"-e": true, "+e": true, "-eu": true, "-euo pipefail": true, "-o errexit": true, "+o xtrace": true, "-x -v": true,
		"": false, "-k": false, "-a": false, "-o allexport": false, "-o keyword": false, "-o posix": false,
		"-B": false, "+H": false, "-- a b": false, "a": false, "-o": false, "-eo": false, "-f": false,
	}
	for line, safe := range tests {
		p := Parse(sp, strings.Fields(line))
		assert.Equal(t, safe, p.Problem == nil, "set %s", line)
	}
}
