package sandboxauth

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/confine"
)

// TestEscapeDeepScanDormantByRefs: round 8's dormant repository, put to
// sleep by another entry than HEAD. The "woken" check only looks at
// HEAD's change time; but a directory is a git directory to git (and to
// isGitDirectory) only with objects and refs too. Run A makes
// a/b/c/d/e/f/.git (core.fsmonitor) more than a second before run B's
// policy, so B's scan before the run knows it; A then renames refs to r
// and ends (to A's scan, no git directory). B renames r back to refs and
// ends: to B's scan it is a known git directory whose HEAD and config
// are older than B's policy. The repository stays; the user's git status
// there runs the fsmonitor unconfined.
//
//	a.sh: mkdir -p $g/objects $g/refs/heads; echo 'ref: refs/heads/main' > $g/HEAD; printf '[core]\n\tfsmonitor = "touch $HOME/pwned; false"\n' > $g/config
//	      wait; mv $g/refs $g/r
//	b.sh: wait for A's end; mv $g/r $g/refs
func TestEscapeDeepScanDormantByRefs(t *testing.T) {
	sb := escapeSandbox(t)
	marker := homeMarker(t)
	g := "a/b/c/d/e/f/.git"
	a := shIn(sb, `set -e
g=`+g+`
mkdir -p $g/objects $g/refs/heads
echo 'ref: refs/heads/main' > $g/HEAD
printf '[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tfsmonitor = "touch `+marker+`; false"\n' > $g/config
touch ready-a
while [ ! -e go-a ]; do sleep 0.05; done
mv $g/refs $g/r`)
	require.NoError(t, confine.Start(a, protectedPolicy(t, sb)))
	waitFile(t, filepath.Join(sb, "ready-a"))
	time.Sleep(2 * time.Second) // A's files are older than B's policy, by more than its slack

	b := shIn(sb, `set -e
touch ready-b
while [ ! -e a-ended ]; do sleep 0.05; done
mv `+g+`/r `+g+`/refs`)
	require.NoError(t, confine.Start(b, protectedPolicy(t, sb)))
	waitFile(t, filepath.Join(sb, "ready-b"))
	require.NoError(t, os.WriteFile(filepath.Join(sb, "go-a"), nil, 0o644))
	require.NoError(t, a.Wait())
	require.NoError(t, os.WriteFile(filepath.Join(sb, "a-ended"), nil, 0o644))
	require.NoError(t, b.Wait())

	t.Logf("git status in a/b/c/d/e/f: %s", userGit(t, filepath.Join(sb, "a/b/c/d/e/f"), "status", "--short"))
	assert.NoFileExists(t, marker, "git status in a directory of the project ran the fsmonitor of a repository put to sleep by renaming refs")
}

// TestEscapePrivateCopyRootIsGitDirectory: quarantinePrivate scans the
// private copy with the deep scan, which never takes the root of the scan
// (rel ".") for a git directory. The confined command turns the private
// copy of Go's build cache itself into a git directory (HEAD, objects,
// refs, and a config with core.bare = false, core.worktree and
// core.fsmonitor) and leaves a link in the project to it. git run in
// the link (its physical directory is the private copy) finds no .git
// there and takes the directory itself for the repository (bare-style
// discovery, then core.worktree), and git status runs the fsmonitor
// unconfined.
//
//	d() { printf %s "$1" | sha256sum | cut -c1-16; }
//	host=$HOME/.cache/sandboxauth/private/$(d "$PWD")/$(d "$GOCACHE")-go-build
//	mkdir -p "$GOCACHE/objects" "$GOCACHE/refs/heads"; echo 'ref: refs/heads/main' > "$GOCACHE/HEAD"
//	printf '[core]\n\tbare = false\n\tworktree = %s\n\tfsmonitor = "touch $HOME/pwned; false"\n' "$host" > "$GOCACHE/config"
//	ln -s "$host" tools
func TestEscapePrivateCopyRootIsGitDirectory(t *testing.T) {
	sb := escapeSandbox(t)
	require.NoError(t, os.WriteFile(filepath.Join(sb, "README"), []byte("hi\n"), 0o644))
	userGit(t, sb, "add", ".")
	userGit(t, sb, "commit", "-q", "-m", "init")
	marker := homeMarker(t)
	pol, gocache, copy0 := privateGoCache(t, sb)
	host := copy0
	t.Cleanup(func() {
		for _, n := range []string{"HEAD", "objects", "refs", "config", "index", "index.lock"} {
			os.RemoveAll(filepath.Join(host, n))
		}
	})
	p, err := ProtectConfinement(pol, DefaultProtectedPaths())
	require.NoError(t, err)
	cmd := exec.Command("/bin/sh", "-c", `set -e
c=`+gocache+`
mkdir -p $c/objects $c/refs/heads
echo 'ref: refs/heads/main' > $c/HEAD
printf '[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = `+host+`\n\tfsmonitor = "touch `+marker+`; false"\n' > $c/config
ln -s `+host+` tools`)
	cmd.Dir = sb
	out, err := runConfined(cmd, p)
	require.NoError(t, err, out)
	_, err = os.Stat(filepath.Join(host, "config"))
	t.Logf("the configuration at the root of the private copy after the run: %v", err)

	st, _ := exec.Command("git", "-C", filepath.Join(sb, "tools"), "status", "--short").CombinedOutput()
	t.Logf("git status in tools: %s", st)
	assert.NoFileExists(t, marker, "git status in a link of the project ran a configuration the confined command wrote at the root of the private copy of Go's build cache")
}

