package classify

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSplitDistrustsSteeringWords: a read-only segment whose words name a
// file that steers later programs counts as a writer, since its grammar
// may have misread which word it writes (xxd -rc IN .git/config wrote
// .git/config, and the git status after it ran core.fsmonitor: verified).
func TestSplitDistrustsSteeringWords(t *testing.T) {
	sb := engineSandbox(t)
	require.NoError(t, os.MkdirAll(filepath.Join(sb, ".git", "info"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(sb, ".git", "config"), []byte("[core]\n\tbare = false\n"), 0o644))
	require.NoError(t, os.Symlink(".git", filepath.Join(sb, "gitdir")))
	split := &Commands{}
	split.AddDefaults()
	split.SetSplitCompound(true)
	tests := []struct {
		script string
		want   Result
	}{
		{"cat .git/config && git status", Dangerous},
		{"cat gitdir/config && git status", Dangerous},
		{"head -c0 .rgignore; rg KEY sub", Dangerous},
		{"grep -f.ignore x main.go; rg KEY sub", Dangerous},
		{"grep --file=.ignore x main.go; rg KEY sub", Dangerous},
		{"file -m README.md:.rgignore main.go; rg KEY sub", Dangerous},
		{"cat go.mod && cat main.go", Dangerous},
		{"grep -hf.rgignore main.go; rg KEY sub", Dangerous},
		{"cat README.md && git status", Safe},
		{"ls && git status && cat README.md", Safe},
		{"cat main.go; rg KEY sub", Safe},
		{"cd sub && cat a.go && git status", Safe},
	}
	for _, tt := range tests {
		t.Run(tt.script, func(t *testing.T) {
			v := split.Classify(Site{SandboxDir: sb, Cwd: sb}, protectedDefaults(t), nil, []string{"bash", "-c", tt.script}, nil)
			assert.Equal(t, tt.want, v.Result(), "%s: %s (%s)", tt.script, v.Rule(), v.Reason())
		})
	}
}
