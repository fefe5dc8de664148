package sandboxauth

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/confine"
)

// TestEscapeRepositoryInsideFakeObjects: the quarantine's deep scan
// (changedGitFiles) takes any directory with HEAD, objects/ and refs/
// entries for a git directory and does not enter its objects/ ("nothing
// obeyed but alternates"); neither does the bounded walk nor
// repositoriesBelow. The command makes such a directory out of any
// project directory (three names suffice: git need not accept it) and a
// full repository below its objects/, with core.fsmonitor. Moving aside
// the fake directory's HEAD (it is new) does not touch the repository
// below. The user's git status there runs the fsmonitor unconfined.
//
//	mkdir -p src/lib/objects/pkg src/lib/refs && touch src/lib/HEAD
//	cd src/lib/objects/pkg && git init -q && git config core.fsmonitor "touch $HOME/pwned; false"
func TestEscapeRepositoryInsideFakeObjects(t *testing.T) {
	sb := committedSandbox(t)
	marker := homeMarker(t)
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	cmd := exec.Command("/bin/sh", "-c", `set -e
mkdir -p src/lib/objects/pkg src/lib/refs && touch src/lib/HEAD
cd src/lib/objects/pkg && git init -q && git config core.fsmonitor "touch `+marker+`; false"`)
	cmd.Dir = sb
	out, err := runConfined(cmd, p)
	require.NoError(t, err, out)

	pkg := filepath.Join(sb, "src", "lib", "objects", "pkg")
	t.Logf("git status in src/lib/objects/pkg: %s", userGit(t, pkg, "status", "--short"))
	assert.NoFileExists(t, marker, "git status in a directory of the project ran a configuration the confined command wrote below a directory it named objects")
}

// TestEscapeGitfileIntoPrivateCache: the deep scan follows a gitfile
// (.git naming a git directory) only to a target within the sandbox, and
// the bounded walk moves new gitfiles aside three levels down at most.
// A confined command can write outside the sandbox in one place that
// outlives the run: the Private copy of Go's build cache, kept at
// ~/.cache/sandboxauth/private/DIGEST(sandbox)/DIGEST(gocache)-go-build
// (both digests computable by the command: the first 8 bytes of
// sha256 of the paths). It makes a git directory there (seen inside as
// $GOCACHE/evil) with core.fsmonitor, and a gitfile four levels down in
// the project naming its outside path. Nothing looks there after the
// run; the user's git status in that directory runs the fsmonitor
// unconfined.
//
//	d() { printf %s "$1" | sha256sum | cut -c1-16; }
//	host=$HOME/.cache/sandboxauth/private/$(d "$PWD")/$(d "$GOCACHE")-go-build/evil
//	git init -q --bare "$GOCACHE/evil"; git -C "$GOCACHE/evil" config core.bare false
//	git -C "$GOCACHE/evil" config core.fsmonitor "touch $HOME/pwned; false"
//	mkdir -p a/b/c/app && echo "gitdir: $host" > a/b/c/app/.git
func TestEscapeGitfileIntoPrivateCache(t *testing.T) {
	sb := committedSandbox(t)
	marker := homeMarker(t)
	pol, gocache, copy0 := privateGoCache(t, sb)
	host := filepath.Join(copy0, "evil")
	t.Cleanup(func() { os.RemoveAll(host) })
	p, err := ProtectConfinement(pol, DefaultProtectedPaths())
	require.NoError(t, err)
	cmd := exec.Command("/bin/sh", "-c", `set -e
rm -rf `+gocache+`/evil
git init -q --bare `+gocache+`/evil; git -C `+gocache+`/evil config core.bare false
git -C `+gocache+`/evil config core.fsmonitor "touch `+marker+`; false"
mkdir -p a/b/c/app && echo "gitdir: `+host+`" > a/b/c/app/.git`)
	cmd.Dir = sb
	out, err := runConfined(cmd, p)
	require.NoError(t, err, out)
	_, err = os.Stat(filepath.Join(host, "config"))
	require.NoError(t, err, "the git directory is in the private copy, outside the sandbox")

	app := filepath.Join(sb, "a", "b", "c", "app")
	st, _ := exec.Command("git", "-C", app, "status", "--short").CombinedOutput()
	t.Logf("git status in a/b/c/app: %s", st)
	assert.NoFileExists(t, marker, "git status in a directory of the project ran a configuration the confined command wrote in the private copy of Go's build cache")
}

