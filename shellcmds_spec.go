package sandboxauth

import (
	"io/fs"
	"path/filepath"
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
func specMatcher(sp *programs.Spec) CommandMatcher {
	return CommandMatcher{
		Command:           sp.Command,
		CommandArgsPrefix: append([]string(nil), sp.Prefix...),
		ExceptFlags:       sp.UnsafeNames(),
		Reason:            sp.Reason,
	}
}

// specMatchers returns the matchers derived from every spec.
func specMatchers() []CommandMatcher {
	all := programs.All()
	out := make([]CommandMatcher, len(all))
	for i, sp := range all {
		out[i] = specMatcher(sp)
	}
	return out
}

// specFor returns the spec behind m when m is exactly the matcher derived
// from it (a user's own matcher for the same command keeps the seed's
// meaning), or nil.
func specFor(m *CommandMatcher) *programs.Spec {
	sp := programs.Lookup(normalizeCommandName(m.Command), m.CommandArgsPrefix)
	if sp == nil {
		return nil
	}
	derived := specMatcher(sp)
	if !sameMatcher(&derived, m) {
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
	for _, cm := range l.byName[name] {
		sp := cm.spec
		if sp == nil || len(sp.Prefix) > len(args)-1 || (best != nil && len(best.Prefix) >= len(sp.Prefix)) {
			continue
		}
		ok := true
		for i, w := range sp.Prefix {
			if args[1+i] != w {
				ok = false
				break
			}
		}
		if ok {
			best = sp
		}
	}
	return best
}

// specVerdict reads args (argv after name normalisation) with sp and checks
// every file it names. v is the verdict of the matcher that selected sp.
func (r *cmdClassifier) specVerdict(sp *programs.Spec, v cmdVerdict, args []string, cwd string) cmdVerdict {
	p := programs.Acquire(sp, args[1+len(sp.Prefix):])
	defer programs.Release(p)
	if p.Problem != nil {
		return mkVerdict(CommandCheckResultDangerous, "rule: "+p.Problem.Rule, p.Problem.Reason)
	}
	for _, f := range p.Files {
		var pv cmdVerdict
		switch f.Role {
		case programs.Write:
			pv = r.pathArg(f.Word, cwd, true)
		case programs.ReadTree:
			pv = r.pathArg(f.Word, cwd, false)
			if pv.res == CommandCheckResultSafe {
				pv = r.treeProtected(f.Word, cwd, p.Hidden)
			}
		default:
			pv = r.pathArg(f.Word, cwd, false)
		}
		if pv.res != CommandCheckResultSafe {
			return worseOf(v, pv)
		}
	}
	return v
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
func (r *cmdClassifier) treeProtected(dir, cwd string, hidden bool) cmdVerdict {
	if !r.readProtection() {
		return safeCmdVerdict
	}
	if r.sandbox == "" {
		return mkVerdict(CommandCheckResultDangerous, "rule: recursive read without a sandbox",
			"with no sandbox known, the files a recursive read reaches cannot be checked against the protected paths")
	}
	abs := atCwd(cwd, dir)
	real, inside, err := r.contains(abs)
	if err != nil || !inside {
		return mkVerdict(CommandCheckResultDangerous, "rule: path outside sandbox: "+dir, "the path resolves outside the sandbox")
	}
	root := r.root.Real()
	n := 0
	var hit string
	walkErr := filepath.WalkDir(real, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable entries are not read by the reader either
		}
		n++
		if n > maxTreeEntries {
			return fs.SkipAll
		}
		name := d.Name()
		if p != real && !hidden && strings.HasPrefix(name, ".") {
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
		for i := range r.protected {
			rule := &r.protected[i]
			if rule.src.Read && rule.match(rel) {
				hit = rel
				return fs.SkipAll
			}
		}
		return nil
	})
	switch {
	case hit != "":
		return mkVerdict(CommandCheckResultDangerous, "rule: recursive read of a protected path: "+hit,
			"the command reads every file under "+dir+", including the protected "+hit+"; search a narrower directory, exclude it, or a person decides")
	case n > maxTreeEntries:
		return mkVerdict(CommandCheckResultDangerous, "rule: tree too large to check",
			"the tree under "+dir+" holds more than 20000 entries, too many to check for protected files; search a narrower directory")
	case walkErr != nil:
		return mkVerdict(CommandCheckResultDangerous, "rule: tree not readable", "the tree under "+dir+" could not be checked")
	}
	return safeCmdVerdict
}

// readProtection reports whether any protected path guards reads.
func (r *cmdClassifier) readProtection() bool {
	for i := range r.protected {
		if r.protected[i].src.Read {
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
