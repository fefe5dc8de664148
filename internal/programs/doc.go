// Package programs holds what the classifier knows about each program it
// may call safe: one Spec per safe form of a program, and the one parser
// that reads an argv with it.
//
// # The model
//
// A Spec names a command and the words that select one of its forms
// ("git" "log", "go" "mod" "verify", or just "cat"). It says:
//
//   - how the program reads options (Syntax): getopt_long with unique-prefix
//     abbreviations (GNU), getopt without permutation (POSIX), full names
//     only (Exact: programs with their own parsers, such as jq), the Rust
//     parsers (Clap: -f=PATH is -f PATH, and a next word that begins with
//     "-" is not a value), Python's argparse (Argparse), bundles whose
//     values are the following words (Bundled: tree), one option per word
//     (Single: xxd), Go's flag package (GoFlag, and GoTool for the go
//     command, whose flags may follow the packages), or find's expression
//     (Find); ps and lsof, which fit none, are read by a Check of their own
//     (procinfo.go);
//   - every option the form accepts, with its spellings, whether it takes a
//     value, and what that value is (Text, a file it Reads, a file it
//     Writes, a colon list of files it reads, a file of more names that is
//     never safe, a glob that whitelists hidden files, a file of ignore
//     rules), and the values that make it recursive (grep -d recurse);
//     options that run programs, write files, follow links out of
//     the sandbox or change state are listed as Unsafe, so that they are
//     recognised (and never mistaken for an abbreviation of something
//     harmless) but never allowed;
//   - what its operands are (files read, trees read recursively, files
//     written, or text), how many it takes, and whether it walks hidden and
//     ignored files;
//   - a Check for what generic parsing cannot see (a sed script that
//     writes, a date operand that sets the clock).
//
// Parse reads an argv exactly as the program will: a value swallows the
// next word even when it is "--" or looks like an option, bundles are
// split where the program splits them, and reading continues after
// operands where the program's parser permutes. The result lists every
// option, every operand and every word that names a file, with its role.
// Anything Parse does not understand — an option absent from the spec, a
// value attached to a flag, an operand too many — is a Problem with Unknown
// set: the classifier asks about it and names the word. Nothing unknown is
// ever safe.
//
// # Layout
//
// One file per family of programs (coreutils.go, search.go, git.go, ...),
// so that everything known about a program is found in one place; spec.go
// holds the types, parse.go the parser, options.go the compact notation the
// family files use, registry.go the table of all specs.
//
// A process builds only the families it needs: registry.go finds, in a
// table generated from the families (familytable.go), which families
// define the forms of a command that begin with a word, and builds each
// family on its first lookup; a large program's forms are split into
// families (git.go), and the forms agents run most (git status, git log,
// ls, cat and the other pagers) have families of their own, so that one
// lookup builds few specs. The default
// blocked and dangerous lists are compiled into the program as data
// (listtables.go, generated from lists.go). The tests regenerate both
// tables and fail when they are stale (go test -run 'TestFamilyTable|TestListTables' -update
// rewrites them).
//
// Besides the specs, each family file holds the rest of what is known
// about its programs, for the engine (internal/classify) to consult without
// naming any program itself: how the engine dispatches a name (KindOf:
// shells, wrappers, xargs, git, rsync), how wrappers and shells read their
// own options (wrappers.go, shells.go), git's global options (git.go),
// which invocations run project code and which project files a program
// reads (projectcode.go, projectfiles.go), the environment variables that
// steer programs (environment.go), cd and its relatives (builtins.go),
// where cp and mv put things (fileutils.go), and the default blocked and
// dangerous lists (lists.go).
//
// Specs and tables are fixed, built once and shared: callers must not
// change them. None is built when the process starts: a family's specs,
// its project-code sets and every table held in a map are built on first
// use (sync.Once, sync.OnceValue) from constants in the source, since a
// hook is one process per tool call and pays for whatever its start
// builds; the generated tables (familytable.go, listtables.go,
// projectcodeindex.go) are static data.
package programs
