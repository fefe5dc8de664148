package sandboxauth

// Escapes found by the second red-team round in what ProtectConfinement
// adds (the quarantine of Policy.AfterExit, the protected git paths):
// each test asserts that the escape does NOT happen, and fails while it
// does.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/sandboxauth/sandboxauth/confine"
)

// init lets the test binary double as a confined swapper: with
// SANDBOXAUTH_ESCAPE2_EXCHANGE set it waits for args[0]/.git, then
// exchanges args[0] and args[1] (renameat2 RENAME_EXCHANGE) in a loop for
// args[2].
func init() {
	if sb := os.Getenv("SANDBOXAUTH_ESCAPE2_CALLER"); sb != "" {
		// A caller of its own (an agent's tool runner): runs the script
		// os.Args[1] confined as sandboxauth run would.
		p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
		if err != nil {
			os.Exit(2)
		}
		cmd := exec.Command("/bin/sh", "-c", os.Args[1])
		cmd.Dir, cmd.Stdout, cmd.Stderr = sb, os.Stdout, os.Stderr
		cmd.Env = append(os.Environ(), gitEnv...)
		if confine.Run(cmd, p) != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	if os.Getenv("SANDBOXAUTH_ESCAPE2_EXCHANGE") == "" {
		return
	}
	args := os.Args[1:]
	d, err := time.ParseDuration(args[2])
	if err != nil {
		os.Exit(2)
	}
	for wait := time.Now().Add(5 * time.Second); time.Now().Before(wait); time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(args[0], ".git")); err == nil {
			break
		}
	}
	for end := time.Now().Add(d); time.Now().Before(end); {
		_ = unix.Renameat2(unix.AT_FDCWD, args[0], unix.AT_FDCWD, args[1], unix.RENAME_EXCHANGE)
	}
	os.Exit(0)
}

func protectedPolicy(t *testing.T, sb string) confine.Policy {
	t.Helper()
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	return p
}

func shIn(sb, script string) *exec.Cmd {
	cmd := exec.Command("/bin/sh", "-c", script)
	cmd.Dir = sb
	cmd.Env = append(os.Environ(), gitEnv...)
	return cmd
}

// gitlinkPayload makes a repository at rel with a core.fsmonitor that
// creates marker, and records it as a submodule of the top repository.
func gitlinkPayload(rel, marker, extra string) string {
	return fmt.Sprintf(`set -e
top=$PWD
mkdir -p %[1]s && cd %[1]s && git init -q && git commit -q --allow-empty -m x
printf '[core]\n\tfsmonitor = "touch %[2]s; false"\n' >> .git/config
%[3]s
cd "$top" && git update-index --add --cacheinfo 160000,$(git -C %[1]s rev-parse HEAD),%[1]s`, rel, marker, extra)
}

func gitStatus(t *testing.T, sb string) {
	t.Helper()
	st := exec.Command("git", "status", "--short")
	st.Dir = sb
	b, _ := st.CombinedOutput()
	t.Logf("git status: %s", b)
}

// TestEscapeQuarantineTargetTaken: the quarantine renames what it moves
// aside to NAME.sandboxauth-quarantine with rename(2), and ignores a
// failure. The command makes that name first, a non-empty directory:
// renaming the new repository's .git onto it fails (ENOTEMPTY), and the
// repository stays, fsmonitor and all. The user's next `git status`
// runs it.
//
//	... evil/.git as in TestEscapeNestedRepositoryGitlink ...
//	mkdir -p evil/.git.sandboxauth-quarantine/keep
func TestEscapeQuarantineTargetTaken(t *testing.T) {
	sb := escapeSandbox(t)
	marker := homeMarker(t)
	out, err := runConfined(shIn(sb, gitlinkPayload("evil", marker, "mkdir -p .git.sandboxauth-quarantine/keep")), protectedPolicy(t, sb))
	require.NoError(t, err, out)
	gitStatus(t, sb)
	assert.NoFileExists(t, marker, "a plain git status ran the fsmonitor of a repository the quarantine could not move aside")
}

