package classify

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sandboxauth/sandboxauth/internal/programs"
)

// The default safe list is derived from the program specs of
// internal/programs: one matcher per spec, guarded by the spec's unsafe
// options. A command matched by such a matcher is then read with its
// spec's grammar, the only reader of that argv: an option or operand the
// spec does not know makes it dangerous (asked about), and every word that
// names a file is checked with the role the program gives it.

// specMatcher is the default safe matcher derived from a spec.
func specMatcher(sp *programs.Spec) Matcher {
	return Matcher{
		Command:           sp.Command,
		CommandArgsPrefix: append([]string(nil), sp.Prefix...),
		ExceptFlags:       slices.Clone(sp.UnsafeNames()),
		Reason:            sp.Reason,
	}
}

// specMatchers returns the matchers derived from every spec, the longer
// prefixes of a program first, so that the first match is the most
// specific form (python -m unittest discover before python -m unittest).
// They are the default safe list, so that the list and the grammar that
// reads each argv cannot disagree. npm test has no spec: it runs the
// project's "test" script exactly as npm run test does, and both are
// decided by the dangerous list's npm scripts, the same way.
func specMatchers() []Matcher {
	all := specsByPrefixLength()
	out := make([]Matcher, len(all))
	for i, sp := range all {
		out[i] = specMatcher(sp)
	}
	return out
}

// specsByPrefixLength returns every spec, the longer prefixes of a
// program first (the order of the default safe list).
func specsByPrefixLength() []*programs.Spec {
	all := programs.All()
	slices.SortStableFunc(all, func(a, b *programs.Spec) int { return len(b.Prefix) - len(a.Prefix) })
	return all
}

// specFor returns the spec behind m when m is exactly the matcher derived
// from it (a user's own matcher for the same command keeps the seed's
// meaning), or nil.
func specFor(m *Matcher) *programs.Spec {
	sp := programs.Lookup(normalizeCommandName(m.Command), m.CommandArgsPrefix)
	if sp == nil {
		return nil
	}
	// m is the derived matcher when it adds no Flags and excepts exactly
	// the spec's unsafe options (compared in order first: the defaults
	// are built in that order).
	if len(m.Flags) > 0 || !(slices.Equal(m.ExceptFlags, sp.UnsafeNames()) || sameSet(m.ExceptFlags, sp.UnsafeNames())) {
		return nil
	}
	return sp
}

// specOf returns the spec-backed safe matcher whose prefix args (argv
// with argv[0] normalised) begin with, ignoring its ExceptFlags, so that an
// unsafe or unknown option of a safe program is reported as such instead
// of as a command on no list.
func (l *matcherList) specOf(name string, args []string) *programs.Spec {
	var best *programs.Spec
	defaults, own := l.named(name, firstWord(args[1:]))
	for _, cms := range [2][]compiledMatcher{defaults, own} {
		for i := range cms {
			sp := cms[i].spec
			if sp == nil || len(sp.Prefix) > len(args)-1 || (best != nil && len(best.Prefix) >= len(sp.Prefix)) {
				continue
			}
			ok := true
			for j, w := range sp.Prefix {
				if args[1+j] != w {
					ok = false
					break
				}
			}
			if ok {
				best = sp
			}
		}
	}
	return best
}

// specVerdict reads args (argv after name normalisation) with sp and checks
// every file it names. v is the verdict of the matcher that selected sp. A
// form the spec finds unsafe stays blocked when the blocked list names it
// (crontab -r), and is dangerous otherwise.
func (r *cmdClassifier) specVerdict(sp *programs.Spec, v Verdict, args []string, cwd string) Verdict {
	v = r.parsedVerdict(sp, v, args, cwd)
	if sp.Syntax == programs.GNU && v.res == Safe && posixlyCorrectInherited() {
		// The programs this process starts inherit POSIXLY_CORRECT:
		// getopt stops at the first operand, and the words after it are
		// files. The argv is judged both ways.
		strict := *sp
		strict.Syntax = programs.POSIX
		v = worseOf(v, r.parsedVerdict(&strict, v, args, cwd))
	}
	return v
}

