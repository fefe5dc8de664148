package programs

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestGitGlobals(t *testing.T) {
	tests := []struct {
		name    string
		argv    []string
		norm    []string
		dirs    []string
		problem string // a word the problem names; "" for none
	}{
		{"no globals", []string{"git", "status"}, []string{"git", "status"}, nil, ""},
		{"harmless dropped", []string{"git", "--no-pager", "-P", "log"}, []string{"git", "log"}, nil, ""},
		{"-C kept for the path checks", []string{"git", "-C", "sub", "status"}, []string{"git", "status"}, []string{"sub"}, ""},
		{"two -C", []string{"git", "-C", "a", "-C", "b", "diff"}, []string{"git", "diff"}, []string{"a", "b"}, ""},
		{"-C without a value", []string{"git", "-C"}, []string{"git", "-C"}, nil, ""},
		{"unknown global left for the spec", []string{"git", "--zz", "status"}, []string{"git", "--zz", "status"}, nil, ""},
		{"unknown after a dropped one", []string{"git", "--no-pager", "--zz", "status"}, []string{"git", "--zz", "status"}, nil, ""},
		{"version", []string{"git", "--version"}, []string{"git", "--version"}, nil, ""},
		{"only globals", []string{"git", "--no-pager"}, []string{"git"}, nil, ""},

		{"-c sets configuration", []string{"git", "-c", "core.pager=sh", "log"}, nil, nil, "-c"},
		{"-c attached", []string{"git", "-ccore.pager=sh", "log"}, nil, nil, "-c"},
		{"--config-env", []string{"git", "--config-env=core.pager=X", "log"}, nil, nil, "--config-env"},
		{"--git-dir", []string{"git", "--git-dir=/tmp/x", "log"}, nil, nil, "another repository"},
		{"--git-dir separate", []string{"git", "--git-dir", "/tmp/x", "log"}, nil, nil, "another repository"},
		{"--work-tree", []string{"git", "--work-tree=/", "status"}, nil, nil, "another repository"},
		{"--bare", []string{"git", "--bare", "log"}, nil, nil, "another repository"},
		{"--exec-path", []string{"git", "--exec-path=/tmp", "status"}, nil, nil, "exec-path"},
		{"pager", []string{"git", "-p", "log"}, nil, nil, "pager"},
		{"paginate", []string{"git", "--paginate", "log"}, nil, nil, "pager"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			norm, dirs, problem := GitGlobals(tt.argv)
			if tt.problem != "" {
				assert.Contains(t, problem, tt.problem)
				return
			}
			assert.Empty(t, problem)
			assert.Equal(t, tt.norm, norm)
			assert.Equal(t, tt.dirs, dirs)
		})
	}
}