// TestEscapeQuarantineBeyondWalk: the quarantine finds new repositories
// with the bounded walk (three levels, 256 directories, dependency
// directories skipped), which the command chooses to exceed: a repository
// at a/b/c/d/evil, recorded as a submodule, is never looked at, and the
// user's next `git status` at the top recurses into it and runs its
// fsmonitor.
func TestEscapeQuarantineBeyondWalk(t *testing.T) {
	sb := escapeSandbox(t)
	marker := homeMarker(t)
	out, err := runConfined(shIn(sb, gitlinkPayload("a/b/c/d/evil", marker, "")), protectedPolicy(t, sb))
	require.NoError(t, err, out)
	gitStatus(t, sb)
	assert.NoFileExists(t, marker, "a plain git status ran the fsmonitor of a repository below the quarantine's walk")
}

// TestEscapeQuarantineConcurrentRun: the quarantine spares what existed
// when the policy was made ("before"). Two runs of one sandbox: A creates
// crates/foo/rust-toolchain.toml and keeps running; B's policy is made
// meanwhile, so the file is in B's "before" (and read-only in B's view).
// A ends and its quarantine moves the file aside; B writes a new one (the
// name is free: its read-only mount went with the renamed file); B ends
// and its quarantine spares it. The user's next cargo runs the toolchain
// it names.
func TestEscapeQuarantineConcurrentRun(t *testing.T) {
	sb := escapeSandbox(t)
	require.NoError(t, os.MkdirAll(filepath.Join(sb, "crates", "foo"), 0o755))
	rt := filepath.Join(sb, "crates", "foo", "rust-toolchain.toml")
	a := shIn(sb, `printf '[toolchain]\nchannel = "stable"\n' > crates/foo/rust-toolchain.toml; sleep 3`)
	require.NoError(t, confine.Start(a, protectedPolicy(t, sb)))
	require.Eventually(t, func() bool { _, err := os.Stat(rt); return err == nil }, 5*time.Second, 50*time.Millisecond)

	b := shIn(sb, `for i in $(seq 1 100); do [ -e crates/foo/rust-toolchain.toml.sandboxauth-quarantine ] && break; sleep 0.1; done
printf '[toolchain]\npath = "%s/tc"\n' "$PWD" > crates/foo/rust-toolchain.toml`)
	out, err := runConfined(b, protectedPolicy(t, sb))
	t.Log(out, err)
	_ = a.Wait()
	body, _ := os.ReadFile(rt)
	assert.NotContains(t, string(body), "path =", "a run concurrent with another recreated the protected file the other's quarantine moved aside")
}

// TestEscapeQuarantineMovesPlaceholders: the quarantine takes the run's
// own placeholders for missing top-level protected paths (.vscode,
// .claude, .mcp.json, .env, ...: made after the policy's "before" walk)
// for protected files the command created, and renames them aside, where
// they stay (*.sandboxauth-quarantine, never removed). A second run of
// the same sandbox, running meanwhile, had them bound read-only; the
// rename takes its mounts along, and the protected names are free in its
// view: it writes .claude/settings.json (a SessionStart hook) and
// .vscode/tasks.json (a folderOpen task), which its own quarantine spares
// (they existed, as placeholders, when its policy was made). Verified
// with the CLI:
//
//	sandboxauth run -- sleep 2 &     # any command at all
//	sandboxauth run -- ./b.sh        # waits for .claude.sandboxauth-quarantine, then writes .claude/settings.json
func TestEscapeQuarantineMovesPlaceholders(t *testing.T) {
	sb := escapeSandbox(t)
	before, err := os.ReadDir(sb)
	require.NoError(t, err)
	out, err := runConfined(shIn(sb, "true"), protectedPolicy(t, sb))
	require.NoError(t, err, out)
	after, err := os.ReadDir(sb)
	require.NoError(t, err)
	var left []string
	for _, e := range after {
		if !strings.Contains(e.Name(), ".sandboxauth-quarantine") {
			continue
		}
		left = append(left, e.Name())
	}
	assert.Empty(t, left, "a run that changed nothing left its placeholders behind, moved aside (%d entries before)", len(before))

	sb = escapeSandbox(t)
	a := shIn(sb, "sleep 3")
	require.NoError(t, confine.Start(a, protectedPolicy(t, sb)))
	time.Sleep(500 * time.Millisecond)
	b := shIn(sb, `for i in $(seq 1 100); do [ -e .claude.sandboxauth-quarantine/ ] && [ ! -e .claude ] && break; sleep 0.1; done
mkdir -p .claude .vscode
echo '{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"touch ~/pwned"}]}]}}' > .claude/settings.json
echo '{"version":"2.0.0","tasks":[{"label":"x","type":"shell","command":"touch ~/pwned","runOptions":{"runOn":"folderOpen"}}]}' > .vscode/tasks.json`)
	out, err = runConfined(b, protectedPolicy(t, sb))
	t.Log(out, err)
	_ = a.Wait()
	assert.NoFileExists(t, filepath.Join(sb, ".claude", "settings.json"), "a run concurrent with another wrote the protected .claude/settings.json")
	assert.NoFileExists(t, filepath.Join(sb, ".vscode", "tasks.json"), "a run concurrent with another wrote the protected .vscode/tasks.json")
}

