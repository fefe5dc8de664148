package classify

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGlobOrderUnknown: the shell sorts a glob's matches in its collation
// order, which the engine does not know, so every match is judged in every
// position. The tar case was run for real: in cs_CZ.UTF-8 (where "ch"
// sorts after "h"), bash expanded [-d]* to d.tar first, and tar ran the
// checkpoint action; byte order and a dictionary order both put the
// action first, as -f's harmless value.
func TestGlobOrderUnknown(t *testing.T) {
	many := map[string]string{}
	for i := 0; i < 70; i++ {
		many["m"+strconv.Itoa(100+i)+".md"] = "x\n"
	}
	tests := []struct {
		name  string
		files map[string]string
		links map[string]string
		argv  []string
		want  Result
	}{
		{"an option file first in byte and dictionary order, not in Czech",
			map[string]string{"d.tar": "x", "--checkpoint-action=exec=touch PWNED": ""}, nil,
			[]string{"bash", "-c", "tar --checkpoint=1 -tf [-d]*"}, Dangerous},
		{"a pattern or a file, by position",
			map[string]string{"a": "x"}, map[string]string{"B": "/etc/passwd"},
			[]string{"bash", "-c", "grep [aB]"}, Dangerous},
		{"a destination or a source, by position",
			map[string]string{"x1": "x", "x2": "x"}, map[string]string{"x0": "/tmp"},
			[]string{"bash", "-c", "cp x*"}, Dangerous},
		{"matches whose positions do not matter",
			map[string]string{"a.md": "x", "B.md": "x", "c.md": "x"}, nil,
			[]string{"bash", "-c", "cat *.md"}, Safe},
		{"two globs",
			map[string]string{"a.md": "x", "b.md": "x", "a.txt": "x", "b.txt": "x"}, nil,
			[]string{"bash", "-c", "cat *.md *.txt"}, Safe},
		{"too many orders to check",
			many, nil, []string{"bash", "-c", "cat *.md"}, Inscrutable},
		{"too many orders, and not safe in byte order",
			many, nil, []string{"bash", "-c", "cat *.md /etc/passwd"}, Dangerous},
	}
	c := &Commands{}
	c.AddDefaults()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sb, err := filepath.EvalSymlinks(t.TempDir())
			require.NoError(t, err)
			for name, body := range tt.files {
				require.NoError(t, os.WriteFile(filepath.Join(sb, name), []byte(body), 0o644))
			}
			for name, target := range tt.links {
				require.NoError(t, os.Symlink(target, filepath.Join(sb, name)))
			}
			v := c.Classify(Site{SandboxDir: sb, Cwd: sb}, nil, nil, tt.argv, nil)
			assert.Equal(t, tt.want, v.Result(), "%q: %s (%s)", tt.argv, v.Rule(), v.Reason())
		})
	}
}
