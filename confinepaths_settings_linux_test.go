package sandboxauth

// The families of DefaultProtectedPaths beyond the single files the red
// team's tests name: each case is a file that makes a program the user
// runs later run what the confined command chose, or a secret under a name
// other than .env, and each was checked against the tool's own
// documentation or behaviour.

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConfinedCommandCannotWriteProgramNamingSettings: the confined
// command can neither create nor change the settings that make a package
// manager, a coding agent or a commit-time hook manager run a program,
// at the top of the sandbox or below it (where they are moved aside when
// the command ends).
func TestConfinedCommandCannotWriteProgramNamingSettings(t *testing.T) {
	for _, c := range []struct {
		name, rel, payload string
	}{
		{"bun preload", "bunfig.toml", "preload = [\"./evil.ts\"]\n"},
		{"npm node-options", ".npmrc", "node-options=--require ./evil.js\n"},
		{"npm script-shell below the top", "packages/a/.npmrc", "script-shell=./evil.sh\n"},
		{"pnpm workspace below the top", "packages/pnpm-workspace.yaml", "pnpmfile: evil.cjs\n"},
		{"Kilo Code project settings", "kilo.jsonc", `{"mcp":{}}`},
		{"Windsurf hooks", ".windsurf/hooks.json", `{"hooks":{}}`},
		{"Cline hooks", ".clinerules/hooks/TaskStart", "#!/bin/sh\n"},
		{"Cline project configuration", ".cline/hooks/TaskStart", "#!/bin/sh\n"},
		{"Droid hooks", ".factory/hooks.json", `{"hooks":{}}`},
		{"Droid settings below the top", "sub/.factory/settings.json", `{"hooks":{}}`},
		{"lint-staged", "lint-staged.config.mjs", "export default {'*': 'sh evil.sh'}\n"},
		{"lint-staged rc without extension", ".lintstagedrc", "{\"*\": \"sh evil.sh\"}\n"},
		{"direnv", ".envrc", "touch pwned\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			sb := escapeSandbox(t)
			abs := filepath.Join(sb, filepath.FromSlash(c.rel))
			script := `mkdir -p "$(dirname "$1")" && printf '%s' "$2" > "$1"`
			cmd := shIn(sb, script)
			cmd.Args = append(cmd.Args, "sh", c.rel, c.payload)
			out, err := runConfined(cmd, protectedPolicy(t, sb))
			t.Logf("%v %s", err, out)
			b, err := os.ReadFile(abs)
			if err == nil {
				assert.NotEqual(t, c.payload, string(b), "the command wrote %s", c.rel)
			}
		})
	}
}

// TestConfinedCommandCannotChangeExistingCommitTimeScripts: an existing
// script in lefthook's directories, or an existing lint-staged
// configuration, is read-only.
func TestConfinedCommandCannotChangeExistingCommitTimeScripts(t *testing.T) {
	for _, rel := range []string{".lefthook/pre-push/check.sh", ".lefthook-local/pre-commit/a.sh", ".lintstagedrc.yaml", "web/lint-staged.config.js"} {
		t.Run(rel, func(t *testing.T) {
			sb := escapeSandbox(t)
			abs := filepath.Join(sb, filepath.FromSlash(rel))
			require.NoError(t, os.MkdirAll(filepath.Dir(abs), 0o755))
			require.NoError(t, os.WriteFile(abs, []byte("ok\n"), 0o755))
			cmd := shIn(sb, `echo 'touch $HOME/pwned' >> "$1"`)
			cmd.Args = append(cmd.Args, "sh", rel)
			out, err := runConfined(cmd, protectedPolicy(t, sb))
			t.Logf("%v %s", err, out)
			b, err := os.ReadFile(abs)
			require.NoError(t, err)
			assert.Equal(t, "ok\n", string(b), "the command changed %s", rel)
		})
	}
}

// TestConfinedCommandCannotReadProjectSecretsUnderOtherNames: secrets
// kept under names of the same families as the red team's (per-environment
// wrangler variables, Rails' per-environment credential keys, a nested
// .npmrc's registry token, a nested .envrc) are hidden from the command.
func TestConfinedCommandCannotReadProjectSecretsUnderOtherNames(t *testing.T) {
	sb := escapeSandbox(t)
	secrets := map[string]string{
		".dev.vars.staging":                 "API_TOKEN=STAGINGVARSSECRET",
		"config/credentials/production.key": "PRODUCTIONKEYSECRET",
		"apps/web/config/master.key":        "NESTEDMASTERKEYSECRET",
		"packages/a/.npmrc":                 "//npm.example.com/:_authToken=NESTEDNPMRCSECRET",
		"services/api/.envrc":               "export TOKEN=NESTEDENVRCSECRET",
	}
	for rel, body := range secrets {
		abs := filepath.Join(sb, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(abs), 0o755))
		require.NoError(t, os.WriteFile(abs, []byte(body+"\n"), 0o600))
	}
	p := protectedPolicy(t, sb)
	for rel, body := range secrets {
		out, _ := runConfined(shIn(sb, "cat "+rel), p)
		assert.NotContains(t, out, body, "%s, a project's secret, was readable", rel)
	}
	// Ordinary project files of similar names stay readable.
	for rel, body := range map[string]string{"config/credentials.yml.enc": "ENCRYPTED", "certs/server.key": "TESTKEY", "dev.vars.example": "EXAMPLE"} {
		abs := filepath.Join(sb, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(abs), 0o755))
		require.NoError(t, os.WriteFile(abs, []byte(body+"\n"), 0o644))
		out, _ := runConfined(shIn(sb, "cat "+rel), p)
		assert.Contains(t, out, body, "%s was hidden, but is no secret of these families", rel)
	}
}

// TestConfinedCommandCannotLinkProgramNamingSettings: a wildcard pattern
// (kilo.json*, .lefthook*/) keeps no placeholder, so the command can make
// a new match, here a symbolic link to a file or directory of its
// choosing: it is moved aside when the command ends.
func TestConfinedCommandCannotLinkProgramNamingSettings(t *testing.T) {
	for _, c := range []struct{ script, rel string }{
		{`echo '{"mcp":{}}' > notes.txt; ln -s notes.txt kilo.jsonc`, "kilo.jsonc"},
		{"mkdir -p scripts/pre-commit; echo 'touch $HOME/pwned' > scripts/pre-commit/a.sh; ln -s scripts .lefthook", ".lefthook"},
		{"mkdir -p a/b/c; echo 'git=./evil.sh' > a/b/c/.npmrc", "a/b/c/.npmrc"},
	} {
		t.Run(c.rel, func(t *testing.T) {
			sb := escapeSandbox(t)
			out, err := runConfined(shIn(sb, c.script), protectedPolicy(t, sb))
			t.Logf("%v %s", err, out)
			_, err = os.Lstat(filepath.Join(sb, filepath.FromSlash(c.rel)))
			assert.ErrorIs(t, err, os.ErrNotExist, "the command left %s", c.rel)
		})
	}
}
