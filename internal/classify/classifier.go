package classify

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sandboxauth/sandboxauth/internal/programs"

	"github.com/sandboxauth/sandboxauth/internal/pathres"
	"github.com/sandboxauth/sandboxauth/internal/repotrust"
	"github.com/sandboxauth/sandboxauth/internal/shell"
)

// maxDepth bounds nested shells and wrappers (`bash -c "sh -c '...'"`,
// `env env nice ...`); deeper nesting is inscrutable.
const maxDepth = 8

// Verdict is the classifier's answer about one command: its class, the
// rule that decided and why, the argv as classified, one Verdict per
// segment of a compound script analysed segment by segment, and whether
// running project code alone made it dangerous.
type Verdict struct {
	res    Result
	rule   string
	reason string
	argv   []string
	segs   []Verdict
	// project: runs project code, and nothing else made it dangerous (see
	// projectcode.go).
	project bool
	// stale: a segment of a compound script that is dangerous only for
	// being judged without trusting the file system (an earlier segment
	// may write): judged trusting it, it is safe or project code (see
	// staleSegments).
	stale bool
	// outside: a path the command names resolves outside the sandbox;
	// writeOut: one it writes, creates or deletes does (a Write operand
	// or option value, a writing redirection), which is named before any
	// other reason to ask; writesOutside: such a path lies outside the
	// temporary directory too (see outsideVerdict).
	outside, writeOut, writesOutside bool
}

// Result is the command's class.
func (v *Verdict) Result() Result { return v.res }

// Rule names the matcher or rule that decided ("blocked: curl", "rule:
// path outside sandbox: ~/.ssh/id_rsa").
func (v *Verdict) Rule() string { return v.rule }

// Reason is one line for a person or a model.
func (v *Verdict) Reason() string { return v.reason }

// Argv is the command as classified, after unwrapping shell and
// transparent wrappers; the caller must not modify it.
func (v *Verdict) Argv() []string { return v.argv }

// Segments holds one Verdict per command of a compound script analysed
// segment by segment; nil otherwise. The caller must not modify it.
func (v *Verdict) Segments() []Verdict { return v.segs }

// ProjectCode reports that the command runs code defined by files in the
// project and that this alone made it dangerous.
func (v *Verdict) ProjectCode() bool { return v.project }

// WritesOutside reports that the command writes, creates or deletes a path
// that resolves outside the sandbox and outside the temporary directory
// (rm -rf ~, cp x /etc/hosts, a redirection to ~/.bashrc): the worst fact
// about it, named by Rule.
func (v *Verdict) WritesOutside() bool { return v.writesOutside }

// worseOf returns a unless b is strictly worse, or as bad for a reason
// other than project code (which confinement answers) when a is project
// code.
func worseOf(a, b Verdict) Verdict {
	// A write outside the sandbox is the worst fact short of a blocked
	// command: it is named first, whatever else would ask.
	if a.writesOutside != b.writesOutside && a.res != Blocked && b.res != Blocked {
		if b.writesOutside {
			return b
		}
		return a
	}
	if b.res.rank() > a.res.rank() || a.project && !b.project && b.res == a.res || b.writeOut && !a.writeOut && b.res == a.res {
		return b
	}
	return a
}

func mkVerdict(res Result, rule, reason string) Verdict {
	return Verdict{res: res, rule: rule, reason: reason}
}

var safeCmdVerdict = Verdict{res: Safe}

// cmdClassifier holds one classification's settings. The lists are read under
// the caller's read lock.
type cmdClassifier struct {
	s       *Commands
	split   bool
	sandbox string // "" when no sandbox is known

	// protected holds the calling authorizer's protected paths: a path
	// argument or redirection that reads or writes one is dangerous.
	protected []Protected

	// searchPath is the PATH scanned against the sandbox (nil with no
	// sandbox known): see searchpath.go.
	searchPath *SearchPath

	// projectMatchers are the caller's own commands that run project code
	// (the public WithProjectCode option), besides the built-in ones.
	projectMatchers []Matcher

	// grant is a person's session grant, taken as one more safe matcher
	// after the safe list (ClassifyGranted); nil otherwise.
	grant *compiledMatcher

	// The sandbox resolved once per classification, on first use, so that
	// each path argument resolves only its own components. rootReal is the
	// resolved sandbox, set by the first successful contains (which a path
	// without symlinks proves with one kernel call, root staying nil).
	root     *pathres.Root
	rootErr  error
	rootReal string
	// known is the caller's working directory, placed against the
	// sandbox once for the caller and the classifier together; nil when
	// the caller has none.
	known WorkDir

	// dialect is the grammar the script being classified was read with;
	// globs are expanded with its rules.
	dialect shell.Dialect
	// untrusted is set while classifying a segment of a script that runs
	// after (or beside, in a pipeline) a segment that may write: the file
	// system may no longer be what it is now, so no fact read from it
	// (where a path leads, what a glob matches, which repository git
	// uses and what its configuration says) can make the segment safe.
	untrusted bool
	// rejudging is set while a segment judged untrusted is judged again
	// trusting the file system (see the script's stale segments): a fact
	// that only the file system at run time settles, and that decides
	// more than where a path leads (whether git reset's operand names a
	// file or a commit: see existingInside), is not taken from it then.
	rejudging bool
	// pathUnset is set while classifying a command that runs with PATH
	// removed from its environment (after env -i, env -u PATH, exec -c).
	pathUnset bool
	pathKnown bool // pathUnset holds the answer (see pathIsUnset)
}

