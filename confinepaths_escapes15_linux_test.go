package sandboxauth

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/confine"
)

// dotHome15 makes a fake home (HOME set to it, XDG variables cleared).
func dotHome15(t *testing.T) string {
	t.Helper()
	home := homeVictimDir(t)
	t.Setenv("HOME", home)
	for _, v := range []string{"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_BIN_HOME"} {
		t.Setenv(v, "")
	}
	return home
}

func write15(t *testing.T, path, text string, mode os.FileMode) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(text), mode))
}

func symlink15(t *testing.T, target, link string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(link), 0o755))
	require.NoError(t, os.Symlink(target, link))
}

// run15 runs script confined in sb (ProtectConfinement's policy); an
// error starting it (a refused sandbox) is returned.
func run15(t *testing.T, sb, script string) error {
	t.Helper()
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	if err != nil {
		t.Logf("refused: %v", err)
		return err
	}
	out, err := runConfined(shIn(sb, script), p)
	t.Logf("payload: %v %s", err, out)
	return err
}

// TestEscape15DeepHomeLinks: homeLinksInto looks only at the links at the
// top of a home, of ~/.config, ~/.local/bin and ~/.local/share, not
// deeper: stow --no-folding (or stow into an existing ~/.config/fish)
// links file by file, ~/.config/fish/conf.d/x.fish, systemd user units
// (~/.config/systemd/user/x.service), desktop entries
// (~/.local/share/applications/x.desktop), autostart entries and git's
// global hooks (~/.config/git/hooks/pre-commit) link into the dotfiles
// project, whose confined command rewrites them; the user's next fish,
// login, systemd --user, commit runs them.
//
//	echo 'touch $HOME/pwned' >> fish/mine.fish
//
// Verified as root and as an unprivileged user (sandboxauth run).
func TestEscape15DeepHomeLinks(t *testing.T) {
	sb := escapeSandbox(t)
	home := dotHome15(t)
	files := map[string]string{
		".config/fish/conf.d/mine.fish":          "fish/mine.fish",
		".config/systemd/user/mine.service":      "systemd/mine.service",
		".local/share/applications/mine.desktop": "apps/mine.desktop",
		".config/git/hooks/pre-commit":           "githooks/pre-commit",
		".config/autostart/mine.desktop":         "autostart/mine.desktop",
	}
	for link, rel := range files {
		write15(t, filepath.Join(sb, rel), "# mine\n", 0o644)
		symlink15(t, filepath.Join(sb, rel), filepath.Join(home, link))
	}
	script := ""
	for _, rel := range files {
		script += "echo 'touch pwned' >> " + rel + "; "
	}
	_ = run15(t, sb, script)
	for link := range files {
		b, _ := os.ReadFile(filepath.Join(home, link))
		assert.Equal(t, "# mine\n", string(b), "a confined command changed ~/%s (a link, two levels deep, into its sandbox)", link)
	}
}
