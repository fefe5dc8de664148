package classify

import (
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
// stay safe.

// untrustedVerdict is the answer for a segment whose safety would rest on
// a file-system fact that an earlier segment may have changed.
func untrustedVerdict(what, why string) Verdict {
	return mkVerdict(Dangerous, "rule: file system changed by an earlier segment: "+what,
		"an earlier command of the script may write files, so "+what+" is not judged by what it is now: "+why+
			"; run the writing command on its own first, then this one")
}

// segmentWrites reports whether a script command, classified v, may
// change the file system that later segments see.
func segmentWrites(c shell.Command, v Verdict) bool {
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
	return !readOnlyArgv(v.argv)
}

// readOnlyArgv reports whether argv (after wrappers) runs a form that its
// program spec says changes no file.
func readOnlyArgv(argv []string) bool {
	return len(argv) > 0 && programs.ReadOnlyArgv(commandBase(argv[0]), argv[1:])
}
