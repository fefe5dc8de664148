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
	// Requires maps a subcommand to the option without which it is not
	// project work (git merge --ff-only: a merge that only moves the
	// branch forward): given anywhere after the subcommand, the form is
	// labelled; missing, the lists decide (a person is asked).
	Requires map[string]string
	// Spared maps a subcommand to the words (a second subcommand or an
	// option) that make it something other than project work: git stash
	// drop, git commit --amend. Given anywhere after the subcommand, the
	// form is not labelled, and the lists decide (a person is asked).
	Spared map[string][]string
	// Fetches, when set, reports whether args (the words after the
	// command) download what they run instead of running the project's
	// (npx x@latest): such an invocation is not project code.
	Fetches func(args []string) bool
	// Revision maps a subcommand to a function of the words after it that
	// returns the operand the program reads as a revision unless it names
	// a file (git reset X moves the branch to the commit X, or unstages
	// the file X): the form runs project code only when that operand
	// names a file or directory, which the caller, knowing the working
	// directory, decides (see RevisionOperand). "" when no operand is read
	// so.
	Revision map[string]func(rest []string) string
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
	requires map[string]string
	spared   map[string][]string
	fetches  func(args []string) bool
	revision map[string]func(rest []string) string
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
		pc := projectCode{mgmt: wordSet(e.Managed), checking: e.Checking, requires: e.Requires, spared: e.Spared, fetches: e.Fetches, revision: e.Revision, globals: e.Globals}
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

// loadsProjectFirst: the programs that load the project's code before
// they handle a lone --version or --help: pytest imports the rootdir's
// conftest.py (and the ini file's -p plugins), flake8 its local plugins,
// pylint its rcfile's init-hook.
var loadsProjectFirst = map[string]bool{"pytest": true, "py.test": true, "flake8": true, "pylint": true}

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
	if len(args) == 1 && (first == "--version" || first == "--help") && !loadsProjectFirst[command] || pc.fetches != nil && pc.fetches(args) {
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

// RevisionOperand returns the operand of command's args (the words after
// it) that the program reads as a revision unless it names a file, where
// RunsProjectCode labels the form only on condition that it does (git
// reset X), or "" (see ProjectCodeEntry.Revision).
func RevisionOperand(command string, args []string) string {
	pc, ok := projectCodeOf(command)
	if !ok || pc.revision == nil || len(args) == 0 {
		return ""
	}
	if f := pc.revision[args[0]]; f != nil {
		return f(args[1:])
	}
	return ""
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
// the option that makes sub only check, or a word that spares it, or
// lacks the option sub requires.
func (pc *projectCode) exempt(sub string, rest []string) bool {
	if opt := pc.checking[sub]; opt != "" && slices.Contains(rest, opt) {
		return true
	}
	if opt := pc.requires[sub]; opt != "" && !slices.Contains(rest, opt) {
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
	// attached are the short options whose value, if any, is the rest of
	// their word and never the next one (perl -i.bak, -MModule, -x).
	attached map[string]bool
	// digits are the short options followed by optional octal digits
	// before the bundle goes on (perl -l, -0777), each with whether an x
	// and hexadecimal digits may follow instead (perl -0x1F).
	digits map[string]bool
	// flags, when set, are the interpreter's other options (those that
	// take no value): its command line is then known whole, and an option
	// on none of the sets makes Run report nothing, so that the lists
	// decide (a person is asked) rather than the label rest on a guess of
	// what the option does to the words after it.
	flags map[string]bool
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
	case "perl":
		return interpreterCells[perlCell].get(perlInterpreter)
	case "ruby":
		return interpreterCells[rubyCell].get(rubyInterpreter)
	case "lua", "luajit":
		return interpreterCells[luaCell].get(luaInterpreter)
	}
	return nil
}

// The cells of interpreterCells, one per interpreter.
const (
	pythonCell = iota
	nodeCell
	phpCell
	perlCell
	rubyCell
	luaCell
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
// a file only parsed (node --check), no operand, or, for an interpreter
// whose options are known whole (flags), an option it does not know.
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
			switch {
			case in.inline[key]:
				return "", false, key
			case in.parseOnly[key]:
				return "", false, ""
			case in.withValue[key]:
				if !attached {
					i++
				}
			case in.flags != nil && !in.flags[key]:
				return "", false, ""
			}
		case strings.HasPrefix(a, "-") && a != "-":
			// A bundle of short options (-uB, -um, -Werror, -lne).
			skip, ok := in.bundle(a)
			if !ok {
				return "", false, ""
			}
			switch {
			case skip.inline != "":
				return "", false, skip.inline
			case skip.module:
				return "", true, ""
			case skip.parseOnly:
				return "", false, ""
			case skip.next:
				i++
			}
		default:
			return a, false, ""
		}
	}
	return "", false, ""
}

// bundleEnd is what a bundle of short options ends with.
type bundleEnd struct {
	inline    string // an option that gives inline code
	module    bool   // the module option
	parseOnly bool   // an option that makes the interpreter only parse
	next      bool   // an option whose value is the next word
}

// bundle reads a of short options (a starts with one dash) and says what
// it ends with; ok is false when it holds an option the interpreter does
// not know (only for one whose options are known whole).
func (in *Interpreter) bundle(a string) (end bundleEnd, ok bool) {
	for k := 1; k < len(a); k++ {
		opt := "-" + a[k:k+1]
		hex, digits := in.digits[opt]
		switch {
		case in.inline[opt]:
			return bundleEnd{inline: opt}, true
		case in.parseOnly[opt]:
			return bundleEnd{parseOnly: true}, true
		case opt == in.module:
			return bundleEnd{module: true}, true
		case in.withValue[opt]:
			return bundleEnd{next: k == len(a)-1}, true
		case in.attached[opt]:
			return bundleEnd{}, true
		case digits:
			k = skipDigits(a, k+1, hex) - 1
		case in.flags != nil && !in.flags[opt]:
			return bundleEnd{}, false
		}
	}
	return bundleEnd{}, true
}

// skipDigits returns the index in a, from k on, past an optional run of
// octal digits, or, where hex is set, of hexadecimal ones after an x (perl
// -0777, -0x1F).
func skipDigits(a string, k int, hex bool) int {
	digit := func(c byte) bool { return c >= '0' && c <= '7' }
	if hex && k < len(a) && (a[k] == 'x' || a[k] == 'X') {
		k++
		digit = func(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
	}
	for k < len(a) && digit(a[k]) {
		k++
	}
	return k
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
