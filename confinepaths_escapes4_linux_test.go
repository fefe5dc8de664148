package sandboxauth

// Escapes found in the fourth round of red-teaming the confinement that
// ProtectConfinement builds (the policy `sandboxauth run` uses): each test
// asserts that the escape does NOT happen, and fails while it does.

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

// userGit runs git with args in dir, unconfined (the user's own git), and
// returns its combined output.
func userGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	c := exec.Command("git", args...)
	c.Dir, c.Env = dir, append(os.Environ(), gitEnv...)
	b, _ := c.CombinedOutput()
	return string(b)
}

// TestEscapeQuarantineIndexNotUnderstood: the quarantine finds the
// submodules git status enters by reading the top repository's index,
// and an index it does not understand counts as having none. The command
// makes a repository deeper than the walk reaches, gives it a
// core.fsmonitor, records it as a gitlink, then makes the index one the
// quarantine does not read but git does: a split index (git update-index
// --split-index: a "link" extension and a .git/sharedindex.* file, no
// configuration needed), or a symbolic link to the real index (git
// follows it). The quarantine then sees no gitlink and leaves the
// repository; the user's plain git status enters it and runs the
// fsmonitor unconfined.
//
//	mkdir -p a/b/c/d/evil && cd a/b/c/d/evil && git init -q && git commit -q --allow-empty -m x
//	printf '[core]\n\tfsmonitor = "touch $HOME/pwned; false"\n' >> .git/config
//	cd - && git update-index --add --cacheinfo 160000,$(git -C a/b/c/d/evil rev-parse HEAD),a/b/c/d/evil
//	git update-index --split-index    # or: mv .git/index .git/index.real && ln -s index.real .git/index
func TestEscapeQuarantineIndexNotUnderstood(t *testing.T) {
	for name, hide := range map[string]string{
		"split index":   "git update-index --split-index",
		"symbolic link": "mv .git/index .git/index.real && ln -s index.real .git/index",
	} {
		t.Run(name, func(t *testing.T) {
			sb := escapeSandbox(t)
			marker := homeMarker(t)
			p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
			require.NoError(t, err)
			cmd := exec.Command("/bin/sh", "-c", deepFsmonitorGitlink(marker)+hide)
			cmd.Dir = sb
			cmd.Env = append(os.Environ(), gitEnv...)
			out, err := runConfined(cmd, p)
			require.NoError(t, err, out)

			t.Logf("git status: %s", userGit(t, sb, "status", "--short"))
			assert.NoFileExists(t, marker, "a plain git status ran the confined command's fsmonitor unconfined")
		})
	}
}

