package programs

import (
	"strings"
	"sync"
)

// Project code: a command whose behaviour is defined by files in the
// project (tests, build scripts, package scripts, makefiles) runs whatever
// was written there. The engine labels such commands (they are asked about,
// or run confined); this file answers which commands they are, from the
// tables that each family file declares (goProjectCode in golang.go,
// nodeProjectCode in node.go, ...).

// ProjectCodeEntry says which invocations of one program run project code.
type ProjectCodeEntry struct {
	Command string
	// Subcommands that run project code; nil: every invocation does
	// (make, pytest), unless Managed is set.
	Subcommands []string
	// Managed, for the package managers whose other words name package
	// scripts (yarn test, pnpm lint, bun dev), lists the subcommands that
	// manage packages instead; any other first word runs a script.
	Managed []string
}

// projectCode is a ProjectCodeEntry as sets; both nil: every invocation.
type projectCode struct {
	subcommands, mgmt map[string]bool
}

// projectCodeTable is built once from the families' entries.
var projectCodeTable = sync.OnceValue(func() map[string]projectCode {
	m := make(map[string]projectCode)
	for _, f := range []func() []ProjectCodeEntry{goProjectCode, rustProjectCode, nodeProjectCode, pythonProjectCode, buildProjectCode} {
		for _, e := range f() {
			if _, dup := m[e.Command]; dup {
				panic("programs: two project-code entries for " + e.Command)
			}
			m[e.Command] = projectCode{subcommands: wordSet(e.Subcommands), mgmt: wordSet(e.Managed)}
		}
	}
	return m
})

func wordSet(ws []string) map[string]bool {
	if ws == nil {
		return nil
	}
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// RunsProjectCode reports what runs project code when command is run with
// args (the words after it): "go test", "make", "yarn lint", or "" when
// nothing does. known reports whether command has an entry at all (then
// "" is the answer, and no other rule applies). A lone --version or --help
// runs nothing of the project.
func RunsProjectCode(command string, args []string) (what string, known bool) {
	pc, ok := projectCodeTable()[command]
	if !ok {
		return "", false
	}
	first := ""
	if len(args) > 0 {
		first = args[0]
	}
	if len(args) == 1 && (first == "--version" || first == "--help") {
		return "", true
	}
	switch {
	case pc.subcommands == nil && pc.mgmt == nil:
		return command, true
	case pc.mgmt != nil:
		if first == "" || strings.HasPrefix(first, "-") || pc.mgmt[first] {
			return "", true
		}
		return command + " " + first, true
	case pc.subcommands[first]:
		return command + " " + first, true
	}
	return "", true
}

// Interpreter describes an interpreter's command line: the options that
// take a value as the next argument, those that run inline code (the code
// is on the command line, and the engine judges it), and the option that
// names a module to run (python -m).
type Interpreter struct {
	withValue, inline map[string]bool
	module            string
}

// InterpreterOf returns the command line of the interpreter base (a name
// without its version: python, node), or nil. The result is shared: callers
// must not change it.
func InterpreterOf(base string) *Interpreter {
	return interpreters()[base]
}

// interpreters is built once from the families' command lines.
var interpreters = sync.OnceValue(func() map[string]*Interpreter {
	python, node := pythonInterpreter(), nodeInterpreter()
	return map[string]*Interpreter{"python": python, "pypy": python, "node": node, "nodejs": node}
})

// Run reads an interpreter's args (the words after it) and returns what
// it runs: the operand file (to be judged by where it lies), or module
// true for a module (-m), or neither for inline code, a script on standard
// input or no operand.
func (in *Interpreter) Run(args []string) (file string, module bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if i+1 < len(args) {
				return args[i+1], false
			}
			return "", false
		case strings.HasPrefix(a, "--"):
			key, _, attached := strings.Cut(a, "=")
			if in.inline[key] {
				return "", false
			}
			if in.withValue[key] && !attached {
				i++
			}
		case strings.HasPrefix(a, "-") && a != "-":
			// A bundle of short options (-uB, -um, -Werror).
			for k := 1; k < len(a); k++ {
				opt := "-" + a[k:k+1]
				if in.inline[opt] {
					return "", false
				}
				if opt == in.module {
					return "", true
				}
				if in.withValue[opt] {
					if k == len(a)-1 {
						i++
					}
					break
				}
			}
		default:
			return a, false
		}
	}
	return "", false
}

// Module returns the option that names a module to run ("-m"), or "".
func (in *Interpreter) Module() string { return in.module }

// buildProjectCode: build tools and task runners, whose every invocation
// runs the project's build files, and the SDKs whose build, run and test
// subcommands do.
func buildProjectCode() []ProjectCodeEntry {
	return []ProjectCodeEntry{
		{Command: "make"}, {Command: "gmake"}, {Command: "just"}, {Command: "task"},
		{Command: "mvn"}, {Command: "mvnw"}, {Command: "gradle"}, {Command: "gradlew"},
		{Command: "dotnet", Subcommands: words("test build run")},
		{Command: "swift", Subcommands: words("test build run")},
	}
}
