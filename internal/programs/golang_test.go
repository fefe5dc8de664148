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