// TestEscapeRepositoryBeyondPathMax: the deep scan reaches directories
// by their path from the sandbox, which fails (ENAMETOOLONG) beyond
// PATH_MAX, and skips what it cannot read. A first run makes a
// repository with core.fsmonitor 22 levels down under one-letter names,
// then, going up, renames each level to a 200-letter name (a rename in
// the same directory, which Landlock allows): the repository ends up
// beyond 4096 bytes of path, and nothing looks at it. A later run (its
// policy newer) renames the levels back to one letter, top down: a
// directory rename changes the change time of the directory renamed, not
// of the files below it, so the repository's .git/config keeps the
// first run's time, before the second policy's, and the second run's
// scan takes it for the user's own. The bounded walks see three levels.
// The user's git status there (23 levels down, under a/a/...) runs the
// fsmonitor unconfined.
//
//	run 1: d=$(printf 'a/%.0s' $(seq 22)); mkdir -p $d && cd $d
//	       git init -q evil && git -C evil config core.fsmonitor "touch $HOME/pwned; false"
//	       s=$(printf 'd%.0s' $(seq 200)); for i in $(seq 22); do cd ..; mv a $s; done
//	run 2: s=$(printf 'd%.0s' $(seq 200)); for i in $(seq 22); do mv $s a; cd a; done
func TestEscapeRepositoryBeyondPathMax(t *testing.T) {
	sb := committedSandbox(t)
	marker := homeMarker(t)
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	cmd := exec.Command("/bin/sh", "-c", `set -e
d=$(printf 'a/%.0s' $(seq 22)); mkdir -p $d && cd $d
git init -q evil && git -C evil config core.fsmonitor "touch `+marker+`; false"
s=$(printf 'd%.0s' $(seq 200)); for i in $(seq 22); do cd ..; mv a $s; done`)
	cmd.Dir = sb
	out, err := runConfined(cmd, p)
	require.NoError(t, err, out)

	time.Sleep(2100 * time.Millisecond)
	p, err = ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	cmd = exec.Command("/bin/sh", "-c", `set -e
s=$(printf 'd%.0s' $(seq 200)); for i in $(seq 22); do mv $s a; cd a; done`)
	cmd.Dir = sb
	out, err = runConfined(cmd, p)
	require.NoError(t, err, out)

	evil := filepath.Join(sb, strings.Repeat("a/", 22)+"evil")
	st, _ := exec.Command("git", "-C", evil, "status", "--short").CombinedOutput()
	t.Logf("git status in a/.../a/evil: %s", st)
	assert.NoFileExists(t, marker, "git status in a directory of the project ran a configuration a confined command wrote")
}

