package repotrust

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sandboxauth/sandboxauth/internal/pathres"
)

const (
	maxFileSize     = 256 << 10 // a larger configuration file is not understood
	maxIncludeDepth = 10        // git's own limit
	maxSubmodules   = 64        // more module directories are not understood
)

var (
	errNotRegular = errors.New("not a regular file")
	errTooLarge   = errors.New("larger than 256 KiB")
)

// Problem is one reason the repository's git commands are not safe. When
// Setting is set, the problem is that configuration key (with Value), and
// the caller may accept it after all (a core.hooksPath the model cannot
// write).
type Problem struct {
	Where   string // file:line:column, or a path
	Setting string // "core.fsmonitor"; "" for a problem that is not a key
	Value   string
	Why     string
}

func (p *Problem) Error() string {
	if p.Setting != "" {
		return p.Where + ": " + p.Setting + " " + p.Why
	}
	return p.Where + ": " + p.Why
}

// Hook is a hook file that is present and executable.
type Hook struct {
	Name, Path string
}

// Facts is what a repository makes of its git commands, independent of
// the command: the repository found, the problems of its configuration
// and layout, its runnable hooks, and where its store lies.
type Facts struct {
	// Found is false when git would find no repository.
	Found    bool
	GitDir   string
	Common   string
	WorkTree string
	// Problems are the settings outside the allow-list and the layouts
	// not understood, in the order found.
	Problems []Problem
	// Hooks are the executable hooks in the hooks directory.
	Hooks []Hook
	// HooksPath is core.hooksPath's value, when set (it is a problem too,
	// which the caller may accept; the hooks in it are then the caller's).
	HooksPath string
	// Outside names the repository's store (git directory, common
	// directory, worktree store) when it lies outside the sandbox.
	Outside string
	// Index is the index's entries (nil when there is none); IndexErr
	// says why the index is not understood, when it is not.
	Index    []IndexEntry
	IndexErr string
	// HashLen is the length of the repository's object names: 20, or 32
	// with extensions.objectFormat sha256.
	HashLen int
}

// gather computes the facts for a command started in cwd, recording every
// path it consults in ss.
func gather(cwd string, root *pathres.Root, env envSnapshot, ss *stamps) *Facts {
	f := &Facts{}
	loc, found, err := discover(cwd, env, ss)
	if err != nil {
		f.Found = true
		f.problem(err)
		return f
	}
	if !found {
		return f
	}
	f.Found, f.GitDir, f.Common, f.WorkTree = true, loc.gitDir, loc.commonDir, loc.workTree
	for _, d := range []string{loc.gitDir, loc.commonDir} {
		if _, inside, err := root.Contains(d); err != nil || !inside {
			f.Outside = d
			break
		}
	}
	if f.Outside == loc.commonDir && f.Outside != loc.gitDir {
		// A git directory in the sandbox whose common directory lies
		// outside: a stub (HEAD and a commondir file, which the model can
		// write when they are not in a .git directory) through which every
		// git command, reading ones included, reads another repository.
		f.Problems = append(f.Problems, Problem{Where: filepath.Join(loc.gitDir, "commondir"),
			Why: "makes the git directory " + loc.gitDir + " in the sandbox use the repository " + loc.commonDir + " outside it, whose history and files git would read"})
	}
	for _, n := range []string{"GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_INDEX_FILE"} {
		if v, ok := env.get(n); ok && v != "" {
			f.Problems = append(f.Problems, Problem{Where: "environment", Setting: n, Why: "moves the object store or the index, which is not followed here"})
		}
	}
	g := gatherer{f: f, root: root, env: env, ss: ss}
	g.globalConfigs()
	if sets, p := env.envSettings(); p != nil {
		f.Problems = append(f.Problems, *p)
	} else {
		for _, s := range sets {
			g.judge(s, loc.gitDir)
		}
	}
	g.repoConfigs(loc.gitDir, loc.commonDir)
	g.alternates(loc.commonDir)
	g.storeLinks(loc.commonDir)
	g.hooks(loc.commonDir)
	f.HashLen = 20
	if g.sha256 {
		f.HashLen = 32
	}
	g.index(loc.gitDir)
	g.submodules(loc)
	return f
}

