package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHookReadsBelowAndCopiesOfProtected (round 25b, the attack on its own
// fix): each call below was allowed before and printed a secret the
// confinement hides (verified with the hook and, for Grep, ripgrep run
// with the --glob pieces Claude Code builds): a file in a .env directory
// reached through a link to the directory or to the file, a .env.d
// directory searched by name, copies of .env and .npmrc named by
// copyname.Of's decorations (.env-backup, .npmrc.tgz, a copy of .env
// kept as a directory, .env_old.d), a Grep whose glob list names a copy
// or whose glob names a file inside a protected directory, and shell
// readers of them. Each must now ask.
func TestHookReadsBelowAndCopiesOfProtected(t *testing.T) {
	project, home := hookProject(t)
	require.NoError(t, os.Remove(filepath.Join(project, ".env")))
	for f, body := range map[string]string{".env/prod": "TOKEN=a\n", "config/.env.d/prod": "TOKEN=b\n", ".env-backup": "TOKEN=c\n",
		".npmrc.tgz": "TOKEN=d\n", ".env_old.d/x": "TOKEN=e\n"} {
		p := filepath.Join(project, filepath.FromSlash(f))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(body), 0o600))
	}
	require.NoError(t, os.Symlink(".env", filepath.Join(project, "cfg")))
	require.NoError(t, os.Symlink(".env/prod", filepath.Join(project, "prodlink")))
	env := hookEnv(home, "CLAUDE_PROJECT_DIR="+project)
	grep := func(path, glob string) string {
		in := map[string]any{"pattern": "TOKEN", "path": path, "output_mode": "content"}
		if glob != "" {
			in["glob"] = glob
		}
		return claudeEvent(project, "Grep", in)
	}
	read := func(rel string) string {
		return claudeEvent(project, "Read", map[string]any{"file_path": filepath.Join(project, filepath.FromSlash(rel))})
	}
	for name, ev := range map[string]string{
		"Read cfg/prod (a link to the .env directory)":    read("cfg/prod"),
		"Read prodlink (a link to .env/prod)":             read("prodlink"),
		"Read .env_old.d/x (a copy of .env, a directory)": read(".env_old.d/x"),
		"Read .npmrc.tgz":              read(".npmrc.tgz"),
		"Grep glob *.go,.env-backup":   grep(project, "*.go,.env-backup"),
		"Grep glob prod":               grep(project, "prod"),
		"Grep glob *_old.d/*":          grep(project, "*_old.d/*"),
		"Grep path config":             grep(filepath.Join(project, "config"), ""),
		"Bash cat cfg/prod":            claudeBash(t, project, "cat cfg/prod"),
		"Bash cat prodlink":            claudeBash(t, project, "cat prodlink"),
		"Bash cat .env-backup":         claudeBash(t, project, "cat .env-backup"),
		"Bash head config/.env.d/prod": claudeBash(t, project, "head config/.env.d/prod"),
		"Bash cat .npmrc.tgz":          claudeBash(t, project, "cat .npmrc.tgz"),
		"Bash diff .env/prod main.go":  claudeBash(t, project, "diff .env/prod main.go"),
	} {
		decision, reason, r := claudeDecision(t, project, env, ev)
		assert.Equal(t, "ask", decision, "%s: %s %s", name, reason, r.stderr)
	}
	// Names that only begin with a protected one stay readable.
	require.NoError(t, os.WriteFile(filepath.Join(project, ".npmrc-template"), []byte("registry=\n"), 0o644))
	decision, reason, _ := claudeDecision(t, project, env, read(".npmrc-template"))
	assert.Equal(t, "allow", decision, "%s", reason)
}
