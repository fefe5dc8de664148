package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hookRunFrom has the hook decide command as Claude Code's Bash tool in
// cwd, and runs the rewritten command there as the agent would. It
// returns the rewritten line's output and exit status.
func hookRunFrom(t *testing.T, c confinedProject, env []string, cwd, command string) (string, int) {
	t.Helper()
	r := runHookBin(t, cwd, env, claudeBash(t, cwd, command), "hook", "--for", "claude-code")
	decision, input := rewriteOf(t, r)
	require.Equal(t, "allow", decision, "stdout: %s", r.stdout)
	line, _ := input["command"].(string)
	require.NotEmpty(t, line, "the allow rewrites nothing: %s", r.stdout)
	return shRun(t, cwd, env, line)
}

// plantGit is a script that writes, at dir/git (dir absolute), a program
// that touches mark and runs the real git.
func plantGit(t *testing.T, dir, mark string) string {
	t.Helper()
	gitPath, err := exec.LookPath("git")
	if err != nil {
		t.Skipf("git is not installed: %v", err)
	}
	return "#!/bin/sh\nmkdir -p " + dir + " && printf '#!/bin/sh\\ntouch " + mark + "\\nexec " + gitPath +
		" \"$@\"\\n' > " + dir + "/git && chmod +x " + dir + "/git\n"
}

// TestEscape25bRelativePathEntryFromSubdirectory (round 25b): the user's
// PATH has a relative entry, `./bin` (the Rails habit of putting the
// project's binstubs first: export PATH="./bin:$PATH"), which the agent
// and the user's terminal inherit. The agent's shell is in a subdirectory
// of the project (Claude Code keeps the cwd of an earlier `cd sub`); the
// hook answers `./p.sh` (project code) with the confined rewrite, run in
// sub. pathShadows resolves a relative PATH entry from run's own working
// directory only (sub/bin, absent), so the program p.sh plants at the
// project's top, bin/git, is neither kept as it was nor moved aside after
// the run: the user's next `git` in the project's top (their terminal,
// the agent's own git calls) runs it unconfined. PATH="." is the same: a
// git planted in any directory of the project but run's own runs when the
// user's shell is there.
//
//	cwd sub, PATH=./bin:$PATH; sub/p.sh: mkdir -p ../bin; printf '#!/bin/sh\ntouch MARK; exec git "$@"' > ../bin/git; chmod +x ../bin/git
//	later, in the project: git --version   -> MARK
//
// Verified with the hook's rewrite run by bash as root and as sbtest.
func TestEscape25bRelativePathEntryFromSubdirectory(t *testing.T) {
	for _, tc := range []struct {
		name, entry, runIn, plantIn, laterIn string
	}{
		{"dot-bin from a subdirectory", "./bin", "sub", "bin", "."},
		{"bin from a subdirectory", "bin", "sub", "bin", "."},
		{"dot, planted beside the user's later directory", ".", ".", "src", "src"},
		{"dot, planted at the top from a subdirectory", ".", "sub", ".", "."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newConfinedProject(t)
			for _, d := range []string{"sub", "src"} {
				require.NoError(t, os.MkdirAll(filepath.Join(c.project, d), 0o755))
			}
			env := c.env(t, "PATH="+tc.entry+string(os.PathListSeparator)+os.Getenv("PATH"))
			mark := filepath.Join(c.outside, "PWNED")
			runIn := filepath.Join(c.project, tc.runIn)
			script := plantGit(t, filepath.Join(c.project, tc.plantIn), mark)
			require.NoError(t, os.WriteFile(filepath.Join(runIn, "p.sh"), []byte(script), 0o755))

			out, rc := hookRunFrom(t, c, env, runIn, "./p.sh")
			require.Equal(t, 0, rc, "output: %s", out)

			// Later, unconfined: the user's git by name in laterIn.
			later := exec.Command("sh", "-c", "git --version")
			later.Dir, later.Env = filepath.Join(c.project, tc.laterIn), env
			_, _ = later.CombinedOutput()
			assert.NoFileExists(t, mark, "a git the confined command planted in a directory that the relative PATH entry %q names from another working directory than run's ran unconfined", tc.entry)
		})
	}
}

