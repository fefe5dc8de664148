package sandboxauth

// Escapes found in the fifth round of red-teaming the confinement that
// ProtectConfinement builds (the policy `sandboxauth run` uses): each test
// asserts that the escape does NOT happen, and fails while it does.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/confine"
)

// TestEscapeGlobalGitProgramUnlistedKey: a missing program that the
// user's ~/.gitconfig names in the sandbox is kept from being created
// only when the setting's key is in gitProgramKeys. Git runs the value of
// other settings as a command too: pager.<command> (git log's pager),
// uploadpack.packObjectsHook (honoured only in the user's and the
// system's configuration: exactly the one read here),
// core.alternateRefsCommand, gpg.ssh.defaultKeyCommand,
// sendemail.sendmailCmd, and alias.* values starting with "!". The
// command creates the missing program, and the user's own git runs it
// unconfined (git log on a terminal; git clone/fetch from the project).
//
//	~/.gitconfig: [pager] log = SB/tools/pg.sh   [uploadpack] packObjectsHook = SB/tools/hook.sh
//	mkdir -p tools; printf '#!/bin/sh\ntouch $HOME/pwned\ncat\n' > tools/pg.sh; chmod +x tools/pg.sh
func TestEscapeGlobalGitProgramUnlistedKey(t *testing.T) {
	for _, c := range []struct{ name, config, program string }{
		{"pager.log", "[pager]\n\tlog = %s\n", "pg.sh"},
		{"uploadpack.packObjectsHook", "[uploadpack]\n\tpackObjectsHook = %s\n", "hook.sh"},
		{"core.alternateRefsCommand", "[core]\n\talternateRefsCommand = %s\n", "alt.sh"},
		{"gpg.ssh.defaultKeyCommand", "[gpg \"ssh\"]\n\tdefaultKeyCommand = %s\n", "key.sh"},
		{"sendemail.sendmailCmd", "[sendemail]\n\tsendmailCmd = %s\n", "sm.sh"},
	} {
		t.Run(c.name, func(t *testing.T) {
			sb := escapeSandbox(t)
			home := homeVictimDir(t)
			t.Setenv("HOME", home)
			t.Setenv("XDG_CONFIG_HOME", "")
			program := filepath.Join(sb, "tools", c.program)
			require.NoError(t, os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(fmt.Sprintf(c.config, program)), 0o644))
			p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
			require.NoError(t, err)
			cmd := exec.Command("/bin/sh", "-c", `mkdir -p tools && printf '#!/bin/sh\ntouch "$HOME/pwned"\ncat\n' > tools/`+c.program+` && chmod +x tools/`+c.program)
			cmd.Dir = sb
			out, err := runConfined(cmd, p)
			t.Log(out, err)
			assert.NoFileExists(t, program, "the confined command created the program the user's ~/.gitconfig names in %s", c.name)
		})
	}
}