// maxIndexSize bounds the index file read.
const maxIndexSize = 64 << 20

// index reads the git directory's index: the tracked paths, and the
// gitlinks whose submodules git status and git diff enter.
func (g *gatherer) index(gitDir string) {
	name := filepath.Join(gitDir, "index")
	entries, err := readIndex(gitDir, g.f.HashLen, func(path string) ([]byte, bool, error) {
		return readWhole(path, g.ss, maxIndexSize)
	})
	if err != nil {
		g.f.IndexErr = name + ": " + err.Error()
	} else {
		g.f.Index = entries
	}
	if g.f.IndexErr != "" {
		g.f.Problems = append(g.f.Problems, Problem{Where: name, Why: "is not understood, so the submodules git enters are not known: " + g.f.IndexErr})
	}
}

func (f *Facts) problem(err error) {
	var p *Problem
	if errors.As(err, &p) {
		f.Problems = append(f.Problems, *p)
		return
	}
	f.Problems = append(f.Problems, Problem{Where: "repository", Why: err.Error()})
}

type gatherer struct {
	f      *Facts
	root   *pathres.Root
	env    envSnapshot
	ss     *stamps
	sha256 bool // extensions.objectFormat is sha256
}

// inside reports whether p lies in the sandbox, symbolic links resolved.
func (g *gatherer) inside(p string) bool {
	_, in, err := g.root.Contains(p)
	return err == nil && in
}

// globalConfigs reads the user's and the system's configuration files
// when they lie inside the sandbox (a HOME in the sandbox, or
// GIT_CONFIG_GLOBAL naming a file there): the model could have written
// them. Outside the sandbox they are the user's and are not read.
func (g *gatherer) globalConfigs() {
	var files []string
	if v, ok := g.env.get("GIT_CONFIG_GLOBAL"); ok {
		files = append(files, v)
	} else {
		if xdg, ok := g.env.get("XDG_CONFIG_HOME"); ok && xdg != "" {
			files = append(files, filepath.Join(xdg, "git/config"))
		} else if h, ok := g.env.get("HOME"); ok && h != "" {
			files = append(files, filepath.Join(h, ".config/git/config"))
		}
		if h, ok := g.env.get("HOME"); ok && h != "" {
			files = append(files, filepath.Join(h, ".gitconfig"))
		}
	}
	if _, ok := g.env.get("GIT_CONFIG_NOSYSTEM"); !ok {
		if v, ok := g.env.get("GIT_CONFIG_SYSTEM"); ok {
			files = append(files, v)
		}
	}
	for _, f := range files {
		if f != "" && filepath.IsAbs(f) && g.inside(f) {
			g.configFile(filepath.Clean(f), "", 0)
		}
	}
}

// repoConfigs reads the repository's config and the worktree's
// config.worktree. config.worktree is read even without
// extensions.worktreeConfig, the worse case.
func (g *gatherer) repoConfigs(gitDir, common string) {
	g.configFile(filepath.Join(common, "config"), gitDir, 0)
	g.configFile(filepath.Join(gitDir, "config.worktree"), gitDir, 0)
}

// configFile reads one configuration file and what it includes. A missing
// file is nothing, as for git.
func (g *gatherer) configFile(name, gitDir string, depth int) {
	if depth > maxIncludeDepth {
		g.f.Problems = append(g.f.Problems, Problem{Where: name, Why: "includes nest deeper than git allows"})
		return
	}
	b, exists, err := g.ss.readFile(name)
	if err != nil {
		g.f.Problems = append(g.f.Problems, Problem{Where: name, Why: "cannot be read: " + err.Error()})
		return
	}
	if !exists {
		return
	}
	err = ParseGitConfig(name, b, func(s Setting) error {
		if isInclude(s) {
			g.include(s, gitDir, depth)
			return nil
		}
		if s.Section == "extensions" && s.Subsection == "" && s.Key == "objectformat" {
			g.sha256 = strings.EqualFold(s.Value, "sha256")
		}
		g.judge(s, gitDir)
		return nil
	})
	if err != nil {
		g.f.Problems = append(g.f.Problems, Problem{Where: name, Why: err.Error()})
	}
}

