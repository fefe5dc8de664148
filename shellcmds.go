package sandboxauth

import (
	"errors"
	"slices"
	"strings"

	"github.com/sandboxauth/sandboxauth/internal/classify"
)

// ErrMatcherNotFound is returned (wrapped) by RemoveBlocked, RemoveDangerous
// and RemoveSafe when the matcher is not on the list. It is an input error,
// not a refusal: it does not match ErrDenied.
var ErrMatcherNotFound = errors.New("command matcher not found")

// ShellAllowedCommands keeps the blocked, dangerous and safe command lists
// and classifies shell commands against them. All methods are safe for
// concurrent use. The zero value has empty lists (every understood command
// is then "none"); NewShellAllowedCommands starts from the default lists.
//
// # Classes
//
//   - safe: on the safe list, with none of its dangerous flags, and touching
//     nothing outside the sandbox; runs without asking under the Sandbox
//     policy. Safe means it cannot write, delete or execute outside the
//     sandbox, reach the network, install software, or change git history
//     or remotes.
//   - blocked: on the blocked list (network clients, privilege escalation,
//     system package managers, system control, ...); never runs.
//   - dangerous: on the dangerous list, or reaching outside the sandbox (a
//     path argument, a redirection, a command path), or run with an
//     environment variable that changes what it runs (PATH, LD_PRELOAD,
//     GIT_*, ...).
//   - inscrutable: the classifier cannot tell what would run: shell syntax
//     it does not fully understand, shell operators given as argv elements,
//     xargs, env -S, wrappers with options it cannot parse, compound
//     scripts when per-segment analysis is off.
//   - none: understood, but on no list (including programs inside the
//     sandbox such as ./build.sh).
//
// # Precedence
//
// For one command, the list matchers decide with the precedence safe >
// blocked > dangerous: a safe match overrules the others, which is why
// every safe entry is guarded with ExceptFlags against its dangerous forms.
// Rules about the command's surroundings (paths outside the sandbox,
// environment assignments, odd command names, unparsable syntax) can only
// make the answer worse, in the order safe < none < dangerous <
// inscrutable < blocked: a blocked command stays blocked, a safe one that
// reads ~/.ssh becomes dangerous.
//
// # Command names
//
// argv[0] is matched by its base name (/usr/bin/curl is curl), without
// regard to ASCII case for the blocked and dangerous lists (CURL is curl on
// a case-insensitive file system) but never safe unless written in lower
// case. A name with non-ASCII characters is never safe (dangerous at best),
// and is matched against the blocked list after folding Cyrillic and Greek
// look-alikes (ѕudo is sudo). A trailing .exe is ignored, and versioned
// names match their family (python3.12 is python).
//
// # Wrappers
//
// Shell wrappers (sh, bash, dash, ksh, mksh, ash, zsh with -c and login or
// error-handling options: -c, -lc, -l -c, --login -c, -ec, -o pipefail ...)
// have their script parsed (package internal/shell) with that shell's
// grammar: bash's for bash, POSIX for dash, mksh's for mksh, and every
// grammar a name may stand for when it differs between systems (sh is dash
// or bash, so `sh -c "true &>/dev/null curl x"`, a background job and a curl
// to dash, is read both ways and the worse answer kept). zsh has no grammar
// of its own: its script must read the same to bash and POSIX sh, and may
// hold no glob. A script of one simple command of literal words is
// classified as that command, recursively (a nested `bash -c "sh -c
// '...'"` too, up to a depth limit). Globs are expanded as the shell would
// expand them, in the sandbox, and the resulting argv is classified; a glob
// that cannot be expanded exactly (locale-dependent, too many matches, no
// sandbox known) makes the command inscrutable. Unknown shell
// options, arguments after the script, a shell reading standard input, and
// shells whose language is not parsed (fish, csh, ...) are inscrutable; a
// shell running a script file is "none" (or dangerous if the file is
// outside). Transparent wrappers (env, timeout, nice, nohup, time, command,
// stdbuf, setsid, ionice, chrt, taskset) are looked through, so `timeout 5
// curl x` is as blocked as `curl x`; a wrapper whose options cannot be
// parsed with confidence is inscrutable, and so are xargs and env -S. A
// wrapper that removes PATH (env -i, env -u PATH, exec -c) makes later
// command names resolve with the built-in search path that applies: the C
// library's for programs, the shell's own for a shell's script (bash's ends
// in ".", the working directory, so no command in it is safe).
// git's global options are looked through too (`git --no-pager log`,
// `git -C sub status`); -c, --config-env, --git-dir, --work-tree,
// --exec-path make a git command dangerous.
//
// # Compound scripts
//
// By default a pipeline or list (a | b, a && b, a; b) is inscrutable. With
// SetSplitCompound(true) every segment is classified: the script is blocked
// if any segment is blocked, safe only if every segment is safe, and
// otherwise takes the worst class (inscrutable > dangerous > none). `cd DIR`
// in a list changes the directory against which later segments are
// resolved (both the old and the new directory are checked, since cd can
// fail); cd outside the sandbox is dangerous. Every segment is judged
// before any runs, so once a segment may write (a writing redirection, or
// a program not known to be read-only: touch, cp, git add, go test running
// project code, ...), the later segments and the others of its pipeline are
// judged without trusting the file system: a path, glob, cd or git
// repository in them makes them dangerous, whatever the tree holds now.
type ShellAllowedCommands struct {
	c classify.Commands
}