// sandboxRoot returns the resolved sandbox. Every caller has placed a
// path first (contains), which resolves it; should one not have, the
// sandbox is resolved now, and a sandbox that cannot be resolved panics,
// which Commands.Classify turns into an inscrutable verdict: an empty root
// never reaches a protected-path or repository check.
func (r *cmdClassifier) sandboxRoot() string {
	if r.rootReal == "" {
		if _, _, err := r.contains(r.sandbox); err != nil || r.rootReal == "" {
			panic(fmt.Sprintf("the sandbox %q was used before it was resolved, and it cannot be: %v", r.sandbox, err))
		}
	}
	return r.rootReal
}

// contains resolves p (absolute) and reports whether it lies in the
// sandbox, as pathres.Contains does, resolving the sandbox only once.
func (r *cmdClassifier) contains(p string) (string, bool, error) {
	if r.known != nil && p == r.known.Path() {
		if resolved, root, inside, err := r.known.Place(); err == nil && inside {
			if r.rootReal == "" {
				r.rootReal = root
			}
			return resolved, true, nil
		}
	}
	placed := ""
	if r.known != nil {
		placed, _ = r.known.Placed()
	}
	if resolved, inside, ok := pathres.ProvenFrom(r.sandbox, p, placed); ok {
		if r.rootReal == "" {
			r.rootReal = pathres.Clean(r.sandbox)
		}
		if r.known != nil {
			r.known.ProvenBeneath(p)
		}
		return resolved, inside, nil
	}
	if r.root == nil && r.rootErr == nil {
		if r.root, r.rootErr = pathres.NewRoot(r.sandbox); r.rootErr == nil {
			r.rootReal = r.root.Real()
		}
	}
	if r.rootErr != nil {
		return "", false, r.rootErr
	}
	return r.root.Contains(p)
}

// argv classifies one command given as an argv (for a script command,
// after glob expansion); fromScript is false for the argv the caller gave,
// whose elements are never shell syntax.
func (r *cmdClassifier) argv(argv []string, cwd string, depth int, fromScript bool) Verdict {
	if depth > maxDepth {
		return mkVerdict(Inscrutable, "rule: nesting too deep", "shells and wrappers nested more than 8 deep")
	}
	if !fromScript {
		if op, i := shellOperatorIn(argv); i >= 0 {
			v := mkVerdict(Inscrutable, "rule: shell syntax in argv",
				fmt.Sprintf("argument %d (%q) is shell syntax, but argv is not run by a shell", i, op))
			v.argv = argv
			return v
		}
	}
	v := r.argvInner(argv, cwd, depth, fromScript)
	if v.argv == nil {
		v.argv = argv
	}
	return v
}

func (r *cmdClassifier) argvInner(argv []string, cwd string, depth int, fromScript bool) Verdict {
	arg0 := argv[0]
	base := commandBase(arg0)
	if base == "" || base == "." || base == ".." {
		return mkVerdict(Inscrutable, "rule: empty command name", "the command name is empty or a directory")
	}
	floor := safeCmdVerdict
	if strings.IndexByte(arg0, '/') >= 0 {
		floor = worseOf(floor, r.commandPath(arg0, cwd))
	} else if sp := r.searchPath; sp != nil {
		if sp.hasRelative {
			floor = worseOf(floor, mkVerdict(None, fmt.Sprintf("rule: relative PATH entry %q", sp.relative),
				"PATH names a relative directory, so "+arg0+" may be a file in the working directory; a person decides"))
		} else if dir, ok := sp.shadow(arg0); ok {
			floor = worseOf(floor, mkVerdict(None, "rule: program on PATH inside the sandbox: "+dir+"/"+arg0,
				arg0+" is found in a PATH directory inside the sandbox, which the model may have written; a person decides"))
		} else if r.untrusted && len(sp.inside) > 0 {
			floor = worseOf(floor, untrustedVerdict("PATH directory "+sp.inside[0],
				"a program named "+arg0+" may have been written into it"))
		}
	}
	name := base
	safeOK := true
	if !plainCommandName(base) {
		name, safeOK, floor = r.oddName(base, floor)
	}
	kind := programs.KindOf(name)
	if kind == programs.KindPlain && name != "" && name[len(name)-1] >= '0' && name[len(name)-1] <= '9' {
		if k := programs.KindOf(versionless(name)); k == programs.KindShell {
			kind, name = k, versionless(name)
		}
	}

	switch kind {
	case programs.KindShell:
		return worseOf(r.shellWrapper(name, argv, cwd, depth), floor)
	case programs.KindForeignShell:
		return worseOf(mkVerdict(Inscrutable, "rule: shell language not parsed",
			name+" scripts are not analysed"), floor)
	case programs.KindXargs:
		return worseOf(mkVerdict(Inscrutable, "rule: xargs",
			"xargs runs commands built from its input"), floor)
	}

	// Transparent wrappers.
	if kind == programs.KindWrapper {
		if u, ok := programs.Unwrap(name, argv[1:]); ok {
			if u.Problem != "" {
				return worseOf(mkVerdict(Inscrutable, "rule: wrapper "+name, u.Problem), floor)
			}
			if u.Inner != nil {
				inner := r.wrapped(name, u, cwd, depth, fromScript)
				v := worseOf(inner, r.envSettings(u.Assigns))
				v = worseOf(v, floor)
				v.argv = inner.argv
				return v
			}
			if len(u.Assigns) > 0 {
				return worseOf(mkVerdict(None, "rule: env without a command", "prints an altered environment"), floor)
			}
		}
	}

	// Substitutions in an argv that no shell parses: the caller expected a
	// shell.
	if !fromScript && len(argv) > 1 {
		if i := substitutionIn(argv); i >= 0 {
			return mkVerdict(Inscrutable, "rule: shell syntax in argv",
				fmt.Sprintf("argument %d (%q) holds shell substitution syntax, but argv is not run by a shell", i, argv[i]))
		}
	}

	// git's global options.
	args := argv
	gitAt := "" // where git looks for its repository, -C applied
	// gitHooks: the repository's hooks that the git command runs, when
	// they are the project's (see gitRepository); applied after the lists.
	gitHooks := safeCmdVerdict
	if kind == programs.KindGit {
		norm, dirs, problem := programs.GitGlobals(argv)
		if problem != "" {
			floor = worseOf(floor, mkVerdict(Dangerous, "rule: git global option", problem))
		} else if len(norm) != len(argv) {
			args = norm
			for _, d := range dirs {
				if pv := r.pathArg(d, cwd, false); pv.res != Safe {
					floor = worseOf(floor, pv)
				}
			}
		}
		if problem == "" {
			gitAt = cwd
			for _, d := range dirs {
				gitAt = atCwd(gitAt, d)
			}
			if gv := r.gitRepository(cwd, dirs, args[1:]); gv.project {
				gitHooks = gv
			} else if gv.res != Safe {
				floor = worseOf(floor, gv)
			}
		}
	}

	// The lists, safe > blocked > dangerous.
	v, sp := r.match(name, args, safeOK)
	listed := v
	if kind == programs.KindRemoteCopy && v.res != Safe {
		for _, a := range args[1:] {
			if programs.RsyncRemoteOperand(a) {
				v = mkVerdict(Blocked, "blocked: rsync to a remote host",
					"copies files to or from another host over the network")
				break
			}
		}
	}
	if sp != nil && v.res == Safe {
		v = r.specVerdict(sp, v, args, cwd)
	}
	if sp != nil && v.res == Safe && (sp.RustModules || sp.RustCrate) {
		v = worseOf(v, r.rustSources(sp, args, cwd))
	}
	if gitAt != "" && sp != nil && v.res == Safe {
		v = worseOf(v, r.gitContents(sp, args, gitAt))
		v = worseOf(v, r.gitImplicitNoIndex(sp, args, gitAt))
		v = worseOf(v, r.gitWholeTree(sp, args, gitAt))
	}
	if v.res == Safe && (r.sandbox != "" || r.untrusted) {
		v = worseOf(v, r.projectFiles(name, args[1:], cwd))
		v = worseOf(v, r.runsGit(name, args[1:], cwd))
	}
	v = r.projectCode(name, args, cwd, v, listed, sp == nil)
	if gitHooks.project {
		v = withProjectHooks(v, gitHooks)
	}
	v = worseOf(v, r.operands(name, args, cwd, sp == nil))
	if v.res != Safe && v.res != Blocked {
		v = worseOf(v, r.writesOutside(name, args, cwd))
	}
	if floor.res != Safe {
		v = worseOf(v, floor)
	}
	return v
}

