package sandboxauth

import (
	"errors"

	"github.com/sandboxauth/sandboxauth/internal/classify"
)

// A ProtectedPath names sensitive paths inside the sandbox: a read or write
// of one asks a person even where the policy would allow it. (A writable
// .git/config, for example, turns a harmless `git status` into code
// execution through core.fsmonitor.)
//
// Pattern is slash-separated and relative to the sandbox:
//   - a pattern without a slash matches a base name at any depth (".env",
//     ".env.*");
//   - a pattern with a slash matches from the sandbox root (".git/config"),
//     unless it begins with "**/", which makes it match at any depth
//     ("**/.cargo/config.toml" matches sub/.cargo/config.toml too); a
//     leading "./" anchors a name at the root ("./auth.json" matches
//     auth.json, not locales/en/auth.json);
//   - a pattern matches a path and everything below it: a trailing slash
//     only says that a directory is meant (".git/hooks/"), and a pattern
//     that matches a directory (.env made a directory, a .env.d matching
//     .env.*) protects every file in it, as the confinement hides it
//     whole.
//
// Each element is matched with path.Match, so '*', '?' and character classes
// work within one element, without regard to letter case (.GIT is .git on
// case-insensitive file systems). A path matches when its resolved form or the form
// the tool gave matches, so neither a symlink to a protected file nor a
// symlink named like one slips through.
type ProtectedPath struct {
	Pattern string
	Read    bool // reads of matching paths ask
	Write   bool // writes of matching paths ask
}

