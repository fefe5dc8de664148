package sandboxauth

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sandboxauth/sandboxauth/internal/pathres"
	"github.com/sandboxauth/sandboxauth/internal/userdb"
)

// A directory on PATH inside the sandbox (an activated virtual
// environment's .venv/bin, a project's node_modules/.bin) is written by
// confined commands (pip and npm install there), and what it holds runs
// whenever its name is typed, unconfined: the user's shell, the agent's
// own git calls. A program a command puts there under the name of one
// found on PATH outside the sandbox (.venv/bin/git for /usr/bin/git), or
// under a name git runs from PATH (git-remote-NAME for a "NAME::" remote,
// git-lfs, git-NAME for `git NAME`), or under this program's own name
// (the agent runs the hook by name at its next tool call), would run in
// its place. The quarantine moves such a program aside when it is new or
// changed after the run; a name the user's tools already shadowed
// (.venv/bin/python) is kept while it is as it was. The virtual
// environments' and packages' directories are looked at whether or not
// they are on PATH now: the user activates a virtual environment later.
// What a program there reads when it starts (a .pth file of the virtual
// environment) is the project's, as a Makefile is.
//
// A relative PATH entry (./bin, bin, ".", an empty entry, and one
// beginning with ~, which bash expands but other programs take as a
// directory named "~") names a different directory from each working
// directory, and the user's shell, the user's terminal and the agent's
// next command may be in any directory of the project. Such an entry is
// taken for what it names from every directory of the sandbox and from
// the directories above it: with "." on PATH, every directory of the
// sandbox is on it. This walks the whole sandbox, before the run and
// after it, only when such an entry is there (on PATH, or in the
// project's .envrc, see confinepathenvrc.go); refusing to confine instead
// would leave the Rails habit PATH="./bin:$PATH" with no confined run at
// all. A directory on PATH that cannot be listed is taken for a program
// itself (what it holds cannot be told).

// projectBinDirs are the directories of a project that tools put on PATH
// (an activated virtual environment, direnv's layouts, conda's and pixi's
// environments, npm's scripts in a project and its workspaces), as glob
// patterns.
var projectBinDirs = [...]string{".venv/bin", "venv/bin", ".direnv/*/bin", ".conda/bin", ".pixi/envs/*/bin",
	"node_modules/.bin", "*/node_modules/.bin", "*/*/node_modules/.bin"}

// pathDirs are the directories on PATH, as pathShadows gathers them.
type pathDirs struct {
	sandbox string
	// inside are the real directories inside the sandbox, once each
	// (known).
	inside []string
	known  map[string]bool
	// outside are the directories outside it, in PATH's order.
	outside []string
	// relative are the relative entries, cleaned, each taken from every
	// directory of the sandbox and above it.
	relative []string
}

// add records the directory d, resolved, on the side of the sandbox it
// lies on; a directory that does not exist is left out.
func (p *pathDirs) add(d string) {
	real, err := pathres.Resolve(d)
	if err != nil {
		return
	}
	if !pathres.Within(p.sandbox, real) {
		p.outside = append(p.outside, real)
	} else {
		p.insideDir(real)
	}
}

// insideDir records the real directory d inside the sandbox.
func (p *pathDirs) insideDir(d string) {
	if !p.known[d] {
		p.known[d] = true
		p.inside = append(p.inside, d)
	}
}

// addInside records d, resolved, when it lies inside the sandbox.
func (p *pathDirs) addInside(d string) {
	if real, err := pathres.Resolve(d); err == nil && pathres.Within(p.sandbox, real) {
		p.insideDir(real)
	}
}

// entry records the PATH entry e: an absolute directory as it is, a
// relative one for every working directory, and one beginning with ~ both
// as bash expands it (~ and ~/DIR from HOME, ~NAME/DIR from the user
// database, ~+ and ~- from the working directory) and as a relative one.
func (p *pathDirs) entry(e string) {
	if e == "" {
		e = "." // an empty entry is the working directory
	}
	if filepath.IsAbs(e) {
		p.add(e)
		return
	}
	if strings.HasPrefix(e, "~") {
		head, rest, _ := strings.Cut(e, "/")
		switch head {
		case "~":
			if home := os.Getenv("HOME"); filepath.IsAbs(home) {
				p.add(filepath.Join(home, rest))
			}
		case "~+", "~-":
			p.relative = append(p.relative, filepath.Clean("./"+rest))
		default:
			if home, ok := userdb.HomeOfName(head[1:]); ok {
				p.add(filepath.Join(home, rest))
			}
		}
	}
	if c := filepath.Clean(e); !slices.Contains(p.relative, c) {
		p.relative = append(p.relative, c)
	}
}