// TestEscapeRepositoryUnderQuarantineName: the deep scan ignores every
// git directory and .git file whose path contains ".sandboxauth-quarantine"
// (what the quarantine moved aside is "never the user's"), after the run
// as well as before: not known, but not new either. One confined run makes
// a repository with core.fsmonitor in a directory it names so, deeper
// than the bounded walk; nothing is moved aside, and the user's git status
// there runs the fsmonitor unconfined.
//
//	d=a/b/c/d/e/f.sandboxauth-quarantine; mkdir -p $d; git init -q $d
//	git -C $d config core.fsmonitor "touch $HOME/pwned; false"
func TestEscapeRepositoryUnderQuarantineName(t *testing.T) {
	sb := escapeSandbox(t)
	marker := homeMarker(t)
	d := "a/b/c/d/e/f" + quarantineSuffix
	out, err := runConfined(shIn(sb, `set -e
mkdir -p `+d+` && git init -q `+d+` && git -C `+d+` config core.fsmonitor "touch `+marker+`; false"`), protectedPolicy(t, sb))
	require.NoError(t, err, out)
	t.Logf("git status in %s: %s", d, userGit(t, filepath.Join(sb, d), "status", "--short"))
	assert.NoFileExists(t, marker, "git status ran the fsmonitor of a repository made under a name the quarantine uses")
}

// TestEscapeLinkToQuarantinedGitDirectory: the quarantine moves a new .git
// directory aside whole, under a name known in advance
// (.git.sandboxauth-quarantine), where it stays a git directory; the
// deep scan ignores it there and never follows links. One confined run
// makes a/b/c/d/e/f/.git with core.bare = false, core.worktree (the
// directory itself) and core.fsmonitor, and a plain link in the project,
// tools -> a/b/c/d/e/f/.git.sandboxauth-quarantine, dangling until the
// quarantine moves the .git there. git run in tools finds no .git in its
// physical directory, takes that directory for the repository and obeys
// its configuration: git status runs the fsmonitor unconfined.
//
//	g=$PWD/a/b/c/d/e/f/.git; mkdir -p $g/objects $g/refs/heads; echo 'ref: refs/heads/main' > $g/HEAD
//	printf '[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = %s\n\tfsmonitor = "touch $HOME/pwned; false"\n' $g.sandboxauth-quarantine > $g/config
//	ln -s a/b/c/d/e/f/.git.sandboxauth-quarantine tools
func TestEscapeLinkToQuarantinedGitDirectory(t *testing.T) {
	sb := escapeSandbox(t)
	marker := homeMarker(t)
	g := filepath.Join(sb, "a/b/c/d/e/f/.git")
	out, err := runConfined(shIn(sb, `set -e
g=`+g+`
mkdir -p $g/objects $g/refs/heads
echo 'ref: refs/heads/main' > $g/HEAD
printf '[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = %s\n\tfsmonitor = "touch `+marker+`; false"\n' $g`+quarantineSuffix+` > $g/config
ln -s a/b/c/d/e/f/.git`+quarantineSuffix+` tools`), protectedPolicy(t, sb))
	require.NoError(t, err, out)
	t.Logf("git status in tools: %s", userGit(t, filepath.Join(sb, "tools"), "status", "--short"))
	assert.NoFileExists(t, marker, "git status in a link of the project ran the configuration of a git directory the quarantine moved aside")
}

