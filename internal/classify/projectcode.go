package classify

import (
	"os"
	"slices"
	"strings"

	"github.com/sandboxauth/sandboxauth/internal/programs"
)

// Project code.
//
// A command whose behaviour is defined by files in the project (tests,
// build scripts, package scripts, makefiles, ./script.sh, configuration
// files that are code) runs whatever the model wrote there, and no
// classifier can see what that is. Such a command is labelled: its class
// becomes dangerous with Classification.ProjectCode set, so that without
// confinement a person is asked (and may grant it for the session), and
// with WithConfinement the Sandbox and Permissive policies allow it.
//
// The label is applied only where the command's lists decided alone: a
// project-code command that is dangerous for another reason too (a path
// outside the sandbox, an environment variable, an option that is not
// allow-listed) keeps that reason, and a blocked one stays blocked. A
// command the caller's own safe matcher (AddSafe, a session grant) declares
// safe stays safe: the user vouched for it. That holds where a default
// entry matches the command too (go test, cargo test, pytest): a safe entry
// of the user's own that matches is final (the policy file reports it as
// a widening). Matchers given to WithProjectCode label their commands
// whatever the lists say.

// ProjectRule is the rule prefix of a project-code verdict ("rule: project
// code: go test").
const ProjectRule = "rule: project code: "

// ownSafeReason is the reason given for project code that a safe entry of
// the user's own (one with no reason of its own) lets run.
const ownSafeReason = "a safe entry of the user's own matches this command; it decides for project code too"

// ProjectCodeReason is the reason given for a project-code verdict, unless
// one of the reasons below says more.
const ProjectCodeReason = "runs code defined by files in the project (tests, build or package scripts, configuration that is code), which the classifier cannot see"

// The reasons of the project-code verdicts of code the model chose.
const (
	inlineCodeReason  = "runs code given on the command line or standard input, which the model chose: it reaches no further than a file the model could have written in the project"
	pathProgramReason = "runs a program found in a PATH directory inside the sandbox, which the project or the model put there"
	repoHookReason    = "runs a hook of the repository's own, a program in the project"
)

// projectCode labels v as project code when the lists decided it alone
// (v is still listed, the lists' own verdict) and the command runs project
// code. Blocked and inscrutable commands are never labelled, nor is a
// command that a safe matcher of the caller's own (one no program spec
// backs: AddSafe, a session grant) declared safe: the user has vouched for
// it.
func (r *cmdClassifier) projectCode(name string, args []string, cwd string, v, listed Verdict, noSpec bool) Verdict {
	if v.res != listed.res || v.rule != listed.rule || v.res == Blocked || v.res == Inscrutable {
		return v
	}
	what, why := r.userProjectRule(name, args), ""
	if what == "" {
		if v.res == Safe && noSpec {
			return v
		}
		what, why = r.projectCodeRule(name, args, cwd, v.res == Safe || v.res == None)
		if why == inlineCodeReason && v.res == Dangerous && v.reason != "" {
			why = v.reason // the lists' own words: "runs inline code or a module"
		}
		if what != "" && v.res == Safe {
			// A default entry matched first; a safe entry of the user's
			// own (or the session grant being tried) that matches too is
			// final, project code included.
			cm := r.s.safe.ownLookup(name, args[1:])
			if cm == nil && r.grant != nil && r.grant.spec == nil && r.grantMatches(name, args) {
				// A session grant is tried as if at the end of the list.
				cm = r.grant
			}
			if cm != nil {
				v.rule, v.reason = cm.rule, ownSafeReason
				if cm.m.Reason != "" {
					v.reason = cm.m.Reason
				}
				return v
			}
		}
	}
	if what == "" {
		return v
	}
	if v.res != Safe && (r.guardedOut(name, args) || r.dangerousFlag(name, args) || specRejects(name, args) || programs.RunnerConfigOption(name, args[1:])) {
		// go test -exec x, pytest -p x: a safe entry for this very
		// command excludes one of its options. Confinement does not make
		// the excluded option harmless, so a person decides.
		return mkVerdict(Dangerous, "rule: project code with an excluded option: "+what,
			"runs project code with an option that its safe entry excludes (it may run other programs or read outside the sandbox); a person decides")
	}
	pv := projectVerdict(what)
	if why != "" {
		pv.reason = why
	}
	return pv
}

