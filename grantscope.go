package sandboxauth

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/sandboxauth/sandboxauth/internal/classify"

	"github.com/sandboxauth/sandboxauth/internal/programs"
	"github.com/sandboxauth/sandboxauth/internal/shell"
)

// grantArgv is the command a session grant is matched against: argv
// itself, or, for a shell running a one-command script of plain words
// (`bash -c 'npm run test'`), that command's words, so that a grant
// applies to the script exactly as to the same argv. A script with
// redirections, assignments, globs, several commands or anything the
// parser does not reduce to literal words is matched as the shell it is
// (and no grant covers a shell).
func grantArgv(argv []string) []string {
	if len(argv) < 3 {
		return argv
	}
	ds, ok := programs.ShellGrammars(argv[0])
	if !ok {
		return argv
	}
	sc := programs.ParseShellInvocation(argv[1:])
	if sc.Problem != "" || !sc.HasC {
		return argv
	}
	if words, ok := shell.PlainWords(sc.Script); ok && (!slices.Contains(ds, shell.Zsh) || !slices.ContainsFunc(words, func(w string) bool { return strings.HasPrefix(w, "=") })) {
		return sameAsArgv(argv, words)
	}
	// Every grammar the shell may use must read the same one command.
	var args []string
	for i, d := range ds {
		parsed, err := shell.Parse(sc.Script, d)
		if err != nil || len(parsed.Commands) != 1 {
			return argv
		}
		c := parsed.Commands[0]
		if len(c.Args) == 0 || len(c.Assigns) > 0 || len(c.Redirs) > 0 || c.Negated || c.Globs != nil {
			return argv
		}
		if i > 0 && !slices.Equal(args, c.Args) {
			return argv
		}
		args = c.Args
	}
	if args == nil {
		return argv
	}
	c := struct{ Args []string }{args}
	return sameAsArgv(argv, c.Args)
}

// sameAsArgv returns words when, given as an argv, they would be read as
// the script's command is (no element that looks like shell syntax, which
// an argv check treats differently), and argv otherwise.
func sameAsArgv(argv, words []string) []string {
	if classify.ShellSyntaxIn(words) {
		return argv
	}
	return words
}

// plainOperand reports whether w may follow the words of a command grant
// that covers "further arguments": an operand such as a branch, a package
// or a test path. Options (-f, --force), forced or deleting refspecs
// (+main, :main, a:b) and assignments (CC=cc) change what the granted words
// do, so a command holding one is not covered and a person is asked again.
func plainOperand(w string) bool {
	if w == "" || w[0] == '-' || w[0] == '+' {
		return false
	}
	return !strings.ContainsAny(w, ":=\x00")
}

// exactGrantNeeded reports whether a command asked about for rule may only
// be granted exactly (these words, in this directory): every rule of the
// classifier ("rule: ...") other than "on no list" concerns the arguments,
// the place or the form of the command (a protected path, a write into
// .git, a path outside the sandbox, a program found in the sandbox, ...)
// rather than the program, which the lists name, so a grant for the program with
// any further arguments would lift that protection for other files.
func exactGrantNeeded(rule string) bool {
	return strings.HasPrefix(rule, "rule: ") && rule != unlistedRule && !strings.HasPrefix(rule, projectCodeRule)
}

// unlistedRule is the rule of a command on no list, and projectCodeRule
// starts the rule of a command that runs project code: both are asked about
// for the program alone.
const (
	unlistedRule    = "rule: on no list"
	projectCodeRule = "rule: project code"
)

// exactShellGrant returns the grant of exactly words, run in cwd, asked
// about for rule.
func exactShellGrant(words []string, cwd, rule string) (Grant, bool) {
	g := Grant{Operation: OpShell, Command: append([]string(nil), words...), Exact: true, Cwd: filepath.Clean(cwd), Rule: rule}
	if checkGrant(g) != nil {
		return Grant{}, false
	}
	return g, true
}
