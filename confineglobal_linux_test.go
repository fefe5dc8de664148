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

// TestConfinedGlobalGitConfigInSandbox: a confined command cannot change
// what the user's git configuration makes git read or run from the
// sandbox: a ~/.gitconfig that is a link to a dotfiles project, a hooks
// directory it names relative to the work tree. Each payload was run
// against the unprotected policy first and made the user's git run it.
func TestConfinedGlobalGitConfigInSandbox(t *testing.T) {
	for _, c := range []struct {
		name, gitconfig, link, payload string
	}{
		{"~/.gitconfig links into the sandbox", "", "dotfiles/gitconfig",
			`printf '[core]\n\tfsmonitor = "touch MARKER; false"\n' >> dotfiles/gitconfig`},
		{"core.fsmonitor names a program in the sandbox", "[core]\n\tfsmonitor = SB/tools/fsmon.sh\n", "",
			`printf '#!/bin/sh\ntouch MARKER\nexit 1\n' > tools/fsmon.sh`},
		{"relative core.hooksPath", "[core]\n\thooksPath = ci/hookscripts\n", "",
			`mkdir -p ci/hookscripts && printf '#!/bin/sh\ntouch MARKER\n' > ci/hookscripts/pre-commit && chmod +x ci/hookscripts/pre-commit`},
	} {
		t.Run(c.name, func(t *testing.T) {
			sb := escapeSandbox(t)
			home := homeVictimDir(t)
			marker := filepath.Join(homeVictimDir(t), "pwned")
			t.Setenv("HOME", home)
			t.Setenv("XDG_CONFIG_HOME", "")
			if c.link != "" {
				target := filepath.Join(sb, c.link)
				require.NoError(t, os.MkdirAll(filepath.Dir(target), 0o755))
				require.NoError(t, os.WriteFile(target, []byte("[alias]\n\tst = status\n"), 0o644))
				require.NoError(t, os.Symlink(target, filepath.Join(home, ".gitconfig")))
			} else {
				require.NoError(t, os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(strings.ReplaceAll(c.gitconfig, "SB", sb)), 0o644))
				require.NoError(t, os.MkdirAll(filepath.Join(sb, "tools"), 0o755))
				require.NoError(t, os.WriteFile(filepath.Join(sb, "tools", "fsmon.sh"), []byte("#!/bin/sh\nexit 1\n"), 0o755))
			}
			p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
			require.NoError(t, err)
			cmd := exec.Command("/bin/sh", "-c", strings.ReplaceAll(c.payload, "MARKER", marker))
			cmd.Dir = sb
			out, err := runConfined(cmd, p)
			t.Log(out, err)

			t.Logf("git status and commit: %s%s", userGit(t, sb, "status", "--short"), userGit(t, sb, "commit", "-q", "--allow-empty", "-m", "y"))
			assert.NoFileExists(t, marker, "the user's git ran what the confined command wrote where the user's git configuration points")
		})
	}
}

// TestConfinedRepositoryConfigProgram: the repository's configuration is
// read-only, and so is the program in the project its core.fsmonitor
// names (relative to the work tree): the user's git status runs it.
func TestConfinedRepositoryConfigProgram(t *testing.T) {
	sb := escapeSandbox(t)
	marker := homeMarker(t)
	require.NoError(t, os.MkdirAll(filepath.Join(sb, "tools"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(sb, "tools", "fsmon.sh"), []byte("#!/bin/sh\nexit 1\n"), 0o755))
	userGit(t, sb, "config", "core.fsmonitor", "tools/fsmon.sh")
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	cmd := exec.Command("/bin/sh", "-c", `printf '#!/bin/sh\ntouch `+marker+`\nexit 1\n' > tools/fsmon.sh`)
	cmd.Dir = sb
	out, err := runConfined(cmd, p)
	t.Log(out, err)

	t.Logf("git status: %s", userGit(t, sb, "status", "--short"))
	assert.NoFileExists(t, marker, "the user's git status ran the fsmonitor program the confined command rewrote")
}

// TestConfinedGlobalGitConfigThroughLinkInSandbox: a file the user's git
// configuration includes through a symbolic link in the sandbox could be
// redirected by replacing the link: confinement refuses to start rather
// than protect the file the link points to now.
func TestConfinedGlobalGitConfigThroughLinkInSandbox(t *testing.T) {
	sb := escapeSandbox(t)
	home := homeVictimDir(t)
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	require.NoError(t, os.MkdirAll(filepath.Join(sb, "real"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(sb, "real", "gc"), nil, 0o644))
	require.NoError(t, os.Symlink("real", filepath.Join(sb, "link")))
	require.NoError(t, os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[include]\n\tpath = "+filepath.Join(sb, "link", "gc")+"\n"), 0o644))
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	cmd := exec.Command("/bin/sh", "-c", "rm link && mkdir link && echo x > link/gc")
	cmd.Dir = sb
	_, err = runConfined(cmd, p)
	require.ErrorIs(t, err, confine.ErrUnsafePolicy)
	fi, err := os.Lstat(filepath.Join(sb, "link"))
	require.NoError(t, err)
	assert.NotZero(t, fi.Mode()&os.ModeSymlink, "the command ran and replaced the link")
}
