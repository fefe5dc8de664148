package confine

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// toolchainCase is a real project whose test suite passes confined as long
// as it keeps to the sandbox, and fails when a test writes outside.
type toolchainCase struct {
	name  string
	tool  string   // the program that must be installed
	argv  []string // how the suite is run
	files func(target string) map[string]string
}

func toolchainCases() []toolchainCase {
	return []toolchainCase{
		{
			name: "go test", tool: "go", argv: []string{"go", "test", "./..."},
			files: func(target string) map[string]string {
				return map[string]string{
					"go.mod": "module example.com/m\n\ngo 1.21\n",
					"m.go":   "package m\n\nfunc Add(a, b int) int { return a + b }\n",
					"m_test.go": `package m

import (
	"os"
	"testing"
)

func TestAdd(t *testing.T) {
	if Add(1, 2) != 3 {
		t.Fatal("Add")
	}
	if err := os.WriteFile(` + "`" + target + "`" + `, []byte("written by a test"), 0o644); err != nil {
		t.Fatal(err)
	}
}
`,
				}
			},
		},
		{
			name: "npm test", tool: "npm", argv: []string{"npm", "test", "--silent"},
			files: func(target string) map[string]string {
				return map[string]string{
					"package.json": `{"name": "m", "version": "1.0.0", "private": true, "scripts": {"test": "node test.js"}}`,
					"test.js":      "require('fs').writeFileSync(" + jsString(target) + ", 'written by a test');\n",
				}
			},
		},
		{
			// A test runner that forks workers with an IPC channel (a
			// socketpair) and runs a child process, as jest and mocha do;
			// the worker writes the result.
			name: "node child_process", tool: "node", argv: []string{"node", "runner.js"},
			files: func(target string) map[string]string {
				return map[string]string{
					"runner.js": `const { fork, execFileSync } = require('child_process');
if (process.argv[2] === 'worker') {
  process.on('message', (m) => {
    require('fs').writeFileSync(m.target, execFileSync('sh', ['-c', 'echo written by a worker']));
    process.send('done');
  });
} else {
  const w = fork(__filename, ['worker']);
  w.on('message', () => { w.kill(); });
  w.on('exit', () => { process.exitCode = require('fs').existsSync(` + jsString(target) + `) ? 0 : 1; });
  w.send({ target: ` + jsString(target) + ` });
}
`,
				}
			},
		},
		{
			name: "python3 -m unittest", tool: "python3", argv: []string{"python3", "-m", "unittest", "-q"},
			files: func(target string) map[string]string {
				return map[string]string{
					"test_m.py": "import unittest\n\nclass T(unittest.TestCase):\n    def test_write(self):\n        with open(" + jsString(target) + ", 'w') as f:\n            f.write('written by a test')\n\nif __name__ == '__main__':\n    unittest.main()\n",
				}
			},
		},
	}
}

// jsString quotes s for JavaScript and Python alike (the paths here hold
// no quotes or backslashes).
func jsString(s string) string { return "'" + s + "'" }

// TestToolchainsConfined: go test, npm test and python3 -m unittest of real
// projects pass confined by DefaultPolicy when their tests write inside the
// sandbox, and fail, leaving nothing behind, when a test writes outside.
func TestToolchainsConfined(t *testing.T) {
	requireConfinement(t)
	for _, tc := range toolchainCases() {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := exec.LookPath(tc.tool); err != nil {
				t.Skipf("%s is not installed", tc.tool)
			}
			for _, inside := range []bool{true, false} {
				sb, err := filepath.EvalSymlinks(t.TempDir())
				require.NoError(t, err)
				target := filepath.Join(victimDir(t), "pwned")
				if inside {
					target = filepath.Join(sb, "result")
				}
				for name, body := range tc.files(target) {
					require.NoError(t, os.WriteFile(filepath.Join(sb, name), []byte(body), 0o644))
				}
				p := DefaultPolicy(sb)
				// The tests' own Go build cache, shared and writable (the
				// caller's choice), keeps this fast; DefaultPolicy's private
				// copy starts empty for each new sandbox.
				gocache := goEnv(t, "GOCACHE")
				p.Private, p.Writable = nil, []string{gocache}

				cmd := exec.Command(tc.argv[0], tc.argv[1:]...)
				cmd.Dir = sb
				cmd.Env = append(os.Environ(), "GOCACHE="+gocache, "GOTOOLCHAIN=local", "GOFLAGS=", "GOPROXY=off", "npm_config_update_notifier=false", "PYTHONDONTWRITEBYTECODE=1")
				var out bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &out
				err = Run(cmd, p)
				if inside {
					require.NoError(t, err, "%s", out.String())
					require.FileExists(t, target)
				} else {
					require.Error(t, err, "%s", out.String())
					require.NoFileExists(t, target)
					require.Contains(t, strings.ToLower(out.String()), "read-only file system")
				}
			}
		})
	}
}

// goEnv returns the value of a go env variable.
func goEnv(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Skipf("go env %s: %v", name, err)
	}
	v := strings.TrimSpace(string(out))
	if name == "GOCACHE" {
		require.NoError(t, os.MkdirAll(v, 0o755)) // a writable entry must exist
	}
	return v
}
