package sandboxauth

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/confine"
)

// TestEscape13NestedSandboxSwap: runs are grouped by their sandbox's
// path, so a run whose sandbox is a directory of another running run's
// sandbox (a monorepo: the dev server from the top, `cd web && sandboxauth
// run -- make` beside it: run's sandbox is the current directory) is in
// another group, with a baseline of its own taken while the first run's
// command is changing the shared directory. The round-11 swap comes back
// across the two groups: run A (sandbox SB) appends a core.fsmonitor to
// the config of a repository of the user's deep in SB/sub; run B (sandbox
// SB/sub) begins (its "before" holds the changed config); A writes the
// original config back and ends (nothing changed for A); B writes the
// fsmonitor again and ends (nothing changed for B). The user's git status
// there runs it unconfined.
func TestEscape13NestedSandboxSwap(t *testing.T) {
	sb := escapeSandbox(t)
	marker := homeMarker(t)
	sub := filepath.Join(sb, "sub")
	repo := filepath.Join(sub, "a/b/c/d/e/f")
	require.NoError(t, os.MkdirAll(repo, 0o755))
	out, err := exec.Command("git", "init", "-q", repo).CombinedOutput()
	require.NoError(t, err, "%s", out)
	g := "sub/a/b/c/d/e/f/.git"
	line := `printf '\tfsmonitor = "touch ` + marker + `; false"\n' >> `

	a := shIn(sb, `set -e
cp `+g+`/config /tmp/orig
`+line+g+`/config
touch ready-a
while [ ! -e go-a ]; do sleep 0.05; done
cat /tmp/orig > `+g+`/config`)
	require.NoError(t, confine.Start(a, protectedPolicy(t, sb)))
	waitFile(t, filepath.Join(sb, "ready-a"))

	b := shIn(sub, `set -e
touch ready-b
while [ ! -e a-ended ]; do sleep 0.05; done
`+line+`a/b/c/d/e/f/.git/config`)
	// B's policy may wait for A's run to end (the runs of a sandbox and
	// of a directory of it do not overlap): then A is let go after a
	// while, and B begins after A's judging.
	started := make(chan error, 1)
	go func() { started <- confine.Start(b, protectedPolicy(t, sub)) }()
	select {
	case err := <-started:
		require.NoError(t, err)
		waitFile(t, filepath.Join(sub, "ready-b"))
		require.NoError(t, os.WriteFile(filepath.Join(sb, "go-a"), nil, 0o644))
		require.NoError(t, a.Wait())
	case <-time.After(2 * time.Second):
		t.Log("B waits for A's run to end")
		require.NoError(t, os.WriteFile(filepath.Join(sb, "go-a"), nil, 0o644))
		require.NoError(t, a.Wait())
		require.NoError(t, <-started)
	}
	require.NoError(t, os.WriteFile(filepath.Join(sub, "a-ended"), nil, 0o644))
	require.NoError(t, b.Wait())

	cfg, _ := os.ReadFile(filepath.Join(repo, ".git/config"))
	t.Logf("config after both runs:\n%s", cfg)
	t.Logf("git status: %s", userGit(t, repo, "status", "--short"))
	assert.NoFileExists(t, marker, "git status ran an fsmonitor that a run and a run of a directory of its sandbox passed between them")
}