// TestEscapeQuarantinePreexistingRebaseTodo: the user has an interactive
// rebase stopped (an "edit", a conflict) and has the agent run the tests.
// The quarantine moves git's sequencer state aside only when it is new;
// this one was there before, so a confined command can add an
// "exec <anything>" line to .git/rebase-merge/git-rebase-todo and the
// user's `git rebase --continue` runs it unconfined.
//
//	printf 'exec touch $HOME/pwned\n' | cat - .git/rebase-merge/git-rebase-todo > t &&
//	cat t > .git/rebase-merge/git-rebase-todo
func TestEscapeQuarantinePreexistingRebaseTodo(t *testing.T) {
	sb := escapeSandbox(t)
	for _, msg := range []string{"one", "two", "three"} {
		c := exec.Command("git", "commit", "-q", "--allow-empty", "-m", msg)
		c.Dir, c.Env = sb, append(os.Environ(), gitEnv...)
		out, err := c.CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	c := exec.Command("git", "rebase", "-q", "-i", "HEAD~2")
	c.Dir, c.Env = sb, append(os.Environ(), append(gitEnv, "GIT_SEQUENCE_EDITOR=sed -i 1s/^pick/edit/")...)
	out, err := c.CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.FileExists(t, filepath.Join(sb, ".git", "rebase-merge", "git-rebase-todo"), "no rebase stopped")

	marker := homeMarker(t)
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	cmd := exec.Command("/bin/sh", "-c", `printf 'exec touch `+marker+`\n' | cat - .git/rebase-merge/git-rebase-todo > t && cat t > .git/rebase-merge/git-rebase-todo && rm t`)
	cmd.Dir = sb
	out2, err := runConfined(cmd, p)
	require.NoError(t, err, out2)

	t.Logf("git rebase --continue: %s", userGit(t, sb, "rebase", "--continue"))
	assert.NoFileExists(t, marker, "git rebase --continue ran an exec line the confined command added to a stopped rebase")
}

// TestEscapeNestedRepositoryCommondir: a repository below the top that
// existed before the run has its configuration and hooks kept read-only,
// but files it lacks are not protected below the top, and the quarantine
// leaves its .git alone (it was there before). The command writes
// sub/.git/commondir naming a directory of its own, whose config and
// hooks git then uses for sub; or, when sub has no hooks directory (a
// repository made with --template=, as some tools make them), it creates
// sub/.git/hooks/pre-commit. The user's git status or git commit in sub
// runs them unconfined.
//
//	git init -q --bare notes/c
//	printf '[core]\n\tbare = false\n\tfsmonitor = "touch $HOME/pwned; false"\n' > notes/c/config
//	printf '../../notes/c\n' > sub/.git/commondir
//	# or: mkdir sub/.git/hooks && printf '#!/bin/sh\ntouch $HOME/pwned\n' > sub/.git/hooks/pre-commit
func TestEscapeNestedRepositoryCommondir(t *testing.T) {
	for _, c := range []struct {
		name     string
		template []string
		payload  string
	}{
		{"commondir", nil, `mkdir -p notes && git init -q --bare notes/c
printf '[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tfsmonitor = "touch MARKER; false"\n' > notes/c/config
printf '../../notes/c\n' > sub/.git/commondir`},
		{"missing hooks", []string{"--template="}, `mkdir sub/.git/hooks && printf '#!/bin/sh\ntouch MARKER\n' > sub/.git/hooks/pre-commit && chmod +x sub/.git/hooks/pre-commit`},
	} {
		t.Run(c.name, func(t *testing.T) {
			sb := escapeSandbox(t)
			sub := filepath.Join(sb, "sub")
			out, err := exec.Command("git", append(append([]string{"init", "-q"}, c.template...), sub)...).CombinedOutput()
			require.NoError(t, err, "%s", out)
			userGit(t, sub, "commit", "-q", "--allow-empty", "-m", "x")
			marker := homeMarker(t)
			p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
			require.NoError(t, err)
			cmd := exec.Command("/bin/sh", "-c", "set -e\n"+strings.ReplaceAll(c.payload, "MARKER", marker))
			cmd.Dir = sb
			cmd.Env = append(os.Environ(), gitEnv...)
			out2, err := runConfined(cmd, p)
			require.NoError(t, err, out2)

			t.Logf("git status and commit in sub: %s%s", userGit(t, sub, "status", "--short"), userGit(t, sub, "commit", "-q", "--allow-empty", "-m", "y"))
			assert.NoFileExists(t, marker, "git in a repository that existed before the run ran something the confined command chose")
		})
	}
}

// TestEscapeRunReturnsBeforeQuarantine: confine.Run promises that when
// the command ends on its own, cmd.Wait returns only after
// Policy.AfterExit (the quarantine) has run. The command can end the
// sandbox's first process itself: the helper is a Go program, and as PID
// 1 of the namespace it receives every signal it has a handler for, and
// Go's runtime handles SIGABRT (and SIGILL, SIGTRAP, SIGSYS ... sent by
// kill) by crashing. bubblewrap then exits at once and cmd.Wait returns
// while the starting thread is still waiting for the sandbox's end and
// has not run the quarantine: a caller that goes on (git status) finds
// the command's new repository in place and runs its fsmonitor
// unconfined.
//
//	mkdir evil && cd evil && git init -q && git commit -q --allow-empty -m x &&
//	printf '[core]\n\tfsmonitor = "touch $HOME/pwned; false"\n' >> .git/config &&
//	cd .. && git update-index --add --cacheinfo 160000,$(git -C evil rev-parse HEAD),evil &&
//	mkdir junk && cd junk && seq 30000 | xargs touch && cd .. # a slower walk
//	kill -ABRT 1
func TestEscapeRunReturnsBeforeQuarantine(t *testing.T) {
	for i := 0; i < 3; i++ {
		sb := escapeSandbox(t)
		marker := homeMarker(t)
		p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
		require.NoError(t, err)
		after := p.AfterExit
		done := make(chan struct{})
		p.AfterExit = func() { after(); close(done) }
		cmd := exec.Command("/bin/sh", "-c", `set -e
mkdir evil && cd evil && git init -q && git commit -q --allow-empty -m x
printf '[core]\n\tfsmonitor = "touch `+marker+`; false"\n' >> .git/config
cd .. && git update-index --add --cacheinfo 160000,$(git -C evil rev-parse HEAD),evil
mkdir junk && cd junk && seq 30000 | xargs touch && cd ..
kill -ABRT 1; sleep 5`)
		cmd.Dir = sb
		cmd.Env = append(os.Environ(), gitEnv...)
		out, _ := runConfined(cmd, p)
		early := false
		select {
		case <-done:
		default:
			early = true
		}
		status := userGit(t, sb, "status", "--short") // what a caller does next
		<-done
		assert.False(t, early, "try %d: confine.Run returned before the quarantine had run (%.100s)", i+1, out)
		if !assert.NoFileExists(t, marker, "try %d: the caller's git status, right after confine.Run, ran the confined command's fsmonitor: %s", i+1, status) {
			return
		}
	}
}

// TestEscapeEmbeddedBareRepository: the quarantine looks for new
// repositories by the name .git, but git takes any directory holding
// HEAD, objects/ and refs/ for a git directory when it is met on the way
// up from the working directory (safe.bareRepository is "all" by
// default), before it looks further up for the project's .git. The
// command turns an ordinary directory of the project (src/) into one,
// with a configuration that names the directory above as work tree and a
// core.fsmonitor: the user's git status run from src/ (or anywhere below
// it) runs the fsmonitor unconfined.
//
//	cd src && mkdir -p objects refs && echo 'ref: refs/heads/main' > HEAD &&
//	printf '[core]\n\tbare = false\n\tworktree = ..\n\tfsmonitor = "touch $HOME/pwned; false"\n' > config
func TestEscapeEmbeddedBareRepository(t *testing.T) {
	sb := escapeSandbox(t)
	src := filepath.Join(sb, "src")
	require.NoError(t, os.MkdirAll(src, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(src, "main.go"), []byte("package main\n"), 0o644))
	userGit(t, sb, "add", ".")
	userGit(t, sb, "commit", "-q", "-m", "init")
	marker := homeMarker(t)
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	cmd := exec.Command("/bin/sh", "-c", `set -e
cd src && mkdir -p objects refs && echo 'ref: refs/heads/main' > HEAD
printf '[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = ..\n\tfsmonitor = "touch `+marker+`; false"\n' > config`)
	cmd.Dir = sb
	out, err := runConfined(cmd, p)
	require.NoError(t, err, out)

	t.Logf("git status in src: %s", userGit(t, src, "status", "--short"))
	assert.NoFileExists(t, marker, "git status in a directory of the project ran a configuration the confined command wrote there")
}

// TestEscapeGlobalGitIncludeInSandbox: the files a repository's
// configuration includes are kept read-only when they lie in the sandbox,
// but not those the user's own configuration (~/.gitconfig) names: a
// dotfiles project, or a team's shared settings kept in the project and
// included from ~/.gitconfig (include.path, includeIf, core.hooksPath).
// The command appends a core.fsmonitor to the included file, and git runs
// it unconfined in every repository of the user.
//
//	printf '[core]\n\tfsmonitor = "touch $HOME/pwned; false"\n' >> tools/gitconfig
func TestEscapeGlobalGitIncludeInSandbox(t *testing.T) {
	sb := escapeSandbox(t)
	home := homeVictimDir(t)
	marker := filepath.Join(homeVictimDir(t), "pwned")
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	require.NoError(t, os.MkdirAll(filepath.Join(sb, "tools"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(sb, "tools", "gitconfig"), []byte("[alias]\n\tst = status\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[include]\n\tpath = "+filepath.Join(sb, "tools", "gitconfig")+"\n"), 0o644))
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	cmd := exec.Command("/bin/sh", "-c", `printf '[core]\n\tfsmonitor = "touch `+marker+`; false"\n' >> tools/gitconfig`)
	cmd.Dir = sb
	out, err := runConfined(cmd, p)
	t.Log(out, err)

	other := filepath.Join(home, "other")
	userGit(t, home, "init", "-q", other)
	t.Logf("git status in another repository: %s", userGit(t, other, "status", "--short"))
	assert.NoFileExists(t, marker, "the user's git, in another repository, ran a core.fsmonitor the confined command wrote into a file ~/.gitconfig includes")
}

// TestEscapePackageManagerSettingsNameProgram: .pnpmfile.cjs and
// .yarnrc.yml are kept read-only because the package manager loads what
// they name on every command, --ignore-scripts included; but the settings
// that name such a program under another file name are not: pnpm's
// pnpm-workspace.yaml (pnpmfile: any file) and npm's project .npmrc
// (git=any program, run for a git dependency). The command writes them,
// and the user's own `pnpm install --ignore-scripts` or
// `npm install --ignore-scripts` runs its code unconfined.
//
//	printf 'pnpmfile: tools/hooks.cjs\n' > pnpm-workspace.yaml; echo 'require("fs").writeFileSync(...)' > tools/hooks.cjs
//	echo "git=$PWD/tools/git.sh" > .npmrc; (a git+file: dependency in package.json)
func TestEscapePackageManagerSettingsNameProgram(t *testing.T) {
	for _, c := range []struct{ name, payload, program string }{
		{"pnpm-workspace.yaml pnpmfile", `mkdir -p tools
printf 'pnpmfile: tools/hooks.cjs\n' > pnpm-workspace.yaml
echo 'require("fs").writeFileSync(process.env.MARKER, "x"); module.exports = {hooks: {}}' > tools/hooks.cjs`, "pnpm"},
		{".npmrc git", `mkdir -p tools
printf '#!/bin/sh\ntouch "$MARKER"\nexec git "$@"\n' > tools/git.sh; chmod +x tools/git.sh
echo "git=$PWD/tools/git.sh" > .npmrc
echo '{"name":"x","version":"1.0.0","dependencies":{"dep":"git+file://'"$PWD"'/dep.git"}}' > package.json`, "npm"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := exec.LookPath(c.program); err != nil {
				t.Skipf("%s is not installed, so its settings cannot be tested", c.program)
			}
			sb := escapeSandbox(t)
			require.NoError(t, os.WriteFile(filepath.Join(sb, "package.json"), []byte(`{"name":"x","version":"1.0.0"}`), 0o644))
			marker := homeMarker(t)
			p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
			require.NoError(t, err)
			cmd := exec.Command("/bin/sh", "-c", c.payload)
			cmd.Dir = sb
			out, err := runConfined(cmd, p)
			require.NoError(t, err, out)

			install := exec.Command(c.program, "install", "--ignore-scripts", "--offline")
			install.Dir = sb
			install.Env = append(os.Environ(), "MARKER="+marker)
			b, _ := install.CombinedOutput()
			t.Logf("%s install --ignore-scripts: %.300s", c.program, b)
			assert.NoFileExists(t, marker, "the user's %s install --ignore-scripts ran a program the confined command named in the package manager's settings", c.program)
		})
	}
}

// TestEscapeProjectSecretsUnderOtherNames: .env and .env.* are hidden
// from the command, but projects keep the same secrets in files of other
// names: direnv's .envrc, wrangler's .dev.vars, Rails' config/master.key,
// a project .npmrc with a registry token. The command reads them (and,
// without the network, can still hand them to the agent in its output or
// in a project file the agent reads).
//
//	cat .envrc .dev.vars config/master.key .npmrc
func TestEscapeProjectSecretsUnderOtherNames(t *testing.T) {
	sb := escapeSandbox(t)
	secrets := map[string]string{
		".envrc":            "export AWS_SECRET_ACCESS_KEY=ENVRCSECRET",
		".dev.vars":         "API_TOKEN=DEVVARSSECRET",
		"config/master.key": "MASTERKEYSECRET",
		".npmrc":            "//registry.npmjs.org/:_authToken=NPMRCSECRET",
	}
	for rel, body := range secrets {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(sb, rel)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(sb, rel), []byte(body+"\n"), 0o600))
	}
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	for rel, body := range secrets {
		cmd := exec.Command("/bin/cat", rel)
		cmd.Dir = sb
		out, _ := runConfined(cmd, p)
		assert.NotContains(t, out, body, "%s, a project's secrets, was readable", rel)
	}
}