// protectedHooks reports whether a core.hooksPath value names a directory
// inside the sandbox whose files the authorizer protects from writes (as
// .husky/ and .githooks/ are by default), so that the model cannot put a
// hook there without a person.
func (r *cmdClassifier) protectedHooks(root, value string) bool {
	if value == "" || value[0] == '~' {
		return false
	}
	dir := value
	if !filepath.IsAbs(dir) {
		dir = root + "/" + dir
	}
	dir = pathres.Clean(dir)
	resolved, inside, err := r.contains(dir)
	if err != nil || !inside {
		return false
	}
	hook := "/pre-commit"
	return ProtectedFor(r.protected, true, r.sandbox, root, dir+hook, resolved+hook) != nil
}

// plainCommandName reports a name made only of lower-case ASCII letters,
// digits and . _ + - (the common case, checked without allocating).
func plainCommandName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '+' || c == '-') {
			return false
		}
	}
	return !strings.HasSuffix(s, ".exe")
}

// oddName handles a command name that is not plain: case variants,
// non-ASCII look-alikes, quoting characters. It returns the name to look up
// and whether the command may still be safe, and worsens floor.
func (r *cmdClassifier) oddName(base string, floor Verdict) (string, bool, Verdict) {
	name := normalizeCommandName(base)
	// A program whose real name has capitals (R, Rscript) may be safe
	// when written exactly so.
	safeOK := name == base || programs.CasedName(base)
	switch {
	case hasSpace(base) && isASCIIName(strings.Join(strings.Fields(base), "")):
		// `check -- 'ls -la'`: one argument holding a whole command line.
		name = strings.Fields(base + " x")[0]
		safeOK = false
		floor = worseOf(floor, mkVerdict(Dangerous, "rule: command name with spaces",
			fmt.Sprintf("%q is one argument with spaces, so no program of that name exists; pass the words separately, or use bash -c for a shell command line", base)))
	case !isASCIIName(base):
		name = foldLookAlikes(base)
		safeOK = false
		floor = worseOf(floor, mkVerdict(Dangerous, "rule: non-ASCII command name",
			fmt.Sprintf("%q contains characters outside ASCII, which can imitate another command", base)))
	}
	if name != "[" && strings.ContainsAny(name, "\\'\"$`*?[]{}()<>|&;= ") {
		name = strings.Map(func(c rune) rune {
			if strings.ContainsRune("\\'\"", c) {
				return -1
			}
			return c
		}, name)
		safeOK = false
		floor = worseOf(floor, mkVerdict(None, "rule: unusual command name",
			fmt.Sprintf("%q holds quoting or shell characters", base)))
	}
	if !safeOK && floor.res == Safe {
		floor = mkVerdict(None, "rule: command name in unusual case",
			fmt.Sprintf("%q is not written in lower case; it is never auto-allowed", base))
	}
	return name, safeOK, floor
}

