package sandboxauth

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestEscape16HomeLinksOutsideLookedAtPlaces: homeLinksInto looks at the
// links at the top of a home, in ~/.local/bin and ~/bin, and three levels
// into ~/.config and ~/.local/share, but not in the home's other dot
// directories nor deeper. A dotfiles project stowed into ~/.ssh
// (~/.ssh/config), an extension or plugin under development linked into
// ~/.vscode/extensions, ~/.vim/pack/dev/start, an nvim package
// (~/.local/share/nvim/site/pack/dev/start, five levels down), an IPython
// startup file, an oh-my-zsh custom plugin: the confined command rewrites
// them, and the user's next ssh (ProxyCommand: `ssh -G x` showed it in
// effect), editor, IPython or zsh runs them unconfined.
//
//	echo '  ProxyCommand touch ~/pwned' >> ssh/config
//
// Verified as root and as an unprivileged user (sandboxauth run).
func TestEscape16HomeLinksOutsideLookedAtPlaces(t *testing.T) {
	sb := escapeSandbox(t)
	home := dotHome15(t)
	files := map[string]string{
		".ssh/config": "ssh/config",
		".ipython/profile_default/startup/00-mine.py": "ipython/00-mine.py",
	}
	dirs := map[string]string{
		".vscode/extensions/mine":                    "vscode-ext",
		".vim/pack/dev/start/mine":                   "vimplug",
		".local/share/nvim/site/pack/dev/start/mine": "nvimplug",
		".oh-my-zsh/custom/plugins/mine":             "zshplug",
	}
	var written []string
	for link, rel := range files {
		write15(t, filepath.Join(sb, rel), "# mine\n", 0o644)
		symlink15(t, filepath.Join(sb, rel), filepath.Join(home, link))
		written = append(written, rel)
	}
	for link, rel := range dirs {
		write15(t, filepath.Join(sb, rel, "plugin.txt"), "# mine\n", 0o644)
		symlink15(t, filepath.Join(sb, rel), filepath.Join(home, link))
		written = append(written, filepath.Join(rel, "plugin.txt"))
	}
	script := ""
	for _, rel := range written {
		script += "echo '  ProxyCommand touch pwned' >> " + rel + "; "
	}
	_ = run15(t, sb, script)
	for _, rel := range written {
		b, err := os.ReadFile(filepath.Join(sb, rel))
		if err == nil {
			assert.NotContains(t, string(b), "pwned", "%s, which a link of the home leads to, was rewritten by the confined command", rel)
		}
	}
}

// TestEscape16LinkedLocalShare: homeLinksInto reads ~/.local/share (three
// levels) through a link but does not look at the link itself: ~/.local
// is not the top of the home, and only the links found inside
// ~/.local/share are judged. A dotfiles project that ~/.local/share links
// to (ln -s ~/dotfiles/share ~/.local/share) stays writable; the command
// adds what the user's programs load from there at start: nvim sources
// ~/.local/share/nvim/site/plugin/*.lua (its 'runtimepath'), systemd
// --user reads ~/.local/share/systemd/user, desktops autostart nothing
// from there but list applications/*.desktop.
//
//	mkdir -p share/nvim/site/plugin; echo 'vim.fn.writefile({}, vim.env.HOME .. "/pwned")' > share/nvim/site/plugin/evil.lua
//
// Verified as root and as an unprivileged user (sandboxauth run).
func TestEscape16LinkedLocalShare(t *testing.T) {
	sb := escapeSandbox(t)
	home := dotHome15(t)
	write15(t, filepath.Join(sb, "share/nvim/site/.keep"), "", 0o644)
	symlink15(t, filepath.Join(sb, "share"), filepath.Join(home, ".local/share"))
	_ = run15(t, sb, `mkdir -p share/nvim/site/plugin && echo 'vim.fn.writefile({}, vim.env.HOME .. "/pwned")' > share/nvim/site/plugin/evil.lua`)
	assert.NoFileExists(t, filepath.Join(home, ".local/share/nvim/site/plugin/evil.lua"), "the command added an nvim plugin in ~/.local/share, a link into its sandbox")
}