// include follows include.path or includeIf.<cond>.path, whatever the
// condition says: relative to the including file, ~/ from HOME.
func (g *gatherer) include(s Setting, gitDir string, depth int) {
	p := s.Value
	switch {
	case !s.HasValue || p == "":
		g.f.Problems = append(g.f.Problems, Problem{Where: s.Where(), Setting: s.Name(), Why: "has no path"})
		return
	case strings.HasPrefix(p, "~/"):
		h, ok := g.env.get("HOME")
		if !ok || h == "" {
			g.f.Problems = append(g.f.Problems, Problem{Where: s.Where(), Setting: s.Name(), Value: p, Why: "names a file under HOME, which is not set"})
			return
		}
		p = filepath.Join(h, p[2:])
	case strings.HasPrefix(p, "~") || strings.HasPrefix(p, "%("):
		g.f.Problems = append(g.f.Problems, Problem{Where: s.Where(), Setting: s.Name(), Value: p, Why: "names a file this check does not locate"})
		return
	case !filepath.IsAbs(p):
		p = filepath.Join(filepath.Dir(s.File), p)
	}
	g.configFile(filepath.Clean(p), gitDir, depth+1)
}

// judge records a setting that is not on the allow-list. core.worktree
// passes when it names a directory in the sandbox (submodules' configs
// hold one); core.hooksPath is remembered for the caller.
func (g *gatherer) judge(s Setting, gitDir string) {
	if harmlessKey(s) {
		return
	}
	if s.Section == "core" && s.Subsection == "" && s.Key == "worktree" && s.HasValue && s.Value != "" && gitDir != "" &&
		g.inside(absAt(gitDir, s.Value)) {
		return
	}
	why := "is not a key known to leave programs, hosts and outside files alone"
	if s.Section == "core" && s.Subsection == "" && s.Key == "hookspath" {
		g.f.HooksPath = s.Value
		why = "takes hooks from another directory"
	}
	g.f.Problems = append(g.f.Problems, Problem{Where: s.Where(), Setting: s.Name(), Value: s.Value, Why: why})
}

// alternates: objects/info/alternates makes git read objects from other
// stores (and their alternates, and their configured promisors); any entry
// is a problem.
func (g *gatherer) alternates(common string) {
	name := filepath.Join(common, "objects/info/alternates")
	b, exists, err := g.ss.readFile(name)
	switch {
	case err != nil:
		g.f.Problems = append(g.f.Problems, Problem{Where: name, Why: "cannot be read: " + err.Error()})
	case exists:
		for _, l := range strings.Split(string(b), "\n") {
			if l = strings.TrimSpace(l); l != "" && l[0] != '#' {
				g.f.Problems = append(g.f.Problems, Problem{Where: name, Why: "makes git read objects from another store: " + l})
				return
			}
		}
	}
}

// storeLinks finds symbolic links by which the object store or the refs
// lead outside the sandbox (objects, objects/pack, a pack, an objects/XX
// directory, refs, packed-refs): git would read another repository's
// objects and history through them, as through alternates.
func (g *gatherer) storeLinks(common string) {
	outside := func(p string) bool {
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			return false
		}
		g.ss.file(p)
		return !g.inside(p)
	}
	for _, sub := range []string{"objects", "refs", "packed-refs"} {
		if p := filepath.Join(common, sub); outside(p) {
			g.f.Problems = append(g.f.Problems, Problem{Where: p, Why: "is a symbolic link out of the sandbox: git would read another repository's objects or history through it"})
			return
		}
	}
	for _, dir := range []string{filepath.Join(common, "objects"), filepath.Join(common, "objects", "pack")} {
		if st := g.ss.file(dir); !st.exists {
			continue
		}
		ents, err := os.ReadDir(dir)
		if err != nil {
			g.f.Problems = append(g.f.Problems, Problem{Where: dir, Why: "cannot be listed: " + err.Error()})
			return
		}
		for _, e := range ents {
			if e.Type()&os.ModeSymlink == 0 {
				continue
			}
			if p := filepath.Join(dir, e.Name()); outside(p) {
				g.f.Problems = append(g.f.Problems, Problem{Where: p, Why: "is a symbolic link out of the sandbox: git would read another repository's objects through it"})
				return
			}
		}
	}
}

