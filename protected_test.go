package sandboxauth

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/internal/classify"
)

func TestProtectedPathMatch(t *testing.T) {
	rules, err := compileProtected(DefaultProtectedPaths())
	require.NoError(t, err)
	cases := []struct {
		rel         string
		read, write bool
	}{
		{".env", true, true},
		{"config/.env", true, true},
		{".env.local", true, true},
		{"a/b/.env.production", true, true},
		{".envrc", true, true},
		{"sub/.envrc", true, true},
		{"envrc", false, false},
		{"env", false, false},
		{".env/x", true, true}, // .env made a directory: everything in it, as the confinement hides it whole
		{"config/.env.d/prod", true, true},
		{".env-backup", true, false}, // copies (round 25b): read only
		{".env_old", true, false},
		{".env backup", true, false},
		{".env~1", true, false},
		{".npmrc.tgz", true, false},
		{".npmrc-backup", true, false},
		{".npmrc.20240101", true, false},
		{".env-backup/x", true, false}, // a copy of a directory
		{".envx", false, false},
		{".env-example", true, false}, // .env-NAME, an env file named otherwise (as .env.example is .env.*)
		{".npmrc-template", false, false},
		{".git/config", false, true},
		{"sub/.git/config", false, true}, // any depth
		{".GIT/config", false, true},     // any letter case
		{".git/configs", false, true},
		{".git/hooks/pre-commit", false, true},
		{".git/hooks", false, true},
		{".git/hooks/a/b", false, true},
		{".git/HEAD", false, true},
		{".git/commondir", false, true},
		{".gitignore", false, false},
		{".ENV", true, true},
		{"main.go", false, false},
		{".vscode/settings.json", false, true},
		{".vscode/tasks.json", false, true},
		{"web/.vscode/tasks.json", false, true},
		{"vscode/settings.json", false, false},
		{".idea/workspace.xml", false, true},
		{".claude/settings.json", false, true},
		{".cursor/mcp.json", false, true},
		{".gemini/settings.json", false, true},
		{".codex/config.toml", false, true},
		{".mcp.json", false, true},
		{".github/hooks/sandboxauth.json", false, true},
		{"sub/.github/hooks/x.json", false, true}, // Copilot CLI loads hooks from its working directory
		{".github/workflows/ci.yml", false, false},
		{".github/hooks", false, true},
		{".sandboxauth.json", false, true},
		{"sub/.sandboxauth.json", false, true},
		{"tools/.mcp.json", false, true},
		{".husky/pre-commit", false, true},
		{".githooks/pre-push", false, true},
		{".pre-commit-config.yaml", false, true},
		{"sub/.pre-commit-config.yaml", false, true},
		{"lefthook.yml", false, true},
		{"lefthook.yaml", false, true},
		{".lefthook.toml", false, true},
		{"lefthook-local.json", false, true},
		{".lefthook-local.yml", false, true},
		{".config/lefthook.yaml", false, true},
		{"lefthook", false, false},
		{".devcontainer/devcontainer.json", false, true},
		{".devcontainer.json", false, true},
		{"devcontainer.json", false, false},
		{"pre-commit-config.yaml", false, false},
		{".cargo/config.toml", false, true},
		{"crates/a/.cargo/config.toml", false, true}, // "**/" matches at any depth
		{".cargo/config", false, true},
		{".cargo/config.toml.bak", false, false},
		{".cargo/registry/x", false, false},
		{"cargo/config.toml", false, false},
		// The package managers' settings that name a program or carry a token.
		{".npmrc", true, true},
		{"packages/a/.npmrc", true, true},
		{".yarnrc.yml", false, true}, // yarn needs it: nodeLinker, yarnPath
		{".yarnrc", false, true},
		{"pnpm-workspace.yaml", false, true},
		{"sub/pnpm-workspace.yaml", false, true},
		{"bunfig.toml", false, true},
		{"npmrc", false, false},
		{"package.json", false, false},
		{"pnpm-lock.yaml", false, false},
		// Agents' project settings.
		{".kilocode/mcp.json", false, true},
		{".kilo/kilo.jsonc", false, true},
		{"kilo.json", false, true},
		{"kilo.jsonc", false, true},
		{"kilo.md", false, false},
		{".windsurf/hooks.json", false, true},
		{".cline/hooks/x", false, true},
		{".clinerules/hooks/PreToolUse", false, true},
		{".clinerules", false, true},
		{".factory/settings.json", false, true},
		{".factory/mcp.json", false, true},
		{"sub/.factory/hooks.json", false, true},
		// What commit-time hook managers run.
		{".lefthook/pre-commit/lint.sh", false, true},
		{".lefthook-local/pre-commit/a.sh", false, true},
		{"sub/.lefthook/pre-push/x.rb", false, true},
		{"lefthook/pre-commit/x.sh", false, false},
		{".lintstagedrc", false, true},
		{".lintstagedrc.json", false, true},
		{".lintstagedrc.mjs", false, true},
		{"lint-staged.config.js", false, true},
		{"web/lint-staged.config.mjs", false, true},
		{"lint-staged.md", false, false},
		// Secrets under other names.
		{".dev.vars", true, false},
		{".dev.vars.staging", true, false},
		{"config/master.key", true, false},
		{"apps/web/config/master.key", true, false},
		{"config/credentials/production.key", true, false},
		{"config/credentials/production.yml.enc", false, false},
		{"config/credentials.yml.enc", false, false},
		{"master.key", false, false},
		{"certs/server.key", false, false},
		// Round 22a: files that run code or hold secrets under other
		// names, and the copies editors keep of secrets.
		{".Rprofile", false, true},
		{"analysis/.Rprofile", false, true},
		{".Renviron", true, true},
		{".Rhistory", true, false},
		{"Rprofile", false, false},
		{".pdbrc", false, true},
		{".pdbrc.py", false, true},
		{".perldb", false, true},
		{".envrc.local", true, true},
		{".envrc.private", true, true},
		{"opencode.jsonc", false, true},
		{".amp/settings.json", false, true},
		{"amp/settings.json", false, false},
		{".mise/config.toml", false, true},
		{".mise/config.local.toml", false, true},
		{"mise/config.toml", false, true},
		{"mise/tasks/build", false, false},
		{".config/mise/config.toml", false, true},
		{".config/mise/conf.d/x.toml", false, true},
		{".config/mise.local.toml", false, true},
		{"mise.development.toml", false, true},
		{".mise.production.local.toml", false, true},
		{".streamlit/secrets.toml", true, false},
		{".streamlit/config.toml", false, false},
		{".secrets.toml", true, false},
		{".secrets.yaml", true, false},
		{"local.settings.json", true, false},
		{"settings.json", false, false},
		{"terraform.tfstate", true, false},
		{"infra/prod/terraform.tfstate.backup", true, false},
		{"terraform.tfvars", true, false},
		{"prod.auto.tfvars", true, false},
		{"vars.tfvars.json", true, false},
		{"main.tf", false, false},
		{".vagrant/machines/default/virtualbox/private_key", true, false},
		{"Vagrantfile", false, false},
		{".env~", true, false},
		{".env.~3~", true, true}, // .env.*
		{"config/master.key.~1~", true, false},
		{"#.env#", true, false},
		{".env.swp", true, true}, // .env.*
		{".envrc~", true, false},
		{"#.envrc#", true, false},
		{".envrc.swp", true, true}, // .envrc.*
		{".npmrc~", true, false},
		{".npmrc.swo", true, false},
		{"config/master.key~", true, false},
		{"config/#master.key#", true, false},
		{"config/.master.key.swp", true, false},
		{".dev.vars~", true, false},
		{".npmrc.bak", true, false},
		{"config/master.key.orig", true, false},
		{"terraform.tfvars.bak", true, false},
		{"main.go.bak", false, false},
		{"main.go~", false, false},
		{"#main.go#", false, false},
	}
	for _, c := range cases {
		var read, write bool
		for i := range rules {
			if rules[i].Match(c.rel) {
				read = read || rules[i].Read
				write = write || rules[i].Write
			}
		}
		assert.Equal(t, c.read, read, "read %s", c.rel)
		assert.Equal(t, c.write, write, "write %s", c.rel)
	}
}

