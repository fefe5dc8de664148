package sandboxauth

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/confine"
)

// confineRepo makes a sandbox holding a repository (with a core.hooksPath
// inside it), secrets at the top and below, a nested repository and an
// editor's settings below the top.
func confineRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	sb, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	git := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %v: %s", args, out)
	}
	git(sb, "init", "-q")
	git(sb, "config", "core.hooksPath", "tools/hooks")
	for rel, body := range map[string]string{
		".env":                 "TOP=1",
		".env.local":           "LOCAL=1",
		"svc/api/.env":         "DEEP=1",
		"svc/api/.vscode/a":    "{}",
		"tools/hooks/pre-push": "#!/bin/sh\n",
		"vendored/lib/x.go":    "package lib",
	} {
		p := filepath.Join(sb, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	}
	git(filepath.Join(sb, "vendored"), "init", "-q")
	return sb
}

// TestProtectConfinement: the tools' protected paths become the kernel's:
// write-protected ones read-only (missing literal ones at the top too, the
// repository's dangerous files rather than all of .git), read-protected
// ones hidden, at the top and below.
func TestProtectConfinement(t *testing.T) {
	sb := confineRepo(t)
	p, err := ProtectConfinement(confine.Policy{Sandbox: sb}, DefaultProtectedPaths())
	require.NoError(t, err)
	at := func(rel string) string { return filepath.Join(sb, filepath.FromSlash(rel)) }
	for _, rel := range []string{
		".git/config", ".git/hooks", ".git/commondir", ".git/modules", ".git/worktrees",
		".git/objects/info/alternates", ".git/config.worktree", "tools/hooks",
		".vscode", ".idea", ".claude", ".mcp.json", ".sandboxauth.json", ".github/hooks",
		"rust-toolchain.toml", ".python-version", ".cargo",
		"svc/api/.vscode", "vendored/.git/config", "vendored/.git/hooks",
	} {
		assert.Contains(t, p.ReadOnly, at(rel))
	}
	assert.NotContains(t, p.ReadOnly, at(".git"), "all of .git read-only stops git commit")
	assert.Equal(t, ".", p.Placeholders[at(".git/commondir")], "git reads a commondir of . as none")
	for _, rel := range []string{".env", ".env.local", "svc/api/.env"} {
		assert.Contains(t, p.Hidden, at(rel))
	}
	assert.NotContains(t, p.Hidden, at(".env.missing"))

	_, err = ProtectConfinement(confine.Policy{Sandbox: sb}, []ProtectedPath{{Pattern: "/abs", Write: true}})
	require.ErrorIs(t, err, ErrInvalidConfig)
}

// TestConfinedCommandsKeepProtectedPaths: run through Config.ConfinePolicy,
// a confined command (project code, allowed without asking) cannot plant
// what runs later, nor read the secrets, while its own work succeeds.
func TestConfinedCommandsKeepProtectedPaths(t *testing.T) {
	if err := confine.Available(); err != nil {
		t.Skipf("confinement is not available here: %v", err)
	}
	sb := confineRepo(t)
	cfg, err := ParseConfig([]byte(`{"protectedPaths": {"add": [{"pattern": "deploy/", "write": true, "read": false}]}}`))
	require.NoError(t, err)
	p := cfg.ConfinePolicy(sb)
	before, err := os.ReadFile(filepath.Join(sb, ".git", "config"))
	require.NoError(t, err)
	script := `
git config core.fsmonitor 'touch $HOME/pwned'
echo '#!/bin/sh' > .git/hooks/post-checkout
echo 'evil' >> tools/hooks/pre-push
mkdir -p .vscode && echo '{}' > .vscode/tasks.json
mkdir -p .claude && echo '{"hooks":{}}' > .claude/settings.json
echo '{"mcpServers":{}}' > .mcp.json
echo 'path = "/evil"' > rust-toolchain.toml
mkdir -p deploy && echo evil > deploy/run.sh
echo x > svc/api/.vscode/a
cat .env .env.local svc/api/.env
echo built > out.txt
`
	cmd := exec.Command("/bin/sh", "-c", script)
	cmd.Dir = sb
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	_ = confine.Run(cmd, p)
	assert.NotContains(t, out.String(), "=1", "a secret was read")
	got, err := os.ReadFile(filepath.Join(sb, ".git", "config"))
	require.NoError(t, err)
	assert.Equal(t, string(before), string(got))
	for _, rel := range []string{".git/hooks/post-checkout", ".vscode", ".claude", ".mcp.json", "rust-toolchain.toml", "deploy", ".git/commondir"} {
		_, err := os.Lstat(filepath.Join(sb, filepath.FromSlash(rel)))
		assert.ErrorIs(t, err, os.ErrNotExist, "%s exists after the run", rel)
	}
	hook, err := os.ReadFile(filepath.Join(sb, "tools", "hooks", "pre-push"))
	require.NoError(t, err)
	assert.Equal(t, "#!/bin/sh\n", string(hook))
	b, err := os.ReadFile(filepath.Join(sb, "svc", "api", ".vscode", "a"))
	require.NoError(t, err)
	assert.Equal(t, "{}", string(b))
	assert.FileExists(t, filepath.Join(sb, "out.txt"), "the command's own work: %s", out.String())
}

// BenchmarkProtectConfinement measures what ProtectConfinement adds around
// each confined command, on a project of 60 directories and 600 files with
// a repository and secrets below the top.
func BenchmarkProtectConfinement(b *testing.B) {
	sb := b.TempDir()
	for d := 0; d < 60; d++ {
		dir := filepath.Join(sb, "pkg", string(rune('a'+d%26)), strings.Repeat("x", d/26+1))
		require.NoError(b, os.MkdirAll(dir, 0o755))
		for f := 0; f < 10; f++ {
			require.NoError(b, os.WriteFile(filepath.Join(dir, string(rune('a'+f))+".go"), nil, 0o644))
		}
	}
	require.NoError(b, os.MkdirAll(filepath.Join(sb, ".git", "hooks"), 0o755))
	require.NoError(b, os.WriteFile(filepath.Join(sb, ".git", "config"), nil, 0o644))
	require.NoError(b, os.WriteFile(filepath.Join(sb, "pkg", "a", ".env"), nil, 0o644))
	ps := DefaultProtectedPaths()
	// "before" is what a run alone does before its command (the walk, the
	// deep scan, the group's baseline recorded); "before-and-after" adds
	// what it does after (the quarantine, leaving the group). Each
	// iteration leaves the group, so that the next begins one, as a run
	// alone does.
	for _, after := range []bool{false, true} {
		name := "before"
		if after {
			name = "before-and-after"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				p, err := ProtectConfinement(confine.Policy{Sandbox: sb}, ps)
				if err != nil {
					b.Fatal(err)
				}
				if !after {
					b.StopTimer()
				}
				p.AfterExit()
				if !after {
					b.StartTimer()
				}
			}
		})
	}
}
