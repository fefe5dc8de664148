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

// TestProtectConfinementGlobalGitConfig: what the user's git
// configuration makes git read or run from the sandbox is read-only.
func TestProtectConfinementGlobalGitConfig(t *testing.T) {
	for _, c := range []struct {
		name string
		// files to write, relative to home; "SB" in a content or a name
		// is the sandbox (home/proj).
		files map[string]string
		links map[string]string // link (relative to home) -> target
		env   map[string]string // "HOME" in a value is home
		// readOnly lists paths relative to home that must be read-only,
		// placeholder those of them with an empty placeholder file,
		// notReadOnly those that must not be.
		readOnly, placeholder, notReadOnly []string
	}{
		{name: "absolute include",
			files:    map[string]string{".gitconfig": "[include]\n\tpath = SB/tools/gitconfig\n", "proj/tools/gitconfig": "[alias]\n\tst = status\n"},
			readOnly: []string{"proj/tools/gitconfig"}},
		{name: "tilde includeIf, key on the header line",
			files:    map[string]string{".gitconfig": "[includeIf \"gitdir:~/proj/\"] path = ~/proj/tools/gitconfig\n", "proj/tools/gitconfig": ""},
			readOnly: []string{"proj/tools/gitconfig"}},
		{name: "relative include, missing",
			files:       map[string]string{".gitconfig": "[include]\n\tpath = proj/team.gitconfig\n"},
			readOnly:    []string{"proj/team.gitconfig"},
			placeholder: []string{"proj/team.gitconfig"}},
		{name: "include of an include outside the sandbox",
			files:       map[string]string{".gitconfig": "[include]\n\tpath = dotfiles/git/main\n", "dotfiles/git/main": "[include]\n\tpath = ../../proj/more\n", "proj/more": ""},
			readOnly:    []string{"proj/more"},
			notReadOnly: []string{"dotfiles/git/main", ".gitconfig"}},
		{name: "include chain inside the sandbox",
			files:    map[string]string{".gitconfig": "[include]\n\tpath = ~/proj/a\n", "proj/a": "[include]\n\tpath = b\n", "proj/b": "[include]\n\tpath = c\n"},
			readOnly: []string{"proj/a", "proj/b", "proj/c"}},
		{name: "XDG configuration",
			files:    map[string]string{"xdg/git/config": "[include]\n\tpath = ~/proj/x\n", "proj/x": ""},
			env:      map[string]string{"XDG_CONFIG_HOME": "HOME/xdg"},
			readOnly: []string{"proj/x"}},
		{name: "GIT_CONFIG_GLOBAL",
			files:    map[string]string{"elsewhere/gc": "[include]\n\tpath = ~/proj/y\n", "proj/y": ""},
			env:      map[string]string{"GIT_CONFIG_GLOBAL": "HOME/elsewhere/gc"},
			readOnly: []string{"proj/y"}},
		{name: "~/.gitconfig is a link into the sandbox",
			files:    map[string]string{"proj/dotfiles/gitconfig": "[user]\n\tname = x\n"},
			links:    map[string]string{".gitconfig": "proj/dotfiles/gitconfig"},
			readOnly: []string{"proj/dotfiles/gitconfig"}},
		{name: "hooks and template directories",
			files:    map[string]string{".gitconfig": "[core]\n\thooksPath = ~/proj/githooks\n[init]\n\ttemplateDir = ~/proj/template\n"},
			readOnly: []string{"proj/githooks", "proj/template"}},
		{name: "relative hooks directory",
			files:    map[string]string{".gitconfig": "[core]\n\thooksPath = ci/hookscripts\n"},
			readOnly: []string{"proj/ci/hookscripts"}},
		{name: "outside the sandbox",
			files:       map[string]string{".gitconfig": "[include]\n\tpath = ~/other/gc\n[core]\n\thooksPath = ~/other/hooks\n", "other/gc": ""},
			notReadOnly: []string{"other/gc", "other/hooks", ".gitconfig"}},
		{name: "optional include",
			files:    map[string]string{".gitconfig": "[include]\n\tpath = :(optional)~/proj/opt\n"},
			readOnly: []string{"proj/opt"}},
		{name: "the repository's own include and hooks directory under ~",
			files:       map[string]string{"proj/.git/config": "[core]\n\tbare = false\n\thooksPath = ~/proj/repohooks\n[include]\n\tpath = ~/proj/tools/repo.gitconfig\n"},
			readOnly:    []string{"proj/tools/repo.gitconfig", "proj/repohooks"},
			placeholder: []string{"proj/tools/repo.gitconfig"}},
		{name: "programs the configuration runs",
			files: map[string]string{
				".gitconfig": "[core]\n\tfsmonitor = ~/proj/tools/watch\n\tpager = tools/pager.sh -R\n[credential]\n\thelper = !~/proj/bin/cred\n" +
					"[diff \"x\"]\n\ttextconv = sh $HOME/proj/conv.sh\n[core]\n\texcludesFile = ~/proj/ignore\n",
				"proj/tools/watch": "", "proj/tools/pager.sh": "", "proj/conv.sh": "", "proj/ignore": "",
			},
			readOnly:    []string{"proj/tools/watch", "proj/tools/pager.sh", "proj/bin/cred", "proj/conv.sh", "proj/ignore"},
			placeholder: []string{"proj/bin/cred"}},
		{name: "directories and aliases' project scripts stay writable",
			files: map[string]string{
				".gitconfig": "[safe]\n\tdirectory = ~/proj/sub\n[alias]\n\tt = !sh tools/t.sh src/main.go\n\tu = !cd ~/proj/sub && make\n",
				"proj/sub/x": "", "proj/tools/t.sh": "", "proj/src/main.go": "",
			},
			notReadOnly: []string{"proj/sub", "proj/tools/t.sh", "proj/src/main.go"}},
		{name: "include through a link in the sandbox, by its name there",
			files:       map[string]string{".gitconfig": "[include]\n\tpath = ~/proj/link/gc\n", "proj/real/gc": ""},
			links:       map[string]string{"proj/link": "proj/real"},
			readOnly:    []string{"proj/link/gc"},
			notReadOnly: []string{"proj/real/gc"}},
		{name: "include through a link outside the sandbox",
			files:    map[string]string{".gitconfig": "[include]\n\tpath = ~/dots/gc\n", "proj/dotfiles/gc": ""},
			links:    map[string]string{"dots": "proj/dotfiles"},
			readOnly: []string{"proj/dotfiles/gc"}},
		{name: "the repository's own include through a link outside the sandbox",
			files:    map[string]string{"proj/.git/config": "[core]\n\tbare = false\n[include]\n\tpath = ~/dots/repo.gc\n", "proj/dotfiles/repo.gc": ""},
			links:    map[string]string{"dots": "proj/dotfiles"},
			readOnly: []string{"proj/dotfiles/repo.gc"}},
		{name: "programs the repository's own configuration names",
			files:       map[string]string{"proj/.git/config": "[core]\n\tbare = false\n\tfsmonitor = tools/fsmon.sh\n[diff \"x\"]\n\ttextconv = ~/proj/conv\n", "proj/tools/fsmon.sh": ""},
			readOnly:    []string{"proj/tools/fsmon.sh", "proj/conv"},
			placeholder: []string{"proj/conv"}},
		{name: "settings in the environment",
			files:       map[string]string{"proj/tools/watch": ""},
			env:         map[string]string{"GIT_CONFIG_COUNT": "2", "GIT_CONFIG_KEY_0": "includeIf.onbranch:main.path", "GIT_CONFIG_VALUE_0": "HOME/proj/env.gc", "GIT_CONFIG_KEY_1": "core.fsmonitor", "GIT_CONFIG_VALUE_1": "HOME/proj/tools/watch"},
			readOnly:    []string{"proj/env.gc", "proj/tools/watch"},
			placeholder: []string{"proj/env.gc"}},
		{name: "include through a link and .. outside the sandbox, resolved as the kernel does",
			files:       map[string]string{".gitconfig": "[include]\n\tpath = ~/a/../p/gc\n", "dots/inner/x": "", "proj/sub/gc": ""},
			links:       map[string]string{"a": "dots/inner", "dots/p": "proj/sub"},
			readOnly:    []string{"proj/sub/gc"},
			notReadOnly: []string{"proj/gc"}},
		{name: "include loop",
			files:    map[string]string{".gitconfig": "[include]\n\tpath = ~/proj/a\n", "proj/a": "[include]\n\tpath = a\n"},
			readOnly: []string{"proj/a"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			home, err := filepath.EvalSymlinks(t.TempDir())
			require.NoError(t, err)
			sb := filepath.Join(home, "proj")
			require.NoError(t, os.MkdirAll(sb, 0o755))
			out, err := exec.Command("git", "init", "-q", sb).CombinedOutput()
			require.NoError(t, err, "%s", out)
			t.Setenv("HOME", home)
			t.Setenv("XDG_CONFIG_HOME", "")
			t.Setenv("GIT_CONFIG_GLOBAL", "")
			t.Setenv("GIT_CONFIG_SYSTEM", "")
			t.Setenv("GIT_CONFIG_COUNT", "")
			for k, v := range c.env {
				if rest, ok := strings.CutPrefix(v, "HOME"); ok {
					v = filepath.Join(home, rest)
				}
				t.Setenv(k, v)
			}
			for rel, content := range c.files {
				p := filepath.Join(home, rel)
				require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
				require.NoError(t, os.WriteFile(p, []byte(strings.ReplaceAll(content, "SB", sb)), 0o644))
			}
			for link, target := range c.links {
				require.NoError(t, os.Symlink(filepath.Join(home, target), filepath.Join(home, link)))
			}
			p, err := ProtectConfinement(confine.Policy{Sandbox: sb}, DefaultProtectedPaths())
			require.NoError(t, err)
			for _, rel := range c.readOnly {
				assert.Contains(t, p.ReadOnly, filepath.Join(home, rel))
			}
			for _, rel := range c.placeholder {
				content, ok := p.Placeholders[filepath.Join(home, rel)]
				assert.True(t, ok && content == "", "%s has no empty placeholder", rel)
			}
			for _, rel := range c.notReadOnly {
				assert.NotContains(t, p.ReadOnly, filepath.Join(home, rel))
			}
		})
	}
}