// TestEscapePrivateCopyRepositoryUnderQuarantineName: quarantinePrivate
// clears the private copies with the same deep scan, which ignores
// whatever lies under a name containing ".sandboxauth-quarantine". The
// confined command makes a whole repository (core.fsmonitor) in the
// private copy of Go's build cache under such a name, and a link in the
// project to it; nothing is moved aside, and the user's git status in the
// link runs the fsmonitor unconfined.
//
//	d() { printf %s "$1" | sha256sum | cut -c1-16; }
//	host=$HOME/.cache/sandboxauth/private/$(d "$PWD")/$(d "$GOCACHE")-go-build/evil.sandboxauth-quarantine
//	git init -q "$GOCACHE/evil.sandboxauth-quarantine"; git -C ... config core.fsmonitor "touch $HOME/pwned; false"
//	ln -s "$host" tools
func TestEscapePrivateCopyRepositoryUnderQuarantineName(t *testing.T) {
	sb := escapeSandbox(t)
	marker := homeMarker(t)
	pol, gocache, copy0 := privateGoCache(t, sb)
	name := "evil" + quarantineSuffix
	host := filepath.Join(copy0, name)
	t.Cleanup(func() { os.RemoveAll(host) })
	p, err := ProtectConfinement(pol, DefaultProtectedPaths())
	require.NoError(t, err)
	cmd := exec.Command("/bin/sh", "-c", `set -e
rm -rf `+gocache+`/`+name+`
git init -q `+gocache+`/`+name+`
git -C `+gocache+`/`+name+` config core.fsmonitor "touch `+marker+`; false"
ln -s `+host+` tools`)
	cmd.Dir = sb
	out, err := runConfined(cmd, p)
	require.NoError(t, err, out)
	st, _ := exec.Command("git", "-C", filepath.Join(sb, "tools"), "status", "--short").CombinedOutput()
	t.Logf("git status in tools: %s", st)
	assert.NoFileExists(t, marker, "git status in a link of the project ran a repository the command made in the private copy under a quarantine name")
}

// TestEscapeProtectedFileInPrivateCopy: the project's protected files
// (rust-toolchain.toml, **/.cargo/config.toml, .vscode/, ...) are kept
// read-only in the sandbox, even missing and at any depth, but the
// private copy of Go's build cache is a writable place outside the
// sandbox that outlives the run, and quarantinePrivate clears it of git
// repositories only. The confined command writes there a
// rust-toolchain.toml whose path names a toolchain it also writes there,
// and leaves a link in the project to it. The user's (or rust-analyzer's)
// cargo in tools runs the command's "cargo" unconfined (rustup obeys
// the file from the physical working directory up).
//
//	d() { printf %s "$1" | sha256sum | cut -c1-16; }
//	host=$HOME/.cache/sandboxauth/private/$(d "$PWD")/$(d "$GOCACHE")-go-build/rs
//	mkdir -p $GOCACHE/rs/tc/bin; printf '#!/bin/sh\ntouch $HOME/pwned\n' > $GOCACHE/rs/tc/bin/cargo; chmod +x ...
//	printf '[toolchain]\npath = "%s/tc"\n' "$host" > $GOCACHE/rs/rust-toolchain.toml
//	ln -s "$host" tools
func TestEscapeProtectedFileInPrivateCopy(t *testing.T) {
	sb := escapeSandbox(t)
	marker := homeMarker(t)
	pol, gocache, copy0 := privateGoCache(t, sb)
	host := filepath.Join(copy0, "rs")
	t.Cleanup(func() { os.RemoveAll(host) })
	p, err := ProtectConfinement(pol, DefaultProtectedPaths())
	require.NoError(t, err)
	cmd := exec.Command("/bin/sh", "-c", `set -e
c=`+gocache+`/rs
rm -rf $c; mkdir -p $c/tc/bin
printf '#!/bin/sh\ntouch `+marker+`\necho fake\n' > $c/tc/bin/cargo; chmod +x $c/tc/bin/cargo; cp $c/tc/bin/cargo $c/tc/bin/rustc
printf '[toolchain]\npath = "%s/tc"\n' `+host+` > $c/rust-toolchain.toml
ln -s `+host+` tools`)
	cmd.Dir = sb
	out, err := runConfined(cmd, p)
	require.NoError(t, err, out)
	if cargo, err := exec.LookPath("cargo"); err == nil {
		c := exec.Command(cargo, "--version")
		c.Dir = filepath.Join(sb, "tools")
		o, _ := c.CombinedOutput()
		t.Logf("cargo --version in tools: %s", o)
		assert.NoFileExists(t, marker, "cargo in a link of the project ran a toolchain the command named in the private copy")
	}
	assert.NoFileExists(t, filepath.Join(sb, "tools", "rust-toolchain.toml"), "a protected file the command wrote in the private copy stays, reachable through a link in the project")
}