// specRejects reports whether the program spec of this command form (npm
// test, go test, ...) exists and does not accept its options: options are
// allow-listed for project code too (npm test --script-shell x).
func specRejects(name string, args []string) bool {
	for n := min(2, len(args)-1); n >= 0; n-- {
		if sp := programs.Lookup(name, args[1:1+n]); sp != nil {
			return !specUnderstood(sp, args)
		}
	}
	return false
}

// dangerousFlag reports whether a dangerous matcher with flags matched
// (npm test --script-shell x): the command is dangerous for an option, not
// for running project code. Interpreters are the exception: their inline
// code flags (python -c, node -e) are read by interpreterFile.
func (r *cmdClassifier) dangerousFlag(name string, args []string) bool {
	if programs.InterpreterOf(versionless(name)) != nil {
		return false
	}
	cm := r.s.dangerous.lookup(name, args[1:])
	return cm != nil && len(cm.m.Flags) > 0
}

// guardedOut reports whether a safe entry for this command (same name and
// argument prefix) exists: the command then matched none only because of
// the entry's excluded flags.
func (r *cmdClassifier) guardedOut(name string, args []string) bool {
	if g := r.grant; g != nil {
		if p, want := g.m.CommandArgsPrefix, normalizeCommandName(g.m.Command); (want == name || want == versionless(name)) && len(p) <= len(args)-1 && slices.Equal(args[1:1+len(p)], p) {
			return true
		}
	}
	for _, n := range []string{name, versionless(name)} {
		defaults, own := r.s.safe.named(n, firstWord(args[1:]))
		for _, cms := range [2][]compiledMatcher{defaults, own} {
			for i := range cms {
				if p := cms[i].m.CommandArgsPrefix; len(p) <= len(args)-1 && slices.Equal(args[1:1+len(p)], p) {
					return true
				}
			}
		}
	}
	return false
}

func projectVerdict(what string) Verdict {
	return Verdict{res: Dangerous, rule: ProjectRule + what, reason: ProjectCodeReason, project: true}
}

// scriptFile is the verdict of a shell running a script file (sh build.sh):
// project code when the file is inside the sandbox, else what it was.
func (r *cmdClassifier) scriptFile(shellName, file, cwd string, v Verdict) Verdict {
	if r.sandbox == "" || file == "" || r.pathArg(file, cwd, false).res != Safe {
		return v
	}
	return projectVerdict(shellName + " " + file)
}

// userProjectRule returns the caller's project-code matcher (WithProjectCode)
// that matches args, rendered, or "".
func (r *cmdClassifier) userProjectRule(name string, args []string) string {
	for i := range r.projectMatchers {
		m := &r.projectMatchers[i]
		want := normalizeCommandName(m.Command)
		if (want == name || want == versionless(name)) && matchArgs(m, flagStyleOf(want), args[1:]) {
			return m.String()
		}
	}
	return ""
}

// projectCodeRule returns what runs project code in args (argv with
// argv[0] as written; name is its normalised base name), e.g. "go test",
// or "" when it does not, and the reason to give when the common one
// (ProjectCodeReason) would not say it. unlisted is set when the lists found the command
// safe or on none of them: only then is a program found on PATH inside the
// sandbox labelled, so that a name the lists hold dangerous (npm install,
// rm -rf) keeps their answer whoever's program it is.
func (r *cmdClassifier) projectCodeRule(name string, args []string, cwd string, unlisted bool) (what, why string) {
	if arg0 := args[0]; strings.IndexByte(arg0, '/') >= 0 && r.sandbox != "" {
		if r.pathArg(arg0, cwd, false).res == Safe {
			return "program in the project " + arg0, ""
		}
	}
	if dir, ok := r.projectOnPath(args[0]); ok && unlisted {
		return "program in the project " + dir + "/" + args[0], pathProgramReason
	}
	if what, known := programs.RunsProjectCode(name, args[1:]); known {
		if op := programs.RevisionOperand(name, args[1:]); what != "" && op != "" && !r.existingInside(op, cwd) {
			// git reset X with X no file here: it may move the branch.
			return "", ""
		}
		return what, ""
	}
	in := programs.InterpreterOf(versionless(name))
	if in == nil {
		return "", ""
	}
	file, module, inline := in.Run(args[1:])
	switch {
	case module:
		return name + " " + in.Module(), ""
	case inline != "":
		// Code the model chose, on the command line: no more than a file
		// it could have written in the project and run.
		return name + " " + inline + " (inline code)", inlineCodeReason
	case file == "-":
		return name + " - (a script on standard input)", inlineCodeReason
	case file == "":
		return "", ""
	}
	return r.insideFile(name, file, cwd), ""
}

