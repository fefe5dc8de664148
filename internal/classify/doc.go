// Package classify is the classifier's engine: it decides the class of a
// shell command (safe, none, dangerous, inscrutable, blocked) from an argv
// and where it would run. The public face is the root package's
// ShellAllowedCommands, CommandMatcher and Classification, which convert to
// and from this package's Commands, Matcher and Verdict; what is known
// about each program lives in internal/programs, which the engine consults
// without naming any program itself.
//
// # The model
//
// Commands holds three lists of Matchers (blocked, dangerous, safe). The
// safe list is derived from the program specs; a safe match is then read
// again with its spec's grammar, the only reader of the argv, and every
// word that names a file is judged with the role the program gives it.
// The default matchers are compiled on first use, per command name (and
// the first argument, for the safe list), as if added one by one before
// every other matcher (lazydefaults.go): a hook deciding one command does
// not build the lists whole.
// For one command the lists decide with the precedence safe > blocked >
// dangerous; everything else the engine sees can only make the answer
// worse, in the order safe < none < dangerous < inscrutable < blocked:
//
//   - where the command is found (a path, a PATH directory inside the
//     sandbox or a relative PATH entry: searchpath.go);
//   - wrappers and shells, looked through recursively (classifier.go);
//     a shell's -c script is parsed with that shell's grammar
//     (internal/shell), its globs expanded as the shell would (glob.go),
//     every match judged in every position, since the collation that
//     orders them is not known;
//   - path arguments, redirections and cd targets, resolved against the
//     sandbox with symlinks followed; protected paths for reads and writes
//     (protected.go), and recursive readers over trees that hold one
//     (spec.go), hidden files included where a glob, a file type or a "!"
//     rule of an ignore file whitelists them (ignorerules.go); a value
//     whose role the engine does not know is not safe;
//   - environment assignments that steer programs (env.go);
//   - git's repository: its configuration, hooks and other files that make
//     git run programs (internal/repotrust), also for programs that run git
//     themselves (gitrunners.go); the forms that print file contents are
//     held against the protected paths found in its index and in the tree
//     names of its object store (gitcontents.go);
//   - project code: test runners, build tools and scripts that run files
//     the model may have written are dangerous with ProjectCode set
//     (projectcode.go), so that confinement can allow them; so is code the
//     model chose, which reaches no further: an interpreter's inline code,
//     a program of a PATH directory inside the sandbox, a repository hook
//     inside the sandbox that a git command runs, git's writes in the
//     project that discard no work (git restore, git reset of the index:
//     a lone operand only when it names a file, see existingInside), and
//     a segment after project code or a write into the project that is
//     dangerous only for the distrust of split.go;
//     project files that configure a safe program are checked too
//     (projectfiles.go);
//   - compound scripts split into segments: after a segment that may write,
//     later segments are judged without trusting the file system, and a
//     read-only segment whose words name a file that steers programs
//     counts as one that may write, since its grammar may have misread
//     it (split.go).
//
// A panic in the engine is an inscrutable verdict, never a crash or a safe
// one. Commands is safe for concurrent use; a classification holds the
// read lock.
package classify