// TestEscapePrivateCopyOfMissingCache: confine.PrivateCopies (what
// quarantinePrivate clears after the run) lists only the Private places
// that exist when ProtectConfinement makes the policy, but Start makes a
// missing one (MkdirAll) and mounts its private copy all the same. For a
// user with no Go build cache yet (GOCACHE, or ~/.cache/go-build, missing:
// no Go used so far), round 8's link into the private copy is back: the
// command makes a repository (core.fsmonitor) in the private copy and a
// link in the project to it, and nothing is moved aside.
//
//	GOCACHE=$HOME/fresh/go-build (missing before the run)
//	host=$HOME/.cache/sandboxauth/private/$(d "$PWD")/$(d "$GOCACHE")-go-build/evil
//	git init -q $GOCACHE/evil; git -C $GOCACHE/evil config core.fsmonitor "touch $HOME/pwned; false"; ln -s $host tools
func TestEscapePrivateCopyOfMissingCache(t *testing.T) {
	sb := escapeSandbox(t)
	marker := homeMarker(t)
	home, err := os.UserHomeDir()
	require.NoError(t, err)
	fresh, err := os.MkdirTemp(home, "gocache9-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(fresh) })
	gocache := filepath.Join(fresh, "go-build") // missing
	t.Setenv("GOCACHE", gocache)
	pol := confine.DefaultPolicy(sb)
	require.Equal(t, []string{gocache}, pol.Private)
	cacheDir, err := os.UserCacheDir()
	require.NoError(t, err)
	dg := func(s string) string { sum := sha256.Sum256([]byte(s)); return hex.EncodeToString(sum[:8]) }
	copyDir := filepath.Join(cacheDir, "sandboxauth", "private", dg(sb), dg(gocache)+"-"+filepath.Base(gocache))
	t.Cleanup(func() { os.RemoveAll(copyDir) })
	host := filepath.Join(copyDir, "evil")
	p, err := ProtectConfinement(pol, DefaultProtectedPaths())
	require.NoError(t, err)
	cmd := exec.Command("/bin/sh", "-c", `set -e
git init -q `+gocache+`/evil
git -C `+gocache+`/evil config core.fsmonitor "touch `+marker+`; false"
ln -s `+host+` tools`)
	cmd.Dir = sb
	out, err := runConfined(cmd, p)
	require.NoError(t, err, out)
	st, _ := exec.Command("git", "-C", filepath.Join(sb, "tools"), "status", "--short").CombinedOutput()
	t.Logf("git status in tools: %s", st)
	assert.NoFileExists(t, marker, "git status in a link of the project ran a repository the command made in the private copy of a cache missing before the run")
}

// TestEscapePlaceholdersLeftBySandboxWithoutPermissions: "placeholders
// are gone when the last confined command of the sandbox ends". The
// command takes every permission away from the sandbox directory itself
// (chmod 000 .) as its last act. For an unprivileged user the removal of
// the placeholders then fails, and they stay for good: dozens of empty
// directories and files in the project (.env, .npmrc, .envrc,
// .tool-versions, .python-version, .aider.conf.yml as directories;
// .git/commondir reading ".", .git/config.worktree, .git/modules,
// .git/worktrees, ...), which break the user's tools (a directory where
// npm, direnv, pyenv or mise read a file) and turn into "the user's
// files" for every later run. Verified with `sandboxauth run` as sbtest.
//
//	chmod 000 .
func TestEscapePlaceholdersLeftBySandboxWithoutPermissions(t *testing.T) {
	if os.Geteuid() == 0 {
		runEscape6AsNobody(t, "TestEscapePlaceholdersLeftBySandboxWithoutPermissions")
		return
	}
	sb := escapeSandbox(t)
	t.Cleanup(func() { _ = os.Chmod(sb, 0o755) })
	before, err := os.ReadDir(sb)
	require.NoError(t, err)
	out, err := runConfined(shIn(sb, `chmod 000 .`), protectedPolicy(t, sb))
	require.NoError(t, err, out)
	require.NoError(t, os.Chmod(sb, 0o755))
	after, err := os.ReadDir(sb)
	require.NoError(t, err)
	var left []string
	for _, e := range after {
		left = append(left, e.Name())
	}
	t.Logf("entries of the sandbox after the run: %v", left)
	assert.Len(t, after, len(before), "placeholders stayed in the sandbox after the run")
	assert.NoFileExists(t, filepath.Join(sb, ".git", "commondir"), "the placeholder of .git/commondir stayed")
}