// NewShellAllowedCommands returns lists holding the default matchers
// (DefaultBlockedCommandMatchers, DefaultDangerousCommandMatchers,
// DefaultSafeCommandMatchers). Per-segment analysis of compound scripts is
// off.
func NewShellAllowedCommands() *ShellAllowedCommands {
	s := &ShellAllowedCommands{}
	s.c.AddDefaults()
	return s
}

// DefaultBlockedCommandMatchers returns a fresh copy of the default blocked
// list: network clients, remote shells, privilege escalation, system
// package managers, system control, scheduled jobs, kernel, firewall and
// network configuration, user administration. It does not depend on s.
func (s *ShellAllowedCommands) DefaultBlockedCommandMatchers() []CommandMatcher {
	return publicMatchers(classify.DefaultMatchers(classify.BlockedList))
}

// DefaultDangerousCommandMatchers returns a fresh copy of the default
// dangerous list: git operations that change history or talk to remotes,
// recursive or forced rm, installs, interpreters with inline code,
// container and cloud tools, kill, chmod/chown, dd, editors, and programs
// that run other commands.
func (s *ShellAllowedCommands) DefaultDangerousCommandMatchers() []CommandMatcher {
	return publicMatchers(classify.DefaultMatchers(classify.DangerousList))
}

// DefaultSafeCommandMatchers returns a fresh copy of the default safe list:
// read-only inspection and project build/test, each guarded against its
// dangerous flags.
func (s *ShellAllowedCommands) DefaultSafeCommandMatchers() []CommandMatcher {
	return publicMatchers(classify.DefaultMatchers(classify.SafeList))
}

// BlockedCommandMatchers returns a deep copy of the current blocked list.
func (s *ShellAllowedCommands) BlockedCommandMatchers() []CommandMatcher {
	return publicMatchers(s.c.Matchers(classify.BlockedList))
}

// DangerousCommandMatchers returns a deep copy of the current dangerous
// list.
func (s *ShellAllowedCommands) DangerousCommandMatchers() []CommandMatcher {
	return publicMatchers(s.c.Matchers(classify.DangerousList))
}

// SafeCommandMatchers returns a deep copy of the current safe list.
func (s *ShellAllowedCommands) SafeCommandMatchers() []CommandMatcher {
	return publicMatchers(s.c.Matchers(classify.SafeList))
}

// BlockedCommands returns the names of the commands blocked regardless of
// their arguments (blocked matchers with no prefix, flags or except
// flags), sorted and without duplicates: a simple list to give a model.
func (s *ShellAllowedCommands) BlockedCommands() []string {
	return s.c.BlockedNames()
}

// AddBlocked adds m to the blocked list. It is a no-op if an equal matcher
// (ignoring Reason) is already there, or if m.Command is empty.
func (s *ShellAllowedCommands) AddBlocked(m CommandMatcher) {
	s.c.Add(classify.BlockedList, classify.Matcher(m))
}