// parsedVerdict is specVerdict for one reading of the argv.
func (r *cmdClassifier) parsedVerdict(sp *programs.Spec, v Verdict, args []string, cwd string) Verdict {
	p := programs.Acquire(sp, args[1+len(sp.Prefix):])
	defer programs.Release(p)
	if p.Problem != nil {
		if b := r.matchUnsafe(args[0], args); b.res == Blocked {
			return b
		}
		return mkVerdict(Dangerous, "rule: "+p.Problem.Rule, p.Problem.Reason)
	}
	hidden := p.Hidden
	for _, f := range p.Files {
		if f.Role == programs.IgnoreRules && !hidden && r.sandbox != "" {
			// Read only a file the command may read (inside, not
			// protected); the loop below refuses the others.
			if r.pathArg(f.Word, cwd, false).res == Safe {
				hidden = rulesWhitelist(atCwd(cwd, f.Word))
			}
		}
	}
	var dest string
	if sp.Copies && !sp.Moves {
		dest, _, _, _ = programs.CopyDestination(p)
	}
	for _, f := range p.Files {
		var pv Verdict
		switch f.Role {
		case programs.Write:
			pv = r.pathArg(f.Word, cwd, true)
			if pv.writeOut && sp.Copies && !sp.Moves && f.Word != dest {
				// A source of a copy is read, not written: outside the
				// sandbox it is a read outside.
				pv = r.pathArg(f.Word, cwd, false)
			}
		case programs.ReadTree:
			pv = safeCmdVerdict
			if sp.Pathspecs {
				pv = plainPathspec(f.Word, cwd, sp.NoRevisions)
			}
			if pv.res == Safe {
				pv = r.pathArg(f.Word, cwd, false)
			}
			if pv.res == Safe {
				pv = r.walkProtected(f.Word, cwd, hidden, sp.IgnoreFiles, p.Whitelist)
			}
			if pv.res == Safe && p.FollowsLinks {
				pv = r.treeLinks(f.Word, cwd, p.Hidden)
			}
		case programs.Read, programs.IgnoreRules:
			pv = r.pathArg(f.Word, cwd, false)
		case programs.ReadPaths:
			pv = safeCmdVerdict
			for rest := f.Word; rest != "" && pv.res == Safe; {
				var one string
				one, rest, _ = strings.Cut(rest, ":")
				if one != "" {
					pv = r.pathArg(one, cwd, false)
				}
			}
		default:
			// A role the engine does not know: not safe.
			pv = mkVerdict(Dangerous, "rule: value of unknown role: "+f.Word,
				"the classifier does not know what "+sp.Command+" does with "+f.Word+"; a person decides")
		}
		if pv.res != Safe {
			return worseOf(v, pv)
		}
	}
	if sp.RevPaths {
		v = worseOf(v, r.revPaths(p.Operands, cwd))
	}
	if sp.ComparesTrees && r.sandbox != "" {
		v = worseOf(v, compareTrees(p.Operands, cwd))
	}
	if sp.Copies && r.sandbox != "" {
		v = worseOf(v, r.copyTargets(sp, p, cwd))
	}
	return v
}

// plainPathspec accepts a git pathspec operand only when it is a plain
// path that exists: then it names the tree the walk checks. A glob or a
// magic pathspec matches beyond the path it spells (:/ is the top of the
// repository, which may lie above the sandbox; :!x everything but x), and
// a word that names no file is read by git as a revision, whose whole
// tree is searched, protected files included.
func plainPathspec(word, cwd string, noRevisions bool) Verdict {
	if strings.HasPrefix(word, ":") || strings.ContainsAny(word, "*?[\\") { // git's glob characters, the escape included
		return mkVerdict(Dangerous, "rule: git pathspec beyond a plain path: "+word,
			"a glob or magic pathspec (:/, :(top), :!x) matches files beyond the path it names, protected ones or ones outside the sandbox among them; a person decides")
	}
	if _, err := os.Lstat(atCwd(cwd, word)); err != nil && noRevisions && os.IsNotExist(err) {
		return safeCmdVerdict // a plain path naming nothing on disk matches only index entries (git add stages their removal)
	} else if err != nil {
		return mkVerdict(Dangerous, "rule: git revision or missing path: "+word,
			"git reads an operand that names no file as a revision, and searches its whole tree, protected files included; a person decides")
	}
	return safeCmdVerdict
}

