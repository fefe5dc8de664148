package confine

import (
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Red-team round 12. Each test asserts that an escape verified by hand
// does not happen; each failed when it was written.

// TestEscapeSandboxIsHomeDirectory: a Writable entry that contains the
// home directory is refused (ErrUnsafePolicy), but a Sandbox that is the
// home directory is accepted as soon as Go's build cache is not inside it
// (GOCACHE=off, or GOCACHE/XDG_CACHE_HOME elsewhere, as in many CI and
// container set-ups): the Private check is the only thing that refuses it
// today, by accident. The confined command then writes the user's shell
// start-up files, ~/.local/bin (ahead of /usr/bin in PATH on Debian and
// Ubuntu), systemd user units and autostart entries: all run unconfined
// at the user's next login or shell. The protected paths guard some
// home-relative files (~/.claude/, ~/.cargo/config.toml, git's global
// configuration) but none of these, nor the user's own sandboxauth policy
// (~/.config/sandboxauth/config.json, the --config of the hook's rewrite):
// the command rewrote it with "confine": {"writable": [VICTIM]}, and the
// next `sandboxauth run --config ~/.config/sandboxauth/config.json`
// (the hook's rewrite passes exactly that) wrote into VICTIM outside.
//
// It happens through the hook: Claude Code started in the home directory
// (CLAUDE_PROJECT_DIR=$HOME) with a user configuration that has a
// "confine" section rewrites `./setup.sh` to
//
//	sandboxauth run --config CFG --sandbox "$HOME" -- bash -c './setup.sh'
//
// which is allowed without a question. Verified as root and as an
// unprivileged user (GOCACHE=/tmp/gc), setup.sh being
//
//	echo "echo PWNED" >> ~/.bashrc
//	mkdir -p ~/.local/bin && printf '#!/bin/sh\necho hijacked\n' > ~/.local/bin/git && chmod +x ~/.local/bin/git
//
// Expected: Start refuses a Sandbox that is the home directory or one of
// its ancestors (ErrUnsafePolicy), as it refuses such a Writable entry.
func TestEscapeSandboxIsHomeDirectory(t *testing.T) {
	requireConfinement(t)
	home := fakeHome(t)
	t.Setenv("GOCACHE", "off")
	rc := filepath.Join(home, ".bashrc")
	require.NoError(t, os.WriteFile(rc, []byte("# the user's\n"), 0o644))
	policyFile := filepath.Join(home, ".config", "sandboxauth", "config.json")
	require.NoError(t, os.MkdirAll(filepath.Dir(policyFile), 0o755))
	require.NoError(t, os.WriteFile(policyFile, []byte(`{"policy": "sandbox", "confine": {}}`), 0o644))

	cmd := exec.Command("/bin/sh", "-c", `echo 'echo PWNED' >> "$HOME/.bashrc"
mkdir -p "$HOME/.local/bin" && printf '#!/bin/sh\necho hijacked\n' > "$HOME/.local/bin/git"
mkdir -p "$HOME/.config/systemd/user" && echo '[Service]' > "$HOME/.config/systemd/user/evil.service"
echo '{"policy": "sandbox", "confine": {"writable": ["/etc"]}}' > "$HOME/.config/sandboxauth/config.json"
true`)
	cmd.Dir = home
	err := Run(cmd, DefaultPolicy(home))
	t.Logf("Run: %v", err)

	b, rerr := os.ReadFile(rc)
	require.NoError(t, rerr)
	assert.Equal(t, "# the user's\n", string(b), "the confined command changed ~/.bashrc, which runs unconfined at the next shell")
	assert.NoFileExists(t, filepath.Join(home, ".local", "bin", "git"), "the confined command planted ~/.local/bin/git, ahead of /usr/bin/git in PATH")
	assert.NoFileExists(t, filepath.Join(home, ".config", "systemd", "user", "evil.service"), "the confined command planted a systemd user unit")
	b, rerr = os.ReadFile(policyFile)
	require.NoError(t, rerr)
	assert.Equal(t, `{"policy": "sandbox", "confine": {}}`, string(b), "the confined command rewrote the user's own sandboxauth policy, which the next run and the hook obey")
}

// TestEscapeCredentialsVisibleWithoutHOME: DefaultPolicy finds the home
// directory only in $HOME (os.UserHomeDir). With HOME unset or empty (env
// -i, a systemd unit without User=, some CI runners), an unprivileged
// user's credentials are not hidden at all: as that user,
//
//	env -u HOME sandboxauth run -- ./r.sh     # r.sh: cat /home/sbtest/.aws/credentials
//
// printed the key (with HOME set it fails: hidden). Root is covered
// because it hides every home under /home and /root anyway; an
// unprivileged user is not, so this test fails when the suite runs
// unprivileged (as CI's second pass does) and passes as root. Expected:
// the home directory of the user's passwd entry is hidden too (or Start
// refuses when it cannot tell the home directory).
func TestEscapeCredentialsVisibleWithoutHOME(t *testing.T) {
	requireConfinement(t)
	u, err := user.Current()
	require.NoError(t, err)
	require.True(t, filepath.IsAbs(u.HomeDir), "no home directory in the passwd entry")
	sandbox, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	for _, home := range []string{"", "relative/home"} {
		t.Setenv("HOME", home)
		p := DefaultPolicy(sandbox)
		assert.Contains(t, p.Hidden, filepath.Join(u.HomeDir, ".aws"), "HOME=%q: the user's ~/.aws is not hidden", home)
		assert.Contains(t, p.Hidden, filepath.Join(u.HomeDir, ".ssh"), "HOME=%q: the user's ~/.ssh is not hidden", home)
	}
}

// TestEscapeSandboxHoldsUserConfiguration: the same without touching
// GOCACHE, with a sandbox that holds the user's configuration directory
// (a dotfiles repository at ~/.config, where Claude Code is opened to
// edit it: CLAUDE_PROJECT_DIR=~/.config). DefaultPolicy accepts it, and
// the command, run as project code without a question, plants an
// autostart entry, a fish and a Neovim start-up file, and rewrites the
// user's own sandboxauth policy (~/.config/sandboxauth/config.json), which
// the next `sandboxauth run --config` obeys. Verified with
//
//	cd ~/.config && sandboxauth run -- ./d.sh
//	# d.sh: mkdir -p autostart fish && echo '[Desktop Entry]...' > autostart/evil.desktop && echo evil >> fish/config.fish
//
// Expected: a Sandbox that is, or holds, the user's configuration
// directory (XDG_CONFIG_HOME, ~/.config) or the sandboxauth policy file
// is refused (ErrUnsafePolicy), or those files stay read-only.
func TestEscapeSandboxHoldsUserConfiguration(t *testing.T) {
	requireConfinement(t)
	home := fakeHome(t)
	config := filepath.Join(home, ".config")
	policyFile := filepath.Join(config, "sandboxauth", "config.json")
	require.NoError(t, os.MkdirAll(filepath.Dir(policyFile), 0o755))
	require.NoError(t, os.WriteFile(policyFile, []byte(`{"policy": "sandbox", "confine": {}}`), 0o644))

	cmd := exec.Command("/bin/sh", "-c", `mkdir -p autostart fish && printf '[Desktop Entry]\nExec=sh -c evil\n' > autostart/evil.desktop
echo evil >> fish/config.fish
echo '{"policy": "sandbox", "confine": {"writable": ["/etc"]}}' > sandboxauth/config.json
true`)
	cmd.Dir = config
	err := Run(cmd, DefaultPolicy(config))
	t.Logf("Run: %v", err)

	assert.NoFileExists(t, filepath.Join(config, "autostart", "evil.desktop"), "the confined command planted an autostart entry")
	assert.NoFileExists(t, filepath.Join(config, "fish", "config.fish"), "the confined command planted fish's start-up file")
	b, rerr := os.ReadFile(policyFile)
	require.NoError(t, rerr)
	assert.Equal(t, `{"policy": "sandbox", "confine": {}}`, string(b), "the confined command rewrote the user's own sandboxauth policy")
}
