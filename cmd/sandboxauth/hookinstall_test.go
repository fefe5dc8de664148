package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/internal/hookproto"
)

// installIn runs "hook install" in a project directory with home as the
// home directory.
func installIn(t *testing.T, project, home string, args ...string) result {
	t.Helper()
	return runHookBin(t, project, hookEnv(home), "", append([]string{"hook", "install"}, args...)...)
}

// hookCommands returns every hook command string in a settings document.
func hookCommands(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var out []string
	for _, c := range settingsCommands(t, data) {
		if strings.Contains(c, "hook --for") {
			out = append(out, c)
		}
	}
	return out
}

// settingsCommands returns every string under a "command" or "bash" key
// of a settings document (the agents name their hook commands so).
func settingsCommands(t *testing.T, data []byte) []string {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal(data, &v), "the settings are valid JSON")
	var out []string
	var walk func(any, string)
	walk = func(v any, key string) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				walk(e, k)
			}
		case []any:
			for _, e := range x {
				walk(e, key)
			}
		case string:
			if key == "command" || key == "bash" {
				out = append(out, x)
			}
		}
	}
	walk(v, "")
	return out
}

func TestHookInstallFreshAndIdempotent(t *testing.T) {
	events := map[string]int{"claude-code": 1, "codex": 1, "gemini-cli": 1, "cursor": 3, "copilot": 1}
	for _, agent := range hookproto.Names() {
		t.Run(agent, func(t *testing.T) {
			project, home := t.TempDir(), t.TempDir()
			r := installIn(t, project, home, "--for", agent)
			require.Equal(t, 0, r.code, r.stderr)
			path := filepath.Join(project, hookTargets()[agent].projectFile)
			assert.Contains(t, r.stdout, "wrote "+path)
			cmds := hookCommands(t, path)
			assert.Len(t, cmds, events[agent])
			for _, c := range cmds {
				assert.Equal(t, "sandboxauth hook --for "+agent, c)
			}
			before, err := os.ReadFile(path)
			require.NoError(t, err)
			r = installIn(t, project, home, "--for", agent)
			require.Equal(t, 0, r.code, r.stderr)
			assert.Contains(t, r.stdout, "already installed")
			after, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, string(before), string(after))
		})
	}
}

