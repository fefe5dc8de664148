package classify

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/sandboxauth/sandboxauth/internal/programs"
	"github.com/sandboxauth/sandboxauth/internal/repotrust"
)

// git prints files from places the file system does not show: the index
// (a tracked or staged .env, even one deleted from the working tree) and
// the object store (a .env committed once and removed since). A form that
// may print contents from them (the spec's Contents) is safe only while
// neither holds a path that a read-protected pattern matches: the index's
// paths are matched as paths, and every entry name of every tree in the
// store against each pattern's last element (a superset of the paths the
// pattern could match in history; see internal/repotrust). A store that
// cannot be read completely counts as holding one.

// gitContents judges a content-printing git form run from dir.
func (r *cmdClassifier) gitContents(sp *programs.Spec, args []string, dir string) Verdict {
	if sp.Contents == nil || r.sandbox == "" || !r.readProtection() {
		return safeCmdVerdict
	}
	p := programs.Acquire(sp, args[1+len(sp.Prefix):])
	src := programs.GitSource(0)
	if p.Problem == nil {
		src = sp.Contents(p)
	}
	if src&(programs.GitWorkTree|programs.GitHeadIndex) != 0 {
		// Operands that all name existing files are paths, never
		// revisions: the index is compared with the work tree (or HEAD
		// with the index) only.
		paths := true
		for _, o := range p.Operands {
			if _, err := os.Lstat(atCwd(dir, o)); err != nil {
				paths = false
				break
			}
		}
		if paths {
			src &^= programs.GitStore
		} else {
			src &^= programs.GitWorkTree | programs.GitHeadIndex
		}
	}
	programs.Release(p)
	if src == 0 {
		return safeCmdVerdict
	}
	f, ok := r.repoFacts(dir)
	if !ok || !f.Found {
		return safeCmdVerdict // no repository: nothing of the index or history to print
	}
	form := "git " + strings.Join(sp.Prefix, " ")
	if src&programs.GitSubmodules != 0 {
		for _, e := range f.Index {
			if e.Gitlink() {
				return mkVerdict(Dangerous, "rule: git contents of a submodule: "+e.Path,
					form+" prints contents from inside the submodule "+e.Path+", whose index and history are not checked for protected files; leave out --submodule=diff and --recurse-submodules, or a person decides")
			}
		}
	}
	if src&programs.GitHeadIndex != 0 {
		same, why := r.headMatchesIndex(f)
		switch {
		case same:
			src &^= programs.GitIndex // nothing protected differs: nothing protected is printed
		case why != "":
			return mkVerdict(Dangerous, "rule: git HEAD not read",
				form+" prints the files where HEAD and the index differ, and HEAD could not be read to compare the protected ones ("+why+"); a person decides")
		default:
			return mkVerdict(Dangerous, "rule: protected path staged in the git index",
				form+" prints the files where HEAD and the index differ, and they differ on a protected file (staged, changed or removed); ask for names only (--stat, --name-only) or a person decides")
		}
	}
	if src&programs.GitIndex != 0 {
		for _, e := range f.Index {
			if e.Gitlink() {
				continue
			}
			if rule := r.protectedIndexPath(f.WorkTree, e.Path); rule != nil {
				if src&programs.GitWorkTree != 0 && f.UnchangedInWorkTree(e) {
					continue // the work tree holds what the index does: nothing of it is printed
				}
				return mkVerdict(Dangerous, "rule: protected path in the git index: "+e.Path,
					form+" can print the files of the repository's index, and the index holds "+e.Path+", which is protected ("+rule.Pattern+
						"); ask for names or counts only (--stat, --name-only) or a person decides")
			}
		}
	}
	if src&programs.GitStore != 0 {
		names, err := r.s.repos.StoreNames(f)
		if err != nil {
			return mkVerdict(Dangerous, "rule: git history not checked",
				form+" can print any file in the repository's history, and the history could not be checked for protected files ("+err.Error()+"); ask for names or counts only (--stat, --name-only) or a person decides")
		}
		if name, rule := r.protectedName(names); rule != nil {
			return mkVerdict(Dangerous, "rule: protected path in git history: "+name,
				form+" can print any file in the repository's history, and the history holds a file named "+name+", which is protected ("+rule.Pattern+
					"); ask for names or counts only (--stat, --name-only, --oneline) or a person decides")
		}
	}
	return safeCmdVerdict
}

// protectedIndexPath returns the read rule matching an index path (relative
// to the work tree's top), taken relative to the sandbox when it lies in
// it and relative to the work tree as well.
func (r *cmdClassifier) protectedIndexPath(workTree, rel string) *Protected {
	if workTree != "" {
		abs := filepath.Join(workTree, rel)
		if rule := ProtectedFor(r.protected, false, r.sandbox, r.sandboxRoot(), abs, abs); rule != nil {
			return rule
		}
	}
	for i := range r.protected {
		if rule := &r.protected[i]; rule.Read && rule.Match(rel) {
			return rule
		}
	}
	return nil
}