// TestEscapeDeepRepositoryStoppedRebase: the quarantine moves aside git's
// state of an operation stopped half-way (rebase-merge, rebase-apply,
// sequencer) only in the repositories known before the run (was.states);
// the deep scan (changedGitFiles) moves aside configuration and hooks, not
// that state. The command makes a repository four levels down and stops
// an interactive rebase in it whose todo list still holds an exec line
// (its config and hooks are moved aside; git works without them). git
// status there says "interactive rebase in progress"; the user's git
// rebase --continue runs the exec line unconfined.
//
//	mkdir -p a/b/c/lib && cd a/b/c/lib && git init -q && git commit -q --allow-empty -m 1 && git commit -q --allow-empty -m 2
//	GIT_SEQUENCE_EDITOR="printf 'break\nexec touch $HOME/pwned\n' >" git rebase -i HEAD~1
func TestEscapeDeepRepositoryStoppedRebase(t *testing.T) {
	sb := committedSandbox(t)
	marker := homeMarker(t)
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	cmd := exec.Command("/bin/sh", "-c", `set -e
export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b
mkdir -p a/b/c/lib && cd a/b/c/lib && git init -q && git commit -q --allow-empty -m 1 && git commit -q --allow-empty -m 2
GIT_SEQUENCE_EDITOR="printf 'break\nexec touch `+marker+`\n' >" git rebase -i HEAD~1`)
	cmd.Dir = sb
	cmd.Env = append(os.Environ(), gitEnv...)
	out, err := runConfined(cmd, p)
	require.NoError(t, err, out)
	require.NoFileExists(t, marker)

	lib := filepath.Join(sb, "a", "b", "c", "lib")
	st, _ := exec.Command("git", "-C", lib, "status").CombinedOutput()
	t.Logf("git status in a/b/c/lib: %s", st)
	c := exec.Command("git", "-C", lib, "rebase", "--continue")
	c.Env = append(os.Environ(), gitEnv...)
	st, _ = c.CombinedOutput()
	t.Logf("git rebase --continue: %s", st)
	assert.NoFileExists(t, marker, "git rebase --continue in a directory of the project ran an exec line a confined command left")
}

// TestEscapeDormantRepositoryWoken: the deep scan moves aside what changed
// in a git directory, by change time, and knows git directories by their
// HEAD. A first run makes a repository four levels down (deeper than the
// bounded walk) with core.fsmonitor and renames its HEAD to HEAD.x: no
// HEAD, no git directory, and its config stays. A later run (its policy
// newer) renames HEAD.x back to HEAD, which changes the change time of
// HEAD alone: the config keeps the first run's time, and the second
// run's scan takes it for the user's. The user's git status there runs
// the fsmonitor unconfined.
//
//	run 1: mkdir -p a/b/c/lib && git init -q a/b/c/lib
//	       git -C a/b/c/lib config core.fsmonitor "touch $HOME/pwned; false"; mv a/b/c/lib/.git/HEAD a/b/c/lib/.git/HEAD.x
//	run 2: mv a/b/c/lib/.git/HEAD.x a/b/c/lib/.git/HEAD
func TestEscapeDormantRepositoryWoken(t *testing.T) {
	sb := committedSandbox(t)
	marker := homeMarker(t)
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	cmd := exec.Command("/bin/sh", "-c", `set -e
mkdir -p a/b/c/lib && git init -q a/b/c/lib
git -C a/b/c/lib config core.fsmonitor "touch `+marker+`; false"; mv a/b/c/lib/.git/HEAD a/b/c/lib/.git/HEAD.x`)
	cmd.Dir = sb
	out, err := runConfined(cmd, p)
	require.NoError(t, err, out)

	time.Sleep(2100 * time.Millisecond)
	p, err = ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	cmd = exec.Command("/bin/sh", "-c", `mv a/b/c/lib/.git/HEAD.x a/b/c/lib/.git/HEAD`)
	cmd.Dir = sb
	out, err = runConfined(cmd, p)
	require.NoError(t, err, out)

	lib := filepath.Join(sb, "a", "b", "c", "lib")
	st, _ := exec.Command("git", "-C", lib, "status", "--short").CombinedOutput()
	t.Logf("git status in a/b/c/lib: %s", st)
	assert.NoFileExists(t, marker, "git status in a directory of the project ran a configuration a confined command wrote")
}

