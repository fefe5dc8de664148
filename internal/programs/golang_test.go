package programs

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRunsGitStatus(t *testing.T) {
	tests := []struct {
		line string
		runs bool
	}{
		{"go build ./...", true},
		{"go install ./cmd/x", true},
		{"go build -o bin/x .", true},
		{"go build -buildvcs=false ./...", false},
		{"go build --buildvcs=false ./...", false},
		{"go vet ./...", false},
		{"go", false},
		{"gofmt -l .", false},
		{"git build", false},
	}
	for _, tt := range tests {
		w := strings.Fields(tt.line)
		why := RunsGitStatus(w[0], w[1:])
		assert.Equal(t, tt.runs, why != "", "%s: %q", tt.line, why)
		if tt.runs {
			assert.Contains(t, why, "git status", tt.line)
		}
	}
}

// TestGoPackagesCheck: a package pattern that is absolute or climbs with
// ".." names code outside the project; import paths and patterns beneath
// the working directory do not. (Words after -args go to the test binary
// and are read as patterns too: refused, never widened.)
func TestGoPackagesCheck(t *testing.T) {
	sp := Lookup("go", []string{"test"})
	if !assert.NotNil(t, sp) {
		return
	}
	tests := map[string]bool{ // the argv after "go test": refused?
		"./...": false, ".": false, "./cmd/x": false, "fmt": false, "example.com/x/...": false, "std": false,
		"..": true, "../x": true, "../x/...": true, "./a/../..": true, "./a/..": true, "/abs/...": true,
		"-run X ./... -count=1": false, "./... -args ../x": true,
	}
	for line, refused := range tests {
		p := Parse(sp, strings.Fields(line))
		assert.Equal(t, refused, p.Problem != nil && strings.Contains(p.Problem.Rule, "go package outside"), "go test %s: %+v", line, p.Problem)
	}
}
