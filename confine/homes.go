package confine

import (
	"bufio"
	"bytes"
	"context"
	"io"
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