// match applies the lists to args (a normalised argv). A safe verdict from
// a matcher derived from a program spec comes with that spec; so does a
// command on no list that a spec-backed safe matcher would have matched but
// for its unsafe options, so that the spec can say what was wrong.
func (r *cmdClassifier) match(name string, args []string, safeOK bool) (Verdict, *programs.Spec) {
	if safeOK {
		if cm := r.s.safe.lookup(name, args[1:]); cm != nil {
			return Verdict{res: Safe, rule: cm.rule, reason: cm.m.Reason}, cm.spec
		}
		if r.grantMatches(name, args) {
			// The grant's spec, when it is a spec's own matcher, reads
			// the argv as it would on the list. (A grant excepts no
			// flag, so it matches whenever its prefix does, and specOf
			// below never needs to consider it.)
			return Verdict{res: Safe, rule: r.grant.rule, reason: r.grant.m.Reason}, r.grant.spec
		}
	}
	var sp *programs.Spec
	if safeOK {
		// The spec is the only reader of the argv: where the matcher's
		// flag recognition and the program's parsing disagree (rg -e -z:
		// -z is a pattern), the spec decides whether the safe entry
		// matches.
		if sp = r.s.safe.specOf(name, args); sp != nil && specUnderstood(sp, args) {
			return Verdict{res: Safe, rule: "safe: " + specMatcher(sp).String(), reason: sp.Reason}, sp
		}
	}
	v := r.matchUnsafe(name, args)
	if v.res == None && sp != nil {
		// Not safe for a reason the spec names.
		return Verdict{res: Safe, rule: "safe: " + specMatcher(sp).String(), reason: sp.Reason}, sp
	}
	return v, nil
}

// grantMatches reports whether the session grant being tried matches args
// (a normalised argv), as it would at the end of the safe list: under
// name, or under name without its version suffix.
func (r *cmdClassifier) grantMatches(name string, args []string) bool {
	g := r.grant
	if g == nil {
		return false
	}
	want := normalizeCommandName(g.m.Command)
	return (want == name || want == versionless(name)) && matchArgs(&g.m, g.style, args[1:])
}

// matchUnsafe applies the blocked and dangerous lists.
func (r *cmdClassifier) matchUnsafe(name string, args []string) Verdict {
	if cm := r.s.blocked.lookup(name, args[1:]); cm != nil {
		return Verdict{res: Blocked, rule: cm.rule, reason: cm.m.Reason}
	}
	if cm := r.s.dangerous.lookup(name, args[1:]); cm != nil {
		return Verdict{res: Dangerous, rule: cm.rule, reason: cm.m.Reason}
	}
	return Verdict{res: None, rule: "rule: on no list",
		reason: "the command is understood but on no list; a person decides"}
}

// pathIsUnset reports whether the command being classified runs with PATH
// unset: after a wrapper that removed it, or, read on first need, because
// this process has none (the shells it starts then use their own default).
func (r *cmdClassifier) pathIsUnset() bool {
	if !r.pathKnown {
		_, set := os.LookupEnv("PATH")
		r.pathUnset, r.pathKnown = !set, true
	}
	return r.pathUnset
}

// wrapped classifies the command a transparent wrapper runs. A wrapper
// that removes PATH, or one started with PATH unset, finds its command with
// the C library's default search path; the command then runs with PATH
// unset.
func (r *cmdClassifier) wrapped(name string, u programs.Unwrapped, cwd string, depth int, fromScript bool) Verdict {
	unset, clears := r.pathIsUnset(), programs.ClearsPath(u.Assigns)
	if !clears && !unset {
		return r.argv(u.Inner, cwd, depth+1, fromScript)
	}
	saved := r.pathUnset
	defer func() { r.pathUnset = saved }()
	if u.ShellExec && !r.pathUnset {
		// The shell finds exec's command with its own PATH; the command
		// starts without one.
		r.pathUnset = true
		return r.argv(u.Inner, cwd, depth+1, fromScript)
	}
	r.pathUnset = true
	return r.withSearchPath(libcDefaultPath, func() Verdict {
		return r.argv(u.Inner, cwd, depth+1, fromScript)
	})
}

// shellWrapper classifies sh/bash/... argv. A shell started with PATH unset
// finds the commands of its script with its built-in default.
func (r *cmdClassifier) shellWrapper(name string, argv []string, cwd string, depth int) Verdict {
	ds, _ := programs.ShellGrammars(name) // a name of programs.KindShell
	if r.pathIsUnset() {
		return r.withSearchPath(programs.ShellDefaultPath(name), func() Verdict {
			return r.shellInvocation(ds, argv, cwd, depth)
		})
	}
	return r.shellInvocation(ds, argv, cwd, depth)
}