// protectedName returns a tree entry name (the first in order) that the
// last element of a read rule matches, and that rule.
func (r *cmdClassifier) protectedName(names map[string]struct{}) (string, *Protected) {
	var hit string
	var hitRule *Protected
	for n := range names {
		for i := range r.protected {
			rule := &r.protected[i]
			if rule.Read && rule.matchesName(n) && (hitRule == nil || n < hit) {
				hit, hitRule = n, rule
			}
		}
	}
	return hit, hitRule
}

// matchesName reports whether the rule's last element matches an entry
// name: any path the rule matches has such an element.
func (r *Protected) matchesName(name string) bool {
	return r.MatchesLastLower(strings.ToLower(name))
}

// gitImplicitNoIndex: git diff compares two files or directories of the
// file system, as diff does, when no repository is found or when exactly
// two words follow its options and one of them lies outside the work tree
// (git's own rule). Each word is then a path it reads, a directory as a
// whole tree, hidden files included: a directory operand is walked for
// protected files. (The words themselves are checked as paths already.)
func (r *cmdClassifier) gitImplicitNoIndex(sp *programs.Spec, args []string, dir string) Verdict {
	if !sp.NoIndexPair || r.sandbox == "" {
		return safeCmdVerdict
	}
	rest := args[1+len(sp.Prefix):]
	first := len(rest)
	for i, a := range rest {
		if a == "--" || !strings.HasPrefix(a, "-") {
			first = i
			break
		}
	}
	words := rest[first:]
	f, ok := r.repoFacts(dir)
	if !ok {
		return safeCmdVerdict // judged as outside by the repository check
	}
	noIndex := !f.Found
	if !noIndex && len(words) == 2 && f.WorkTree != "" {
		for _, w := range words {
			if !lexicallyWithin(f.WorkTree, atCwd(dir, w)) {
				noIndex = true
			}
		}
	}
	if !noIndex {
		return safeCmdVerdict
	}
	ops := make([]string, 0, 2)
	for _, w := range words {
		if w != "--" && w != "-" {
			ops = append(ops, w)
		}
	}
	for _, w := range ops {
		if v := r.treeProtected(w, dir, true); v.res != Safe {
			return v
		}
	}
	return safeCmdVerdict
}

// lexicallyWithin reports whether p, cleaned without resolving links, is
// top or lies beneath it.
func lexicallyWithin(top, p string) bool {
	p = filepath.Clean(p)
	return p == top || strings.HasPrefix(p, strings.TrimSuffix(top, "/")+"/")
}

// gitWholeTree: a form that reads the whole work tree when given one of
// sp.WorkTreeWith and no operand (git add -A) has its work tree walked for
// protected files, hidden ones included, from its top.
func (r *cmdClassifier) gitWholeTree(sp *programs.Spec, args []string, dir string) Verdict {
	if len(sp.WorkTreeWith) == 0 || r.sandbox == "" {
		return safeCmdVerdict
	}
	p := programs.Acquire(sp, args[1+len(sp.Prefix):])
	whole := p.Problem == nil && len(p.Operands) == 0 && p.Has(sp.WorkTreeWith...)
	programs.Release(p)
	if !whole {
		return safeCmdVerdict
	}
	f, ok := r.repoFacts(dir)
	if !ok || !f.Found || f.WorkTree == "" {
		return safeCmdVerdict // git refuses to run without a work tree
	}
	return r.treeProtected(f.WorkTree, dir, true)
}

// headMatchesIndex reports whether HEAD's tree and the index hold the same
// read-protected files with the same contents (object names), every index
// entry of them at stage 0; why says what could not be read, when that is
// the reason they are not known to match.
func (r *cmdClassifier) headMatchesIndex(f *repotrust.Facts) (same bool, why string) {
	staged := map[string][]byte{}
	for _, e := range f.Index {
		if e.Gitlink() || r.protectedIndexPath(f.WorkTree, e.Path) == nil {
			continue
		}
		if e.Stage != 0 {
			return false, ""
		}
		staged[e.Path] = e.ID
	}
	head, err := repotrust.HeadFiles(f, func(p string) bool { return r.protectedIndexPath(f.WorkTree, p) != nil })
	if err != nil {
		return false, err.Error()
	}
	if len(head) != len(staged) {
		return false, ""
	}
	for p, id := range head {
		if !bytes.Equal(staged[p], id) {
			return false, ""
		}
	}
	return true, ""
}