func TestHookInstallMergesWithoutClobbering(t *testing.T) {
	project, home := t.TempDir(), t.TempDir()
	path := filepath.Join(project, ".claude", "settings.json")
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	original := `{
  "permissions": {"allow": ["Bash(npm test)"], "deny": ["Read(./.env)"]},
  "env": {"A": "<b> & c"},
  "hooks": {
    "PostToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": "gofmt -w"}]}],
    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./audit.sh"}]}]
  },
  "model": "opus"
}`
	require.NoError(t, os.WriteFile(path, []byte(original), 0o600))
	r := installIn(t, project, home, "--for", "claude-code")
	require.Equal(t, 0, r.code, r.stderr)

	data, err := os.ReadFile(path)
	require.NoError(t, err)
	text := string(data)
	// Key order kept, other settings and hooks kept, HTML characters kept.
	assert.Less(t, strings.Index(text, `"permissions"`), strings.Index(text, `"env"`))
	assert.Less(t, strings.Index(text, `"hooks"`), strings.Index(text, `"model"`))
	assert.Contains(t, text, `"<b> & c"`)
	var doc struct {
		Permissions map[string][]string `json:"permissions"`
		Model       string              `json:"model"`
		Hooks       map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []struct {
				Command   string `json:"command"`
				Timeout   int    `json:"timeout"`
				OnFailure string `json:"onFailure"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	require.NoError(t, json.Unmarshal(data, &doc))
	assert.Equal(t, []string{"Bash(npm test)"}, doc.Permissions["allow"])
	assert.Equal(t, "opus", doc.Model)
	require.Len(t, doc.Hooks["PostToolUse"], 1)
	require.Len(t, doc.Hooks["PreToolUse"], 2)
	assert.Equal(t, "./audit.sh", doc.Hooks["PreToolUse"][0].Hooks[0].Command)
	added := doc.Hooks["PreToolUse"][1]
	assert.Equal(t, "*", added.Matcher)
	assert.Equal(t, "sandboxauth hook --for claude-code", added.Hooks[0].Command)
	assert.Equal(t, 10, added.Hooks[0].Timeout)
	assert.Equal(t, "block", added.Hooks[0].OnFailure)
	st, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm(), "the file's permissions are kept")
}

func TestHookInstallDryRunAndUser(t *testing.T) {
	project, home := t.TempDir(), t.TempDir()
	r := installIn(t, project, home, "--for", "cursor", "--user", "--dry-run")
	require.Equal(t, 0, r.code, r.stderr)
	path := filepath.Join(home, ".cursor", "hooks.json")
	assert.Contains(t, r.stdout, "would write "+path)
	assert.Contains(t, r.stdout, `"failClosed": true`)
	assert.NoFileExists(t, path)

	r = installIn(t, project, home, "--for", "copilot", "--user")
	require.Equal(t, 0, r.code, r.stderr)
	assert.FileExists(t, filepath.Join(home, ".copilot", "hooks", "sandboxauth.json"))
	assert.NoDirExists(t, filepath.Join(project, ".github"))
}

func TestHookInstallRefusesWhatItCannotMerge(t *testing.T) {
	cases := map[string]string{
		"not JSON":            `{"hooks": `,
		"not an object":       `[1, 2]`,
		"duplicate keys":      `{"hooks": {}, "hooks": {}}`,
		"hooks not an object": `{"hooks": []}`,
		"event not a list":    `{"hooks": {"PreToolUse": {}}}`,
		"trailing data":       `{} {}`,
	}
	for name, content := range cases {
		t.Run(name, func(t *testing.T) {
			project, home := t.TempDir(), t.TempDir()
			path := filepath.Join(project, ".codex", "hooks.json")
			require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
			require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
			r := installIn(t, project, home, "--for", "codex")
			assert.Equal(t, exitUsage, r.code)
			assert.Contains(t, r.stderr, path)
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, content, string(data), "the file is left alone")
		})
	}
	// A settings file with comments (JSONC, which agents' settings often
	// are) is left alone, and the message says why and what to do; a
	// syntax error is located by line and column.
	t.Run("comments", func(t *testing.T) {
		project, home := t.TempDir(), t.TempDir()
		path := filepath.Join(project, ".gemini", "settings.json")
		content := "{\n  // mine\n  \"hooks\": {},\n}\n"
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
		r := installIn(t, project, home, "--for", "gemini-cli")
		assert.Equal(t, exitUsage, r.code)
		assert.Contains(t, r.stderr, path+": has comments or trailing commas, which rewriting it would lose, so nothing was written: remove them and run this again, or add the hook entry yourself (the README's snippet for gemini-cli, or this command with --dry-run and --dir naming an empty directory prints it)")
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.Equal(t, content, string(data), "the file is left alone")
	})
	t.Run("syntax error located", func(t *testing.T) {
		project, home := t.TempDir(), t.TempDir()
		path := filepath.Join(project, ".codex", "hooks.json")
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte("{\n  \"hooks\": {\n    \"PreToolUse\" []\n  }\n}\n"), 0o644))
		r := installIn(t, project, home, "--for", "codex")
		assert.Equal(t, exitUsage, r.code)
		assert.Contains(t, r.stderr, path+":3:", "the line of the error (encoding/json's offsets put the column near it, not always on it)")
		assert.Contains(t, r.stderr, "invalid JSON: invalid character '[' after object key")
	})
	t.Run("cursor version", func(t *testing.T) {
		project, home := t.TempDir(), t.TempDir()
		path := filepath.Join(project, ".cursor", "hooks.json")
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(`{"version": 2, "hooks": {}}`), 0o644))
		r := installIn(t, project, home, "--for", "cursor")
		assert.Equal(t, exitUsage, r.code)
		assert.Contains(t, r.stderr, "version")
	})
	t.Run("usage", func(t *testing.T) {
		project, home := t.TempDir(), t.TempDir()
		assert.Equal(t, exitUsage, installIn(t, project, home, "--for", "vim").code)
		assert.Equal(t, exitUsage, installIn(t, project, home, "--for", "codex", "--user", "--project").code)
	})
}