// TestEscape25bProjectThroughLinkEveryCommandFails (round 25b, a false
// positive, not an escape): the user started Claude Code in a project
// reached through a symbolic link (~/src -> /data/src, macOS's /tmp and
// /var), so CLAUDE_PROJECT_DIR names the link. The hook checks the
// sandbox with confine.CheckSandbox, which accepts it, and answers every
// Bash command it allows with the rewrite `run --sandbox LINK`; run then
// refuses each one (exit 126: "Policy.Sandbox ... is reached through the
// symbolic link ..., name the real directory"). `ls` and `git status`
// fail; the rewrite does not mean the original. The hook should name the
// real directory (the link is the user's, fixed when the agent started)
// or answer as without confinement.
//
// Verified with the hook's rewrite run by bash as root: `./p.sh` and `ls`
// exit 126, cwd the link or the real directory.
func TestEscape25bProjectThroughLinkEveryCommandFails(t *testing.T) {
	c := newConfinedProject(t)
	link := filepath.Join(c.outside, "proj-link")
	require.NoError(t, os.Symlink(c.project, link))
	env := append(c.env(t), "CLAUDE_PROJECT_DIR="+link)
	for _, cwd := range []string{c.project, link} {
		out, rc := hookRunFrom(t, c, env, cwd, "ls main.go")
		assert.Equal(t, 0, rc, "in %s, the confined rewrite of `ls main.go` in a project named through a link failed: %s", cwd, out)
	}
}

// TestEscape25bVenvPythonScriptShadowsSystemProgram (round 25b): round
// 19's fix moves aside, after the run, a program the command put in an
// activated virtual environment's bin directory under the name of one
// found on PATH outside the sandbox (.venv/bin/git) — except what
// environmentsOwn takes for the environment's own: any file whose first
// line names an interpreter of that directory (#!.../.venv/bin/python3),
// pip's console scripts. The content after that line is not looked at, so
// a Python script of the command's, named like a system program (ls,
// make, sudo, ssh), stays; the user's next `ls` in a shell with the
// environment activated (anywhere: the home directory) runs it
// unconfined.
//
//	p.sh: printf '#!PROJECT/.venv/bin/python3\nimport os,sys\nopen("MARK","w")\nos.execvp("/usr/bin/ls", ["ls"]+sys.argv[1:])\n' > .venv/bin/ls; chmod +x .venv/bin/ls
//	later, venv active, in ~: ls   -> MARK
//
// Verified with the hook's rewrite run by bash as root and as sbtest
// (a venv made by python3 -m venv).
func TestEscape25bVenvPythonScriptShadowsSystemProgram(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skipf("python3 is not installed: %v", err)
	}
	python, err = filepath.EvalSymlinks(python)
	require.NoError(t, err)
	lsPath, err := exec.LookPath("ls")
	require.NoError(t, err)
	c := newConfinedProject(t)
	venvBin := filepath.Join(c.project, ".venv", "bin")
	require.NoError(t, os.MkdirAll(venvBin, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(venvBin, "activate"), []byte("# venv\n"), 0o644))
	require.NoError(t, os.Symlink(python, filepath.Join(venvBin, "python3")))
	env := c.env(t, "PATH="+venvBin+string(os.PathListSeparator)+os.Getenv("PATH"), "VIRTUAL_ENV="+filepath.Dir(venvBin))
	mark := filepath.Join(c.outside, "PWNED")
	script := "#!/bin/sh\nprintf '#!" + venvBin + "/python3\\nimport os, sys\\nopen(\"" + mark + "\", \"w\").write(\"x\")\\nos.execv(\"" +
		lsPath + "\", [\"ls\"] + sys.argv[1:])\\n' > .venv/bin/ls && chmod +x .venv/bin/ls\n"
	require.NoError(t, os.WriteFile(filepath.Join(c.project, "p.sh"), []byte(script), 0o755))

	out, rc := hookRunFrom(t, c, env, c.project, "./p.sh")
	require.Equal(t, 0, rc, "output: %s", out)

	// Later, unconfined: ls by name with the environment active.
	later := exec.Command("sh", "-c", "ls")
	later.Dir, later.Env = c.home, env
	_, _ = later.CombinedOutput()
	assert.NoFileExists(t, mark, "a Python script the confined command put in .venv/bin under the name ls ran unconfined as ls")
}