// configEscape13 makes a repository of the user's at the top of a
// sandbox, with tools/watch.sh committed, appends tail to its
// .git/config (the user's text, which git accepts), runs payload confined
// and then the user's git with userArgs, unconfined.
func configEscape13(t *testing.T, tail, payload string, userArgs ...string) (sb, marker string) {
	sb = escapeSandbox(t)
	marker = homeMarker(t)
	require.NoError(t, os.MkdirAll(filepath.Join(sb, "tools"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(sb, "tools/watch.sh"), []byte("#!/bin/sh\nexit 0\n"), 0o755))
	userGit(t, sb, "add", "-A")
	userGit(t, sb, "commit", "-q", "-m", "tools")
	f, err := os.OpenFile(filepath.Join(sb, ".git/config"), os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString(tail)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	out, err := exec.Command("git", "config", "--file", filepath.Join(sb, ".git/config"), "--list").CombinedOutput()
	require.NoError(t, err, "git accepts the configuration: %s", out)
	t.Logf("git config --list:\n%.2000s", out)
	out2, err := runConfined(shIn(sb, strings.ReplaceAll(payload, "MARKER", marker)), protectedPolicy(t, sb))
	t.Logf("payload: %v %s", err, out2)
	t.Logf("user's git %v: %s", userArgs, userGit(t, sb, userArgs...))
	return sb, marker
}

// TestEscape13HooksPathSubsectionDecoy: readGitConfigPaths takes every
// "hookspath" of section "core" (the last wins), subsection or not; git
// takes core.hooksPath only, and core.x.hooksPath is another key. A
// configuration with `[core] hooksPath = .hooks-real` followed by
// `[core "x"] hooksPath = .hooks-decoy` (git config --get core.hooksPath:
// .hooks-real) keeps .hooks-decoy read-only and leaves .hooks-real, which
// is missing, for the command to make: its pre-commit runs at the user's
// next commit, unconfined.
//
//	mkdir .hooks-real && printf '#!/bin/sh\ntouch $HOME/pwned\n' > .hooks-real/pre-commit && chmod +x .hooks-real/pre-commit
func TestEscape13HooksPathSubsectionDecoy(t *testing.T) {
	_, marker := configEscape13(t, "[core]\n\thooksPath = .hooks-real\n[core \"x\"]\n\thooksPath = .hooks-decoy\n",
		`mkdir -p .hooks-real && printf '#!/bin/sh\ntouch MARKER\n' > .hooks-real/pre-commit && chmod +x .hooks-real/pre-commit`,
		"commit", "-q", "--allow-empty", "-m", "x")
	assert.NoFileExists(t, marker, "the user's commit ran a pre-commit hook the command made in core.hooksPath")
}

// TestEscape13ProgramBackslashAtEnd: git reads a backslash at the very
// end of the configuration (no newline after it) as a continuation onto
// nothing: `fsmonitor = tools/watch.sh\` is core.fsmonitor=tools/watch.sh.
// repotrust.ParseGitConfig refuses the text ("backslash at end of file"),
// and repositoryPrograms, which has no other reader, never sees the
// setting: tools/watch.sh, the user's program in the work tree, stays
// writable. The command rewrites it; the user's git status runs it.
//
//	printf '#!/bin/sh\ntouch $HOME/pwned\n' > tools/watch.sh
func TestEscape13ProgramBackslashAtEnd(t *testing.T) {
	_, marker := configEscape13(t, "[core]\n\tfsmonitor = tools/watch.sh\\",
		`printf '#!/bin/sh\ntouch MARKER\n' > tools/watch.sh`,
		"status", "--short")
	assert.NoFileExists(t, marker, "the user's git status ran the fsmonitor program the command rewrote")
}

// TestEscape13HooksPathBackslashAtEnd: the same backslash at the end of
// the file, after core.hooksPath: ParseGitConfig refuses the text and the
// line reader takes the value as `.hooks-real\` (the backslash kept),
// where git takes `.hooks-real`. The real hooks directory, missing, is
// left to the command; its pre-commit runs at the user's next commit.
func TestEscape13HooksPathBackslashAtEnd(t *testing.T) {
	_, marker := configEscape13(t, "[core]\n\thooksPath = .hooks-real\\",
		`mkdir -p .hooks-real && printf '#!/bin/sh\ntouch MARKER\n' > .hooks-real/pre-commit && chmod +x .hooks-real/pre-commit`,
		"commit", "-q", "--allow-empty", "-m", "x")
	assert.NoFileExists(t, marker, "the user's commit ran a pre-commit hook the command made in core.hooksPath")
}

// TestEscape13IncludeBackslashAtEnd: the same for include.path: git
// includes ../shared.gitconfig (in the work tree, missing), the line
// reader protects `../shared.gitconfig\`. The command writes the real one
// with a core.fsmonitor; the user's git status runs it.
//
//	printf '[core]\n\tfsmonitor = "touch $HOME/pwned; false"\n' > shared.gitconfig
func TestEscape13IncludeBackslashAtEnd(t *testing.T) {
	_, marker := configEscape13(t, "[include]\n\tpath = ../shared.gitconfig\\",
		`printf '[core]\n\tfsmonitor = "touch MARKER; false"\n' > shared.gitconfig`,
		"status", "--short")
	assert.NoFileExists(t, marker, "the user's git status ran an fsmonitor from an included file the command made")
}

// TestEscape13JoinerReadOnlyDropsJudgement: the quarantine of a run
// drops what the deep scan finds within its own policy's read-only paths
// ("what the policy kept read-only did not change by the command's
// hand"). A run that joins a group is judged against the group's
// baseline, for what any run did, but with the read-only paths of its own
// policy, made from the sandbox as the other runs' commands left it. Run
// A (first) makes a repository at the walk's depth, n, whose config
// includes the config of the user's repository deep in the project
// (a/b/c/d/e/f): run B's policy, made next, keeps that config read-only.
// A then puts the deep config back over itself (cp + mv: the same bytes,
// a rename over B's read-only mount point, which detaches it in B's
// view) and ends: nothing changed for A's judging (n is moved aside). B
// appends a core.fsmonitor to the deep config, now writable in its view,
// and ends: its judging drops the change, as within its read-only paths.
// The user's git status in a/b/c/d/e/f runs it.
//
//	a.sh: git init n; printf '[include]\n\tpath = $PWD/a/b/c/d/e/f/.git/config\n' >> n/.git/config
//	      (B's policy is made); cp $g/config /tmp/c && mv /tmp/c $g/config   # rename over B's mount
//	b.sh: wait for A's end; printf '\tfsmonitor = "touch $HOME/pwned; false"\n' >> $g/config
func TestEscape13JoinerReadOnlyDropsJudgement(t *testing.T) {
	sb := escapeSandbox(t)
	marker := homeMarker(t)
	repo := filepath.Join(sb, "a/b/c/d/e/f")
	require.NoError(t, os.MkdirAll(repo, 0o755))
	out, err := exec.Command("git", "init", "-q", repo).CombinedOutput()
	require.NoError(t, err, "%s", out)
	g := "a/b/c/d/e/f/.git"

	a := shIn(sb, `set -e
git init -q n
printf '[include]\n\tpath = `+filepath.Join(sb, g, "config")+`\n' >> n/.git/config
touch ready-a
while [ ! -e go-a ]; do sleep 0.05; done
cp `+g+`/config `+g+`/config.new && mv `+g+`/config.new `+g+`/config`)
	require.NoError(t, confine.Start(a, protectedPolicy(t, sb)))
	waitFile(t, filepath.Join(sb, "ready-a"))

	b := shIn(sb, `set -e
touch ready-b
while [ ! -e a-ended ]; do sleep 0.05; done
printf '\tfsmonitor = "touch `+marker+`; false"\n' >> `+g+`/config`)
	var bout strings.Builder
	b.Stdout, b.Stderr = &bout, &bout
	require.NoError(t, confine.Start(b, protectedPolicy(t, sb)))
	waitFile(t, filepath.Join(sb, "ready-b"))
	require.NoError(t, os.WriteFile(filepath.Join(sb, "go-a"), nil, 0o644))
	require.NoError(t, a.Wait())
	require.NoError(t, os.WriteFile(filepath.Join(sb, "a-ended"), nil, 0o644))
	if err := b.Wait(); err != nil {
		// Since round 17, B is stopped when A's rename detaches the
		// mount in its view.
		assert.Contains(t, bout.String(), "was renamed or removed outside while the command ran", "%v", err)
	}

	cfg, _ := os.ReadFile(filepath.Join(repo, ".git/config"))
	t.Logf("config after both runs:\n%s", cfg)
	t.Logf("git status: %s", userGit(t, repo, "status", "--short"))
	assert.NoFileExists(t, marker, "git status ran an fsmonitor that a joining run wrote within what its own policy had kept read-only")
}

// TestEscape13ConfigOverSmallFileLimit: readGitConfigPaths reads a
// configuration of at most 1 MiB (readSmallFile) and finds nothing in a
// larger one; git reads any size. A repository whose config is over
// 1 MiB (here 12000 tracked branches, one [branch "..."] section each,
// as git checkout writes them) and names core.hooksPath = .hooks-real
// (missing) leaves the hooks directory to the command: its pre-commit
// runs at the user's next commit.
func TestEscape13ConfigOverSmallFileLimit(t *testing.T) {
	var tail strings.Builder
	tail.WriteString("[core]\n\thooksPath = .hooks-real\n")
	for i := 0; i < 12000; i++ {
		fmt.Fprintf(&tail, "[branch \"feature/long-branch-name-number-%05d\"]\n\tremote = origin\n\tmerge = refs/heads/feature/long-branch-name-number-%05d\n", i, i)
	}
	_, marker := configEscape13(t, tail.String(),
		`mkdir -p .hooks-real && printf '#!/bin/sh\ntouch MARKER\n' > .hooks-real/pre-commit && chmod +x .hooks-real/pre-commit`,
		"commit", "-q", "--allow-empty", "-m", "x")
	assert.NoFileExists(t, marker, "the user's commit ran a pre-commit hook the command made in core.hooksPath")
}

// TestEscape13DotHeaderFallback: a header git accepts and
// repotrust.ParseGitConfig refuses ("[.x]": git's get_base_var takes a
// dot anywhere in a section name; "[ \"x\"]" too) sends the whole file
// to the line reader, which keeps an inline comment in the value:
// `hooksPath = .hooks-real # my hooks` is ".hooks-real" to git and
// ".hooks-real # my hooks" to the line reader. The real hooks directory
// is left to the command.
func TestEscape13DotHeaderFallback(t *testing.T) {
	_, marker := configEscape13(t, "[.x]\n[core]\n\thooksPath = .hooks-real # my hooks\n",
		`mkdir -p .hooks-real && printf '#!/bin/sh\ntouch MARKER\n' > .hooks-real/pre-commit && chmod +x .hooks-real/pre-commit`,
		"commit", "-q", "--allow-empty", "-m", "x")
	assert.NoFileExists(t, marker, "the user's commit ran a pre-commit hook the command made in core.hooksPath")
}

// TestEscape13RecordLockHeldFromAnotherProject: the record directory
// (confine.RecordDir, ~/.cache/sandboxauth) is out of the command's
// reach for writing, but it can read it, and so open any project's
// "runs" record and flock it (flock needs no write access). A confined
// command of one project (SB) holds a shared lock on another project's
// (S2's) runs record: S2's group then never looks alone, so its last run
// does not remove its baseline, and S2's next run, begun while no run of
// S2 is active, joins the stale group and judges S2 against the old
// baseline: the user's own change to a repository deep in S2, made
// between the runs, is moved aside (its whole config renamed to
// config.sandboxauth-quarantine). A command of one project renames the
// user's file in another.
//
//	exec flock -s ~/.cache/sandboxauth/runs-<S2's digest> sleep 600
func TestEscape13RecordLockHeldFromAnotherProject(t *testing.T) {
	s2 := escapeSandbox(t)
	repo := filepath.Join(s2, "a/b/c/d/e/f")
	require.NoError(t, os.MkdirAll(repo, 0o755))
	out, err := exec.Command("git", "init", "-q", repo).CombinedOutput()
	require.NoError(t, err, "%s", out)
	runs, err := confine.SandboxRecord(confine.DefaultPolicy(s2), "runs")
	require.NoError(t, err)

	// A run of S2 (the user's dev server), then the attacker's command
	// in another project, holding S2's runs record.
	r1 := shIn(s2, `touch ready; while [ ! -e go ]; do sleep 0.05; done`)
	require.NoError(t, confine.Start(r1, protectedPolicy(t, s2)))
	waitFile(t, filepath.Join(s2, "ready"))
	sb := escapeSandbox(t)
	hold := shIn(sb, `exec flock -s `+runs+` -c 'touch held; while [ ! -e stop ]; do sleep 0.05; done'`)
	var hout lockedOutput
	hold.Stdout, hold.Stderr = &hout, &hout
	require.NoError(t, confine.Start(hold, protectedPolicy(t, sb)))
	defer func() {
		_ = os.WriteFile(filepath.Join(sb, "stop"), nil, 0o644)
		_ = hold.Wait()
	}()
	waitHeld(t, filepath.Join(sb, "held"), &hout)
	require.NoError(t, os.WriteFile(filepath.Join(s2, "go"), nil, 0o644))
	require.NoError(t, r1.Wait())

	// The user's own change in S2, no run of S2 active, then S2's next run.
	userGit(t, repo, "config", "user.name", "me")
	out2, err := runConfined(shIn(s2, `true`), protectedPolicy(t, s2))
	require.NoError(t, err, out2)
	assert.FileExists(t, filepath.Join(repo, ".git", "config"), "a command of another project had the user's own config of a repository moved aside (%s)", hout.String())
}

// TestEscape13PlaceholderLockHeldFromAnotherProject: the same readable
// record directory holds the placeholder records (placeholders/<digest>),
// which each run locks shared and the last run (the one that can lock it
// exclusively) cleans. A confined command of one project (SB) holds a
// shared lock on another project's (S2's) record: S2's run ends without
// removing its placeholders, and S2 is left with some fifty empty files
// and directories it never had (.mcp.json, .sandboxauth.json,
// rust-toolchain, global.json, .python-version, .envrc, .vscode/, ...)
// after both runs ended. A command of one project creates files in
// another.
//
//	exec flock -s ~/.cache/sandboxauth/placeholders/<S2's digest> sleep 600
func TestEscape13PlaceholderLockHeldFromAnotherProject(t *testing.T) {
	s2 := escapeSandbox(t)
	runs, err := confine.SandboxRecord(confine.DefaultPolicy(s2), "runs")
	require.NoError(t, err)
	record := filepath.Join(filepath.Dir(runs), "placeholders", strings.TrimPrefix(filepath.Base(runs), "runs-"))
	// S2 was used before: its record exists.
	out, err := runConfined(shIn(s2, `true`), protectedPolicy(t, s2))
	require.NoError(t, err, out)
	before, err := os.ReadDir(s2)
	require.NoError(t, err)

	sb := escapeSandbox(t)
	hold := shIn(sb, `exec flock -s `+record+` -c 'touch held; while [ ! -e stop ]; do sleep 0.05; done'`)
	var hout lockedOutput
	hold.Stdout, hold.Stderr = &hout, &hout
	require.NoError(t, confine.Start(hold, protectedPolicy(t, sb)))
	waitHeld(t, filepath.Join(sb, "held"), &hout)
	out, err = runConfined(shIn(s2, `true`), protectedPolicy(t, s2))
	require.NoError(t, err, out)
	require.NoError(t, os.WriteFile(filepath.Join(sb, "stop"), nil, 0o644))
	_ = hold.Wait() // fails when the lock could not be taken

	after, err := os.ReadDir(s2)
	require.NoError(t, err)
	var names []string
	for _, e := range after {
		names = append(names, e.Name())
	}
	assert.Len(t, after, len(before), "a command of another project left the placeholders of this one's run in it: %v", names)
	assert.NoFileExists(t, filepath.Join(s2, ".mcp.json"))
}

// waitHeld waits a little for the attacker's command to say it holds the
// lock; one that cannot take it (the record out of its sight) never does,
// and the test goes on to check that nothing came of it.
func waitHeld(t *testing.T, held string, out *lockedOutput) {
	t.Helper()
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(held); err == nil {
			return
		}
	}
	t.Logf("the command did not take the lock: %s", out.String())
}

// lockedOutput collects a running command's output for a test that reads
// it before the command has ended.
type lockedOutput struct {
	mu sync.Mutex
	b  strings.Builder
}

func (o *lockedOutput) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.b.Write(p)
}

func (o *lockedOutput) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.b.String()
}
