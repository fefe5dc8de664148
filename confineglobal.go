package sandboxauth

import (
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sandboxauth/sandboxauth/internal/pathres"
	"github.com/sandboxauth/sandboxauth/internal/repotrust"
	"github.com/sandboxauth/sandboxauth/internal/userdb"
)

// maxGitIncludeDepth is how deep git follows include.path (its own
// limit): deeper includes are an error to git.
const maxGitIncludeDepth = 10

// globalGitConfigFiles returns the git configuration files that git reads
// in every repository of the user, home being the home directory (""
// when unknown): the files GIT_CONFIG_GLOBAL and GIT_CONFIG_SYSTEM name
// when set, and the default ones in any case (the user's own terminal
// may not set them): /etc/gitconfig (/usr/local/etc/gitconfig for a git
// installed there), ~/.gitconfig and
// $XDG_CONFIG_HOME/git/config (~/.config/git/config without it).
func globalGitConfigFiles(home string) []string {
	var files []string
	for _, v := range []string{"GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM"} {
		if f := os.Getenv(v); f != "" {
			files = append(files, f)
		}
	}
	files = append(files, "/etc/gitconfig", "/usr/local/etc/gitconfig")
	if x := os.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(x) {
		files = append(files, filepath.Join(x, "git", "config"))
	}
	if home != "" {
		files = append(files, filepath.Join(home, ".gitconfig"), filepath.Join(home, ".config", "git", "config"))
	}
	return files
}

// globalGitConfig keeps read-only what the user's and the system's git
// configuration (globalGitConfigFiles) make git read or run that lies in
// the sandbox: the files they include (include.path, includeIf.*.path, in
// turn their own includes), the directory core.hooksPath names (a
// relative one in the work tree of every known repository) and the
// template directory init.templateDir names (whose hooks git init copies
// into new repositories); and those configuration files themselves when
// they lie there. A missing one is kept from being created (a missing
// included file by an empty file, which git reads as nothing). Git runs
// what they hold in every repository of the user, unconfined. Files are
// read as untrusted ones, never by running git; includeIf conditions are
// taken as true, the worse case. Settings in the environment
// (GIT_CONFIG_COUNT) count too. The programs and files other settings
// name in the sandbox are read-only too (see programs).
func (c *confinePaths) globalGitConfig() {
	home, err := os.UserHomeDir()
	if err != nil || !filepath.IsAbs(home) {
		home = ""
	}
	g := globalGitConfigReader{c: c, home: home, read: map[string]bool{}}
	for _, f := range globalGitConfigFiles(home) {
		g.file(f, 0)
	}
	g.environment()
}

// globalGitConfigReader follows the user's git configuration files.
type globalGitConfigReader struct {
	c    *confinePaths
	home string
	read map[string]bool // the real paths of the files read
}

// file reads the configuration file path (as git names it, not
// resolved), included depth levels deep.
func (g *globalGitConfigReader) file(path string, depth int) {
	if depth > maxGitIncludeDepth || !filepath.IsAbs(path) {
		return
	}
	real, err := pathres.Resolve(path)
	if err != nil || g.read[real] {
		return
	}
	g.read[real] = true
	if p, ok := g.inSandbox(path); ok {
		g.c.readOnly(p)
		if _, err := os.Lstat(p); err != nil {
			g.c.policy.Placeholders[p] = "" // git reads an empty file as nothing
		}
	}
	b, err := readGitConfig(real)
	if err != nil {
		return
	}
	dir := filepath.Dir(path)
	var includes []string
	visit := func(section, key, value string) {
		includes = append(includes, g.setting(section, key, value, dir)...)
	}
	// Both readers, so that text one of them does not understand is
	// still followed by the other.
	_ = repotrust.ParseGitConfig(real, b, func(s repotrust.Setting) error {
		visit(s.Section, s.Key, s.Value)
		return nil
	})
	simple := readGitConfigPaths(real)
	if simple.hooksPath != "" {
		visit("core", "hookspath", simple.hooksPath)
	}
	for _, inc := range simple.includes {
		visit("include", "path", inc)
	}
	for _, inc := range includes {
		g.file(inc, depth+1)
	}
}

// setting keeps read-only what one setting of the user's configuration
// names in the sandbox, and returns the files it includes (to be read in
// turn), a relative one in dir.
func (g *globalGitConfigReader) setting(section, key, value, dir string) []string {
	g.programs(section, key, value)
	switch {
	case key == "path" && (section == "include" || section == "includeif"):
		// Relative to the directory of the file that names it.
		return expandGitPath(value, dir, g.home)
	case section == "core" && key == "hookspath":
		// Relative to the work tree where git runs the hooks.
		for _, repo := range g.c.knownRepositories() {
			for _, p := range expandGitPath(value, repo, g.home) {
				g.directory(p)
			}
		}
	case section == "init" && key == "templatedir":
		for _, p := range expandGitPath(value, g.c.sandbox, g.home) {
			g.directory(p)
		}
	}
	return nil
}