// TestEscape25bVenvLinkToOutsideProgramShadows (round 25b): the other
// half of environmentsOwn: a link in the activated environment's bin
// directory to any program outside the sandbox passes for the
// environment's own (a venv's python is such a link), whatever its name
// and target. The command links .venv/bin/ls to make and writes a
// Makefile; the user's next `ls` in the project, with the environment
// activated, is make, and runs the Makefile's recipe unconfined.
//
//	p.sh: ln -sf /usr/bin/make .venv/bin/ls; printf 'all:\n\t@touch MARK\n' > Makefile
//	later, venv active, in the project: ls   -> MARK
//
// Verified with the hook's rewrite run by bash as root.
func TestEscape25bVenvLinkToOutsideProgramShadows(t *testing.T) {
	makePath, err := exec.LookPath("make")
	if err != nil {
		t.Skipf("make is not installed: %v", err)
	}
	makePath, err = filepath.EvalSymlinks(makePath)
	require.NoError(t, err)
	c := newConfinedProject(t)
	venvBin := filepath.Join(c.project, ".venv", "bin")
	require.NoError(t, os.MkdirAll(venvBin, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(venvBin, "activate"), []byte("# venv\n"), 0o644))
	env := c.env(t, "PATH="+venvBin+string(os.PathListSeparator)+os.Getenv("PATH"), "VIRTUAL_ENV="+filepath.Dir(venvBin))
	mark := filepath.Join(c.outside, "PWNED")
	script := "#!/bin/sh\nln -sf " + makePath + " .venv/bin/ls && printf 'all:\\n\\t@touch " + mark + "\\n' > Makefile\n"
	require.NoError(t, os.WriteFile(filepath.Join(c.project, "p.sh"), []byte(script), 0o755))

	out, rc := hookRunFrom(t, c, env, c.project, "./p.sh")
	require.Equal(t, 0, rc, "output: %s", out)

	later := exec.Command("sh", "-c", "ls")
	later.Dir, later.Env = c.project, env
	_, _ = later.CombinedOutput()
	assert.NoFileExists(t, mark, "a link to make the confined command put in .venv/bin under the name ls ran the Makefile unconfined")
}

// TestEscape25bEnvrcPathOtherSpellings (round 25b): pathShadows reads
// the project's .envrc for the directories direnv puts on PATH when the
// user enters the project (the agent's own environment may lack them: an
// agent started from an editor, a shell without direnv's hook), but only
// in the form `PATH_add DIR ...` with bare words. A quoted directory
// (`PATH_add "tools"`), direnv's `path_add PATH tools`, or the common
// `export PATH=$PWD/tools:$PATH` are not understood, so a git the
// command plants in tools/ is not moved aside; the user's next git in
// the project, where direnv has put tools/ first on PATH, runs it
// unconfined. (.envrc is the user's, already allowed with direnv allow,
// and read-only to the command.)
//
//	.envrc: export PATH=$PWD/tools:$PATH
//	p.sh:   mkdir -p tools; printf '#!/bin/sh\ntouch MARK; exec git "$@"' > tools/git; chmod +x tools/git
//	later, in the project (direnv: PATH=PROJECT/tools:...): git --version   -> MARK
//
// Verified with the hook's rewrite run by bash as root.
func TestEscape25bEnvrcPathOtherSpellings(t *testing.T) {
	for name, envrc := range map[string]string{
		"quoted PATH_add": `PATH_add "tools"`,
		"export":          `export PATH=$PWD/tools:$PATH`,
		"path_add":        `path_add PATH tools`,
	} {
		t.Run(name, func(t *testing.T) {
			c := newConfinedProject(t)
			require.NoError(t, os.WriteFile(filepath.Join(c.project, ".envrc"), []byte(envrc+"\n"), 0o644))
			env := c.env(t)
			mark := filepath.Join(c.outside, "PWNED")
			tools := filepath.Join(c.project, "tools")
			require.NoError(t, os.WriteFile(filepath.Join(c.project, "p.sh"), []byte(plantGit(t, tools, mark)), 0o755))

			out, rc := hookRunFrom(t, c, env, c.project, "./p.sh")
			require.Equal(t, 0, rc, "output: %s", out)

			// Later, the user's shell in the project, with direnv's PATH.
			later := exec.Command("sh", "-c", "git --version")
			later.Dir, later.Env = c.project, append(env, "PATH="+tools+string(os.PathListSeparator)+os.Getenv("PATH"))
			_, _ = later.CombinedOutput()
			assert.NoFileExists(t, mark, "a git the confined command planted in the directory .envrc (%s) puts on PATH ran unconfined", envrc)
		})
	}
}

