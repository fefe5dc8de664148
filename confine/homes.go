package confine

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sandboxauth/sandboxauth/internal/pathres"
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
	if h, ok := passwdHomeOf(os.Geteuid()); ok {
		add(h)
	}
	return out
}

// passwdHomeOf returns the home directory of the user with the id uid:
// from /etc/passwd, else from the system's user database through getent
// (every source the name service switch lists; users of a directory
// service are not in /etc/passwd). Reading the file first keeps a process
// start out of the common case.
func passwdHomeOf(uid int) (string, bool) {
	if f, err := os.Open("/etc/passwd"); err == nil {
		h, ok := passwdHome(f, uid)
		f.Close()
		if ok {
			return h, true
		}
	}
	for _, getent := range []string{"/usr/bin/getent", "/bin/getent"} {
		if _, err := os.Stat(getent); err != nil {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		out, err := exec.CommandContext(ctx, getent, "passwd", strconv.Itoa(uid)).Output()
		if err != nil {
			return "", false
		}
		return passwdHome(bytes.NewReader(out), uid)
	}
	return "", false
}

// passwdHome returns the home directory (the sixth field) of the first
// entry of the passwd-format text r whose user id (the third) is uid.
func passwdHome(r io.Reader, uid int) (string, bool) {
	s := bufio.NewScanner(r)
	want := strconv.Itoa(uid)
	for s.Scan() {
		fields := strings.Split(s.Text(), ":")
		if len(fields) < 7 || fields[2] != want || !filepath.IsAbs(fields[5]) {
			continue
		}
		return fields[5], true
	}
	return "", false
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
		settings = append(settings, filepath.Join(h, ".config"), filepath.Join(h, ".local"))
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
// the symbolic links of homes lead to, where the user's shell, editor,
// desktop and git look for what they run at start: the links at the top
// of each home (~/.bashrc, ~/.gitconfig), and those in ~/.config and
// ~/.local/share down to three levels (~/.config/fish/conf.d/x.fish,
// ~/.config/systemd/user/x.service, ~/.local/share/applications/x.desktop),
// as a dotfiles manager (GNU stow, chezmoi's symlink mode) makes them, and
// the programs of ~/.local/bin and ~/bin; at most homeLinkEntries entries
// a home. A program linked there to a project's build output is kept
// read-only too, so a confined rebuild cannot replace it (run says which
// paths were read-only): the user runs it by name, unconfined.
func homeLinksInto(writable []string, homes []string) []string {
	var out []string
	for _, h := range homes {
		budget := homeLinkEntries
		var visit func(dir string, depth int)
		visit = func(dir string, depth int) {
			entries, err := os.ReadDir(dir)
			if err != nil {
				return
			}
			for _, e := range entries {
				if budget--; budget < 0 {
					return
				}
				path := filepath.Join(dir, e.Name())
				if e.IsDir() && depth > 1 {
					visit(path, depth-1)
				}
				if e.Type()&fs.ModeSymlink == 0 {
					continue
				}
				r, err := pathres.Resolve(path)
				if err != nil || slices.Contains(out, r) {
					continue
				}
				if slices.ContainsFunc(writable, func(w string) bool { return pathres.Within(w, r) }) {
					out = append(out, r)
				}
			}
		}
		visit(h, 1)
		visit(filepath.Join(h, ".local", "bin"), 1)
		visit(filepath.Join(h, "bin"), 1)
		visit(filepath.Join(h, ".config"), 3)
		visit(filepath.Join(h, ".local", "share"), 3)
	}
	return out
}

// homeLinkEntries bounds the entries homeLinksInto reads in a home.
const homeLinkEntries = 8192

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