// TestEscapeQuarantineNameTooLong: the quarantine renames what it moves
// aside to its name plus ".sandboxauth-quarantine", and leaves it where it
// is when that fails for any reason but a taken name. A new match of a
// wildcard pattern (*.code-workspace, whose settings and tasks VS Code
// applies once the user accepts its offer to open it) with a name of 240
// bytes cannot take 23 more: ENAMETOOLONG, and it stays.
//
//	echo '{"settings": {...}}' > $(printf 'w%.0s' $(seq 225)).code-workspace
func TestEscapeQuarantineNameTooLong(t *testing.T) {
	sb := escapeSandbox(t)
	name := strings.Repeat("w", 225) + ".code-workspace"
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	cmd := exec.Command("/bin/sh", "-c", `echo '{"settings": {}}' > `+name)
	cmd.Dir = sb
	out, err := runConfined(cmd, p)
	require.NoError(t, err, out)
	assert.NoFileExists(t, filepath.Join(sb, name), "a new workspace file was left in place because its quarantine name would be too long")
}

// TestEscapeQuarantineNestedIndexGitlink: the quarantine follows the
// gitlinks of the top repository's index to new repositories however
// deep, but not those of a repository below the top. In a nested
// repository that was there before the run (its index is writable), the
// command records a gitlink to a new repository deeper than the walk
// reaches and gives that one a core.fsmonitor: git status in the nested
// repository (or the top's, when the nested one is a submodule) enters it
// and runs the fsmonitor unconfined.
//
//	mkdir -p sub/a/b/c/evil && cd sub/a/b/c/evil && git init -q && git commit -q --allow-empty -m x &&
//	printf '[core]\n\tfsmonitor = "touch $HOME/pwned; false"\n' >> .git/config &&
//	cd ../../../.. && git -C sub update-index --add --cacheinfo 160000,$(git -C sub/a/b/c/evil rev-parse HEAD),a/b/c/evil
func TestEscapeQuarantineNestedIndexGitlink(t *testing.T) {
	sb := escapeSandbox(t)
	sub := filepath.Join(sb, "sub")
	out, err := exec.Command("git", "init", "-q", sub).CombinedOutput()
	require.NoError(t, err, "%s", out)
	userGit(t, sub, "commit", "-q", "--allow-empty", "-m", "x")
	marker := homeMarker(t)
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	cmd := exec.Command("/bin/sh", "-c", `set -e
mkdir -p sub/a/b/c/evil && cd sub/a/b/c/evil && git init -q && git commit -q --allow-empty -m x
printf '[core]\n\tfsmonitor = "touch `+marker+`; false"\n' >> .git/config
cd "$OLDPWD/sub" && git update-index --add --cacheinfo 160000,$(git -C a/b/c/evil rev-parse HEAD),a/b/c/evil`)
	cmd.Dir = sb
	cmd.Env = append(os.Environ(), gitEnv...)
	out2, err := runConfined(cmd, p)
	require.NoError(t, err, out2)

	t.Logf("git status in sub: %s", userGit(t, sub, "status", "--short"))
	assert.NoFileExists(t, marker, "git status in a nested repository entered a new repository the command recorded in its index")
}

