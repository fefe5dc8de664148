// Command sandboxauth shows what the sandboxauth library decides, without
// writing Go: how a shell command is classified and what each policy would
// do with it (check), which tools a tool-policy configuration gives an agent
// (tools), and an interactive session in which the library's authorizers
// ask a person through their UserRequest channel (demo).
//
// Usage:
//
//	sandboxauth check [flags] [--] ARGV...    classify a command (or stdin, one per line)
//	sandboxauth tools --config FILE [TOOL...] explain a tool policy
//	sandboxauth demo [flags]                  play an agent interactively
//	sandboxauth hook --for AGENT < EVENT      answer an agent's pre-tool hook
//	sandboxauth hook install --for AGENT      register the hook with an agent
//	sandboxauth run [flags] -- ARGV...        decide a command, then run it confined
//	sandboxauth defaults [flags] [SECTION...] list the command lists and protected paths
//	sandboxauth version                       print the version
//
// Exit status, for every subcommand:
//
//	0  success: every command is allowed under the chosen policy, every
//	   named tool is allowed, the demo ended normally
//	1  check: some command would make the policy ask a person (none refused)
//	2  check: some command would be refused; tools: some named tool is denied
//	3  usage or input error: bad flags, unreadable or malformed files, a
//	   configuration error, a command that cannot be checked
//
// except hook, which answers in the agent's own protocol: 0 with the answer
// on standard output, or 2 (a refusal, also for its own usage errors, so
// that a misconfigured hook blocks instead of letting the call run), and
// except run, which passes on the exit status of the command it ran,
// and otherwise exits with 126 (refused, or the kernel cannot confine),
// 127 (the program cannot be started) or 125 (usage error).
//
// Run "sandboxauth COMMAND --help" for the flags and examples of each.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/sandboxauth/sandboxauth"
	// A hook process runs on one processor from before most packages
	// initialise (see its documentation).
	_ "github.com/sandboxauth/sandboxauth/cmd/sandboxauth/internal/hookstart"
)

// Exit statuses. They are the same for every subcommand; see the package
// documentation.
const (
	exitOK    = 0 // allowed, or nothing to report
	exitAsk   = 1 // check: a person would be asked
	exitDeny  = 2 // check: refused; tools: a named tool is denied
	exitUsage = 3 // usage or input error
)

// env is what a subcommand runs with: its standard streams.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	// detach is set when the streams are this program's own, so that run
	// may start its worker with them (see runsupervise_linux.go).
	detach bool
}

// subcommand is one verb of the program.
type subcommand struct {
	name    string
	summary string
	run     func(e *env, args []string) int
}

func subcommands() []subcommand {
	return []subcommand{
		{"check", "classify shell commands and show what each policy would do", runCheck},
		{"tools", "explain which tools a tool-policy configuration allows", runTools},
		{"demo", "an interactive session: play an agent, answer the authorizer's questions", runDemo},
		{"hook", "decide a coding agent's tool call in its hook protocol; hook install registers it", runHook},
		{"run", "decide a shell command, then run it under kernel confinement", runRun},
		{"defaults", "list the default command lists and protected paths (or a configuration's)", runDefaults},
		{"version", "print the version of sandboxauth", runVersion},
		{"help", "show this help, or a subcommand's: help COMMAND", runHelp},
	}
}

func main() {
	os.Exit(run(&env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, detach: true}, os.Args[1:]))
}

// run dispatches args to a subcommand and returns the exit status.
func run(e *env, args []string) int {
	if len(args) == 0 {
		usage(e.stderr)
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help":
		usage(e.stdout)
		return exitOK
	case "-v", "-version", "--version":
		return runVersion(e, nil)
	}
	for _, c := range subcommands() {
		if c.name == args[0] {
			return c.run(e, args[1:])
		}
	}
	fmt.Fprintf(e.stderr, "sandboxauth: unknown command %q\n\n", args[0])
	usage(e.stderr)
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprint(w, `sandboxauth shows what the sandboxauth library decides for an LLM agent's tool calls.

Usage:
  sandboxauth COMMAND [flags] [arguments]

Commands:
`)
	for _, c := range subcommands() {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, `
Exit status (all commands):
  0  success: everything checked is allowed (check), every named tool is
     allowed (tools), the session ended normally (demo)
  1  check: some command would make the policy ask a person, none is refused
  2  check: some command would be refused; tools: some named tool is denied
  3  usage or input error (bad flags, unreadable or malformed files, ...)
  hook answers in the agent's protocol: 0, or 2 for a refusal (see hook --help)

Examples:
  sandboxauth check -- git status
  sandboxauth check -- bash -c 'timeout 5 curl https://example.com'
  printf 'go test ./...\nrm -rf /\n' | sandboxauth check
  sandboxauth tools --config tools.json --agent reviewer exec read
  sandboxauth demo --policy permissive
  sandboxauth run -- go test ./...

Run "sandboxauth COMMAND --help" for the flags of a command.
`)
}