// environment reads the settings git takes from the environment
// (GIT_CONFIG_COUNT, GIT_CONFIG_KEY_<n>, GIT_CONFIG_VALUE_<n>), which a
// user's shell may set for every git it runs: like those of a file, with
// relative includes in the home directory.
func (g *globalGitConfigReader) environment() {
	n, err := strconv.Atoi(os.Getenv("GIT_CONFIG_COUNT"))
	if err != nil {
		return
	}
	for i := 0; i < n && i < maxGitConfigEnv; i++ {
		name := os.Getenv("GIT_CONFIG_KEY_" + strconv.Itoa(i))
		first, last := strings.Index(name, "."), strings.LastIndex(name, ".")
		if first <= 0 || last == len(name)-1 {
			continue
		}
		section, key := strings.ToLower(name[:first]), strings.ToLower(name[last+1:])
		for _, inc := range g.setting(section, key, os.Getenv("GIT_CONFIG_VALUE_"+strconv.Itoa(i)), g.home) {
			g.file(inc, 1)
		}
	}
}

// maxGitConfigEnv bounds the settings read from the environment.
const maxGitConfigEnv = 1000

// directory keeps the directory p (a hooks or template directory)
// read-only when it lies in the sandbox, existing or not.
func (g *globalGitConfigReader) directory(p string) {
	if p, ok := g.inSandbox(p); ok {
		g.c.readOnly(p)
	}
}

// inSandbox returns the path in the sandbox by which git reaches p, an
// absolute path, if it reaches it there: p itself when it lies there
// (with the symbolic links on its way in the sandbox left as they are, so
// that confinement refuses a read-only path the command could redirect,
// see confine.Policy.ReadOnly), or the path its symbolic links outside
// the sandbox (which the command cannot change) lead to, ~/.gitconfig
// linked into a dotfiles project for one.
func (g *globalGitConfigReader) inSandbox(p string) (string, bool) {
	return sandboxPath(g.c.sandbox, p)
}

// sandboxPath is inSandbox for the sandbox sandbox (a real path). It
// resolves p one component at a time, as the kernel does, until it
// enters the sandbox; from there on the rest is kept by name.
func sandboxPath(sandbox, p string) (string, bool) {
	if !filepath.IsAbs(p) {
		return "", false
	}
	pending := strings.Split(p, "/")
	cur, links := "/", 0
	for len(pending) > 0 {
		elem := pending[0]
		pending = pending[1:]
		switch elem {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, elem)
		if pathres.Within(sandbox, next) {
			named := filepath.Join(append([]string{next}, pending...)...)
			return named, named != sandbox && pathres.Within(sandbox, named)
		}
		fi, err := os.Lstat(next)
		if err != nil {
			return "", false // missing outside the sandbox: not in it
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			cur = next
			continue
		}
		target, err := os.Readlink(next)
		if links++; err != nil || links > pathres.MaxLinks {
			return "", false
		}
		if filepath.IsAbs(target) {
			cur = "/"
		}
		pending = append(strings.Split(target, "/"), pending...)
	}
	return "", false
}

// expandGitPath returns the paths a git configuration value may name, as git
// interpolates it: "~/" is the home directory, "~user/" that user's, a
// relative path lies in dir; home is the home directory ("" when
// unknown). A value marked ":(optional)" names the path
// after the mark for the git versions that know the mark, and the whole
// value, relative, for those that do not: both are returned. A path
// relative to git's installation ("%(prefix)/") or to an unknown home is
// not followed (it lies outside every sandbox).
func expandGitPath(v, dir, home string) []string {
	var out []string
	if rest, ok := strings.CutPrefix(v, ":(optional)"); ok {
		out = expandGitPath(rest, dir, home)
	}
	if p, ok := expandGitPathOnce(v, dir, home); ok {
		out = append(out, p)
	}
	return out
}

// expandGitPathOnce is expandGitPath for one reading of v.
func expandGitPathOnce(v, dir, home string) (string, bool) {
	switch {
	case v == "":
		return "", false
	case v == "~" || strings.HasPrefix(v, "~/"):
		if home == "" {
			return "", false
		}
		return home + v[1:], true
	case strings.HasPrefix(v, "~"):
		name, rest, _ := strings.Cut(v[1:], "/")
		h, ok := userdb.HomeOfName(name)
		if !ok {
			return "", false
		}
		return h + "/" + rest, true
	case strings.HasPrefix(v, "%(prefix)/"):
		return "", false
	case filepath.IsAbs(v):
		return v, true
	default:
		return dir + "/" + v, true
	}
}

// knownRepositories returns the work trees of the repositories found so
// far: the top of the sandbox when it holds one, and every directory
// whose .git the walk (or a gitlink) counted as seen.
func (c *confinePaths) knownRepositories() []string {
	dirs := []string{c.sandbox}
	for p := range c.seen {
		if filepath.Base(p) == ".git" && filepath.Dir(p) != c.sandbox {
			dirs = append(dirs, filepath.Dir(p))
		}
	}
	return dirs
}