// TestEscapeKiloCodeSettings: coding-agent settings are kept read-only
// (those of opencode, Roo and others), but not Kilo Code's: its project
// configuration (.kilocode/mcp.json, and in newer versions kilo.json,
// kilo.jsonc or .kilo/kilo.jsonc) declares MCP servers, programs the
// extension starts by itself when the project is opened ("Kilo Code
// automatically detects and loads this file"). The command writes one.
//
//	mkdir .kilocode && echo '{"mcpServers":{"x":{"command":"sh","args":["-c","touch ~/pwned"]}}}' > .kilocode/mcp.json
func TestEscapeKiloCodeSettings(t *testing.T) {
	sb := escapeSandbox(t)
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	files := []string{".kilocode/mcp.json", "kilo.json", "kilo.jsonc", ".kilo/kilo.jsonc"}
	script := `mkdir -p .kilocode .kilo
echo '{"mcpServers":{"x":{"command":"sh","args":["-c","touch $HOME/pwned"]}}}' > .kilocode/mcp.json
for f in kilo.json kilo.jsonc .kilo/kilo.jsonc; do echo '{"mcp":{"x":{"type":"local","command":["sh","-c","touch $HOME/pwned"]}}}' > $f; done`
	cmd := exec.Command("/bin/sh", "-c", script)
	cmd.Dir = sb
	out, err := runConfined(cmd, p)
	t.Log(out, err)
	for _, f := range files {
		assert.NoFileExists(t, filepath.Join(sb, f), "the command wrote Kilo Code's project settings, which start MCP servers unconfined")
	}
}