// revPaths checks the paths that git revision operands name (HEAD:.env,
// :.env) and the pathspecs among them: each must stay inside the sandbox,
// and must not name a protected path. git prints a file from history or the
// index without touching the file system, so only its name can be judged.
func (r *cmdClassifier) revPaths(operands []string, cwd string) Verdict {
	protection := r.readProtection()
	top, topKnown := "", false // the work tree's top, looked up once when needed
	for _, o := range operands {
		path, base := o, cwd
		if i := revPathSeparator(o); i >= 0 {
			path = o[i+1:]
			if i == 0 && len(path) >= 2 && path[0] >= '0' && path[0] <= '3' && path[1] == ':' {
				path = path[2:] // :N:PATH, a stage of the index
			}
			// git reads the PATH of REV:PATH and :PATH from the top of
			// the work tree, which may lie above the sandbox, unless it
			// begins with ./ or ../.
			if !strings.HasPrefix(path, "./") && !strings.HasPrefix(path, "../") {
				if !topKnown {
					top, topKnown = r.workTreeTop(cwd), true
				}
				if top != "" {
					base = top
				}
				if path == "" {
					path = "." // REV: is the top's whole tree
				}
			}
		}
		if pv := r.pathArg(path, base, false); pv.res != Safe {
			return pv
		}
		path = strings.TrimPrefix(path, "./")
		if !protection || path == "" || path == "." || strings.HasPrefix(path, ":") {
			continue
		}
		for i, b := range [...]string{base, cwd, r.sandboxRoot()} {
			if i == 1 && b == base {
				continue // base is the working directory: checked already
			}
			abs := atCwd(b, path)
			if rule := ProtectedFor(r.protected, false, r.sandbox, r.sandboxRoot(), abs, abs); rule != nil {
				return mkVerdict(Dangerous, "rule: protected path "+rule.Pattern+": "+o,
					"the command prints "+path+" from the repository's history or index, and that path is protected; a person decides")
			}
		}
	}
	return safeCmdVerdict
}