// TestEscape25bGrepGlobListReachesEnv (round 25b): Claude Code's Grep
// tool runs ripgrep with --hidden and splits its glob parameter on
// whitespace and, outside braces, on commas, passing each piece as its own
// --glob (GrepTool's call: glob.split(/\s+/), then rawPattern.split(",")).
// The hook takes the whole string for one pattern: "*.go .env" or
// "*.go,.env" matches no file named .env, so a search of the project is
// allowed, and ripgrep, given --glob '*.go' --glob .env, prints the
// project's .env. A glob of only white space or commas (" ", ",") is no
// --glob at all for Claude Code, a search of every file, and matches no
// name for the hook. No confinement applies: the agent's own tool reads
// it.
//
//	Grep {"pattern": "TOKEN", "path": PROJECT, "glob": "*.go,.env", "output_mode": "content"}
//	-> allow; rg --hidden ... -n TOKEN --glob '*.go' --glob .env PROJECT prints .env:1:TOKEN=...
//
// Verified with the hook as root (no confine section needed) and rg 13
// run with the arguments Claude Code builds.
func TestEscape25bGrepGlobListReachesEnv(t *testing.T) {
	project, home := hookProject(t)
	env := hookEnv(home, "CLAUDE_PROJECT_DIR="+project)
	for _, glob := range []string{"*.go .env", "*.go,.env", "main.go,.env*", "*.go\t.env", " ", ",", "\n"} {
		event := map[string]any{
			"session_id": "0b6c1a52-claude", "transcript_path": filepath.Join(project, ".transcript.jsonl"), "cwd": project,
			"permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Grep",
			"tool_input":  map[string]any{"pattern": "TOKEN", "path": project, "glob": glob, "output_mode": "content"},
			"tool_use_id": "toolu_01",
		}
		b, err := json.Marshal(event)
		require.NoError(t, err)
		r := runHookBin(t, project, env, string(b), "hook", "--for", "claude-code")
		assert.NotContains(t, r.stdout, `"permissionDecision":"allow"`,
			"a Grep whose glob %q Claude Code splits into --glob pieces, one of them .env, was allowed: %s", glob, r.stdout)
	}
}