// TestEscapeGlobalGitPackObjectsHookRuns shows the effect end to end for
// uploadpack.packObjectsHook: after the confined command has made the
// program, the user's git clone of the project runs it unconfined.
func TestEscapeGlobalGitPackObjectsHookRuns(t *testing.T) {
	sb := escapeSandbox(t)
	home := homeVictimDir(t)
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	userGit(t, sb, "init", "-q", ".")
	userGit(t, sb, "commit", "-q", "--allow-empty", "-m", "x")
	program := filepath.Join(sb, "tools", "hook.sh")
	require.NoError(t, os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[uploadpack]\n\tpackObjectsHook = "+program+"\n"), 0o644))
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	cmd := exec.Command("/bin/sh", "-c", `mkdir -p tools && printf '#!/bin/sh\ntouch "$HOME/pwned"\nexec "$@"\n' > tools/hook.sh && chmod +x tools/hook.sh`)
	cmd.Dir = sb
	out, err := runConfined(cmd, p)
	t.Log(out, err)

	marker := filepath.Join(home, "pwned")
	t.Logf("git clone: %s", userGit(t, home, "clone", "-q", "--no-local", sb, filepath.Join(home, "clone")))
	assert.NoFileExists(t, marker, "the user's git clone ran an uploadpack.packObjectsHook the confined command created")
}

// TestEscapeTopGitFileGitlinks: the quarantine follows the top
// repository's gitlinks (the submodules the user's git status enters)
// only when the top .git is a directory (gitlinkRepositories, and
// repository() adds no top repository to c.repos). When it is a .git file
// naming a git directory inside the sandbox (git init
// --separate-git-dir=.repo, or the common bare-clone layout: .bare plus
// "gitdir: ./.bare"), or a symbolic link to one (.git -> .realgit), the
// index there is the command's to write, and its gitlinks are never read. The command makes a repository deeper than the
// walk, gives it a core.fsmonitor, records it as a gitlink, and the
// user's plain git status enters it and runs the fsmonitor unconfined.
//
//	(sandbox: git init --separate-git-dir=$SB/.repo $SB)
//	mkdir -p a/b/c/d/evil && cd a/b/c/d/evil && git init -q && git commit -q --allow-empty -m x
//	printf '[core]\n\tfsmonitor = "touch $HOME/pwned; false"\n' >> .git/config
//	cd - && git update-index --add --cacheinfo 160000,$(git -C a/b/c/d/evil rev-parse HEAD),a/b/c/d/evil
func TestEscapeTopGitFileGitlinks(t *testing.T) {
	for name, layout := range map[string]string{
		".git file (separate git dir)": "git init -q --separate-git-dir=$PWD/.repo .",
		".git symbolic link":           "git init -q . && mv .git .realgit && ln -s .realgit .git",
	} {
		t.Run(name, func(t *testing.T) {
			requireConfinement(t)
			sb, err := filepath.EvalSymlinks(t.TempDir())
			require.NoError(t, err)
			c := exec.Command("/bin/sh", "-c", layout)
			c.Dir, c.Env = sb, append(os.Environ(), gitEnv...)
			out, err := c.CombinedOutput()
			require.NoError(t, err, "%s", out)
			userGit(t, sb, "commit", "-q", "--allow-empty", "-m", "x")
			marker := homeMarker(t)
			p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
			require.NoError(t, err)
			cmd := exec.Command("/bin/sh", "-c", deepFsmonitorGitlink(marker))
			cmd.Dir = sb
			cmd.Env = append(os.Environ(), gitEnv...)
			out2, err := runConfined(cmd, p)
			require.NoError(t, err, out2)

			t.Logf("git status: %s", userGit(t, sb, "status", "--short"))
			assert.NoFileExists(t, marker, "a plain git status ran the fsmonitor of a repository the confined command recorded as a gitlink in the index of a git directory the top .git is not a directory for")
		})
	}
}

// TestEscapeGlobalGitProgramPathWithSpace: configPrograms splits a
// setting's value into words at white space and quotes (gitValueWord), so
// a program path with a space in it (a sandbox under "My Projects", a
// value the user quoted for the shell: git config --global core.fsmonitor
// '"/home/u/my proj/tools/watch.sh"') is read as two words, neither of
// which names the file: it stays writable. The command rewrites it, and
// the user's git runs it unconfined in every repository.
//
//	~/.gitconfig: [core] fsmonitor = \"SB/tools/w.sh\"   (SB = .../my proj)
//	printf '#!/bin/sh\ntouch "$HOME/pwned"\nexit 1\n' > tools/w.sh
func TestEscapeGlobalGitProgramPathWithSpace(t *testing.T) {
	sb := filepath.Join(escapeSandbox(t), "my proj")
	require.NoError(t, os.MkdirAll(filepath.Join(sb, "tools"), 0o755))
	userGit(t, sb, "init", "-q", ".")
	home := homeVictimDir(t)
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	program := filepath.Join(sb, "tools", "w.sh")
	require.NoError(t, os.WriteFile(program, []byte("#!/bin/sh\nexit 1\n"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[core]\n\tfsmonitor = \\\""+program+"\\\"\n"), 0o644))
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	cmd := exec.Command("/bin/sh", "-c", `printf '#!/bin/sh\ntouch "$HOME/pwned"\nexit 1\n' > tools/w.sh`)
	cmd.Dir = sb
	out, err := runConfined(cmd, p)
	t.Log(out, err)

	other := filepath.Join(home, "other")
	userGit(t, home, "init", "-q", other)
	t.Logf("git status in another repository: %s", userGit(t, other, "status", "--short"))
	assert.NoFileExists(t, filepath.Join(home, "pwned"), "the user's git ran a core.fsmonitor (a path with a space) that the confined command rewrote")
}