func runHelp(e *env, args []string) int {
	fs := newFlagSet(e, "help", "[COMMAND]", "Show the commands of sandboxauth, or the help of one COMMAND (the same as\n\"sandboxauth COMMAND --help\").\n", []string{"sandboxauth help", "sandboxauth help check"})
	if code, done := parseFlags(e, fs, args); done {
		return code
	}
	args = fs.Args()
	if len(args) > 1 {
		return usageError(e, fs, "help takes at most one command")
	}
	if len(args) == 0 {
		usage(e.stdout)
		return exitOK
	}
	for _, c := range subcommands() {
		if c.name == args[0] && c.name != "help" {
			return c.run(e, []string{"--help"})
		}
	}
	fmt.Fprintf(e.stderr, "sandboxauth help: unknown command %q\n", args[0])
	return exitUsage
}

func runVersion(e *env, args []string) int {
	fs := newFlagSet(e, "version", "", "Print the version of the sandboxauth command and the Go toolchain that built it.\n"+
		"The version is the one the Go toolchain recorded: a release tag or a\n"+
		"pseudo-version (go install ...@latest), or \"(devel)\" and the commit for a\n"+
		"build from a checkout.\n", []string{"sandboxauth version"})
	if code, done := parseFlags(e, fs, args); done {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(e, fs, "version takes no arguments")
	}
	goVersion := "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok {
		goVersion = bi.GoVersion
	}
	fmt.Fprintf(e.stdout, "sandboxauth %s (%s)\n", sandboxauth.Version(), goVersion)
	return exitOK
}

// newFlagSet returns a flag set for subcommand name whose usage text is
// synopsis, then description, then the flags, then examples.
func newFlagSet(e *env, name, synopsis, description string, examples []string) *flag.FlagSet {
	fs := flag.NewFlagSet("sandboxauth "+name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "Usage:\n  %s\n\n%s\n", strings.TrimSpace("sandboxauth "+name+" "+synopsis), strings.TrimRight(description, "\n"))
		// Every subcommand has the same sections: Usage, the description,
		// Flags (-h/--help at least), Examples.
		fmt.Fprint(w, "\nFlags:\n")
		fs.PrintDefaults()
		fmt.Fprint(w, "  -h, --help\n    \tshow this help on standard output and exit with status 0\n")
		if len(examples) > 0 {
			fmt.Fprint(w, "\nExamples:\n")
			for _, ex := range examples {
				fmt.Fprintf(w, "  %s\n", ex)
			}
		}
	}
	return fs
}

// parseFlags parses args into fs. When it returns done, the command must
// return code: --help was asked for (usage on stdout, status 0) or the flags
// were wrong (the error and usage on stderr, status 3).
func parseFlags(e *env, fs *flag.FlagSet, args []string) (code int, done bool) {
	fs.SetOutput(io.Discard) // report errors ourselves, once
	err := fs.Parse(args)
	fs.SetOutput(e.stderr)
	if err == nil {
		return 0, false
	}
	if errors.Is(err, flag.ErrHelp) {
		fs.SetOutput(e.stdout)
		fs.Usage()
		fs.SetOutput(e.stderr)
		return exitOK, true
	}
	return usageError(e, fs, "%v", err), true
}

// usageError reports a usage error with the command's usage and returns
// exitUsage.
func usageError(e *env, fs *flag.FlagSet, format string, args ...any) int {
	fmt.Fprintf(e.stderr, "%s: %s\nRun '%s --help' for usage.\n", fs.Name(), fmt.Sprintf(format, args...), fs.Name())
	return exitUsage
}

// inputError reports an error in the command's input (a file, a line of
// standard input) and returns exitUsage.
func inputError(e *env, fs *flag.FlagSet, format string, args ...any) int {
	fmt.Fprintf(e.stderr, "%s: %s\n", fs.Name(), fmt.Sprintf(format, args...))
	return exitUsage
}