// hooks lists the executable hooks in the common directory's hooks/.
func (g *gatherer) hooks(common string) {
	dir := filepath.Join(common, "hooks")
	if st := g.ss.file(dir); !st.exists {
		return
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		g.f.Problems = append(g.f.Problems, Problem{Where: dir, Why: "cannot be listed: " + err.Error()})
		return
	}
	names := allHooks()
	for _, e := range ents {
		if !slices.Contains(names, e.Name()) {
			continue // hooks/*.sample and other names git never runs
		}
		p := filepath.Join(dir, e.Name())
		st := g.ss.file(p)
		// git runs a hook that access(X_OK) allows; any execute bit on a
		// file that is not a directory counts.
		if st.exists && st.mode&modeTypeMask != modeDir && st.mode&0o111 != 0 {
			g.f.Hooks = append(g.f.Hooks, Hook{Name: e.Name(), Path: p})
		}
	}
}

// submodules reads the configuration of every repository under the
// common directory's modules/ (at any depth), and of every submodule that
// .gitmodules places in the work tree with a .git of its own: git status,
// git diff and others run git inside populated submodules.
func (g *gatherer) submodules(loc location) {
	count := 0
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		if st := g.ss.file(dir); !st.exists || st.mode&modeTypeMask != modeDir || depth > 8 {
			return
		}
		ents, err := os.ReadDir(dir)
		if err != nil {
			g.f.Problems = append(g.f.Problems, Problem{Where: dir, Why: "cannot be listed: " + err.Error()})
			return
		}
		for _, e := range ents {
			sub := filepath.Join(dir, e.Name())
			if !g.moduleRepo(sub) {
				walk(sub, depth+1) // a module named a/b lives in modules/a/b
				continue
			}
			if count++; count > maxSubmodules {
				g.f.Problems = append(g.f.Problems, Problem{Where: dir, Why: "holds more submodules than are checked"})
				return
			}
			walk(filepath.Join(sub, "modules"), depth+1)
		}
	}
	walk(filepath.Join(loc.commonDir, "modules"), 0)

	if loc.workTree == "" {
		return
	}
	// git status and git diff enter every populated gitlink of the index,
	// whether .gitmodules names it or not.
	for _, e := range g.f.Index {
		if e.Gitlink() {
			if count++; count > maxSubmodules {
				g.f.Problems = append(g.f.Problems, Problem{Where: loc.gitDir, Why: "holds more submodules than are checked"})
				return
			}
			g.submoduleAt(loc.workTree, e.Path)
		}
	}
	name := filepath.Join(loc.workTree, ".gitmodules")
	b, exists, err := g.ss.readFile(name)
	if err != nil {
		g.f.Problems = append(g.f.Problems, Problem{Where: name, Why: "cannot be read: " + err.Error()})
		return
	}
	if !exists {
		return
	}
	err = ParseGitConfig(name, b, func(s Setting) error {
		if s.Section != "submodule" || s.Key != "path" || s.Value == "" {
			return nil
		}
		g.submoduleAt(loc.workTree, s.Value)
		return nil
	})
	if err != nil {
		g.f.Problems = append(g.f.Problems, Problem{Where: name, Why: err.Error()})
	}
}

// submoduleAt reads the configuration of the submodule populated at path
// in the work tree: its .git directory, or the one its .git file names.
func (g *gatherer) submoduleAt(workTree, path string) {
	dotGit := filepath.Join(workTree, path, ".git")
	st := g.ss.file(dotGit)
	switch {
	case !st.exists:
	case st.mode&modeTypeMask == modeDir:
		g.moduleRepo(dotGit)
	default:
		gd, err := readGitFile(dotGit, g.ss)
		if err != nil {
			g.f.problem(err)
			return
		}
		g.moduleRepo(gd)
	}
}

// moduleRepo reads a submodule's configuration when dir is a git
// directory (has a config), and reports whether it was one.
func (g *gatherer) moduleRepo(dir string) bool {
	cfg := filepath.Join(dir, "config")
	if st := g.ss.file(cfg); !st.exists {
		return false
	}
	g.configFile(cfg, dir, 0)
	g.configFile(filepath.Join(dir, "config.worktree"), dir, 0)
	return true
}