// DefaultProtectedPaths returns the protected paths every Sandbox and
// Permissive authorizer starts with:
//
//   - writes anywhere in a .git directory at any depth: its config, hooks,
//     commondir or alternates make later git commands run programs;
//   - reads and writes of the project's secrets at any depth: .env and
//     .env.* files; direnv's .envrc, which also runs as shell code in the
//     user's shell, and the personal files it sources (.envrc.local,
//     .envrc.*); R's .Renviron, read by every R started in the directory
//     (and able to name any file as its profile); npm's .npmrc, which carries registry tokens (a
//     confined command sees it empty: npm then uses its defaults, and so
//     do the pnpm versions that read their settings from it; yarn's
//     .yarnrc.yml stays readable, since yarn cannot work without its
//     nodeLinker and yarnPath, so its tokens belong in the environment,
//     npmAuthToken: "${NPM_TOKEN}"); and reads only of wrangler's
//     .dev.vars and .dev.vars.*, Rails' config/master.key and
//     config/credentials/*.key (the keys of its encrypted credentials),
//     Streamlit's .streamlit/secrets.toml, dynaconf's .secrets.*, Azure
//     Functions' local.settings.json, R's history (.Rhistory), Terraform's
//     state and variables (*.tfstate, *.tfstate.*, *.tfvars,
//     *.tfvars.json: a confined terraform cannot read its local state)
//     and the SSH keys of Vagrant's machines
//     (.vagrant/machines/*/*/private_key); release signing (Android's
//     key.properties, keystores), private key files (*.p8, *.p12, *.pfx),
//     Google's API credentials.json and token.json, service accounts'
//     keys, other frameworks' secrets (Amplify, WordPress, .htpasswd,
//     Rails' config/secrets.yml), env files named otherwise (NAME.env,
//     .env_NAME, .env-NAME, .envs/), the files where tools read a
//     project's secrets (act's .secrets, Ansible's .vault_pass, Composer's
//     auth.json, .sentryclirc, the top secrets/ directory), and the home's
//     credential files kept in a project (.netrc, .pypirc, .aws/credentials,
//     .ssh/id_*, ...); a read-protected pattern also
//     protects the copies editors, file managers, archivers and people
//     keep of its files (NAME~, NAME.~N~, #NAME#, Vim's swap and undo
//     files, Kate's swap, NAME.bak, NAME.orig, NAME-backup, NAME_old,
//     NAME,v, "NAME (copy)", "NAME copy", "Copy of NAME", NAME.tar.gz,
//     NAME.2024-01-31, what the quarantine moved aside; the confinement
//     hides the same copies, by the same definition);
//   - writes to configuration that makes other programs run code or grant
//     permissions without asking anybody again: editor and IDE settings
//     (.vscode/, .idea/, .zed/, *.code-workspace: tasks run on opening,
//     executable paths, an
//     assistant's auto-approval; .helix/ language servers), coding-agent
//     settings (.claude/, .cursor/, .gemini/, .codex/, .github/hooks/,
//     .mcp.json, and those of opencode, aider, Qwen Code, Kiro, Amazon Q,
//     Roo, Continue, Crush, Kilo Code (.kilocode/, .kilo/, kilo.json and
//     kilo.jsonc), Windsurf (.windsurf/), Cline (.cline/, .clinerules/),
//     Factory's Droid (.factory/) and Amp (.amp/), and opencode's
//     opencode.jsonc: hooks, MCP servers, permission
//     lists, lint commands), the files interpreters and debuggers run
//     from the directory they start in (R's .Rprofile, and the workspace
//     .RData whose .First function R runs on restoring it, which an
//     editor's R session does on opening the project; Maven's .mvn/,
//     whose jvm.config and maven.config give the JVM and Maven options,
//     an agent library among them, and extensions.xml extensions; pdb's
//     .pdbrc and .pdbrc.py, the Perl debugger's .perldb), other version control systems' settings
//     (.hg/hgrc, .jj/repo/config.toml: hooks, pagers) and sandboxauth's
//     own project policy (.sandboxauth.json), so that an agent cannot
//     switch its guard off, git hook directories and what commit-time
//     hook managers run (.husky/, .githooks/, .pre-commit-config.yaml,
//     lefthook's settings in any of its names and formats and its script
//     directories .lefthook/ and .lefthook-local/ (the defaults of
//     source_dir and source_dir_local, matched as .lefthook*/),
//     lint-staged's .lintstagedrc* and lint-staged.config.*: the user's
//     next commit runs
//     what they name; lint-staged's "lint-staged" key in package.json
//     cannot be protected by a file's name, and package.json stays
//     writable), dev-container settings
//     (.devcontainer/, .devcontainer.json: commands run when the editor
//     reopens the project in a container) and cargo's configuration
//     (.cargo/config.toml, .cargo/config: a rustc wrapper or runner that even
//     `cargo metadata` would run), and the files that choose which
//     toolchain a version manager's shim runs (rust-toolchain and
//     rust-toolchain.toml, whose path names a directory of programs;
//     .python-version, .tool-versions, mise's settings in all its names
//     and places (mise.toml, .mise.toml, their .local and per-environment
//     forms mise.ENV.toml, .mise/*.toml, mise/config*.toml,
//     .config/mise.toml, .config/mise/*.toml, .config/mise/conf.d/*.toml),
//     whose hooks and env sources run scripts, .NET's global.json, whose sdk paths choose
//     the SDK that runs), and the package managers' settings that name a
//     program they load or run on every command, --ignore-scripts or not
//     (.yarnrc.yml and .yarnrc, whose yarnPath runs a file; pnpm's
//     .pnpmfile.cjs and pnpm-workspace.yaml, whose pnpmfile names any file
//     as the hooks; npm's .npmrc, whose git, node-options, script-shell
//     and shell name programs; bun's bunfig.toml, whose preload runs
//     before every bun run and bun test). All of them match at any depth.
//
// Wildcard patterns (kilo.json*, .lefthook*/, .lintstagedrc*,
// .dev.vars.*, opencode.json*, .pdbrc*, mise.*.toml) cost a confined run
// nothing until a match exists, and a new match is moved aside when the
// run ends; each literal write-protected one that does not exist at the
// top of the sandbox costs a placeholder mount (about 0.25 ms) in every
// confined run (see ProtectConfinement). A name is literal when what it
// holds is run or read by a program the user's editor, shell or agent
// starts on its own while the command may still run (.Rprofile, .RData
// and .Renviron by an editor's R session, .mvn/ by an editor's Maven
// import, .envrc.local by direnv at the
// shell's next prompt, .amp/ by the agent); a debugger's file or a
// further settings name of a tool the user starts by hand is a wildcard,
// moved aside when the run ends.
//
// The slice is new on each call; callers may change it and pass it to
// WithProtectedPaths.
func DefaultProtectedPaths() []ProtectedPath {
	return []ProtectedPath{
		{Pattern: ".git/", Write: true},
		{Pattern: ".env", Read: true, Write: true},
		{Pattern: ".env.*", Read: true, Write: true},
		{Pattern: ".vscode/", Write: true},
		{Pattern: ".idea/", Write: true},
		{Pattern: ".zed/", Write: true},
		{Pattern: "*.code-workspace", Write: true},
		{Pattern: ".claude/", Write: true},
		{Pattern: ".cursor/", Write: true},
		{Pattern: ".gemini/", Write: true},
		{Pattern: ".codex/", Write: true},
		{Pattern: ".mcp.json", Write: true},
		{Pattern: "**/.github/hooks/", Write: true},
		{Pattern: ".sandboxauth.json", Write: true},
		{Pattern: ".husky/", Write: true},
		{Pattern: ".githooks/", Write: true},
		{Pattern: ".pre-commit-config.yaml", Write: true},
		{Pattern: ".pre-commit-config.yml", Write: true},
		{Pattern: "lefthook.*", Write: true},
		{Pattern: ".lefthook.*", Write: true},
		{Pattern: "lefthook-local.*", Write: true},
		{Pattern: ".lefthook-local.*", Write: true},
		{Pattern: "**/.config/lefthook.*", Write: true},
		{Pattern: "**/.config/lefthook-local.*", Write: true},
		{Pattern: ".devcontainer/", Write: true},
		{Pattern: ".devcontainer.json", Write: true},
		{Pattern: "**/.cargo/config.toml", Write: true},
		{Pattern: "**/.cargo/config", Write: true},
		{Pattern: "rust-toolchain", Write: true},
		{Pattern: "rust-toolchain.toml", Write: true},
		{Pattern: ".python-version", Write: true},
		{Pattern: ".tool-versions", Write: true},
		{Pattern: ".hg/hgrc", Write: true},
		{Pattern: ".jj/repo/config.toml", Write: true},
		{Pattern: ".helix/", Write: true},
		{Pattern: ".vimrc", Write: true},
		{Pattern: ".gvimrc", Write: true},
		{Pattern: ".exrc", Write: true},
		{Pattern: ".nvimrc", Write: true},
		{Pattern: ".nvim.lua", Write: true},
		{Pattern: ".lvimrc", Write: true},
		{Pattern: ".dir-locals.el", Write: true},
		{Pattern: ".dir-locals-2.el", Write: true},
		{Pattern: "opencode.json", Write: true},
		{Pattern: ".opencode/", Write: true},
		{Pattern: ".aider.conf.yml", Write: true},
		{Pattern: ".qwen/", Write: true},
		{Pattern: ".kiro/", Write: true},
		{Pattern: ".amazonq/", Write: true},
		{Pattern: ".roo/", Write: true},
		{Pattern: ".continue/", Write: true},
		{Pattern: "crush.json", Write: true},
		{Pattern: ".crush.json", Write: true},
		{Pattern: ".kilocode/", Write: true},
		{Pattern: ".kilo/", Write: true},
		{Pattern: "kilo.json*", Write: true},
		{Pattern: ".windsurf/", Write: true},
		{Pattern: ".cline/", Write: true},
		{Pattern: ".clinerules/", Write: true},
		{Pattern: ".factory/", Write: true},
		{Pattern: ".lefthook*/", Write: true},
		{Pattern: ".lintstagedrc*", Write: true},
		{Pattern: "lint-staged.config.*", Write: true},
		{Pattern: ".yarnrc.yml", Write: true},
		{Pattern: ".yarnrc", Write: true},
		{Pattern: ".npmrc", Read: true, Write: true},
		{Pattern: ".pnpmfile.cjs", Write: true},
		{Pattern: ".pnpmfile.mjs", Write: true},
		{Pattern: "pnpm-workspace.yaml", Write: true},
		{Pattern: "bunfig.toml", Write: true},
		{Pattern: ".envrc", Read: true, Write: true},
		{Pattern: ".dev.vars", Read: true},
		{Pattern: ".dev.vars.*", Read: true},
		{Pattern: "**/config/master.key", Read: true},
		{Pattern: "**/config/credentials/*.key", Read: true},
		{Pattern: "global.json", Write: true},
		{Pattern: "**/.config/mise.toml", Write: true},
		{Pattern: "mise.toml", Write: true},
		{Pattern: ".mise.toml", Write: true},
		{Pattern: "mise.local.toml", Write: true},
		{Pattern: ".mise.local.toml", Write: true},
		{Pattern: "mise.*.toml", Write: true},
		{Pattern: ".mise.*.toml", Write: true},
		{Pattern: "**/.mise/*.toml", Write: true},
		{Pattern: "**/mise/config*.toml", Write: true},
		{Pattern: "**/.config/mise/*.toml", Write: true},
		{Pattern: "**/.config/mise/conf.d/*.toml", Write: true},
		{Pattern: "**/.config/mise.*.toml", Write: true},
		{Pattern: "opencode.json*", Write: true},
		{Pattern: ".amp/", Write: true},
		{Pattern: ".Rprofile", Write: true},
		{Pattern: ".RData", Write: true},
		{Pattern: ".mvn/", Write: true},
		{Pattern: ".Renviron", Read: true, Write: true},
		{Pattern: ".pdbrc*", Write: true},
		{Pattern: ".perldb*", Write: true},
		{Pattern: ".envrc.local", Read: true, Write: true},
		{Pattern: ".envrc.*", Read: true, Write: true},
		{Pattern: ".Rhistory", Read: true},
		{Pattern: "**/.streamlit/secrets.toml", Read: true},
		{Pattern: ".secrets.*", Read: true},
		{Pattern: "local.settings.json", Read: true},
		{Pattern: "*.tfstate", Read: true},
		{Pattern: "*.tfstate.*", Read: true},
		{Pattern: "*.tfvars", Read: true},
		{Pattern: "*.tfvars.json", Read: true},
		{Pattern: "**/.vagrant/machines/*/*/private_key", Read: true},
		// Android's and Flutter's release signing: the passwords
		// (key.properties is Flutter's documented name, keystore.properties
		// Android's) and the keystores they open.
		{Pattern: "key.properties", Read: true},
		{Pattern: "keystore.properties", Read: true},
		{Pattern: "*.jks", Read: true},
		{Pattern: "*.keystore", Read: true},
		// Private keys in files of their own: PKCS#8 (App Store Connect's
		// and APNs' AuthKey_ID.p8) and PKCS#12 containers.
		{Pattern: "*.p8", Read: true},
		{Pattern: "*.p12", Read: true},
		{Pattern: "*.pfx", Read: true},
		// Google's API quickstarts: the OAuth client secret and the user's
		// refresh token they write on the first run; service accounts' keys
		// (Firebase's admin SDK key is PROJECT-firebase-adminsdk-ID.json).
		{Pattern: "credentials.json", Read: true},
		{Pattern: "token.json", Read: true},
		{Pattern: "*service-account*.json", Read: true},
		{Pattern: "*service_account*.json", Read: true},
		{Pattern: "*-firebase-adminsdk-*.json", Read: true},
		// Frameworks' and servers' files of secrets: Amplify's per-stage
		// secrets, WordPress's database password, Apache's password file,
		// Rails' secrets before its encrypted credentials.
		{Pattern: "**/amplify/team-provider-info.json", Read: true},
		{Pattern: "wp-config.php", Read: true},
		{Pattern: ".htpasswd", Read: true},
		{Pattern: "**/config/secrets.yml", Read: true},
		// Environment files named otherwise than .env.*: NAME.env (compose's
		// env_file, systemd's EnvironmentFile), .env_NAME and .env-NAME,
		// cookiecutter-django's .envs/ directory of them. (?*.env leaves
		// .env itself to its own rule, which a policy file may remove.)
		{Pattern: "?*.env", Read: true},
		{Pattern: ".env_*", Read: true},
		{Pattern: ".env-*", Read: true},
		{Pattern: ".envs/", Read: true},
		// Where tools read a project's secrets by default: act's secret
		// file, Ansible's vault password file, Composer's auth.json (at
		// the top, beside composer.json: deeper, auth.json is as often a
		// file of translations or fixtures),
		// sentry-cli's .sentryclirc, compose's secret files (the project's
		// top secrets/ directory, hidden whole while a command runs: a
		// package of that name deeper in a source tree is code, not
		// secrets).
		{Pattern: ".secrets", Read: true},
		{Pattern: ".vault_pass*", Read: true},
		{Pattern: ".vault-pass*", Read: true},
		{Pattern: "./auth.json", Read: true},
		{Pattern: ".sentryclirc", Read: true},
		{Pattern: "./secrets/", Read: true},
		// The home's credential files kept in a project (a CI or container
		// home checked out beside the code, a tool run with HOME there).
		{Pattern: ".netrc", Read: true},
		{Pattern: ".pypirc", Read: true},
		{Pattern: ".git-credentials", Read: true},
		{Pattern: "**/.aws/credentials", Read: true},
		{Pattern: "**/.docker/config.json", Read: true},
		{Pattern: ".pgpass", Read: true},
		{Pattern: ".vault-token", Read: true},
		{Pattern: "**/.ssh/id_*", Read: true},
	}
}