// TestProtectedRuleForPathForms checks that a protected file is found
// whatever form the paths take: given or resolved, unclean, beneath a root
// that is "/" or not clean, and that the sandbox itself and paths outside
// it are never matched.
func TestProtectedRuleForPathForms(t *testing.T) {
	rules, err := compileProtected(DefaultProtectedPaths())
	require.NoError(t, err)
	cases := []struct {
		name                       string
		op                         Operation
		sandbox, root, given, real string
		protected                  bool
	}{
		{"plain", OpWrite, "/sb", "/sb", "/sb/.git/config", "/sb/.git/config", true},
		{"unclean given", OpWrite, "/sb", "/sb", "/sb/x/../.git/config", "/sb/.git/config", true},
		{"unclean real only", OpWrite, "/sb", "/sb", "/sb/link", "/sb/x/../.git/config", true},
		{"unclean sandbox", OpWrite, "/sb/", "/sb", "/sb/.git/config", "/sb/.git/config", true},
		{"real protected, given not", OpRead, "/sb", "/real/sb", "/sb/notes.txt", "/real/sb/.env", true},
		{"given protected, real not", OpRead, "/sb", "/real/sb", "/sb/.env", "/real/sb/data.txt", true},
		{"root slash", OpRead, "/", "/", "/home/u/.env", "/home/u/.env", true},
		{"sandbox itself", OpWrite, "/sb/.git", "/sb/.git", "/sb/.git", "/sb/.git", false},
		{"outside", OpRead, "/sb", "/sb", "/other/.env", "/other/.env", false},
		{"prefix sibling", OpRead, "/sb", "/sb", "/sb-evil/.env", "/sb-evil/.env", false},
		{"read of a write-only rule", OpRead, "/sb", "/sb", "/sb/.git/config", "/sb/.git/config", false},
		{"deep path", OpRead, "/sb", "/sb", "/sb/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/.env", "/sb/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/.env", true},
	}
	for _, c := range cases {
		got := classify.ProtectedFor(rules, c.op == OpWrite, c.sandbox, c.root, c.given, c.real)
		assert.Equal(t, c.protected, got != nil, c.name)
	}
}

