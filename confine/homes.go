package confine

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/sandboxauth/sandboxauth/internal/pathres"
	"github.com/sandboxauth/sandboxauth/internal/userdb"
)

// userHomes returns the calling user's home directories, resolved: HOME
// when it is absolute, and the one the user database gives for the
// effective user, when they differ (HOME unset, empty, or pointing
// elsewhere must not leave the real home's credentials in sight). It is
// empty when neither is known.
func userHomes() []string {
	var out []string
	add := func(h string) {
		if !filepath.IsAbs(h) {
			return
		}
		h = filepath.Clean(h)
		if r, err := pathres.Resolve(h); err == nil {
			h = r
		}
		if h != "/" && !slices.Contains(out, h) {
			out = append(out, h)
		}
	}
	add(os.Getenv("HOME"))
	if h, ok := userdb.HomeOfUID(os.Geteuid()); ok {
		add(h)
	}
	return out
}

// settingsPlaces returns the directories beneath homes where programs
// keep settings and code they run (~/.config, ~/.local with its bin and
// its desktop and systemd entries), the places the XDG variables name for
// them, and the caches (~/.cache, XDG_CACHE_HOME): a sandbox in one of
// them, or holding a settings place (a dotfiles project that ~/.config
// links into), would let the command change what the user's programs
// run. A cache inside the sandbox (XDG_CACHE_HOME=$PWD/.cache, as CI
// jobs set it) is the project's own.
func settingsPlaces(homes []string) (settings, caches []string) {
	for _, h := range homes {
		settings = append(settings, filepath.Join(h, ".config"), filepath.Join(h, ".local"), filepath.Join(h, ".local", "share"), filepath.Join(h, ".local", "bin"))
		caches = append(caches, filepath.Join(h, ".cache"))
		for _, d := range toolchainHomes() {
			caches = append(caches, filepath.Join(h, d))
		}
	}
	for _, v := range []string{"CARGO_HOME", "RUSTUP_HOME", "GOMODCACHE", "NVM_DIR", "PYENV_ROOT", "RBENV_ROOT", "VOLTA_HOME", "BUN_INSTALL", "DENO_DIR", "SDKMAN_DIR", "ASDF_DATA_DIR"} {
		if d := os.Getenv(v); filepath.IsAbs(d) {
			caches = append(caches, filepath.Clean(d))
		}
	}
	for _, d := range filepath.SplitList(os.Getenv("GOPATH")) {
		if filepath.IsAbs(d) {
			caches = append(caches, filepath.Join(d, "pkg"), filepath.Join(d, "bin"))
		}
	}
	for _, v := range []string{"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_BIN_HOME"} {
		if d := os.Getenv(v); filepath.IsAbs(d) {
			settings = append(settings, filepath.Clean(d))
		}
	}
	if d := os.Getenv("XDG_CACHE_HOME"); filepath.IsAbs(d) {
		caches = append(caches, filepath.Clean(d))
	}
	return settings, caches
}

// toolchainHomes are the directories beneath a home where toolchains and
// package managers keep what they install and run (the programs on PATH
// of cargo, rustup, nvm, pyenv, the Go module cache, an editor's remote
// server with its extensions, Maven and Gradle's caches): a sandbox
// inside one would let the command change a program the user runs. (Go
// projects kept under ~/go/src are not among them.)
func toolchainHomes() []string {
	return []string{".cargo", ".rustup", "go/pkg", "go/bin", ".nvm", ".npm", ".npm-global", ".pyenv", ".rbenv",
		".vscode-server", ".cursor-server", ".windsurf-server", ".m2", ".gradle", ".conda", "miniconda3", "anaconda3",
		".bun", ".deno", ".volta", ".sdkman", ".asdf", ".pnpm-store", ".yarn"}
}

// homeLinksInto returns the real paths inside the writable places that
// the symbolic links of homes lead to: what the user's shell, editor,
// ssh, desktop and git load from the home at start (~/.bashrc,
// ~/.ssh/config, ~/.config/fish/conf.d/x.fish, ~/.vim/pack/dev/start/x,
// ~/.local/share/nvim/site/pack/..., a ~/.local/share that is itself a
// link, a program of ~/.local/bin or ~/bin), as a dotfiles manager (GNU
// stow, chezmoi's symlink mode) or a developer linking a plugin makes
// them. The home is read breadth first (of its own entries, only its dot
// directories and bin are entered), homeLinkDepth levels down and at most
// homeLinkEntries entries a home, passing over the writable places
// themselves and the directories where tools keep caches and installs
// (homeLinkSkip). A program linked to a project's build output is kept
// read-only too, so a confined rebuild cannot replace it: the user runs it
// by name, unconfined.
func homeLinksInto(writable []string, homes []string) []string {
	var out []string
	inWritable := func(p string) bool {
		return slices.ContainsFunc(writable, func(w string) bool { return pathres.Within(w, p) })
	}
	for _, h := range homes {
		enter := func(path, name string, depth int) bool {
			// In the home itself, only its dot directories and bin hold
			// what programs load at start; the rest is the user's work.
			top := depth == 1 && !strings.HasPrefix(name, ".") && name != "bin"
			return !top && depth < homeLinkDepth && !homeLinkSkip()[name] && !inWritable(path)
		}
		linkWalk(h, homeLinkEntries, enter, func(_, r string) {
			if !slices.Contains(out, r) && inWritable(r) {
				out = append(out, r)
			}
		})
	}
	return out
}