// RemoveBlocked removes m (compared ignoring Reason) from the blocked list,
// or returns an error wrapping ErrMatcherNotFound.
func (s *ShellAllowedCommands) RemoveBlocked(m CommandMatcher) error {
	return s.remove(classify.BlockedList, m)
}

// AddDangerous adds m to the dangerous list (no-op if already there).
func (s *ShellAllowedCommands) AddDangerous(m CommandMatcher) {
	s.c.Add(classify.DangerousList, classify.Matcher(m))
}

// RemoveDangerous removes m from the dangerous list, or returns an error
// wrapping ErrMatcherNotFound.
func (s *ShellAllowedCommands) RemoveDangerous(m CommandMatcher) error {
	return s.remove(classify.DangerousList, m)
}

// AddSafe adds m to the safe list (no-op if already there). A safe matcher
// overrules the blocked and dangerous lists for the commands it matches, so
// guard it with ExceptFlags. It is final for project code too: a command it
// matches (go test, cargo test, pytest) is safe, not labelled ProjectCode,
// even where a default entry matches it first; only WithProjectCode's
// matchers label it still.
func (s *ShellAllowedCommands) AddSafe(m CommandMatcher) {
	s.c.Add(classify.SafeList, classify.Matcher(m))
}

// RemoveSafe removes m from the safe list, or returns an error wrapping
// ErrMatcherNotFound.
func (s *ShellAllowedCommands) RemoveSafe(m CommandMatcher) error {
	return s.remove(classify.SafeList, m)
}

func (s *ShellAllowedCommands) remove(l classify.List, m CommandMatcher) error {
	if !s.c.Remove(l, classify.Matcher(m)) {
		return invalid(ErrMatcherNotFound, "%s matcher %q is not on the list", l, m.String())
	}
	return nil
}

// publicMatchers converts the engine's matchers to the public type.
func publicMatchers(ms []classify.Matcher) []CommandMatcher {
	out := make([]CommandMatcher, len(ms))
	for i := range ms {
		out[i] = CommandMatcher(ms[i])
	}
	return out
}

// SetSplitCompound turns per-segment analysis of pipelines and lists on or
// off (off by default: compound scripts are inscrutable).
func (s *ShellAllowedCommands) SetSplitCompound(on bool) {
	s.c.SetSplitCompound(on)
}

// SplitCompound reports whether per-segment analysis is on.
func (s *ShellAllowedCommands) SplitCompound() bool {
	return s.c.SplitCompound()
}

// CommandSite says where a command would run. The zero value means "no
// sandbox known": every path that may point outside is taken as outside.
type CommandSite struct {
	// SandboxDir is the absolute, clean sandbox directory, or "" for none.
	SandboxDir string
	// Cwd is the absolute, clean working directory; "" means SandboxDir.
	// It is ignored when SandboxDir is "".
	Cwd string
}

// Classification is a command's class with the rule that decided it.
type Classification struct {
	Result CommandCheckResult
	// Rule names the matcher or rule that decided, e.g. "blocked: curl",
	// "safe: git log (except --output, ...)", "rule: path outside sandbox:
	// ~/.ssh/id_rsa", "rule: shell command substitution".
	Rule string
	// Reason is one line for a person or a model.
	Reason string
	// Argv is the command as classified, after unwrapping shell and
	// transparent wrappers (for a compound script: the original argv).
	Argv []string
	// Segments holds one classification per command of a compound script
	// analysed segment by segment; nil otherwise.
	Segments []Classification
	// ProjectCode reports that the command runs code defined by files in
	// the project (go test, npm run, make, ./build.sh, a git command that
	// runs the repository's own hook, ...) or code the model chose, which
	// reaches no further (python3 -c, node -e, a program of a PATH
	// directory inside the sandbox, a command after project code that only
	// what it may have written makes dangerous), and that this alone made
	// it dangerous: with WithConfinement the Sandbox and Permissive
	// policies allow it. A command that a safe matcher of the
	// caller's own (AddSafe, the policy file's safe entries) matches is
	// safe instead, default entries notwithstanding. See WithProjectCode.
	ProjectCode bool
	// WritesOutside reports that the command writes, creates or deletes a
	// path that resolves outside the sandbox: an operand or option value
	// its program's spec says it writes (rm -rf ~, cp x /etc/hosts, touch
	// ../x, rm's -r and -f included), or a redirection that writes (> ~/x).
	// Rule then names the path ("rule: writes outside sandbox: ~"), the
	// worst fact first. The Sandbox policy refuses such a command, as it
	// refuses a tool's write outside the sandbox; Permissive asks.
	WritesOutside bool
}