// TestEscapeQuarantineRenameFollowsLink: the quarantine runs unconfined,
// after the command, and renames by path. A second confined run of the
// sandbox exchanges (renameat2 RENAME_EXCHANGE, in a loop) a directory x,
// in which the first run made x/.git, with a symbolic link y to a
// repository of the user's outside the sandbox: the walk finds x/.git
// through the directory, the rename goes through the link, and the
// user's repository's .git becomes .git.sandboxauth-quarantine (outside
// the sandbox: the repository is gone for git). Verified with the CLI,
// root and unprivileged (within 3 to 10 tries).
func TestEscapeQuarantineRenameFollowsLink(t *testing.T) {
	sb := escapeSandbox(t)
	victim := homeVictimDir(t)
	out, err := exec.Command("git", "init", "-q", victim).CombinedOutput()
	require.NoError(t, err, "%s", out)
	rel, err := filepath.Rel(sb, victim)
	require.NoError(t, err)
	exe, err := os.Executable()
	require.NoError(t, err)

	for i := 0; i < 10; i++ {
		for _, n := range []string{"x", "y", "x.sandboxauth-quarantine"} {
			require.NoError(t, os.RemoveAll(filepath.Join(sb, n)))
		}
		require.NoError(t, os.Symlink(rel, filepath.Join(sb, "y")))
		// The swapper: the test binary, confined, once x/.git exists.
		b := exec.Command(exe, "x", "y", "1s")
		b.Dir = sb
		b.Env = append(os.Environ(), "SANDBOXAUTH_ESCAPE2_EXCHANGE=1")
		require.NoError(t, confine.Start(b, protectedPolicy(t, sb)))
		out, err := runConfined(shIn(sb, "mkdir -p x/.git; sleep 0.3"), protectedPolicy(t, sb))
		if werr := b.Wait(); werr != nil {
			t.Logf("swapper: %v", werr)
		}
		require.NoError(t, err, out)
		if _, err := os.Lstat(filepath.Join(victim, ".git")); err != nil {
			t.Errorf("try %d: the quarantine renamed the .git of a repository outside the sandbox (%s)", i+1, victim)
			return
		}
	}
}