// revPathSeparator returns the index of the colon that ends the revision
// of a REV:PATH operand, or -1. As git does, a colon inside braces
// (HEAD^{/fix: x}, main@{1:00}) belongs to the revision.
func revPathSeparator(o string) int {
	depth := 0
	for i := 0; i < len(o); i++ {
		switch o[i] {
		case '{':
			depth++
		case '}':
			if depth > 0 {
				depth--
			}
		case ':':
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// workTreeTop returns the top of the work tree of the repository git
// finds from cwd (from the repository facts, which are cached), or "" when
// there is none or it cannot be known.
func (r *cmdClassifier) workTreeTop(cwd string) string {
	if r.sandbox == "" {
		return ""
	}
	f, ok := r.repoFacts(cwd)
	if !ok || !f.Found {
		return ""
	}
	return f.WorkTree
}

// compareTrees: comparing two directories makes diff open every entry in
// them, following symbolic links that the operands' check did not see.
// Each operand that is a directory makes the command "none".
func compareTrees(operands []string, cwd string) Verdict {
	for _, o := range operands {
		if o == "" || o == "-" || isHarmlessDevice(o) {
			continue
		}
		if fi, err := os.Stat(atCwd(cwd, o)); err == nil && fi.IsDir() {
			return mkVerdict(None, "rule: diff of directories: "+o,
				"comparing directories opens every entry in them, and an entry may be a link out of the sandbox")
		}
	}
	return safeCmdVerdict
}

// copyTargets checks where cp and mv put things, beyond their operands:
// into an existing directory, each source lands at DIR/BASE, which is
// checked as a write (a protected name, .git, a PATH directory); and mv of
// a directory carries a whole tree, which is "none".
func (r *cmdClassifier) copyTargets(sp *programs.Spec, p *programs.Parsed, cwd string) Verdict {
	target, ops, noDir, ok := programs.CopyDestination(p)
	if !ok {
		return safeCmdVerdict // cp and mv refuse to run
	}
	if sp.Moves {
		for _, src := range ops {
			if fi, err := os.Stat(atCwd(cwd, src)); err == nil && fi.IsDir() {
				return mkVerdict(None, "rule: mv of a directory: "+src,
					"moving a directory carries a whole tree to its new place; a person decides")
			}
		}
	}
	if noDir {
		return safeCmdVerdict
	}
	if fi, err := os.Stat(atCwd(cwd, target)); err != nil || !fi.IsDir() {
		return safeCmdVerdict
	}
	for _, src := range ops {
		dest := strings.TrimSuffix(target, "/") + "/" + filepath.Base(src)
		if pv := r.pathArg(dest, cwd, true); pv.res != Safe {
			return pv
		}
	}
	return safeCmdVerdict
}

// maxTreeEntries bounds the walk of a tree that a recursive reader reads:
// beyond it the tree is not searched for protected files, and the command
// is asked about.
const maxTreeEntries = 20000

// treeProtected walks the tree a recursive reader reads (dir, relative to
// cwd) and finds a read-protected path in it. Hidden files (names
// beginning with ".") are skipped unless hidden is set, as the reader skips
// them. Symbolic links are not followed, as recursive readers without -R or
// -L do not follow them. .git directories are not entered: their contents
// are git's, read by git commands only.
func (r *cmdClassifier) treeProtected(dir, cwd string, hidden bool) Verdict {
	return r.walkProtected(dir, cwd, hidden, nil, nil)
}

// walkProtected is treeProtected for a reader that honours ignore files
// and whitelist globs. ignoreFiles names the ignore files the reader
// honours: when one of them, in the tree or above it inside the sandbox,
// holds a "!" rule, the walk is checked as one that includes hidden files
// (ignorerules.go). The whitelist globs (rg -g, rg -t) select hidden files
// and directories too: those whose names they match are checked as the
// reader reads them.
func (r *cmdClassifier) walkProtected(dir, cwd string, hidden bool, ignoreFiles, whitelist []string) Verdict {
	if !r.readProtection() {
		return safeCmdVerdict
	}
	if r.sandbox == "" {
		return mkVerdict(Dangerous, "rule: recursive read without a sandbox",
			"with no sandbox known, the files a recursive read reaches cannot be checked against the protected paths")
	}
	abs := atCwd(cwd, dir)
	real, inside, err := r.contains(abs)
	if err != nil || !inside {
		v := mkVerdict(Dangerous, "rule: path outside sandbox: "+dir, "the path resolves outside the sandbox")
		v.outside = true
		return v
	}
	if !hidden && len(ignoreFiles) > 0 && (dirWhitelists(real, ignoreFiles) || r.ancestorsWhitelist(real, ignoreFiles)) {
		hidden = true
	}
	root := r.sandboxRoot()
	n := 0
	var hit string
	whitelisted := false
	var elemBuf [elemsOnStack]string
	walkErr := filepath.WalkDir(real, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable entries are not read by the reader either
		}
		n++
		if n > maxTreeEntries {
			return fs.SkipAll
		}
		name := d.Name()
		if p != real && !hidden && strings.HasPrefix(name, ".") && !whitelistMatches(whitelist, name) {
			if len(ignoreFiles) > 0 && ignoreEntryWhitelists(p, name, d.IsDir(), ignoreFiles) {
				whitelisted = true
				return fs.SkipAll
			}
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() && strings.EqualFold(name, ".git") && p != real {
			return fs.SkipDir
		}
		rel, ok := relInside(root, p)
		if !ok {
			return nil
		}
		elems := protectedElems(rel, elemBuf[:0])
		for i := range r.protected {
			rule := &r.protected[i]
			if rule.Read && rule.matchElems(elems) {
				hit = rel
				return fs.SkipAll
			}
		}
		return nil
	})
	switch {
	case whitelisted:
		return r.walkProtected(dir, cwd, true, nil, nil)
	case hit != "":
		return mkVerdict(Dangerous, "rule: recursive read of a protected path: "+hit,
			"the command reads every file under "+dir+", including the protected "+hit+"; search a narrower directory, exclude it, or a person decides")
	case n > maxTreeEntries:
		return mkVerdict(Dangerous, "rule: tree too large to check",
			"the tree under "+dir+" holds more than 20000 entries, too many to check for protected files; search a narrower directory")
	case walkErr != nil:
		return mkVerdict(Dangerous, "rule: tree not readable", "the tree under "+dir+" could not be checked")
	}
	return safeCmdVerdict
}

// readProtection reports whether any protected path guards reads.
func (r *cmdClassifier) readProtection() bool {
	for i := range r.protected {
		if r.protected[i].Read {
			return true
		}
	}
	return false
}

// specUnderstood reports whether sp reads args (a normalised argv) without
// a problem.
func specUnderstood(sp *programs.Spec, args []string) bool {
	p := programs.Acquire(sp, args[1+len(sp.Prefix):])
	ok := p.Problem == nil
	programs.Release(p)
	return ok
}