// Check classifies argv with no sandbox known: any absolute, ~ or ..
// path argument, any path-qualified command and any file redirection is
// taken as possibly outside the sandbox. It is Classify(CommandSite{},
// argv) without the explanation; see ShellAllowedCommands for the rules.
// Errors: an empty argv wraps ErrEmptyCommand, an element with a NUL byte
// wraps ErrInvalidCommand.
func (s *ShellAllowedCommands) Check(argv []string) (CommandCheckResult, error) {
	if err := validateArgv(argv); err != nil {
		return CommandCheckResultNone, err
	}
	v := s.c.Classify(classify.Site{}, nil, nil, argv, nil)
	return CommandCheckResult(v.Result()), nil
}

// classifyProtected is Classify with an authorizer's protected paths, its
// working directory placed once for both (known, nil for none), and its own
// project-code commands (WithProjectCode).
func (s *ShellAllowedCommands) classifyProtected(site CommandSite, protected []classify.Protected, known *placedDir, argv []string, project []classify.Matcher) Classification {
	v := s.c.Classify(classify.Site(site), protected, workDir(known), argv, project)
	return publicClassification(&v)
}

// classifyGranted is classifyProtected with grant (a session grant for a
// command) taken as one more safe matcher after the safe list.
func (s *ShellAllowedCommands) classifyGranted(site CommandSite, protected []classify.Protected, known *placedDir, argv []string, project []classify.Matcher, grant classify.Matcher) Classification {
	v := s.c.ClassifyGranted(classify.Site(site), protected, workDir(known), argv, project, grant)
	return publicClassification(&v)
}

// workDir is known as the engine takes it: a nil pointer is no WorkDir.
func workDir(known *placedDir) classify.WorkDir {
	if known == nil {
		return nil
	}
	return known
}

// publicClassification turns the engine's verdict into a Classification.
func publicClassification(v *classify.Verdict) Classification {
	c := Classification{Result: CommandCheckResult(v.Result()), Rule: v.Rule(), Reason: v.Reason(),
		Argv: slices.Clone(v.Argv()), ProjectCode: v.ProjectCode(), WritesOutside: v.WritesOutside()}
	for i, segs := 0, v.Segments(); i < len(segs); i++ {
		c.Segments = append(c.Segments, publicClassification(&segs[i]))
	}
	return c
}

// Classify classifies argv as it would run at site, and says which rule
// decided. Paths (the command path, path arguments, redirection targets,
// cd targets, glob expansions) are resolved against site.Cwd and judged
// against site.SandboxDir with symlinks resolved: outside (absolute, ~,
// .., or a symlink leading out) makes the command dangerous; a program
// inside the sandbox is "none", not dangerous. Writes into a .git directory
// (whose hooks and configuration later git commands run) count as outside.
// With SandboxDir "" it behaves as Check. The caller validates that
// SandboxDir and Cwd are absolute and clean. Errors as for Check.
func (s *ShellAllowedCommands) Classify(site CommandSite, argv []string) (Classification, error) {
	if err := validateArgv(argv); err != nil {
		return Classification{}, err
	}
	return s.classifyProtected(site, nil, nil, argv, nil), nil
}

func validateArgv(argv []string) error {
	if len(argv) == 0 {
		return invalid(ErrEmptyCommand, "empty command: argv has no elements")
	}
	for i, a := range argv {
		if strings.IndexByte(a, 0) >= 0 {
			return invalid(ErrInvalidCommand, "invalid command: argument %d contains a NUL byte", i)
		}
	}
	return nil
}