// TestEscape25bCredentialHeadersAndProxyInEnvironment (round 25b): the
// rewritten command runs with the agent's environment less
// confine.CredentialEnv, whose patterns (*_TOKEN, *_API_KEY, *_AUTH, ...)
// miss the variables that carry credentials as headers or inside URLs,
// which Claude Code itself documents and takes from its settings' "env"
// (and so passes to every Bash command): ANTHROPIC_CUSTOM_HEADERS (an LLM
// gateway's "x-api-key: ..." or "Authorization: Bearer ..."),
// OTEL_EXPORTER_OTLP_HEADERS (its telemetry's "Authorization=Bearer
// ..."), and a corporate proxy's user and password in HTTPS_PROXY. Project
// code run confined prints them to the agent.
//
//	p.sh: env   -> ANTHROPIC_CUSTOM_HEADERS=x-api-key: sk-..., OTEL_EXPORTER_OTLP_HEADERS=Authorization=Bearer ..., HTTPS_PROXY=http://me:pw@proxy:3128
//
// Verified with the hook's rewrite run by bash as root.
func TestEscape25bCredentialHeadersAndProxyInEnvironment(t *testing.T) {
	c := newConfinedProject(t)
	secrets := map[string]string{
		"ANTHROPIC_CUSTOM_HEADERS":          "x-api-key: sk-gateway-SECRET1",
		"OTEL_EXPORTER_OTLP_HEADERS":        "Authorization=Bearer SECRET2",
		"OTEL_EXPORTER_OTLP_TRACES_HEADERS": "api-key=SECRET3",
		"HTTPS_PROXY":                       "http://me:SECRET4@proxy.corp.example:3128",
		"https_proxy":                       "http://me:SECRET5@proxy.corp.example:3128",
	}
	var extra []string
	for k, v := range secrets {
		extra = append(extra, k+"="+v)
	}
	env := c.env(t, extra...)
	require.NoError(t, os.WriteFile(filepath.Join(c.project, "p.sh"), []byte("#!/bin/sh\nenv\n"), 0o755))
	out, rc := hookRunFrom(t, c, env, c.project, "./p.sh")
	require.Equal(t, 0, rc, "output: %s", out)
	for k, v := range secrets {
		assert.NotContains(t, out, v, "the confined command read %s from its environment", k)
	}
}

// TestEscape25bEnvDirectoryReadWithoutAsking (round 25b): a read-protected
// pattern that names a directory (.env as a directory, a .env.d matching
// .env.*, each holding prod, staging, ...) protects, for the hook, only
// the name itself: the Read tool on .env/prod, a Grep of the project
// reaching .env/prod, and `cat .env/prod` are allowed without asking,
// and the agent's own tools (never confined) print the secrets. The
// confinement hides both directories ("hidden: .env, config/.env.d"), so
// the two disagree on what is secret.
//
//	Read {"file_path": "PROJECT/.env/prod"}                  -> allow
//	Grep {"pattern": "TOKEN", "path": PROJECT, "glob": "*"}  -> allow; rg prints .env/prod:1:TOKEN=...
//	Bash cat .env/prod (no confine section)                  -> allow, unconfined
//
// Verified with the hook as root; the confined `cat .env/prod` finds
// nothing there.
func TestEscape25bEnvDirectoryReadWithoutAsking(t *testing.T) {
	project, home := hookProject(t)
	require.NoError(t, os.Remove(filepath.Join(project, ".env")))
	for _, f := range []string{".env/prod", "config/.env.d/prod"} {
		p := filepath.Join(project, filepath.FromSlash(f))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte("TOKEN=sekrit\n"), 0o600))
	}
	env := hookEnv(home, "CLAUDE_PROJECT_DIR="+project)
	event := func(tool string, input map[string]any) string {
		b, err := json.Marshal(map[string]any{
			"session_id": "0b6c1a52-claude", "transcript_path": filepath.Join(project, ".transcript.jsonl"), "cwd": project,
			"permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": tool,
			"tool_input": input, "tool_use_id": "toolu_01",
		})
		require.NoError(t, err)
		return string(b)
	}
	for name, ev := range map[string]string{
		"Read .env/prod":          event("Read", map[string]any{"file_path": filepath.Join(project, ".env", "prod")}),
		"Read config/.env.d/prod": event("Read", map[string]any{"file_path": filepath.Join(project, "config", ".env.d", "prod")}),
		"Grep the project":        event("Grep", map[string]any{"pattern": "TOKEN", "path": project, "glob": "*", "output_mode": "content"}),
		"Bash cat .env/prod":      claudeBash(t, project, "cat .env/prod"),
		"Bash cat .env.d/prod":    claudeBash(t, project, "cat config/.env.d/prod"),
	} {
		r := runHookBin(t, project, env, ev, "hook", "--for", "claude-code")
		assert.NotContains(t, r.stdout, `"permissionDecision":"allow"`, "%s: a file in a read-protected directory was allowed: %s", name, r.stdout)
	}
}

