package sandboxauth

import (
	"os"
	"os/exec"
	"path/filepath"
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