// projectOnPath returns the PATH directory inside the sandbox that holds a
// program named arg0 (written without a slash): node_modules/.bin, an
// activated .venv/bin, a project's bin/ on PATH. Such a program is the
// project's, as ./node_modules/.bin/vite is. Not with PATH unset for the
// command (its search is then the shell's default, not the PATH scanned)
// or while the file system is not trusted (see cmdClassifier.untrusted).
func (r *cmdClassifier) projectOnPath(arg0 string) (string, bool) {
	sp := r.searchPath
	if sp == nil || r.sandbox == "" || r.untrusted || sp.hasRelative || strings.IndexByte(arg0, '/') >= 0 || r.pathIsUnset() {
		return "", false
	}
	return sp.shadow(arg0)
}

// existingInside reports whether op, an operand that a program reads as a
// revision unless it names a file (git reset X), names an existing file or
// directory inside the sandbox, as the program will find it: not while the
// file system is not trusted, nor while a segment judged untrusted is
// judged again trusting it (an earlier segment of the script may have
// removed it: rm main && git reset main moves the branch).
func (r *cmdClassifier) existingInside(op, cwd string) bool {
	if r.sandbox == "" || r.untrusted || r.rejudging || r.pathArg(op, cwd, false).res != Safe {
		return false
	}
	_, err := os.Lstat(atCwd(cwd, op))
	return err == nil
}

// insideFile labels "name file" when file is an existing regular file
// inside the sandbox.
func (r *cmdClassifier) insideFile(name, file, cwd string) string {
	if r.sandbox == "" || file == "-" || r.pathArg(file, cwd, false).res != Safe {
		return ""
	}
	if fi, err := os.Stat(atCwd(cwd, file)); err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	return name + " " + file
}

// withProjectHooks applies hooks, the project-code verdict of a git
// command that runs the project's own hooks (see gitRepository), to v,
// the command's verdict after the lists: a command that is safe or
// project code becomes (or stays) project code, which confinement answers;
// one that the lists left to a person for another reason keeps that
// reason, and the hooks count as they did before they were the project's
// (the repository is not trusted), so that no hook lets confinement allow
// a command the lists would not.
func withProjectHooks(v, hooks Verdict) Verdict {
	switch {
	case v.res == Safe:
		return hooks
	case v.project:
		// Both are project code; the hooks are the more telling name.
		hooks.argv = v.argv
		return hooks
	}
	what := strings.TrimPrefix(hooks.rule, ProjectRule)
	plain := mkVerdict(Dangerous, "rule: repository not trusted: "+what, what+": a program in the repository")
	return worseOf(v, plain)
}

// afterWrite labels v, a segment of a script dangerous only for being
// judged without trusting the file system (stale: judged trusting it, it
// is safe), as project code: what it does rests on what an earlier
// segment wrote into the project, which confinement bounds. A segment
// after a write is judged without trusting the file system (the writer
// may have made a path a link, or the project code before it anything),
// and may be dangerous for that alone: `npm run build && npm test`,
// `go generate && cat out.txt`, `echo hi > f && cat f`. Every other
// segment of the script is safe or project code (no writer is dangerous:
// each wrote inside the sandbox, as judged), so that, confined, what the
// earlier segments wrote can lead the later one no further than project
// code itself reaches. Without confinement it is asked about, as before.
// beside names the rule after the project code of another segment, else
// after the write.
func afterWrite(v Verdict, beside bool) Verdict {
	v.project = true
	what := "after a write into the project, "
	if beside {
		what = "beside project code, "
	}
	v.rule = ProjectRule + what + strings.TrimPrefix(v.rule, "rule: ")
	return v
}

// projectScript keeps the project-code label of a compound script only
// when every segment is safe or project code itself: `foo && go test` is
// not allowed on the strength of confinement while `foo` alone is asked
// about (a segment dangerous only for what the project code before it may
// have written is project code itself: see afterProjectCode).
func projectScript(overall Verdict, segs []Verdict) Verdict {
	if !overall.project {
		return overall
	}
	for _, s := range segs {
		if s.res != Safe && !s.project {
			return mkVerdict(Dangerous, "rule: project code with another command: "+strings.Join(s.argv, " "),
				"the script runs project code and "+strings.Join(s.argv, " ")+", which is "+s.res.String()+" ("+s.rule+"); a person decides")
		}
	}
	return overall
}

// anyProject reports whether a segment of a script runs project code.
func anyProject(segs []Verdict) bool {
	for i := range segs {
		if segs[i].project {
			return true
		}
	}
	return false
}