// addRelative records what each relative entry names from every
// directory of the sandbox and from each directory above it, walked
// without following links. An entry going up ("../bin") is taken from
// every one of those directories with its ".." pieces dropped, which
// names more than it can, never less. A directory of the sandbox that
// cannot be listed is recorded itself.
func (p *pathDirs) addRelative() {
	if len(p.relative) == 0 {
		return
	}
	rests := make([]string, 0, len(p.relative))
	for _, e := range p.relative {
		for e == ".." || strings.HasPrefix(e, "../") {
			e = strings.TrimPrefix(strings.TrimPrefix(e, ".."), "/")
		}
		if e == "" {
			e = "."
		}
		if !slices.Contains(rests, e) {
			rests = append(rests, e)
		}
	}
	// A one-piece entry (bin, ".") is found by the walk itself; a longer
	// one is resolved from each directory.
	from := func(dir string, all bool) {
		for _, r := range rests {
			if all || strings.Contains(r, "/") {
				p.addInside(filepath.Join(dir, r))
			}
		}
	}
	for d := filepath.Dir(p.sandbox); ; d = filepath.Dir(d) {
		from(d, true)
		if d == filepath.Dir(d) {
			break
		}
	}
	_ = filepath.WalkDir(p.sandbox, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if d != nil && d.IsDir() {
				p.insideDir(path) // cannot be listed
			}
			return nil
		}
		if d.IsDir() {
			from(path, false)
			if slices.Contains(rests, ".") {
				p.insideDir(path) // no link on the way: real
			}
		}
		if (d.IsDir() || d.Type()&fs.ModeSymlink != 0) && path != p.sandbox && slices.Contains(rests, d.Name()) {
			p.addInside(path)
		}
		return nil
	})
}

// gatherPathDirs returns the directories on PATH (the calling process's,
// and those the project's .envrc adds) and the sandbox's projectBinDirs.
func gatherPathDirs(sandbox string) *pathDirs {
	p := &pathDirs{sandbox: sandbox, known: map[string]bool{}}
	for _, e := range filepath.SplitList(os.Getenv("PATH")) {
		p.entry(e)
	}
	readEnvrcPath(sandbox, p)
	for _, pattern := range projectBinDirs {
		matches, _ := filepath.Glob(filepath.Join(sandbox, pattern))
		for _, m := range matches {
			p.addInside(m)
		}
	}
	p.addRelative()
	return p
}

// pathShadows returns the programs in the directories on PATH inside
// sandbox (see gatherPathDirs) that would run in the place of a program
// on PATH outside it, that git runs by name, or that bear this program's
// name, and the directories on PATH inside it that cannot be listed.
func pathShadows(sandbox string) []string {
	p := gatherPathDirs(sandbox)
	var names map[string]bool // a filter of names, when many directories are looked at
	if len(p.relative) > 0 {
		names = outsideNames(p.outside)
	}
	own := ownNames()
	var out []string
	for _, d := range p.inside {
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			continue
		}
		entries, err := os.ReadDir(d)
		if err != nil {
			out = append(out, d) // what it holds cannot be told
			continue
		}
		for _, e := range entries {
			name := e.Name()
			git := name == "git" || strings.HasPrefix(name, "git-")
			mine := slices.Contains(own, name)
			if names != nil && !git && !mine && !names[name] {
				continue
			}
			path := filepath.Join(d, name)
			if fi, err := os.Stat(path); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
				continue // runs nothing by its name
			}
			if git || mine {
				out = append(out, path)
				continue
			}
			other := programIn(p.outside, name)
			if other != "" && !environmentsOwn(sandbox, d, path, other) {
				out = append(out, path)
			}
		}
	}
	return out
}

// ownNames are the names under which this program runs: "sandboxauth",
// and the name of the running executable.
func ownNames() []string {
	own := []string{"sandboxauth"}
	if exe, err := os.Executable(); err == nil && filepath.Base(exe) != own[0] {
		own = append(own, filepath.Base(exe))
	}
	return own
}

// outsideNames returns the names of the entries of dirs, whether or not
// they are programs (programIn tells).
func outsideNames(dirs []string) map[string]bool {
	names := map[string]bool{}
	for _, d := range dirs {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			names[e.Name()] = true
		}
	}
	return names
}

// programIn returns the first executable file called name in dirs, or
// "".
func programIn(dirs []string, name string) string {
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}