// shellInvocation classifies a shell's argv, reading a -c script with each
// of the grammars ds.
func (r *cmdClassifier) shellInvocation(ds []shell.Dialect, argv []string, cwd string, depth int) Verdict {
	sc := programs.ParseShellInvocation(argv[1:])
	switch {
	case sc.Problem != "":
		return mkVerdict(Inscrutable, "rule: shell invocation", sc.Problem)
	case !sc.HasC:
		v := r.scriptFile(commandBase(argv[0]), sc.File, cwd, mkVerdict(None, "rule: shell runs a script file",
			"the script "+sc.File+" is not analysed"))
		return worseOf(v, r.pathArg(sc.File, cwd, false))
	}
	if depth+1 > maxDepth {
		return mkVerdict(Inscrutable, "rule: nesting too deep", "shells nested too deep")
	}
	src := sc.Script
	if words, ok := shell.PlainWords(src); ok && (ds[0] != shell.Zsh || !anyHasPrefix(words, "=")) {
		// Plain words are read alike by every grammar.
		return r.argv(words, cwd, depth+1, true)
	}
	var v Verdict
	var prev *shell.Script
	for i, d := range ds {
		var dv Verdict
		parsed, err := shell.Parse(src, d)
		switch {
		case err != nil:
			reason := err.Error()
			if ie, ok := err.(*shell.InscrutableError); ok {
				reason = ie.Reason
			}
			dv = mkVerdict(Inscrutable, "rule: shell "+firstWords(reason), reason)
		case prev != nil && !parsed.HasGlobs() && parsed.Equal(prev):
			continue // the same commands: the same answer
		default:
			dv = r.script(parsed, d, cwd, depth+1)
			prev = parsed
		}
		if i == 0 || dv.res.rank() > v.res.rank() {
			v = dv
		}
		if v.res == Blocked {
			break
		}
	}
	return v
}

// script classifies a script read with grammar d.
func (r *cmdClassifier) script(sc *shell.Script, d shell.Dialect, cwd string, depth int) Verdict {
	savedDialect := r.dialect
	r.dialect = d
	defer func() { r.dialect = savedDialect }()
	if len(sc.Commands) == 1 {
		return r.command(sc.Commands[0], cwd, depth)
	}
	if !r.split {
		return mkVerdict(Inscrutable, "rule: compound script",
			"pipelines and lists are inscrutable unless per-segment analysis is on")
	}
	// cur holds the directories the next segment may run in, all every
	// directory seen. A cd changes cur for the segments joined to it by
	// && (which run only if it succeeded); after ;, || or a pipe, any
	// directory seen so far is possible.
	cur := []string{cwd}
	all := []string{cwd}
	overall := mkVerdict(Safe, "rule: every segment is safe", "each command of the script is safe")
	segs := make([]Verdict, len(sc.Commands))
	// Once a segment may write, the later ones are judged without trusting
	// the file system (untrusted); the segments of one pipeline run at the
	// same time, so a writer among them makes the others untrusted too.
	savedUntrusted := r.untrusted
	defer func() { r.untrusted = savedUntrusted }()
	wrote := savedUntrusted
	// Per segment: the directories it was judged in, whether it was judged
	// trusting the file system, and whether it may write.
	type segState struct {
		cur                     []string
		trusted, writes, inPipe bool
		rejudged                bool // judged again, untrusted, for a writer of its pipeline
	}
	var buf [8]segState
	st := buf[:0]
	if len(sc.Commands) > len(buf) {
		st = make([]segState, 0, len(sc.Commands))
	}
	for i, c := range sc.Commands {
		inPipe := (i > 0 && strings.HasPrefix(sc.Ops[i-1], "|")) || (i < len(sc.Ops) && strings.HasPrefix(sc.Ops[i], "|"))
		r.untrusted = wrote
		v, dirs := r.segment(c, cur, depth, inPipe)
		segs[i] = v
		st = append(st, segState{cur: cur, trusted: !wrote, writes: r.segmentWrites(c, v, cur), inPipe: inPipe})
		next := cur
		if len(dirs) > 0 {
			next = dirs
			for _, d := range dirs {
				if !slices.Contains(all, d) {
					all = append(all, d)
				}
			}
		}
		if i < len(sc.Ops) && sc.Ops[i] == "&&" {
			cur = next
		} else {
			cur = all
		}
		wrote = wrote || st[i].writes
	}
	// A pipeline's segments run together: one judged before a writer of
	// its pipeline was seen is judged again, untrusted.
	for first := 0; first < len(sc.Commands); {
		last := first
		for last < len(sc.Ops) && strings.HasPrefix(sc.Ops[last], "|") {
			last++
		}
		for i := first; i <= last; i++ {
			if !st[i].trusted {
				continue
			}
			for j := first; j <= last; j++ {
				if j != i && st[j].writes {
					r.untrusted = true
					segs[i], _ = r.segment(sc.Commands[i], st[i].cur, depth, last > first)
					st[i].rejudged = true
					break
				}
			}
		}
		first = last + 1
	}
	// The segments that are dangerous only for the distrust, when no other
	// segment is dangerous for another reason (see projectScript): judged
	// again trusting the file system, one that is safe is marked stale,
	// and one that is project code takes that verdict.
	if !savedUntrusted {
		candidates := false
		for i := range segs {
			switch {
			case segs[i].res == Safe || segs[i].project:
				continue
			case segs[i].res == Dangerous && (!st[i].trusted || st[i].rejudged):
				candidates = true
				continue
			}
			candidates = false
			break
		}
		for i := range segs {
			if !candidates {
				break
			}
			if segs[i].res != Dangerous || segs[i].project {
				continue
			}
			r.untrusted, r.rejudging = false, true
			tv, _ := r.segment(sc.Commands[i], st[i].cur, depth, st[i].inPipe)
			r.rejudging = false
			switch {
			case tv.project:
				tv.stale = true
				segs[i] = tv
			case tv.res == Safe:
				segs[i].stale = true
			}
		}
		besideProject := anyProject(segs)
		for i := range segs {
			if segs[i].stale && !segs[i].project {
				segs[i] = afterWrite(segs[i], besideProject)
			}
		}
	}
	for _, v := range segs {
		overall = worseOf(overall, v)
	}
	overall = projectScript(overall, segs)
	overall.segs = segs
	overall.argv = nil
	return overall
}

