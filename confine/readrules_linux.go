package confine

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sandboxauth/sandboxauth/internal/pathres"
)

// The hidden paths outside the writable places (the user's credentials)
// are kept from the command twice. A mount covers each in its view (see
// bwrapArgs). But a mount over one path is detached, in every mount
// namespace, when another namespace renames or removes that path (Linux
// 3.18): when the user's program saves ~/.git-credentials, or an agent its
// token file, by rename while a command runs, the command would find the
// new file in its place. So Landlock handles reading too: the command may
// read only beneath rules granted to inodes, and no rule reaches a hidden
// path. Each directory that holds a hidden path (the home, ~/.config, /,
// ...) gets no reading rule of its own; each of its entries does, but the
// hidden ones and those holding one, which get the same treatment, and
// the symbolic links (the path they lead to is judged). A file made in
// such a directory after the start, a hidden path's replacement among
// them, has no rule and cannot be read. The mounts that cover the hidden
// paths get a rule each (their inodes, not the paths'), so that the
// command reads the empty directory or file it is shown. Listing a
// directory stays allowed everywhere: names, not contents.
//
// Hidden paths inside the writable places (a project's .env) cannot be
// kept so: the place's rule, which lets the command read what it writes,
// reaches everything beneath. See the helper's watch of the mount table
// for them.

// readsKey is the key of the reading rules among the sources: they go to
// the helper through a descriptor (see sources.addData).
const readsKey = "data:reading rules"

// readRules are the reading rules of a view whose hidden paths outside
// the writable places are kept by Landlock.
type readRules struct {
	// Grants are the paths granted reading beneath them: the entries of
	// the directories that hold hidden paths, but those; by directory.
	Grants []readDir `json:"grants"`
	// Masks are the hidden paths, each granted reading of what covers it
	// in the view (resolved in the view, where the cover is).
	Masks []string `json:"masks"`
}

// readRulesFor returns v's reading rules, or nil where Landlock need not
// handle reading: no hidden path outside the writable places, or a view
// that shows only what Policy.Readable names (where a hidden path is not
// mounted at all).
func readRulesFor(v *view) *readRules {
	if v.readable != nil {
		return nil
	}
	var hidden []string
	for _, h := range append(slices.Clone(v.hiddenDirs), v.hiddenFile...) {
		if v.writableRoot(h) == "" && !slices.Contains(v.closed, h) {
			hidden = append(hidden, h)
		}
	}
	// A hidden path missing at the start (~/.cargo/credentials.toml
	// before cargo login) is kept all the same: the existing directories
	// that would hold it get no rule of their own, so what is made there
	// while the command runs cannot be read.
	var missing []string
	resolved := map[string]string{} // directory: its resolved form, "" when missing
	// The deepest existing directory on each missing path's way: the
	// directories below it are missing, and need no reading (a directory
	// made there while the command runs is a new entry of this one, with
	// no rule).
	// Of a path beneath a missing directory, that directory is kept
	// (~/.config/claude for the fifteen paths in it): what is made
	// beneath it while the command runs is beneath a new entry of the
	// existing directory all the same.
	existingDir := make(map[string]string, len(v.hiddenMissing))
	for _, h := range v.hiddenMissing {
		real, dir, ok := firstMissing(filepath.Clean(h), resolved, v.present)
		if _, seen := existingDir[real]; ok && !seen && v.writableRoot(real) == "" {
			missing = append(missing, real)
			existingDir[real] = dir
		}
	}
	if len(hidden) == 0 && len(missing) == 0 {
		return nil
	}
	masks := slices.Clone(hidden)
	hidden = append(hidden, missing...)
	slices.Sort(hidden)
	// A hidden path beneath another is kept with it (sorted, it follows
	// the other, or one beneath the other).
	outer := hidden[:0]
	for _, h := range hidden {
		if len(outer) == 0 || !strings.HasPrefix(h, outer[len(outer)-1]+"/") {
			outer = append(outer, h)
		}
	}
	hidden = outer
	isHidden := map[string]bool{}
	holds := map[string]bool{} // directories holding a hidden path
	for _, h := range hidden {
		isHidden[h] = true
		first := filepath.Dir(h)
		if d, ok := existingDir[h]; ok {
			first = d
		}
		for d := first; ; d = filepath.Dir(d) {
			holds[d] = true
			if d == "/" {
				break
			}
		}
	}
	r := &readRules{}
	for _, m := range masks {
		if isHidden[m] {
			r.Masks = append(r.Masks, m) // not beneath another hidden path
		}
	}
	slices.Sort(r.Masks)
	for d := range holds {
		entries, err := os.ReadDir(d)
		if err != nil {
			continue // nothing in it is granted: fail closed
		}
		g := readDir{Dir: d}
		for _, e := range entries {
			p := filepath.Join(d, e.Name())
			switch {
			case isHidden[p] || holds[p] || e.Type()&os.ModeSymlink != 0:
			case e.IsDir():
				g.Dirs = append(g.Dirs, e.Name())
			default:
				g.Files = append(g.Files, e.Name())
			}
		}
		r.Grants = append(r.Grants, g)
	}
	slices.SortFunc(r.Grants, func(a, b readDir) int { return strings.Compare(a.Dir, b.Dir) })
	return r
}

// readDir is a directory holding hidden paths and its entries granted
// reading: the directories among them, and the rest (files, devices,
// sockets, FIFOs), whose rules may not name directory rights. An entry
// that changed kind since is granted what fits it.
type readDir struct {
	Dir   string   `json:"dir"`
	Dirs  []string `json:"dirs,omitempty"`
	Files []string `json:"files,omitempty"`
}

// count is the number of entries granted.
func (r *readRules) count() int {
	n := 0
	for _, g := range r.Grants {
		n += len(g.Dirs) + len(g.Files)
	}
	return n
}

// firstMissing returns the first missing path on p's way, beneath the
// longest existing leading part of p, resolved (no symbolic link in it):
// where a missing path would be made (p itself is known to be missing);
// dir is that existing part. known remembers the directories looked at
// (their resolved form, "" for a missing one): the hidden paths share
// few. present, when not nil, tells of many directories without a call
// that they are missing.
func firstMissing(p string, known map[string]string, present *presence) (real, dir string, ok bool) {
	first := filepath.Base(p)
	for d := filepath.Dir(p); ; d = filepath.Dir(d) {
		r, seen := known[d]
		if !seen {
			if present == nil || !present.missing(d) {
				if _, err := os.Lstat(d); err == nil {
					if r, err = pathres.Resolve(d); err != nil {
						return "", "", false
					}
				}
			}
			known[d] = r
		}
		if r != "" {
			return filepath.Join(r, first), r, true
		}
		if d == "/" {
			return "", "", false
		}
		first = filepath.Base(d)
	}
}