// linkWalk reads dir breadth first, at most budget entries, and calls
// link with each symbolic link it meets and the real path that link leads
// to (a link that leads nowhere is passed over). It enters a directory
// when enter, given the directory's path, its name and the depth of the
// directory holding it (dir is at depth 1), says so. A directory it cannot
// read is passed over.
func linkWalk(dir string, budget int, enter func(path, name string, depth int) bool, link func(path, target string)) {
	type level struct {
		path  string
		depth int
	}
	queue := []level{{dir, 1}}
	for len(queue) > 0 && budget > 0 {
		d := queue[0]
		queue = queue[1:]
		entries, err := os.ReadDir(d.path)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if budget--; budget < 0 {
				break
			}
			path := filepath.Join(d.path, e.Name())
			switch {
			case e.Type()&fs.ModeSymlink != 0:
				if target, err := pathres.Resolve(path); err == nil {
					link(path, target)
				}
			case e.IsDir() && enter(path, e.Name(), d.depth):
				queue = append(queue, level{path, d.depth + 1})
			}
		}
	}
}

// homeLinkDepth and homeLinkEntries bound homeLinksInto's reading of a
// home: ~/.local/share/nvim/site/pack/dev/start/x is read at the eighth
// level (the home is the first).
const (
	homeLinkDepth   = 8
	homeLinkEntries = 6000
)

// homeLinkSkip are the directories of a home homeLinksInto does not read:
// caches, package stores and installed toolchains, large and never linked
// into a project by hand. It is built on first use.
var homeLinkSkip = sync.OnceValue(func() map[string]bool {
	return map[string]bool{".cache": true, ".npm": true, "_cacache": true, "node_modules": true, ".git": true,
		"registry": true, "toolchains": true, "pkg": true, "mod": true, ".rustup": true, ".gradle": true, ".m2": true,
		"Trash": true, "snap": true, ".nvm": true, ".pyenv": true, ".rbenv": true, "site-packages": true,
		".vscode-server": true, ".cursor-server": true, "CachedData": true, "Cache": true, "GPUCache": true,
		"Code Cache": true, "IndexedDB": true, "logs": true, "workspaceStorage": true, "pnpm": true, "store": true,
		".debug": true, "lib": true, "yarn": true, "pipx": true, "virtualenvs": true, "containers": true,
		"flatpak": true, "Steam": true, ".local/state": true}
})

// pathPlaces returns the directories on PATH, less / and the homes and
// their ancestors, which a careless PATH may name: a sandbox in one of
// them would let the command put programs there that the user runs by
// name. (A PATH directory inside a project, node_modules/.bin put on PATH
// by direnv, is the project's, and does not make it refused.)
func pathPlaces(homes []string) []string {
	var out []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if !filepath.IsAbs(d) {
			continue
		}
		d = filepath.Clean(d)
		if !slices.ContainsFunc(append(homes, "/"), func(h string) bool { return pathres.Within(d, h) }) {
			out = append(out, d)
		}
	}
	return out
}

// HomeLinks returns the paths inside p's writable places (the sandbox,
// Writable and Private) that a link in the user's home leads to, found
// as Start finds them (a bounded read of the home's dot directories and
// bin): Start keeps them read-only, since the user's shell, editor or
// PATH runs them unconfined. A caller names them when a confined command
// fails (sandboxauth run's last line), a rebuild of a linked program
// having been refused. Places that do not exist are passed over.
func HomeLinks(p Policy) []string {
	var places []string
	for _, w := range append(append([]string{p.Sandbox}, p.Writable...), p.Private...) {
		if w == "" {
			continue
		}
		if real, err := pathres.Resolve(filepath.Clean(w)); err == nil {
			places = append(places, real)
		}
	}
	if len(places) == 0 {
		return nil
	}
	return homeLinksInto(places, userHomes())
}
