package sandboxauth

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
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
	sb := committedSandbox(t)
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
	t.Logf("the command (%v): %s", err, out) // refused: .git/remotes is read-only

	t.Logf("git push: %s", userGit(t, sb, "push"))
	assert.NoFileExists(t, marker, "the user's git push went to a remote the confined command defined and ran its hook")
}

// TestEscapeQuarantineDiskFull: the quarantine moves aside what the
// command left by renaming it in its directory, and a rename that needs a
// new directory block fails with ENOSPC on a full file system; the
// quarantine then gives up on that path, says nothing, and the run
// reports success. The command fills the disk itself (or the user's
// quota; as an unprivileged user, or as root on a file system without
// reserved blocks, the caller has no more room than the command had):
// it makes its repository with a core.fsmonitor, records it as a
// submodule, writes a file until the disk is full and fills the
// repository's directory with empty files until no entry fits. The
// repository stays in place, and the user's git status (once some space
// is freed, or at once: git status does not need to write) runs its
// fsmonitor unconfined. Shown on a small ext4 file system (mounted as
// root) without reserved blocks.
//
//	mkdir evil && cd evil && git init -q && git commit -q --allow-empty -m x &&
//	printf '[core]\n\tfsmonitor = "touch $HOME/pwned; false"\n' >> .git/config &&
//	cd .. && git update-index --add --cacheinfo 160000,$(git -C evil rev-parse HEAD),evil &&
//	dd if=/dev/zero of=fill bs=1k; i=0; while touch evil/pad-$i; do i=$((i+1)); done
func TestEscapeQuarantineDiskFull(t *testing.T) {
	requireConfinement(t)
	tmp := t.TempDir()
	img, mnt := filepath.Join(tmp, "fs.img"), filepath.Join(tmp, "mnt")
	require.NoError(t, os.Mkdir(mnt, 0o755))
	for _, c := range [][]string{
		{"dd", "if=/dev/zero", "of=" + img, "bs=1M", "count=16", "status=none"},
		{"mkfs.ext4", "-q", "-F", "-m", "0", "-b", "1024", img},
		{"mount", "-o", "loop", img, mnt},
	} {
		out, err := exec.Command(c[0], c[1:]...).CombinedOutput()
		require.NoError(t, err, "%v: %s (the test makes a small file system to fill, as root)", c, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", mnt).Run() })
	sb := filepath.Join(mnt, "sb")
	require.NoError(t, os.Mkdir(sb, 0o755))
	out, err := exec.Command("git", "init", "-q", sb).CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.NoError(t, os.WriteFile(filepath.Join(sb, "README"), []byte("hi\n"), 0o644))
	userGit(t, sb, "add", ".")
	userGit(t, sb, "commit", "-q", "-m", "init")
	marker := homeMarker(t)
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	cmd := exec.Command("/bin/sh", "-c", `
mkdir evil && cd evil && git init -q && git commit -q --allow-empty -m x
printf '[core]\n\tfsmonitor = "touch `+marker+`; false"\n' >> .git/config
cd .. && git update-index --add --cacheinfo 160000,$(git -C evil rev-parse HEAD),evil
dd if=/dev/zero of=fill bs=1k 2>/dev/null
i=0; while touch evil/padding-name-$i 2>/dev/null; do i=$((i+1)); done
i=0; while touch evil/.git/padding-name-$i 2>/dev/null; do i=$((i+1)); done
i=0; while touch evil/.git/hooks/padding-name-$i 2>/dev/null; do i=$((i+1)); done
i=0; while touch padding-name-$i 2>/dev/null; do i=$((i+1)); done
true`)
	cmd.Dir = sb
	cmd.Env = append(os.Environ(), gitEnv...)
	out2, err := runConfined(cmd, p)
	require.NoError(t, err, out2)

	require.NoError(t, os.Remove(filepath.Join(sb, "fill"))) // the user frees some space
	t.Logf("git status: %s", userGit(t, sb, "status", "--short"))
	assert.NoFileExists(t, marker, "the quarantine could not rename on a full disk, and git status ran the command's fsmonitor")
}

// TestEscapeUnreadableDirectory: the quarantine's walk lists each
// directory (readDir) and passes over one it cannot read. git needs no
// read permission to find a git directory, only search permission: it
// opens HEAD, objects, refs and config by name. The command turns one of
// the user's directories (src/) into a git directory as in
// TestEscapeEmbeddedBareRepository, then takes its read permission away
// (chmod 311). For an unprivileged user, the caller's walk cannot list
// it and never sees HEAD; nothing is moved aside, and the user's git
// status in src/ runs the fsmonitor unconfined (with a warning that it
// could not open the directory). As root the walk reads it anyway, so
// the test runs itself as an unprivileged user (nobody) when started as
// root.
//
//	cd src && mkdir -p objects refs && echo 'ref: refs/heads/main' > HEAD &&
//	printf '[core]\n\tbare = false\n\tworktree = ..\n\tfsmonitor = "touch $HOME/pwned; false"\n' > config &&
//	chmod 311 .
func TestEscapeUnreadableDirectory(t *testing.T) {
	if os.Geteuid() == 0 {
		runEscape6AsNobody(t, "TestEscapeUnreadableDirectory")
		return
	}
	sb := escapeSandbox(t)
	src := filepath.Join(sb, "src")
	require.NoError(t, os.MkdirAll(src, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(src, "main.go"), []byte("package main\n"), 0o644))
	userGit(t, sb, "add", ".")
	userGit(t, sb, "commit", "-q", "-m", "init")
	branch := strings.TrimSpace(userGit(t, sb, "symbolic-ref", "--short", "HEAD"))
	marker := homeMarker(t)
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	cmd := exec.Command("/bin/sh", "-c", `set -e
cd src && mkdir -p objects refs && echo 'ref: refs/heads/`+branch+`' > HEAD
printf '[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = ..\n\tfsmonitor = "touch `+marker+`; false"\n' > config
chmod 311 .`)
	cmd.Dir = sb
	out, err := runConfined(cmd, p)
	require.NoError(t, err, out)
	t.Cleanup(func() { _ = os.Chmod(src, 0o755) })

	t.Logf("git status in src: %s", userGit(t, src, "status", "--short"))
	assert.NoFileExists(t, marker, "git status in a directory of the project the quarantine could not list ran a configuration the confined command wrote there")
}

// runEscape6AsNobody runs the test named name of a copy of this test binary as
// the user nobody, with a home directory of its own, and fails t with its
// output when it fails.
func runEscape6AsNobody(t *testing.T, name string) {
	t.Helper()
	const uid = 65534
	dir, err := os.MkdirTemp("", "escape6-nobody-")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	require.NoError(t, os.Chmod(dir, 0o755))
	exe, err := os.Executable()
	require.NoError(t, err)
	b, err := os.ReadFile(exe)
	require.NoError(t, err)
	bin := filepath.Join(dir, "test.bin")
	require.NoError(t, os.WriteFile(bin, b, 0o755))
	home := filepath.Join(dir, "home")
	require.NoError(t, os.Mkdir(home, 0o700))
	require.NoError(t, os.Chown(home, uid, uid))
	cmd := exec.Command(bin, "-test.run", "^"+name+"$", "-test.v", "-test.count=1")
	cmd.Dir = home
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "TMPDIR=/tmp"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: uid}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Errorf("as the unprivileged user nobody: %v\n%s", err, out)
	}
}
