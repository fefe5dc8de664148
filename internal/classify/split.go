package classify

import (
	"strings"

	"github.com/sandboxauth/sandboxauth/internal/programs"
	"github.com/sandboxauth/sandboxauth/internal/shell"
)

// Per-segment analysis judges every command of a script before any runs,
// against the file system as it is now. A command that writes changes
// what the later ones meet: `touch -- --checkpoint-action=exec=sh\ x`
// makes a later `tar -tf a.tar *` run a program, `ln -s ~/.ssh/id_rsa k`
// makes a later `cat k` read outside, a redirection into .git/config makes
// a later `git status` run one. So once a segment may write (a writing
// redirection, a program that writes or runs project code, or anything not
// known to be read-only), the segments after it, and those of the same
// pipeline, are judged without trusting the file system: a path, a glob, a
// cd, a PATH directory inside the sandbox or the repository git would use
// makes them dangerous (asked about), whatever the tree says now. Segments
// that touch no file (echo, tail reading a pipe) keep their class, so
// `go test ./... 2>&1 | tail -5` and `ls && git status && cat README.md`
// stay safe. In a script that runs project code, a segment dangerous only
// for that distrust (judged again trusting the file system, it is safe or
// project code) does not keep the script from being project code: confined,
// what the project code wrote leads it no further than the project code
// itself reaches (see projectScript).

// A read-only segment is trusted on its spec's word: if the grammar misread
// its argv (xxd -rc IN OUT was read as -r -c IN with one operand, and
// xxd wrote OUT), the program writes after all, and a later segment judged
// against the file system as it is now may meet a .git/config it never
// saw. A program can only write the files its words name, so the engine
// does not take the grammar's word for the files that steer later
// programs: a read-only segment still counts as a writer when one of its
// words — whole, after its first "=", after any letter of a bundle of
// short options, or any colon-separated part of those — names, as the path resolves, a
// hidden file or one in a hidden directory (.git/config, .rgignore,
// .npmrc, .cargo/config.toml), a write-protected path, or one of the
// project files that steer programs (programs.SteeringFile: go.mod,
// rust-toolchain, pyproject.toml, ...). Reading such a file is rare in a
// script; a later segment then asks.

// untrustedVerdict is the answer for a segment whose safety would rest on
// a file-system fact that an earlier segment may have changed.
func untrustedVerdict(what, why string) Verdict {
	return mkVerdict(Dangerous, "rule: file system changed by an earlier segment: "+what,
		"an earlier command of the script may write files, so "+what+" is not judged by what it is now: "+why+
			"; run the writing command on its own first, then this one")
}

// segmentWrites reports whether a script command, classified v in the
// directories dirs, may change the file system that later segments see.
func (r *cmdClassifier) segmentWrites(c shell.Command, v Verdict, dirs []string) bool {
	if v.res != Safe {
		return true // not safe anyway; nothing is assumed about it
	}
	for _, rd := range c.Redirs {
		if rd.Writes() && !isHarmlessDevice(rd.Target) {
			return true
		}
	}
	if len(c.Args) == 0 {
		return false // a shell variable assignment
	}
	if programs.ChangesDirectory(c.Args[0]) {
		return false
	}
	return !readOnlyArgv(v.argv) || r.namesSteeringFile(v.argv, dirs)
}

// namesSteeringFile reports whether a word of argv (after the program) may
// name a file that steers later programs, from any of dirs.
func (r *cmdClassifier) namesSteeringFile(argv []string, dirs []string) bool {
	for _, w := range argv[min(1, len(argv)):] {
		// A bundle's value may begin after any of its letters (-xo.git/x):
		// every such tail is judged by name.
		if len(w) > 2 && w[0] == '-' && w[1] != '-' {
			for k := 3; k < len(w); k++ {
				if hiddenOrSteering(w[k:]) {
					return true
				}
			}
		}
		for _, cand := range [...]string{w, afterEquals(w), afterShortOption(w)} {
			for rest := cand; rest != ""; {
				var part string
				part, rest, _ = strings.Cut(rest, ":")
				if part != "" && r.steeringPath(part, dirs) {
					return true
				}
			}
		}
	}
	return false
}

func afterEquals(w string) string {
	if _, v, ok := strings.Cut(w, "="); ok {
		return v
	}
	return ""
}

func afterShortOption(w string) string {
	if len(w) > 2 && w[0] == '-' && w[1] != '-' {
		return w[2:]
	}
	return ""
}

// steeringPath reports whether p, from one of dirs, names a hidden file or
// directory, a write-protected path or a steering project file, as written
// or as it resolves.
func (r *cmdClassifier) steeringPath(p string, dirs []string) bool {
	if hiddenOrSteering(p) {
		return true
	}
	if r.sandbox == "" {
		return false
	}
	root := r.sandboxRoot()
	for _, d := range dirs {
		abs := atCwd(d, p)
		real, inside, err := r.contains(abs)
		if err != nil || !inside {
			continue // outside: a write there is refused on its own
		}
		if rel, ok := relInside(root, real); ok && hiddenOrSteering(rel) {
			return true
		}
		if ProtectedFor(r.protected, true, r.sandbox, root, abs, real) != nil {
			return true
		}
	}
	return false
}

// hiddenOrSteering reports a path with a hidden element (not . or ..) or a
// last element that is a steering project file.
func hiddenOrSteering(p string) bool {
	for rest := p; rest != ""; {
		var el string
		el, rest, _ = strings.Cut(rest, "/")
		if len(el) > 1 && el[0] == '.' && el != ".." {
			return true
		}
		if rest == "" && programs.SteeringFile(el) {
			return true
		}
	}
	return false
}

// readOnlyArgv reports whether argv (after wrappers) runs a form that its
// program spec says changes no file.
func readOnlyArgv(argv []string) bool {
	return len(argv) > 0 && programs.ReadOnlyArgv(commandBase(argv[0]), argv[1:])
}