// TestEscapeGitfileThroughLinkIntoObjects: the deep scan checks a
// gitfile's target by the path the gitfile names, and the quarantine
// moves a file only through a path with no symbolic link on the way, so a
// changed configuration found through a link is listed and then silently
// left. The real location is one the scan does not enter: the top
// repository's own .git/objects (writable: git commit needs it). The
// command makes a git directory there with core.fsmonitor, a link to
// .git/objects four levels down, and a gitfile beside it naming the git
// directory through the link. The user's git status there runs the
// fsmonitor unconfined.
//
//	git init -q --bare .git/objects/zz && git -C .git/objects/zz config core.bare false
//	git -C .git/objects/zz config core.fsmonitor "touch $HOME/pwned; false"
//	mkdir -p a/b/c/app && ln -s ../../../../.git/objects a/b/c/app/o && echo 'gitdir: o/zz' > a/b/c/app/.git
func TestEscapeGitfileThroughLinkIntoObjects(t *testing.T) {
	sb := committedSandbox(t)
	marker := homeMarker(t)
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	cmd := exec.Command("/bin/sh", "-c", `set -e
git init -q --bare .git/objects/zz && git -C .git/objects/zz config core.bare false
git -C .git/objects/zz config core.fsmonitor "touch `+marker+`; false"
mkdir -p a/b/c/app && ln -s ../../../../.git/objects a/b/c/app/o && echo 'gitdir: o/zz' > a/b/c/app/.git`)
	cmd.Dir = sb
	out, err := runConfined(cmd, p)
	require.NoError(t, err, out)

	app := filepath.Join(sb, "a", "b", "c", "app")
	st, _ := exec.Command("git", "-C", app, "status", "--short").CombinedOutput()
	t.Logf("git status in a/b/c/app: %s", st)
	assert.NoFileExists(t, marker, "git status in a directory of the project ran a configuration the confined command wrote in .git/objects")
}

// TestEscapeGitLinkIntoObjects: a .git that is a symbolic link to a
// directory is a repository's git directory to git; the deep scan
// neither follows it (it looks at .git only when a directory or a
// gitfile) nor enters the top repository's .git/objects, where the
// command makes the git directory. The bounded walk moves new .git
// entries aside three levels down at most. The user's git status four
// levels down runs the fsmonitor unconfined. (The same .git link naming
// a git directory in the private copy of Go's build cache works too, see
// TestEscapeGitfileIntoPrivateCache.)
//
//	git init -q --bare .git/objects/zz && git -C .git/objects/zz config core.bare false
//	git -C .git/objects/zz config core.fsmonitor "touch $HOME/pwned; false"
//	mkdir -p a/b/c/app && ln -s ../../../../.git/objects/zz a/b/c/app/.git
func TestEscapeGitLinkIntoObjects(t *testing.T) {
	sb := committedSandbox(t)
	marker := homeMarker(t)
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	cmd := exec.Command("/bin/sh", "-c", `set -e
git init -q --bare .git/objects/zz && git -C .git/objects/zz config core.bare false
git -C .git/objects/zz config core.fsmonitor "touch `+marker+`; false"
mkdir -p a/b/c/app && ln -s ../../../../.git/objects/zz a/b/c/app/.git`)
	cmd.Dir = sb
	out, err := runConfined(cmd, p)
	require.NoError(t, err, out)

	app := filepath.Join(sb, "a", "b", "c", "app")
	st, _ := exec.Command("git", "-C", app, "status", "--short").CombinedOutput()
	t.Logf("git status in a/b/c/app: %s", st)
	assert.NoFileExists(t, marker, "git status in a directory of the project ran a configuration the confined command wrote in .git/objects")
}

// privateGoCache returns DefaultPolicy for sb, the Go build cache it keeps
// private (made if missing, resolved) and, on the real file system, that
// cache's private copy, where a confined command's writes to it land.
func privateGoCache(t *testing.T, sb string) (pol confine.Policy, gocache, copy string) {
	t.Helper()
	pol = confine.DefaultPolicy(sb)
	require.NotEmpty(t, pol.Private, "DefaultPolicy keeps Go's build cache private")
	require.NoError(t, os.MkdirAll(pol.Private[0], 0o700))
	gocache, err := filepath.EvalSymlinks(pol.Private[0])
	require.NoError(t, err)
	copies, err := confine.PrivateCopies(pol)
	require.NoError(t, err)
	return pol, gocache, copies[0]
}
