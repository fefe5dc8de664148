package sandboxauth

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestModelCodeIsProjectCode: code the model chose runs no further than
// project code does, so it is labelled project code (asked about without
// confinement, as before; allowed confined): an interpreter's inline code,
// a program of the project found on PATH, and, in a script that runs
// project code or writes into the project, a later command that is
// dangerous only because the earlier one may have changed the file system. What is dangerous for another
// reason (a path outside, a name the lists hold dangerous, a blocked
// program) keeps its answer.
func TestModelCodeIsProjectCode(t *testing.T) {
	sb := newSandbox(t)
	outside := t.TempDir()
	require.NoError(t, os.Symlink(filepath.Join(outside, "secret"), filepath.Join(sb, "link")))
	bin := filepath.Join(sb, "node_modules", ".bin")
	for _, name := range []string{"vite", "mytool", "rm", "npm", "curl"} {
		plant(t, sb, filepath.Join("node_modules", ".bin", name))
	}
	t.Setenv("PATH", bin+":"+os.Getenv("PATH"))
	s := NewShellAllowedCommands()
	s.SetSplitCompound(true)
	tests := []struct {
		script  string // run as bash -c SCRIPT
		project bool
		res     CommandCheckResult
	}{
		// Inline code.
		{"node -e 'console.log(1)'", true, dangerous},
		{"python3 -c 'print(1)'", true, dangerous},
		{"python3 -c 'print(1)' ~/.ssh/id_rsa", false, dangerous},
		{"python3 -c 'print(1)' > ~/.bashrc", false, dangerous},
		{"PYTHONSTARTUP=x.py python3 -c 1", false, dangerous},
		// The project's programs on PATH.
		{"vite build", true, dangerous},
		{"mytool --flag x", true, dangerous},
		{"mytool " + outside, false, dangerous},
		{"rm -rf sub", false, dangerous},           // the lists hold rm -rf dangerous
		{"npm install left-pad", false, dangerous}, // and installing
		{"curl https://example.com", false, blocked},
		// Commands after project code.
		{"./build.sh && cat a.txt", true, dangerous},
		{"npm run build && npm test", true, dangerous},
		{"go build -o app . && ./app", true, dangerous},
		{"./build.sh; git status; ls sub", true, dangerous},
		{"./build.sh | tee build.log", true, dangerous},
		{"./build.sh && cat ~/.ssh/id_rsa", false, dangerous},
		{"./build.sh && cat link", false, dangerous}, // a link outside now
		{"./build.sh && rm -rf sub", false, dangerous},
		{"./build.sh && curl x", false, blocked},
		{"./build.sh && frobnicate", false, dangerous},
		// Commands after a write into the project (round 22): the
		// distrust is what confinement bounds, as after project code.
		{"touch x && cat x", true, dangerous},
		{"echo hi > f && cat f", true, dangerous},
		{"echo hi > f; wc -l f | sort", true, dangerous},
		{"mkdir -p d && echo x > d/y && cat d/y", true, dangerous},
		{"echo hi > f && cat f > g", true, dangerous},
		{"perl -e 1 > f && cat f", true, dangerous},
		// ... unless a segment is dangerous for another reason.
		{"echo hi > f && cat ~/.ssh/id_rsa", false, dangerous},
		{"echo hi > f && cat link", false, dangerous}, // a link outside now
		// The red team's candidates of round 22, tried through the hook.
		{"echo hi > f && perl -pi -e s/a/b/ link", false, dangerous},
		{"ln -s link l3 && cat l3", false, dangerous},
		{"ln -s ../x l4 && cat l4", false, dangerous},
		{"echo hi > f && ln -sf ../x f && cat f", false, dangerous},
		{"mkdir d && ln -s .. d/up; echo pwned > d/up/x", false, dangerous},
		{"echo hi > f && rm -rf sub", false, dangerous},
		{"echo hi > f && frobnicate f", false, dangerous},
		{"echo hi > f && curl x", false, blocked},
		{"echo hi > " + outside + "/f && cat f", false, dangerous},
		{"echo hi > f && cat f > " + outside + "/g", false, dangerous},
	}
	for _, tt := range tests {
		for _, argv := range [][]string{
			{"bash", "-c", tt.script},
			// A sh -c script is split and judged as the same script given
			// directly.
			{"bash", "-c", "sh -c " + shellWord(tt.script)},
			{"sh", "-c", tt.script},
		} {
			c, err := s.Classify(CommandSite{SandboxDir: sb, Cwd: sb}, argv)
			require.NoError(t, err)
			assert.Equal(t, tt.res, c.Result, "%q: %s", argv, c.Rule)
			assert.Equal(t, tt.project, c.ProjectCode, "%q: %s (%s)", argv, c.Rule, c.Reason)
		}
	}
}

// shellWord quotes s as one word for sh.
func shellWord(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