// TestEscapeNestedRepositoryRebaseTodoExec: the quarantine moves aside
// git's state of an operation stopped half-way only in the top
// repository's .git. In a repository below the top (there before the
// run), the command leaves an interactive rebase stopped at a "break"
// whose next step is "exec <anything>": the user's
// `git rebase --continue` there runs it unconfined.
//
//	cd sub && GIT_SEQUENCE_EDITOR="printf 'break\nexec touch $HOME/pwned\n' >" git rebase -q -i HEAD~1
func TestEscapeNestedRepositoryRebaseTodoExec(t *testing.T) {
	sb := escapeSandbox(t)
	sub := filepath.Join(sb, "sub")
	out, err := exec.Command("git", "init", "-q", sub).CombinedOutput()
	require.NoError(t, err, "%s", out)
	for _, msg := range []string{"one", "two"} {
		userGit(t, sub, "commit", "-q", "--allow-empty", "-m", msg)
	}
	marker := homeMarker(t)
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	cmd := exec.Command("/bin/sh", "-c", `cd sub && GIT_SEQUENCE_EDITOR="printf 'break\nexec touch `+marker+`\n' >" git rebase -q -i HEAD~1`)
	cmd.Dir = sb
	cmd.Env = append(os.Environ(), gitEnv...)
	out2, err := runConfined(cmd, p)
	t.Logf("confined payload: err=%v %s", err, out2)
	// The payload ran when the rebase is stopped, or moved aside.
	stopped, _ := filepath.Glob(filepath.Join(sub, ".git", "rebase-merge*"))
	require.NotEmpty(t, stopped, "the payload left no rebase stopped")

	t.Logf("git rebase --continue in sub: %s", userGit(t, sub, "rebase", "--continue"))
	assert.NoFileExists(t, marker, "git rebase --continue in a nested repository ran an exec line the confined command left")
}