// TestEscape25bTildePathEntry (round 25b): bash expands a leading ~ in a
// PATH entry when it looks a program up, so a PATH written with the
// tilde quoted (export PATH="~/src/tools/bin:$PATH", a common slip that
// works in bash) names the project's bin directory. pathShadows (and
// confine's pathPlaces) take the entry for a relative one, resolved from
// run's working directory (PROJECT/~/src/tools/bin, absent), so the git
// the command plants in bin/ is not moved aside, and the user's next git
// in bash, anywhere, runs it unconfined. With the same entry written
// absolute it is moved aside (git.sandboxauth-quarantine).
//
//	HOME=H, project H/src/tools, PATH=~/src/tools/bin:$PATH
//	p.sh: printf '#!/bin/sh\ntouch MARK; exec git "$@"' > bin/git; chmod +x bin/git
//	later, bash anywhere: git --version   -> MARK
//
// Verified with the hook's rewrite run by bash as root.
func TestEscape25bTildePathEntry(t *testing.T) {
	c := newConfinedProject(t)
	// The project lies in the home: H/src/tools.
	project := filepath.Join(c.home, "src", "tools")
	require.NoError(t, os.MkdirAll(filepath.Join(project, "bin"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(project, "main.go"), []byte("package main\n"), 0o644))
	c.project = project
	env := c.env(t, "CLAUDE_PROJECT_DIR="+project, "PATH=~/src/tools/bin"+string(os.PathListSeparator)+os.Getenv("PATH"))
	mark := filepath.Join(c.outside, "PWNED")
	require.NoError(t, os.WriteFile(filepath.Join(project, "p.sh"), []byte(plantGit(t, filepath.Join(project, "bin"), mark)), 0o755))

	out, rc := hookRunFrom(t, c, env, project, "./p.sh")
	require.Equal(t, 0, rc, "output: %s", out)

	later := exec.Command("bash", "-c", "git --version")
	later.Dir, later.Env = c.outside, env
	_, _ = later.CombinedOutput()
	assert.NoFileExists(t, mark, "a git the confined command planted in the directory the PATH entry ~/src/tools/bin names ran unconfined")
}

// TestEscape25bEnvCopiesTheConfinementHides (round 25b): the confinement
// hides copies of .env named with a copy word after "-", "_" or a space
// (.env-backup, .env_backup, .env-bak, .env_old, ".env backup", .env~1)
// and of .npmrc (.npmrc.gz, .npmrc.zip, .npmrc.tgz, .npmrc.bk, .npmrc.tmp,
// .npmrc-backup, dated): a confined `cat` gets "Permission denied". The
// hook's read protection does not take them for copies: Claude Code's
// Read tool on them is allowed, and prints the secrets. (50 such names of
// .env and .npmrc out of 322 tried; .dev.vars, *.tfstate, *.tfvars,
// local.settings.json and .secrets.* agreed.) Round 24 aligned the two for other copy names (commit
// "protected.go: the copies a read-protected pattern covers").
//
//	Read {"file_path": "PROJECT/.env-backup"}   -> allow
//
// Verified with the hook as root; the confined cat is refused.
func TestEscape25bEnvCopiesTheConfinementHides(t *testing.T) {
	project, home := hookProject(t)
	env := hookEnv(home, "CLAUDE_PROJECT_DIR="+project)
	for _, name := range []string{".env-backup", ".env_backup", ".env-bak", ".env_old", ".env backup", ".env-copy", ".env~1", ".env_2024-01-01",
		".npmrc.gz", ".npmrc.zip", ".npmrc.tgz", ".npmrc.bk", ".npmrc.bck", ".npmrc.tmp", ".npmrc-backup", ".npmrc.20240101"} {
		p := filepath.Join(project, name)
		require.NoError(t, os.WriteFile(p, []byte("TOKEN=sekrit\n"), 0o600))
		b, err := json.Marshal(map[string]any{
			"session_id": "0b6c1a52-claude", "transcript_path": filepath.Join(project, ".transcript.jsonl"), "cwd": project,
			"permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Read",
			"tool_input": map[string]any{"file_path": p}, "tool_use_id": "toolu_01",
		})
		require.NoError(t, err)
		r := runHookBin(t, project, env, string(b), "hook", "--for", "claude-code")
		assert.NotContains(t, r.stdout, `"permissionDecision":"allow"`, "Read %s, a copy of .env the confinement hides, was allowed: %s", name, r.stdout)
	}
}

// TestEscape25bVenvScriptReplacesTheHook (round 25b): the worst use of
// environmentsOwn's leniency (TestEscape25bVenvPythonScriptShadowsSystemProgram):
// the README's hook entry is "sandboxauth hook --for claude-code", found
// on PATH, and an agent started with the project's virtual environment
// activated has PROJECT/.venv/bin first. The confined command puts there
// a Python script named sandboxauth (first line #!PROJECT/.venv/bin/python3,
// so it passes for the environment's own and stays); Claude Code runs it,
// unconfined, as the hook of the very next tool call, with no one doing
// anything: it can run what it likes and answer "allow" to every call
// from then on. Here it only marks and hands over to the real hook.
//
//	p.sh: printf '#!PROJECT/.venv/bin/python3\nimport os,sys\nopen("MARK","w")\nos.execv("/abs/sandboxauth", ["sandboxauth"]+sys.argv[1:])\n' > .venv/bin/sandboxauth
//	next tool call: Claude Code runs `sandboxauth hook --for claude-code`   -> MARK
//
// Verified as root with a venv made by python3 -m venv and the hook run
// by bash as Claude Code runs it.
func TestEscape25bVenvScriptReplacesTheHook(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skipf("python3 is not installed: %v", err)
	}
	python, err = filepath.EvalSymlinks(python)
	require.NoError(t, err)
	c := newConfinedProject(t)
	venvBin := filepath.Join(c.project, ".venv", "bin")
	require.NoError(t, os.MkdirAll(venvBin, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(venvBin, "activate"), []byte("# venv\n"), 0o644))
	require.NoError(t, os.Symlink(python, filepath.Join(venvBin, "python3")))
	hookBin, err := filepath.Abs(bin)
	require.NoError(t, err)
	// The user's sandboxauth, on PATH after the environment.
	env := c.env(t, "PATH="+venvBin+string(os.PathListSeparator)+filepath.Dir(hookBin)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"VIRTUAL_ENV="+filepath.Dir(venvBin))
	mark := filepath.Join(c.outside, "PWNED")
	script := "#!/bin/sh\nprintf '#!" + venvBin + "/python3\\nimport os, sys\\nopen(\"" + mark + "\", \"w\").write(\"x\")\\nos.execv(\"" +
		hookBin + "\", [\"sandboxauth\"] + sys.argv[1:])\\n' > .venv/bin/" + filepath.Base(hookBin) + " && chmod +x .venv/bin/" + filepath.Base(hookBin) + "\n"
	require.NoError(t, os.WriteFile(filepath.Join(c.project, "p.sh"), []byte(script), 0o755))

	out, rc := hookRunFrom(t, c, env, c.project, "./p.sh")
	require.Equal(t, 0, rc, "output: %s", out)

	// The next tool call: Claude Code runs the hook command by name.
	next := exec.Command("sh", "-c", filepath.Base(hookBin)+" hook --for claude-code")
	next.Dir, next.Env = c.project, env
	next.Stdin = strings.NewReader(claudeBash(t, c.project, "ls"))
	_, _ = next.CombinedOutput()
	assert.NoFileExists(t, mark, "a Python script the confined command put in .venv/bin ran unconfined as the hook itself")
}
