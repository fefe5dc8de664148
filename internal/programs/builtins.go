package programs

import (
	"strings"

	"github.com/sandboxauth/sandboxauth/internal/shell"
)

// builtins: the shell's own commands that only print, test or set the
// shell's options. Their arguments are text. cd changes the directory that
// later commands are judged in, which the engine follows; the wrappers
// (env, nice, timeout, exec) are the engine's too.
func builtins() []*Spec {
	text := func(name, reason string) *Spec {
		return &Spec{ReadOnly: true, Command: name, TextOnly: true, Reason: reason}
	}
	return []*Spec{
		text("echo", "prints its arguments"),
		text("true", "does nothing"),
		text("false", "does nothing"),
		text("test", "tests a condition"),
		text("[", "tests a condition"),
		{ReadOnly: true, Command: "cd", Syntax: POSIX, Operands: Text, MaxOperands: 1, Options: opts("-L -P -e"), Reason: "changes the working directory"},
		{ReadOnly: true, Command: "wait", Syntax: POSIX, Operands: Text, Reason: "waits for background jobs",
			Options: join(opts("-n -f"), unsafe("assigns a job's ID to a shell variable (PATH among them), which changes what later commands run", "-p="))},
		{ReadOnly: true, Command: "type", Syntax: POSIX, Operands: Text, Options: opts("-a -f -p -P -t"), Reason: "describes a command name"},
		{ReadOnly: true, Command: "set", TextOnly: true, Reason: "sets the options of error handling and tracing", Check: setCheck},
		{ReadOnly: true, Command: "printf", TextOnly: true, Reason: "prints text", Check: printfCheck},
		{ReadOnly: true, Command: "command", Prefix: words("-v"), TextOnly: true, Reason: "looks up a command name"},
		{ReadOnly: true, Command: "command", Prefix: words("-V"), TextOnly: true, Reason: "describes a command name"},
	}
}

// setCheck accepts set only with options that change error handling or
// tracing (shell.PlainSet). A shell that persists between commands keeps
// the others: after set -k or set -a, an assignment anywhere on a later
// line reaches the program's environment.
func setCheck(p *Parsed) *Problem {
	if !shell.PlainSet(p.Operands) {
		return &Problem{Rule: "set", Reason: "set alone prints every variable (the environment's secrets among them); other options and positional parameters change how later commands are read"}
	}
	return nil
}

// printfCheck refuses the shell builtin's -v NAME, which assigns a
// variable (PATH among them) instead of printing.
func printfCheck(p *Parsed) *Problem {
	if len(p.Operands) > 0 && strings.HasPrefix(p.Operands[0], "-v") {
		return &Problem{Rule: "printf -v", Reason: "printf -v assigns a shell variable, which may change what later commands run"}
	}
	return nil
}

// DirChange is what a cd, pushd or popd command does to the working
// directory of the commands after it.
type DirChange struct {
	// Back: popd, back to a directory seen before.
	Back bool
	// Dir is the one directory operand of cd or pushd; "" when there is
	// not exactly one plain directory (cd alone goes to $HOME, cd - to
	// $OLDPWD, an option leaves it unknown).
	Dir string
	// Problem says why the command is not analysed (popd's arguments).
	Problem string
}

// ChangeDirectory reads argv as the shell's cd, pushd or popd; ok is false
// for any other command. cd's options -P, -L and -e, and "--", come before
// the directory.
func ChangeDirectory(argv []string) (c DirChange, ok bool) {
	if len(argv) == 0 || !ChangesDirectory(argv[0]) {
		return DirChange{}, false
	}
	if argv[0] == "popd" {
		if len(argv) > 1 {
			return DirChange{Problem: "popd arguments are not analysed"}, true
		}
		return DirChange{Back: true}, true
	}
	args := argv[1:]
	for len(args) > 0 && (args[0] == "-P" || args[0] == "-L" || args[0] == "-e" || args[0] == "--") {
		args = args[1:]
	}
	if len(args) != 1 || args[0] == "-" || strings.HasPrefix(args[0], "-") {
		return DirChange{}, true
	}
	return DirChange{Dir: args[0]}, true
}

// ChangesDirectory reports whether name is one of the shell's commands
// that change its working directory (cd, pushd, popd).
func ChangesDirectory(name string) bool {
	return name == "cd" || name == "pushd" || name == "popd"
}
