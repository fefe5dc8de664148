package sandboxauth

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

// TestEscapeEmbeddedBareRepositoryDeep: the quarantine finds directories
// turned into git directories (HEAD, objects/, refs/: an embedded bare
// repository, TestEscapeEmbeddedBareRepository) with the bounded walk,
// which reads directories three levels below the top and no deeper
// (and 256 at most: a project with that many directories before it in
// breadth-first order hides even a shallow one). Projects are deeper than
// that: a Java project's package directories (src/main/java/app), a Go or
// TypeScript package tree. The command turns one of the user's
// directories four levels down into a git directory whose configuration
// names the top as its work tree and sets core.fsmonitor; nothing moves
// it aside, and the user's git status there (a terminal opened in the
// package's directory; an editor that looks for the repository of an
// opened file from the file's directory) runs the fsmonitor unconfined.
//
//	cd src/main/java/app && mkdir -p objects refs && echo 'ref: refs/heads/main' > HEAD &&
//	printf '[core]\n\tbare = false\n\tworktree = ../../../..\n\tfsmonitor = "touch $HOME/pwned; false"\n' > config
func TestEscapeEmbeddedBareRepositoryDeep(t *testing.T) {
	sb := escapeSandbox(t)
	pkg := filepath.Join(sb, "src", "main", "java", "app")
	require.NoError(t, os.MkdirAll(pkg, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(pkg, "Main.java"), []byte("class Main {}\n"), 0o644))
	userGit(t, sb, "add", ".")
	userGit(t, sb, "commit", "-q", "-m", "init")
	marker := homeMarker(t)
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	cmd := exec.Command("/bin/sh", "-c", `set -e
cd src/main/java/app && mkdir -p objects refs && echo 'ref: refs/heads/main' > HEAD
printf '[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = ../../../..\n\tfsmonitor = "touch `+marker+`; false"\n' > config`)
	cmd.Dir = sb
	out, err := runConfined(cmd, p)
	require.NoError(t, err, out)

	t.Logf("git status in src/main/java/app: %s", userGit(t, pkg, "status", "--short"))
	assert.NoFileExists(t, marker, "git status in a directory of the project, four levels down, ran a configuration the confined command wrote there")
}

// TestEscapeLegacyRemotesFile: git still reads a remote that its
// configuration does not define from the git directory's legacy files,
// remotes/NAME ("URL:", "Push:", "Pull:" lines) and branches/NAME, for
// the default remote "origin" too; neither is kept read-only nor moved
// aside. In a repository with no origin configured (a project the agent
// or the user made with git init, never pushed), the command writes
// .git/remotes/origin naming a bare repository it makes inside .git
// (which the quarantine's walk does not enter), with a pre-receive hook.
// The user's plain `git push` pushes there, and git's receive-pack runs
// the hook unconfined. git remote -v shows nothing.
//
//	git init -q --bare .git/lfs-cache
//	printf '#!/bin/sh\ntouch $HOME/pwned\n' > .git/lfs-cache/hooks/pre-receive; chmod +x .git/lfs-cache/hooks/pre-receive
//	mkdir -p .git/remotes; printf 'URL: %s\nPush: refs/heads/main:refs/heads/main\n' "$PWD/.git/lfs-cache" > .git/remotes/origin
func TestEscapeLegacyRemotesFile(t *testing.T) {
	sb := escapeSandbox(t)
	require.NoError(t, os.WriteFile(filepath.Join(sb, "README"), []byte("hi\n"), 0o644))
	userGit(t, sb, "add", ".")
	userGit(t, sb, "commit", "-q", "-m", "init")
	branch := strings.TrimSpace(userGit(t, sb, "symbolic-ref", "--short", "HEAD"))
	marker := homeMarker(t)
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	cmd := exec.Command("/bin/sh", "-c", `set -e
git init -q --bare .git/lfs-cache
printf '#!/bin/sh\ntouch `+marker+`\n' > .git/lfs-cache/hooks/pre-receive; chmod +x .git/lfs-cache/hooks/pre-receive
mkdir -p .git/remotes; printf 'URL: %s\nPush: refs/heads/`+branch+`:refs/heads/`+branch+`\n' "$PWD/.git/lfs-cache" > .git/remotes/origin`)
	cmd.Dir = sb
	cmd.Env = append(os.Environ(), gitEnv...)
	out, err := runConfined(cmd, p)
	require.NoError(t, err, out)

	t.Logf("git push: %s", userGit(t, sb, "push"))
	assert.NoFileExists(t, marker, "the user's git push went to a remote the confined command defined and ran its hook")
}
