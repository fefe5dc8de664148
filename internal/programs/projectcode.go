package programs

import (
	"slices"
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
	// Subcommands may hold two words ("mod tidy") where only that form of
	// the first word runs project code.
	//
	// Managed, for the package managers whose other words name package
	// scripts (yarn test, pnpm lint, bun dev) and for programs whose other
	// words name aliases or extensions (cargo nextest), lists the
	// subcommands that manage packages instead; any other first word runs
	// project code.
	Managed []string
	// Checking maps a subcommand to the option that makes it only check
	// and write nothing (cargo fmt --check): given anywhere after the
	// subcommand, the form runs no project code and its spec decides.
	Checking map[string]string
	// Spared maps a subcommand to the words (a second subcommand or an
	// option) that make it something other than project work: git stash
	// drop, git commit --amend. Given anywhere after the subcommand, the
	// form is not labelled, and the lists decide (a person is asked).
	Spared map[string][]string
	// Fetches, when set, reports whether args (the words after the
	// command) download what they run instead of running the project's
	// (npx x@latest): such an invocation is not project code.
	Fetches func(args []string) bool
	// Globals are the options the program takes before its first word
	// (pnpm -r test, pnpm --filter web build), each with whether it takes
	// a value: they are skipped to find that word. Any other option before
	// it leaves the invocation unlabelled.
	Globals map[string]bool
}

// projectCode is a ProjectCodeEntry as sets; both nil: every invocation.
type projectCode struct {
	subcommands, mgmt map[string]bool
	// pairs holds the two-word subcommands, by first word.
	pairs    map[string]map[string]bool
	checking map[string]string
	spared   map[string][]string
	fetches  func(args []string) bool
	globals  map[string]bool
}

// projectCodeSources are the families' tables of entries, in the order
// projectCodeIndex numbers them.
var projectCodeSources = [...]func() []ProjectCodeEntry{goProjectCode, rustProjectCode, nodeProjectCode, pythonProjectCode, buildProjectCode, nativeProjectCode, gitProjectCode, sysinspectProjectCode}

// projectCodeCells holds each family's entries as sets, built on the
// first lookup of a command of that family (see projectCodeTable): a hook
// process looks up one or two commands, and building every family's sets
// cost as much as the rest of its decision. Its zero value is ready; a
// cell's sets are never changed once built.
var projectCodeCells [len(projectCodeSources)]struct {
	once sync.Once
	sets map[string]projectCode
}

// projectCodeTable returns the entries of family i as sets, building them
// on first use.
func projectCodeTable(i int) map[string]projectCode {
	c := &projectCodeCells[i]
	c.once.Do(func() { c.sets = projectCodeSets(projectCodeSources[i]()) })
	return c.sets
}

// projectCodeOf returns command's entry as sets, and whether it has one.
// projectCodeIndex (generated) says which family defines it.
func projectCodeOf(command string) (projectCode, bool) {
	i, ok := slices.BinarySearchFunc(projectCodeIndex[:], command, func(e projectCodeFamily, c string) int { return strings.Compare(e.command, c) })
	if !ok {
		return projectCode{}, false
	}
	pc, ok := projectCodeTable(int(projectCodeIndex[i].family))[command]
	return pc, ok
}

// projectCodeFamily is an entry of projectCodeIndex: a command, and the
// index in projectCodeSources of the family that defines its entry.
type projectCodeFamily struct {
	command string
	family  uint8
}

// projectCodeSets turns entries into sets, one per command.
func projectCodeSets(entries []ProjectCodeEntry) map[string]projectCode {
	m := make(map[string]projectCode, len(entries))
	for _, e := range entries {
		if _, dup := m[e.Command]; dup {
			panic("programs: two project-code entries for " + e.Command)
		}
		pc := projectCode{mgmt: wordSet(e.Managed), checking: e.Checking, spared: e.Spared, fetches: e.Fetches, globals: e.Globals}
		for _, sub := range e.Subcommands {
			first, second, pair := strings.Cut(sub, " ")
			if !pair {
				if pc.subcommands == nil {
					pc.subcommands = map[string]bool{}
				}
				pc.subcommands[first] = true
				continue
			}
			if pc.pairs == nil {
				pc.pairs = map[string]map[string]bool{}
			}
			if pc.pairs[first] == nil {
				pc.pairs[first] = map[string]bool{}
			}
			pc.pairs[first][second] = true
		}
		if pc.subcommands == nil && pc.pairs != nil {
			pc.subcommands = map[string]bool{}
		}
		m[e.Command] = pc
	}
	return m
}

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
	pc, ok := projectCodeOf(command)
	if !ok {
		return "", false
	}
	first := ""
	if len(args) > 0 {
		first = args[0]
	}
	if len(args) == 1 && (first == "--version" || first == "--help") || pc.fetches != nil && pc.fetches(args) {
		return "", true
	}
	switch {
	case pc.subcommands == nil && pc.mgmt == nil:
		return command, true
	case pc.mgmt != nil:
		rest := pc.skipGlobals(args)
		if len(rest) > 0 {
			first = rest[0]
		}
		// A first word that is an option or a toolchain (cargo +nightly)
		// selects nothing of the project's.
		if len(rest) == 0 || first == "" || first[0] == '-' || first[0] == '+' || pc.mgmt[first] || pc.exempt(first, rest[1:]) {
			return "", true
		}
		return command + " " + first, true
	case pc.subcommands[first]:
		if pc.exempt(first, args[1:]) {
			return "", true
		}
		return command + " " + first, true
	case len(args) > 1 && pc.pairs[first][args[1]]:
		if pc.exempt(first, args[2:]) {
			return "", true
		}
		return command + " " + first + " " + args[1], true
	}
	return "", true
}