// segment classifies one command of a compound script in each directory
// it may run in, and for a cd outside a pipeline returns the directories
// it leads to.
func (r *cmdClassifier) segment(c shell.Command, cur []string, depth int, inPipe bool) (Verdict, []string) {
	var v Verdict
	var dirs []string
	if len(c.Args) > 0 && programs.ChangesDirectory(c.Args[0]) {
		v, dirs = r.cd(c, cur)
		if inPipe {
			dirs = nil
		}
	} else {
		for k, wd := range cur {
			cv := r.command(c, wd, depth)
			if k == 0 {
				v = cv
			} else {
				v = worseOf(v, cv)
			}
		}
	}
	if v.argv == nil {
		v.argv = c.Args
	}
	return v, dirs
}

func anyHasPrefix(words []string, p string) bool {
	for _, w := range words {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return false
}

// firstWords shortens an inscrutable reason to a rule name ("command
// substitution", "syntax error").
func firstWords(reason string) string {
	if i := strings.IndexAny(reason, ":("); i > 0 {
		reason = reason[:i]
	}
	return strings.TrimSpace(reason)
}

// command classifies one simple command from a parsed script: its
// assignments, its argv and its redirections.
func (r *cmdClassifier) command(c shell.Command, cwd string, depth int) Verdict {
	var v Verdict
	if len(c.Args) > 0 {
		v = r.expanded(c, cwd, depth)
	} else {
		v = mkVerdict(Safe, "rule: shell variable assignment", "sets shell variables")
	}
	for _, a := range c.Assigns {
		if res, why := envClass(a.Name, a.Value); res != Safe {
			v = worseOf(v, mkVerdict(res, "rule: environment assignment "+a.Name, why))
		}
	}
	for _, rd := range c.Redirs {
		v = worseOf(v, r.redirect(rd, cwd))
	}
	return v
}

// cd classifies cd/pushd/popd in a list and returns the new directory (""
// when unknown or unchanged).
func (r *cmdClassifier) cd(c shell.Command, cwds []string) (Verdict, []string) {
	v := mkVerdict(Safe, "rule: cd inside the sandbox", "changes directory inside the sandbox")
	for _, a := range c.Assigns {
		if res, why := envClass(a.Name, a.Value); res != Safe {
			v = worseOf(v, mkVerdict(res, "rule: environment assignment "+a.Name, why))
		}
	}
	for _, rd := range c.Redirs {
		v = worseOf(v, r.redirect(rd, cwds[0]))
	}
	dc, _ := programs.ChangeDirectory(c.Args)
	switch {
	case dc.Problem != "":
		return mkVerdict(Inscrutable, "rule: "+c.Args[0]+" with arguments", dc.Problem), nil
	case dc.Back:
		return v, nil // back to a directory seen before
	case dc.Dir == "" || c.Globs != nil && slices.Contains(c.Globs, true):
		return mkVerdict(Dangerous, "rule: cd outside the sandbox",
			"cd without a plain directory goes to $HOME, $OLDPWD or somewhere unknown"), nil
	}
	dir := dc.Dir
	var dirs []string
	for _, wd := range cwds {
		pv := r.pathArg(dir, wd, false)
		if pv.res != Safe {
			if !r.untrusted {
				pv.rule = "rule: cd outside the sandbox: " + dir
			}
			return pv, nil
		}
		if r.sandbox == "" {
			continue // relative paths stay relative to an unknown directory
		}
		p := dir
		if !strings.HasPrefix(p, "/") {
			p = wd + "/" + p
		}
		res, inside, err := r.contains(p)
		if err != nil || !inside {
			return mkVerdict(Dangerous, "rule: cd outside the sandbox: "+dir, "the directory resolves outside the sandbox"), nil
		}
		dirs = append(dirs, res)
	}
	return v, dirs
}

// envSettings classifies env NAME=VALUE settings.
func (r *cmdClassifier) envSettings(settings []programs.EnvSetting) Verdict {
	v := safeCmdVerdict
	for _, s := range settings {
		if s.Unset {
			continue // removing a variable: PATH is followed by wrapped
		}
		if res, why := envClass(s.Name, s.Value); res != Safe {
			v = worseOf(v, mkVerdict(res, "rule: environment assignment "+s.Name, why))
		}
	}
	return v
}

// ShellSyntaxIn reports whether an argv element is a shell operator or
// holds a substitution: given as an argv, such an element is read
// differently than in a script (see shellOperatorIn, substitutionIn).
func ShellSyntaxIn(argv []string) bool {
	_, i := shellOperatorIn(argv)
	return i >= 0 || substitutionIn(argv) >= 0
}

// ShellOperatorIndex returns the index of the first argv element that is
// a shell operator (see shellOperatorIn), or -1.
func ShellOperatorIndex(argv []string) int {
	_, i := shellOperatorIn(argv)
	return i
}

// shellOperatorIn returns the first argv element that is a shell operator
// (shell.IsOperator), except find's own ";" after -exec.
//
// Elements holding substitutions are looked for separately (substitutionIn)
// once shell wrappers are unwrapped, since a -c script may hold them.
func shellOperatorIn(argv []string) (string, int) {
	if !slices.ContainsFunc(argv, shell.IsOperator) {
		return "", -1 // the common case, without looking for find
	}
	sawFind, inExec := false, false
	for i, a := range argv {
		switch {
		case !sawFind && programs.IsFind(commandBase(a)):
			sawFind = true
		case sawFind && programs.FindExecAction(a):
			inExec = true
		case inExec && a == ";":
			// The terminator of find -exec CMD ;, which
			// the program receives as an argument: not shell syntax. The
			// action itself is judged by the program's rules.
			inExec = false
			continue
		}
		if shell.IsOperator(a) {
			return a, i
		}
	}
	return "", -1
}

// hasSpace reports whether s holds ASCII white space.
func hasSpace(s string) bool { return strings.ContainsAny(s, " \t\n\r\v\f") }

// substitutionIn returns the index of the first element holding a
// substitution (shell.HasSubstitution), or -1.
func substitutionIn(argv []string) int {
	return slices.IndexFunc(argv, shell.HasSubstitution)
}

// commandPath judges a path-qualified command name.
func (r *cmdClassifier) commandPath(arg0, cwd string) Verdict {
	if r.sandbox == "" {
		return mkVerdict(Dangerous, "rule: path-qualified command: "+arg0,
			"with no sandbox known, a command given by path may lie outside the sandbox")
	}
	if pv := r.pathArg(arg0, cwd, false); pv.res != Safe {
		if systemProgram(arg0) {
			return safeCmdVerdict // classified by its base name
		}
		if !r.untrusted {
			pv.rule = "rule: command outside sandbox: " + arg0
			pv.reason = "the program lies outside the sandbox"
		}
		return pv
	}
	return mkVerdict(None, "rule: program inside the sandbox",
		arg0+" is a program inside the sandbox; what it does is unknown")
}

// writesOutside looks, for a command that is not safe, for the words its
// program's spec says it writes, creates or deletes, options it knows to be
// unsafe included (rm -rf ~): one outside the sandbox is a verdict that
// says so. A command without a spec, or with a word the spec does not
// understand, has none found here; its paths were judged as reads and
// writes alike by operands.
func (r *cmdClassifier) writesOutside(name string, args []string, cwd string) Verdict {
	if r.sandbox == "" {
		return safeCmdVerdict
	}
	sp := programs.Form(name, args[1:])
	if sp == nil {
		return safeCmdVerdict
	}
	words, ok := programs.Writes(sp, args[1+len(sp.Prefix):])
	if !ok {
		return safeCmdVerdict
	}
	for _, w := range words {
		if pv := r.pathArg(w, cwd, true); pv.writeOut {
			return pv
		}
	}
	return safeCmdVerdict
}

// operands checks every argument of args that may name a file.
func (r *cmdClassifier) operands(name string, args []string, cwd string, walk bool) Verdict {
	bad := safeCmdVerdict
	if !walk {
		return bad // a spec named the files
	}
	// No spec says what the words are: each one that may name a file is
	// judged both as a read and as a write.
	pathWords(flagStyleOf(name), args[1:], func(p string) bool {
		pv := r.pathArg(p, cwd, false)
		if pv.res == Safe {
			pv = r.pathArg(p, cwd, true)
		}
		if pv.res != Safe {
			bad = worseOf(bad, pv)
			return false
		}
		return true
	})
	return bad
}

// harmlessDevices are paths that read or write nothing.
func isHarmlessDevice(p string) bool {
	switch p {
	case "/dev/null", "/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero", "/dev/urandom", "/dev/random", "-":
		return true
	}
	fd, ok := strings.CutPrefix(p, "/dev/fd/")
	return ok && fd != "" && strings.Trim(fd, "0123456789") == ""
}

// pathArg judges one argument that may name a file: safeCmdVerdict when it
// stays inside the sandbox (or, with no sandbox known, cannot point
// outside), dangerous otherwise.
func (r *cmdClassifier) pathArg(p, cwd string, writes bool) Verdict {
	if p == "" || isHarmlessDevice(p) {
		return safeCmdVerdict
	}
	if p[0] == '~' {
		return outsideVerdict(p, "", writes, "a ~ path names the home directory, outside the sandbox")
	}
	if r.sandbox == "" {
		if p[0] == '/' || pathres.HasDotDot(p) {
			v := mkVerdict(Dangerous, "rule: path outside sandbox: "+p,
				"with no sandbox known, an absolute or .. path may point outside it")
			v.outside = true
			return v
		}
		if writes && inGitDir(p) {
			return mkVerdict(Dangerous, "rule: writes into .git: "+p,
				"files in .git (hooks, config) make later git commands run programs")
		}
		if r.untrusted {
			return untrustedVerdict("path "+p, "it may now be a link leading elsewhere")
		}
		return safeCmdVerdict
	}
	abs := atCwd(cwd, p)
	resolved, inside, err := r.contains(abs)
	if err != nil || !inside {
		return outsideVerdict(p, abs, writes, "the path resolves outside the sandbox")
	}
	if writes && inGitDir(resolved) {
		return mkVerdict(Dangerous, "rule: writes into .git: "+p,
			"files in .git (hooks, config) make later git commands run programs")
	}
	if writes && r.searchPath != nil {
		if dir, ok := r.searchPath.Holds(abs, resolved); ok {
			return mkVerdict(Dangerous, "rule: writes into a PATH directory: "+p,
				dir+" is on PATH: a program written there would run in place of a trusted one")
		}
	}
	if len(r.protected) > 0 {
		op := "read"
		if writes {
			op = "write"
		}
		if rule := ProtectedFor(r.protected, writes, r.sandbox, r.sandboxRoot(), abs, resolved); rule != nil {
			return mkVerdict(Dangerous, "rule: protected path "+rule.Pattern+": "+p,
				"the command would "+op+" a protected path; a person decides")
		}
	}
	if r.untrusted {
		return untrustedVerdict("path "+p, "it may now be a link leading elsewhere, or a protected file")
	}
	return safeCmdVerdict
}

// outsideVerdict is the verdict of a path p (abs: absolute, "" for a ~
// path) outside the sandbox, written to when writes. A write is refused by the Sandbox policy (writesOutside)
// unless p lies beneath the temporary directory, where a command's logs
// and scratch files go (go test > /tmp/out.log asks, as it did).
func outsideVerdict(p, abs string, writes bool, reason string) Verdict {
	if writes {
		v := mkVerdict(Dangerous, "rule: writes outside sandbox: "+p, "the command would write, create or delete "+p+", outside the sandbox")
		v.outside, v.writeOut, v.writesOutside = true, true, !inTempDir(abs)
		return v
	}
	v := mkVerdict(Dangerous, "rule: path outside sandbox: "+p, reason)
	v.outside = true
	return v
}

// inTempDir reports whether the absolute path p resolves beneath the
// temporary directory (not to the directory itself).
func inTempDir(p string) bool {
	if !strings.HasPrefix(p, "/") {
		return false
	}
	tmp := os.TempDir()
	resolved, inside, err := pathres.Contains(tmp, p)
	if err != nil || !inside {
		return false
	}
	root, rootInside, err := pathres.Contains(tmp, tmp)
	return err == nil && rootInside && resolved != root
}

// atCwd returns p, taken from cwd when it is relative.
func atCwd(cwd, p string) string {
	if strings.HasPrefix(p, "/") {
		return p
	}
	return cwd + "/" + p
}

// inGitDir reports whether p names .git or lies in it, at any depth and in
// any letter case (.GIT is .git on case-insensitive file systems).
func inGitDir(p string) bool {
	for _, e := range strings.Split(p, "/") {
		if strings.EqualFold(e, ".git") {
			return true
		}
	}
	return false
}

// gitRepository checks the repository a git command would use (cwd, then
// each -C directory; args are the words after git's global options) with
// git's own discovery, configuration, hooks and layout: see
// internal/repotrust. With no sandbox known, -C is enough to be dangerous.
func (r *cmdClassifier) gitRepository(cwd string, dirs []string, args []string) Verdict {
	if r.untrusted {
		return untrustedVerdict("git repository", "its configuration, hooks or location may have changed")
	}
	if r.sandbox == "" {
		if len(dirs) > 0 {
			return mkVerdict(Dangerous, "rule: git repository not known",
				"with no sandbox known, git -C may use any repository, whose configuration may name programs to run")
		}
		return safeCmdVerdict
	}
	dir := cwd
	for _, d := range dirs {
		dir = atCwd(dir, d)
	}
	f, ok := r.repoFacts(dir)
	if !ok {
		return mkVerdict(Dangerous, "rule: git repository outside the sandbox",
			"git would run in a directory outside the sandbox, whose repository configuration may name programs to run")
	}
	root := f.WorkTree
	if root == "" {
		root = r.sandboxRoot()
	}
	cmd := repotrust.GitCommand(args)
	projectHooks := "" // a core.hooksPath directory of the project's
	j := f.Judge(cmd, func(p repotrust.Problem) bool {
		if p.Setting != "core.hookspath" {
			return false
		}
		if r.protectedHooks(root, p.Value) {
			return true
		}
		if dir, ok := r.hooksDirInside(root, p.Value); ok {
			projectHooks = dir
			return true
		}
		return false
	}, func(h repotrust.Hook) bool {
		_, inside, err := r.contains(h.Path)
		return err == nil && inside
	})
	switch {
	case !j.OK:
		return mkVerdict(Dangerous, "rule: repository not trusted: "+j.Subject, j.Reason)
	case j.Hook != nil:
		runs := " runs"
		if cmd.AnyHook {
			runs = " may run" // not known to run only some hooks
		}
		v := projectVerdict("git " + cmd.Name + runs + " the repository's " + j.Hook.Name + " hook (" + j.Hook.Path + ")")
		v.reason = repoHookReason
		return v
	case projectHooks != "":
		v := projectVerdict("git " + cmd.Name + " takes its hooks from " + projectHooks + ", a directory of the project (core.hookspath)")
		v.reason = repoHookReason
		return v
	}
	return safeCmdVerdict
}

// hooksDirInside returns the directory a core.hooksPath value names (taken
// from root, the work tree, when relative) and whether it lies inside the
// sandbox. A ~ path is never inside: git expands it with a HOME that is
// not known here.
func (r *cmdClassifier) hooksDirInside(root, value string) (string, bool) {
	if value == "" || value[0] == '~' {
		return "", false
	}
	dir := value
	if !filepath.IsAbs(dir) {
		dir = root + "/" + dir
	}
	dir = pathres.Clean(dir)
	_, inside, err := r.contains(dir)
	return dir, err == nil && inside
}

// repoFacts returns the facts of the repository git finds from dir (from
// the cache when nothing they came from changed), or false when dir does
// not lie inside the sandbox. A sandbox must be known.
func (r *cmdClassifier) repoFacts(dir string) (*repotrust.Facts, bool) {
	d, inside, err := r.contains(dir)
	if err != nil || !inside {
		return nil, false
	}
	f, _ := r.s.repos.Facts(repotrust.Site{Cwd: d, Sandbox: r.sandboxRoot(), Env: os.LookupEnv})
	return f, true
}

// redirect judges one redirection of a script command.
func (r *cmdClassifier) redirect(rd shell.Redirect, cwd string) Verdict {
	if rd.IsDup() || isHarmlessDevice(rd.Target) {
		return safeCmdVerdict
	}
	if r.sandbox == "" {
		return mkVerdict(Dangerous, "rule: file redirection with no sandbox known: "+rd.Op+rd.Target,
			"with no sandbox known, a redirection may read or write outside it")
	}
	pv := r.pathArg(rd.Target, cwd, rd.Writes())
	if pv.outside {
		pv.rule = "rule: redirection outside sandbox: " + rd.Op + rd.Target
		if rd.Writes() {
			pv.reason = "the redirection writes outside the sandbox"
		}
	}
	return pv
}