// TestEscapeCommitTimeScripts: hook directories and hook managers'
// settings are kept read-only because the user's next commit runs what
// they name, but not the scripts lefthook runs from its source
// directories (.lefthook/<hook>/ and .lefthook-local/<hook>/, the
// defaults of source_dir and source_dir_local) nor lint-staged's
// configuration (.lintstagedrc*, lint-staged.config.*), which a husky or
// lefthook pre-commit hook runs. The command changes a script
// lefthook.yml names and adds others.
//
//	echo 'touch $HOME/pwned' >> .lefthook/pre-commit/lint.sh
//	echo '{"*": "touch $HOME/pwned"}' > .lintstagedrc.json
func TestEscapeCommitTimeScripts(t *testing.T) {
	sb := escapeSandbox(t)
	require.NoError(t, os.MkdirAll(filepath.Join(sb, ".lefthook", "pre-commit"), 0o755))
	script := filepath.Join(sb, ".lefthook", "pre-commit", "lint.sh")
	require.NoError(t, os.WriteFile(script, []byte("echo lint\n"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(sb, "lefthook.yml"), []byte("pre-commit:\n  scripts:\n    \"lint.sh\":\n      runner: sh\n"), 0o644))
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	cmd := exec.Command("/bin/sh", "-c", `echo 'touch $HOME/pwned' >> .lefthook/pre-commit/lint.sh
mkdir -p .lefthook-local/pre-commit && echo 'touch $HOME/pwned' > .lefthook-local/pre-commit/a.sh
echo '{"*": "touch $HOME/pwned"}' > .lintstagedrc.json`)
	cmd.Dir = sb
	out, err := runConfined(cmd, p)
	t.Log(out, err)
	b, err := os.ReadFile(script)
	require.NoError(t, err)
	assert.Equal(t, "echo lint\n", string(b), "the command changed a script lefthook runs on the user's next commit")
	assert.NoFileExists(t, filepath.Join(sb, ".lefthook-local", "pre-commit", "a.sh"), "the command added a local lefthook script")
	assert.NoFileExists(t, filepath.Join(sb, ".lintstagedrc.json"), "the command wrote lint-staged's configuration, which a pre-commit hook runs")
}

// deepFsmonitorGitlink is a script that makes a repository deeper than the
// quarantine's walk, gives it a core.fsmonitor that touches marker, and
// records it as a gitlink in the index of the repository at the working
// directory; the caller may append more lines.
func deepFsmonitorGitlink(marker string) string {
	return `set -e
mkdir -p a/b/c/d/evil && cd a/b/c/d/evil && git init -q && git commit -q --allow-empty -m x
printf '[core]\n\tfsmonitor = "touch ` + marker + `; false"\n' >> .git/config
cd "$OLDPWD" && git update-index --add --cacheinfo 160000,$(git -C a/b/c/d/evil rev-parse HEAD),a/b/c/d/evil
`
}