// skipGlobals returns args after the leading options that pc.globals
// knows (with their values).
func (pc *projectCode) skipGlobals(args []string) []string {
	for len(args) > 0 && pc.globals != nil {
		key, _, attached := strings.Cut(args[0], "=")
		value, known := pc.globals[key]
		if !known {
			break
		}
		if value && !attached {
			if len(args) < 2 {
				return nil
			}
			args = args[1:]
		}
		args = args[1:]
	}
	return args
}

// exempt reports whether rest (the words after the subcommand sub) holds
// the option that makes sub only check, or a word that spares it.
func (pc *projectCode) exempt(sub string, rest []string) bool {
	if opt := pc.checking[sub]; opt != "" && slices.Contains(rest, opt) {
		return true
	}
	for _, w := range pc.spared[sub] {
		for _, r := range rest {
			if r == w || spares(w, r) {
				return true
			}
		}
	}
	return false
}

// spares reports whether the word r may be the option w as a getopt-style
// parser reads it: --amend given with a value, or abbreviated (--am), or
// -f inside a bundle of short options (-qf). It errs towards yes.
func spares(w, r string) bool {
	switch {
	case len(w) < 2 || w[0] != '-':
		return false
	case strings.HasPrefix(w, "--"):
		name, _, _ := strings.Cut(r, "=")
		return len(name) > 2 && strings.HasPrefix(w, name)
	case len(w) == 2:
		return len(r) > 2 && r[0] == '-' && r[1] != '-' && strings.IndexByte(r[1:], w[1]) >= 0
	}
	return false
}

// Interpreter describes an interpreter's command line: the options that
// take a value as the next argument, those that run inline code (the code
// is on the command line, and the engine judges it), and the option that
// names a module to run (python -m).
type Interpreter struct {
	withValue, inline map[string]bool
	// parseOnly are the options that make the interpreter only check the
	// file's syntax (node --check): it runs nothing, and its spec decides.
	parseOnly map[string]bool
	module    string
}

// InterpreterOf returns the command line of the interpreter base (a name
// without its version: python, node), or nil. The result is shared: callers
// must not change it. Each interpreter's command line is built from its
// family on its first lookup, so that asking about any other name (every
// command is asked about) builds none.
func InterpreterOf(base string) *Interpreter {
	switch base {
	case "python", "pypy":
		return interpreterCells[pythonCell].get(pythonInterpreter)
	case "node", "nodejs":
		return interpreterCells[nodeCell].get(nodeInterpreter)
	case "php":
		return interpreterCells[phpCell].get(phpInterpreter)
	}
	return nil
}

// The cells of interpreterCells, one per interpreter.
const (
	pythonCell = iota
	nodeCell
	phpCell
	interpreterCount
)

// interpreterCells holds each interpreter's command line, built on first use
// and never changed; the zero value is ready, so that a process starts
// without building anything.
var interpreterCells [interpreterCount]interpreterCell

// interpreterCell is one interpreter's command line, built once.
type interpreterCell struct {
	once sync.Once
	in   *Interpreter
}

// get returns the cell's command line, building it with build on first use.
func (c *interpreterCell) get(build func() *Interpreter) *Interpreter {
	c.once.Do(func() { c.in = build() })
	return c.in
}

// Run reads an interpreter's args (the words after it) and returns what
// it runs: the operand file (to be judged by where it lies; "-" for a
// script on standard input), or module true for a module (-m), or the
// option that gives inline code (node -e, python -c), or none of them for
// a file only parsed (node --check) or no operand.
func (in *Interpreter) Run(args []string) (file string, module bool, inline string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if i+1 < len(args) {
				return args[i+1], false, ""
			}
			return "", false, ""
		case strings.HasPrefix(a, "--"):
			key, _, attached := strings.Cut(a, "=")
			if in.inline[key] {
				return "", false, key
			}
			if in.parseOnly[key] {
				return "", false, ""
			}
			if in.withValue[key] && !attached {
				i++
			}
		case strings.HasPrefix(a, "-") && a != "-":
			// A bundle of short options (-uB, -um, -Werror).
			for k := 1; k < len(a); k++ {
				opt := "-" + a[k:k+1]
				if in.inline[opt] {
					return "", false, opt
				}
				if in.parseOnly[opt] {
					return "", false, ""
				}
				if opt == in.module {
					return "", true, ""
				}
				if in.withValue[opt] {
					if k == len(a)-1 {
						i++
					}
					break
				}
			}
		default:
			return a, false, ""
		}
	}
	return "", false, ""
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
