package classify

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Links in a tree that a recursive reader follows (zip -r without -y):
// each one is read as what it points at, so each must lead inside the
// sandbox, to nothing protected, and a directory it leads to is read as a
// tree too. The walk is bounded like treeProtected's.

// maxLinkDepth bounds how many linked directories deep the walk follows
// (links to links to directories, and cycles).
const maxLinkDepth = 8

// treeLinks walks the tree under dir (relative to cwd) as a reader that
// follows symbolic links would, and finds a link that leads out of the
// sandbox or to a protected path. Hidden entries are skipped unless hidden
// is set.
func (r *cmdClassifier) treeLinks(dir, cwd string, hidden bool) Verdict {
	if r.sandbox == "" {
		return mkVerdict(Dangerous, "rule: link-following read without a sandbox",
			"with no sandbox known, where the links under "+dir+" lead cannot be checked")
	}
	real, inside, err := r.contains(atCwd(cwd, dir))
	if err != nil || !inside {
		return mkVerdict(Dangerous, "rule: path outside sandbox: "+dir, "the path resolves outside the sandbox")
	}
	n := 0
	seen := map[string]bool{real: true}
	return r.walkLinks(dir, real, hidden, 0, &n, seen)
}

func (r *cmdClassifier) walkLinks(dir, real string, hidden bool, depth int, n *int, seen map[string]bool) Verdict {
	bad := safeCmdVerdict
	walkErr := filepath.WalkDir(real, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		*n++
		if *n > maxTreeEntries {
			bad = mkVerdict(Dangerous, "rule: tree too large to check",
				"the tree under "+dir+" holds more than 20000 entries, too many to check where its links lead; name a narrower directory")
			return fs.SkipAll
		}
		if p != real && !hidden && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink == 0 {
			return nil
		}
		target, inside, err := r.contains(p)
		if err != nil || !inside {
			bad = mkVerdict(Dangerous, "rule: link out of the sandbox: "+p,
				"the command follows the symbolic link "+p+", which leads out of the sandbox; store links as links (zip -y) or a person decides")
			return fs.SkipAll
		}
		if pr := ProtectedFor(r.protected, false, r.sandbox, r.sandboxRoot(), p, target); pr != nil && pr.Read {
			bad = mkVerdict(Dangerous, "rule: link to a protected path: "+p,
				"the command follows the symbolic link "+p+" to a protected file; store links as links (zip -y) or a person decides")
			return fs.SkipAll
		}
		fi, err := os.Stat(target)
		if err != nil || !fi.IsDir() || seen[target] {
			return nil
		}
		if depth+1 > maxLinkDepth {
			bad = mkVerdict(Dangerous, "rule: links too deep to check: "+p,
				"the links under "+dir+" lead through more than 8 linked directories; a person decides")
			return fs.SkipAll
		}
		seen[target] = true
		if v := r.treeProtected(target, "/", hidden); v.res != Safe {
			bad = v
			return fs.SkipAll
		}
		if v := r.walkLinks(dir, target, hidden, depth+1, n, seen); v.res != Safe {
			bad = v
			return fs.SkipAll
		}
		return nil
	})
	if bad.res == Safe && walkErr != nil {
		return mkVerdict(Dangerous, "rule: tree not readable", "the tree under "+dir+" could not be checked")
	}
	return bad
}
