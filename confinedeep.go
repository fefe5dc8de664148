package sandboxauth

import (
	"os"
	"path/filepath"
	"slices"

	"golang.org/x/sys/unix"

	"github.com/sandboxauth/sandboxauth/internal/pathres"
)

// The bounded walk before the run sees three levels of the sandbox, but
// git is started anywhere in a project: a terminal opened in a package's
// directory, an editor that looks for the repository of an opened file
// from the file's directory. There git obeys the first repository it
// finds upward, and the command may have made one deep down (a nested
// repository, or a directory turned into a git directory with HEAD,
// objects and refs), or changed one that was there. So after the run the
// quarantine also looks through the whole sandbox (every directory,
// skipped ones included, without following links) for the git
// directories there, and moves aside what git would obey in each (its
// configuration, hooks, redirections, legacy remotes) that changed while
// the command ran: its change time, which no program can set back, is at
// or after the time the policy was made. What git only records (objects,
// refs, the index) is left; so is all that did not change, so that a
// repository of the user's that the command merely used (git status,
// git commit) keeps its files.

// changedGitFiles returns, sorted, what git would obey in the git
// directories of the sandbox that changed since c.since (see above),
// with the files the configurations include and the hooks directories
// they name, when in the sandbox.
func (c *confinePaths) changedGitFiles() []string {
	var out []string
	home, err := os.UserHomeDir()
	if err != nil || !filepath.IsAbs(home) {
		home = ""
	}
	queue := []string{c.sandbox}
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		entries, err := c.readDir(d)
		if err != nil {
			continue
		}
		gitdir := isGitDirectory(entries)
		if gitdir {
			out = append(out, c.changedIn(d, home)...)
		}
		for _, e := range entries {
			abs := filepath.Join(d, e.Name())
			switch {
			case e.Name() == ".git" && e.Type().IsRegular():
				// A gitfile naming a git directory elsewhere in the
				// sandbox, which the walk may not reach by itself.
				if target, ok := gitFileTarget(d); ok && pathres.Within(c.sandbox, target) {
					out = append(out, c.changedIn(target, home)...)
				}
			case e.IsDir() && gitdir && e.Name() == "objects":
				// The object store: many directories, nothing obeyed
				// but alternates, looked at by changedIn.
			case e.IsDir():
				queue = append(queue, abs)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// changedIn returns what git would obey in the git directory gitdir that
// changed since c.since.
func (c *confinePaths) changedIn(gitdir, home string) []string {
	var out []string
	// check adds p when it changed; for a directory (dir), the entries
	// that changed, or p itself when it is a link to the directory
	// (what lies behind a link cannot be moved aside through it).
	check := func(p string, dir bool) {
		if !pathres.Within(c.sandbox, p) || p == c.sandbox {
			return
		}
		if c.changedAfter(p) {
			out = append(out, p)
			return
		}
		if !dir {
			return
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			return
		}
		fi, err := os.Lstat(p)
		link := err == nil && fi.Mode()&os.ModeSymlink != 0
		for _, e := range entries {
			if q := filepath.Join(p, e.Name()); c.changedAfter(q) {
				if link {
					out = append(out, p)
					return
				}
				out = append(out, q)
			}
		}
	}
	// What makes git run programs or go elsewhere; directories are
	// looked into, one level down.
	for _, rel := range []string{"config", "config.worktree", "commondir", "objects/info/alternates", "hooks", "remotes", "branches"} {
		p := filepath.Join(gitdir, rel)
		if _, err := os.Lstat(p); err != nil {
			continue
		}
		fi, err := os.Stat(p)
		check(p, err == nil && fi.IsDir())
	}
	cfg := readGitConfigPaths(filepath.Join(gitdir, "config"))
	for _, inc := range cfg.includes {
		for _, p := range expandGitPath(inc, gitdir, home) {
			check(p, false)
		}
	}
	// A relative hooks path is taken from where git runs: the work tree's
	// top, the parent of a .git directory, or the git directory itself.
	for _, base := range []string{gitdir, filepath.Dir(gitdir)} {
		for _, p := range expandGitPath(cfg.hooksPath, base, home) {
			check(p, true)
		}
	}
	return out
}

// changedAfter reports whether path (not followed) changed since c.since;
// a path that cannot be looked at counts as changed, so that it is moved
// aside rather than trusted.
func (c *confinePaths) changedAfter(path string) bool {
	var st unix.Stat_t
	if err := unix.Lstat(path, &st); err != nil {
		return !os.IsNotExist(err)
	}
	return st.Ctim.Nano() >= c.since
}

// isGitDirectory reports whether a directory whose entries are given may
// be a git directory to git's discovery (is_git_directory): a HEAD, and
// objects and refs or a commondir file naming where they are. The test is
// by names alone, a superset of what git accepts.
func isGitDirectory(entries []os.DirEntry) bool {
	var head, objects, refs, commondir bool
	for _, e := range entries {
		switch e.Name() {
		case "HEAD":
			head = true
		case "objects":
			objects = true
		case "refs":
			refs = true
		case "commondir":
			commondir = true
		}
	}
	return head && (commondir || objects && refs)
}