// WithProtectedPaths replaces the default protected paths with ps. With no
// argument, nothing is protected. A malformed pattern is an error naming it.
func WithProtectedPaths(ps ...ProtectedPath) Option {
	return func(o *options) error {
		compiled, err := compileProtected(ps)
		if err != nil {
			return err
		}
		o.protected = compiled
		return nil
	}
}

// compileProtected compiles ps, each read-protected pattern followed by
// the rule for the copies kept of what it matches (classify.Protected's
// Copies: the definition the confinement hides copies by), or names the
// first malformed one in an error matching ErrInvalidConfig.
func compileProtected(ps []ProtectedPath) ([]classify.Protected, error) {
	out := make([]classify.Protected, 0, len(ps))
	for i, p := range ps {
		r, err := classify.CompileProtected(p.Pattern, p.Read, p.Write)
		if errors.Is(err, classify.ErrProtectsNothing) {
			return nil, invalid(ErrInvalidConfig, "sandboxauth: protected path %d (%q) %v", i, p.Pattern, err)
		}
		if err != nil {
			return nil, invalid(ErrInvalidConfig, "sandboxauth: protected path %d (%q): %v", i, p.Pattern, err)
		}
		out = append(out, r)
		if c, ok := r.Copies(); ok {
			out = append(out, c)
		}
	}
	return out, nil
}

// protectedHit returns the first rule protecting one of paths for op, and
// that path, or nil. pl is the paths' placement; they are all inside.
func protectedHit(rules []classify.Protected, op Operation, sandboxDir string, pl *placement, paths []string) (*classify.Protected, string) {
	if len(rules) == 0 {
		return nil, ""
	}
	for i, p := range paths {
		if r := classify.ProtectedFor(rules, op == OpWrite, sandboxDir, pl.root, p, pl.real[i]); r != nil {
			return r, p
		}
	}
	return nil, ""
}