func TestProtectedPathPatternsAreChecked(t *testing.T) {
	bad := []ProtectedPath{
		{Pattern: "", Read: true},
		{Pattern: "/etc/passwd", Read: true},
		{Pattern: "a/../b", Read: true},
		{Pattern: "a//b", Read: true},
		{Pattern: "[", Read: true},
		{Pattern: "secrets/"},
	}
	for _, p := range bad {
		_, err := compileProtected([]ProtectedPath{p})
		assert.ErrorIs(t, err, ErrInvalidConfig, "%+v", p)
		_, _, err = NewSandboxAuthorizer(&ShellAllowedCommands{}, WithProtectedPaths(p))
		assert.ErrorIs(t, err, ErrInvalidConfig, "%+v", p)
	}
	_, err := compileProtected([]ProtectedPath{{Pattern: "secrets/*.pem", Read: true}, {Pattern: "id_*", Write: true}})
	assert.NoError(t, err)
}

// TestProtectedPathsInShellCommands: the protected paths apply to what a
// shell command names, not only to the read and write tools: a path
// argument, a redirection, a path reached through a symlink, a command
// inside a shell wrapper.
func TestProtectedPathsInShellCommands(t *testing.T) {
	sb := newSandbox(t)
	for _, f := range []string{".env", "config/.env.production", "notes.txt"} {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(sb, f)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(sb, f), []byte("SECRET=1\n"), 0o600))
	}
	require.NoError(t, os.Symlink(".env", filepath.Join(sb, "settings.txt")))
	require.NoError(t, os.MkdirAll(filepath.Join(sb, ".vscode"), 0o755))

	cases := []struct {
		argv      []string
		protected bool
	}{
		{[]string{"cat", ".env"}, true},
		{[]string{"head", "-n", "3", "config/.env.production"}, true},
		{[]string{"cat", "./config/../.env"}, true},
		{[]string{"cat", "settings.txt"}, true}, // a symlink to .env
		{[]string{"grep", "SECRET", ".ENV"}, true},
		{[]string{"wc", "-l", ".env"}, true},
		{[]string{"bash", "-c", "cat .env"}, true},
		{[]string{"bash", "-c", "cat < .env"}, true},
		{[]string{"bash", "-c", "echo '{}' > .vscode/settings.json"}, true},
		{[]string{"bash", "-c", "echo x >> .mcp.json"}, true},
		{[]string{"tee", ".claude/settings.json"}, true},
		{[]string{"mkdir", "-p", "crates/a/.cargo"}, false}, // the directory is not protected
		{[]string{"cat", "notes.txt"}, false},
		{[]string{"cat", ".vscode/settings.json"}, false}, // reading settings is fine
		{[]string{"bash", "-c", "echo x > notes.txt"}, false},
	}
	a, ch, err := NewSandboxAuthorizer(NewShellAllowedCommands())
	require.NoError(t, err)
	defer a.Close()
	open, ch2, err := NewSandboxAuthorizer(NewShellAllowedCommands(), WithProtectedPaths())
	require.NoError(t, err)
	defer open.Close()
	for _, c := range cases {
		seen, err := answering(t, ch, false, func() error { return a.IsShellAuthorized(false, "", sb, sb, c.argv) })
		if !c.protected {
			assert.NoError(t, err, "%q", c.argv)
			assert.Empty(t, seen, "%q", c.argv)
			continue
		}
		require.Len(t, seen, 1, "%q must ask a person", c.argv)
		assert.Contains(t, seen[0].Rule, "protected path", "%q", c.argv)
		assert.ErrorIs(t, err, ErrAuthorizationDenied, "%q", c.argv)
		// With no protected paths, the same command runs without asking.
		seen, err = answering(t, ch2, false, func() error { return open.IsShellAuthorized(false, "", sb, sb, c.argv) })
		assert.NoError(t, err, "%q with nothing protected", c.argv)
		assert.Empty(t, seen, "%q with nothing protected", c.argv)
	}
	// Writes into .git are dangerous to the classifier itself, protected
	// paths or not.
	for _, auth := range []struct {
		a  Authorizer
		ch <-chan UserRequest
	}{{a, ch}, {open, ch2}} {
		seen, err := answering(t, auth.ch, false, func() error {
			return auth.a.IsShellAuthorized(false, "", sb, sb, []string{"touch", ".git/hooks/pre-commit"})
		})
		require.Len(t, seen, 1)
		assert.Contains(t, seen[0].Rule, "writes into .git")
		assert.ErrorIs(t, err, ErrAuthorizationDenied)
	}
	// Plain Check knows no sandbox and no protected paths.
	res, err := NewShellAllowedCommands().Check([]string{"cat", ".env"})
	require.NoError(t, err)
	assert.Equal(t, CommandCheckResultSafe, res)
}