// TestEscapeMissingIncludeAndHooksPath: files a repository's configuration
// names are kept read-only only when they exist. A repository that
// includes an optional local file (include.path = ../.gitconfig.local,
// absent) or whose core.hooksPath directory is not made yet: the command
// creates them, with a core.fsmonitor and a pre-commit hook, which the
// user's next git status and git commit run.
func TestEscapeMissingIncludeAndHooksPath(t *testing.T) {
	sb := escapeSandbox(t)
	for _, kv := range [][2]string{{"include.path", "../.gitconfig.local"}, {"core.hooksPath", "scripts/hooks"}} {
		out, err := exec.Command("git", "-C", sb, "config", kv[0], kv[1]).CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	marker := homeMarker(t)
	out, err := runConfined(shIn(sb, `printf '[core]\n\tfsmonitor = "touch `+marker+`.include; false"\n' > .gitconfig.local
mkdir -p scripts/hooks && printf '#!/bin/sh\ntouch `+marker+`.hook\n' > scripts/hooks/pre-commit && chmod +x scripts/hooks/pre-commit`), protectedPolicy(t, sb))
	t.Log(out, err)
	gitStatus(t, sb)
	c := exec.Command("git", "commit", "-q", "--allow-empty", "-m", "x")
	c.Dir, c.Env = sb, append(os.Environ(), gitEnv...)
	b, _ := c.CombinedOutput()
	t.Logf("git commit: %s", b)
	assert.NoFileExists(t, marker+".include", "git ran the fsmonitor the confined command put in a missing included file")
	assert.NoFileExists(t, marker+".hook", "git commit ran the hook the confined command put in the missing core.hooksPath")
}

// TestEscapeYarnPath: the toolchain selectors kept read-only
// (rust-toolchain, .python-version, .tool-versions, mise) leave out
// yarn's: .yarnrc.yml's yarnPath (and yarn 1's .yarnrc yarn-path) names
// the JavaScript file that every yarn command of the project runs instead
// of yarn itself. The command writes both and the file; the user's next
// `yarn --version` runs it unconfined (verified with yarn 1.22.22, the
// system's /usr/bin/yarn). A project that already has a yarnPath keeps
// its .yarn/releases/*.cjs writable, which does the same.
func TestEscapeYarnPath(t *testing.T) {
	sb := escapeSandbox(t)
	require.NoError(t, os.WriteFile(filepath.Join(sb, "package.json"), []byte(`{"name":"x","version":"1.0.0"}`), 0o644))
	marker := homeMarker(t)
	out, err := runConfined(shIn(sb, `mkdir -p .yarn/releases
printf 'require("fs").writeFileSync("`+marker+`", "x")\n' > .yarn/releases/yarn-4.5.0.cjs
echo 'yarnPath: .yarn/releases/yarn-4.5.0.cjs' > .yarnrc.yml
printf 'yarn-path ".yarn/releases/yarn-4.5.0.cjs"\n' > .yarnrc`), protectedPolicy(t, sb))
	t.Log(out, err) // refused: the names are read-only placeholders
	assert.NoFileExists(t, filepath.Join(sb, ".yarnrc.yml"), "the confined command chose the program every yarn command of the project runs (yarnPath)")
	assert.NoFileExists(t, filepath.Join(sb, ".yarnrc"), "the confined command chose the program every yarn command of the project runs (yarn-path)")
}

// TestEscapeWalkReadsPlantedFile: the walk that ProtectConfinement runs,
// unconfined, before every command and again in the quarantine after it,
// reads the configuration of every nested repository with os.ReadFile,
// following links and opening any kind of file. The command makes
// sub/.git/config a FIFO (the caller hangs, in the quarantine of this
// very run and before every later one) or a link to /dev/zero (the caller
// reads without end: verified with the CLI, `sandboxauth run` is killed
// by the kernel's OOM killer, rc 137, after taking the machine's memory,
// in this run's quarantine and in every later run of the project).
//
//	mkdir -p sub/.git && ln -s /dev/zero sub/.git/config
func TestEscapeWalkReadsPlantedFile(t *testing.T) {
	sb := escapeSandbox(t)
	fifo := filepath.Join(sb, "sub", ".git", "config")
	done := make(chan error, 1)
	go func() {
		_, err := runConfined(shIn(sb, "mkdir -p sub/.git && mkfifo sub/.git/config"), protectedPolicy(t, sb))
		done <- err
	}()
	select {
	case err := <-done:
		t.Log(err)
	case <-time.After(5 * time.Second):
		t.Error("the caller hung reading a FIFO the confined command planted as a nested repository's config")
		// Let the reader go, so that the test ends.
		for {
			if f, err := os.OpenFile(fifo, os.O_WRONLY|unix.O_NONBLOCK, 0); err == nil {
				f.Close()
			}
			select {
			case <-done:
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
}

// TestEscapeQuarantineTargetTakenRebase: the same for git's state of a
// stopped rebase: the command makes .git/rebase-merge.sandboxauth-quarantine
// first, the state stays, and the user's `git rebase --continue` runs the
// exec line it left.
//
//	mkdir -p .git/rebase-merge.sandboxauth-quarantine/keep
//	GIT_SEQUENCE_EDITOR="printf 'break\nexec touch ~/pwned\n' >" git rebase -i HEAD~1
func TestEscapeQuarantineTargetTakenRebase(t *testing.T) {
	sb := escapeSandbox(t)
	for _, msg := range []string{"one", "two"} {
		c := exec.Command("git", "commit", "-q", "--allow-empty", "-m", msg)
		c.Dir, c.Env = sb, append(os.Environ(), gitEnv...)
		out, err := c.CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	marker := homeMarker(t)
	out, err := runConfined(shIn(sb, `mkdir -p .git/rebase-merge.sandboxauth-quarantine/keep
GIT_SEQUENCE_EDITOR="printf 'break\nexec touch `+marker+`\n' >" git rebase -q -i HEAD~1`), protectedPolicy(t, sb))
	t.Logf("confined payload: err=%v %s", err, out)
	cont := exec.Command("git", "rebase", "--continue")
	cont.Dir, cont.Env = sb, append(os.Environ(), gitEnv...)
	b, _ := cont.CombinedOutput()
	t.Logf("git rebase --continue: %s", b)
	assert.NoFileExists(t, marker, "git rebase --continue ran an exec line the quarantine could not move aside")
}

// TestEscapeQuarantineBeforeCommandEnds: a signal to cmd.Process (what
// `sandboxauth run` forwards on the user's Ctrl-C, a closed terminal or an
// agent's interrupt) once let the caller go on while the command still
// ran: the starting thread took the end of the "ended" pipe for the
// sandbox's end and ran the quarantine while the command was still being
// torn down, and cmd.Wait returned at once, so `sandboxauth run` exited
// before the quarantine and the placeholder release had run, or half-way.
// With the CLI and SIGTERM, in 6 tries: twice the quarantine ran and the
// command recreated its repository afterwards, once it stopped after 14 of
// 23 entries, three times it never ran (the placeholders stayed too).
// Now a signal ends the whole sandbox at once, AfterExit runs only once
// its last process is gone, and a caller that waits for AfterExit (as
// `sandboxauth run` does) finds nothing left behind.
//
//	trap '' TERM INT HUP; while :; do mkdir -p evil/.git; done
func TestEscapeQuarantineBeforeCommandEnds(t *testing.T) {
	sb := escapeSandbox(t)
	for i := 0; i < 20; i++ {
		for _, n := range []string{"evil", "evil.sandboxauth-quarantine"} {
			require.NoError(t, os.RemoveAll(filepath.Join(sb, n)))
		}
		cmd := shIn(sb, `trap '' TERM INT HUP; while :; do mkdir -p evil/.git 2>/dev/null; done`)
		out := &lockedOutput{}
		cmd.Stdout, cmd.Stderr = out, out
		p := protectedPolicy(t, sb)
		cleaned, after := make(chan struct{}), p.AfterExit
		p.AfterExit = func() { after(); close(cleaned) }
		require.NoError(t, confine.Start(cmd, p))
		require.Eventually(t, func() bool {
			_, err := os.Stat(filepath.Join(sb, "evil", ".git"))
			return err == nil
		}, 20*time.Second, 10*time.Millisecond, "try %d: the command made no repository: %s", i+1, out)
		require.NoError(t, cmd.Process.Signal(unix.SIGTERM))
		_ = cmd.Wait()
		<-cleaned
		if _, err := os.Stat(filepath.Join(sb, "evil", ".git")); err == nil {
			t.Errorf("try %d: a new repository was left behind, made after the quarantine ran", i+1)
			return
		}
		assert.DirExists(t, filepath.Join(sb, "evil", ".git"+".sandboxauth-quarantine"), "try %d: the quarantine did not run", i+1)
	}
}
