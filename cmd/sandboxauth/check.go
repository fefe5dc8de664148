package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sandboxauth/sandboxauth"
	"mvdan.cc/sh/v3/syntax"
)

const checkSynopsis = "[--config FILE] [--sandbox DIR] [--cwd DIR] [--split-compound=false] [--policy P] [--json] [--] [ARGV... | -]"

const checkDescription = `Classify a shell command the way the library's ShellAllowedCommands does
(safe, blocked, dangerous, inscrutable or none), name the matcher or rule that
decided, and show what each policy (sandbox, permissive, autoapprove) would do
with it: allow, ask (a person would be asked) or deny, with the reason.

The policies are not simulated: each authorizer is really called, and a
question it raises on its UserRequest channel is recorded and answered "no".

ARGV is the command as a program would receive it (put it after "--" so that
its flags are not read as check's). With no ARGV, or with "-", commands are
read from standard input, one per line, in shell syntax: a line that is one
simple command of literal words is split into its words; any other line (a
pipe, a redirection, a $variable, a glob, ...) is checked as bash -c LINE, so
that the classifier sees the script. Blank lines and # comments are skipped.
Each line gives one line of output (one JSON object per line with --json).

Each command of a pipeline or list (a | b, a && b, a; b) is classified on its
own, as "sandboxauth hook" and "sandboxauth run" classify it: curl ... | sh is
refused because curl is blocked. The library does this only when told
(SetSplitCompound(true), or "splitCompound": true in the configuration);
--split-compound=false shows what it does by default: every pipeline and list
is inscrutable, and asked about.

The command lists, protected paths, headless mode and tool policy come from
the --config file (the defaults without one); a tool policy refusing the
shell tool refuses every command. The class shown is the one the sandbox
policy's authorizer acts on, with the configured protected paths.

Exit status (for the policy chosen by --policy, else by the configuration,
else sandbox):
  0  every command is allowed
  1  some command would make the policy ask a person, none is refused
  2  some command is refused (blocked, outside the sandbox, ...)
  3  usage or input error (bad flags, a bad --config file, a command that
     cannot be checked, such as "--" with nothing after it)

`

var checkExamples = []string{
	"sandboxauth check -- git status",
	"sandboxauth check -- bash -c 'timeout 5 curl https://example.com'",
	"sandboxauth check -- sh -c 'go vet ./... && go test ./...'",
	"sandboxauth check --split-compound=false -- bash -c 'ls | wc -l'",
	"sandboxauth check --sandbox ~/src/app --cwd sub -- ../../bin/tool",
	"sandboxauth check --config policy.json --json -- make test",
	"printf 'ls -la\\nrm -rf build\\ncat *.go | wc -l\\n' | sandboxauth check",
}

// checkOptions are check's flags, resolved.
type checkOptions struct {
	sandbox string
	cwd     string
	json    bool
	policy  string
}

func runCheck(e *env, args []string) int {
	fs := newFlagSet(e, "check", checkSynopsis, checkDescription+configHelp, checkExamples)
	configPath := configFlag(fs)
	sandbox := fs.String("sandbox", "", "the sandbox directory `DIR` (default: the current directory)")
	cwd := fs.String("cwd", "", "the working directory `DIR` of the command; relative to the sandbox (default: the sandbox)")
	split := fs.Bool("split-compound", true, "classify each command of a pipeline or list, as the hook and run do; false: call every pipeline and list inscrutable, as the library does by default")
	asJSON := fs.Bool("json", false, "print JSON (one object per command) instead of text")
	policy := fs.String("policy", "", "the `POLICY` whose decision sets the exit status: sandbox, permissive or autoapprove (default: the configuration's, else sandbox)")
	if code, done := parseFlags(e, fs, args); done {
		return code
	}
	if *policy != "" && !slices.Contains(policyNames, *policy) {
		return usageError(e, fs, "--policy %q: want sandbox, permissive or autoapprove", *policy)
	}
	argv := fs.Args()
	fromStdin := len(argv) == 0 || (len(argv) == 1 && argv[0] == "-" && !afterDashDash(args, argv))
	if len(argv) == 0 && afterDashDash(args, argv) {
		return usageError(e, fs, `nothing after "--": give the command to check, or no arguments to read commands from standard input`)
	}

	cfg, err := loadConfig(*configPath)
	if err != nil {
		return configError(e, fs, err)
	}
	warnConfig(e, fs, cfg, *configPath)
	opts := checkOptions{json: *asJSON, policy: policyFor(*policy, cfg)}
	if opts.sandbox, err = sandboxDir(*sandbox); err != nil {
		return inputError(e, fs, "%v", err)
	}
	opts.cwd = opts.sandbox
	if *cwd != "" {
		opts.cwd = *cwd
		if !filepath.IsAbs(opts.cwd) {
			opts.cwd = filepath.Join(opts.sandbox, opts.cwd)
		}
		opts.cwd = filepath.Clean(opts.cwd)
	}

	commands := commandsFor(cfg, *split)
	obs, err := newObserver(cfg, commands)
	if err != nil {
		return inputError(e, fs, "%v", err)
	}
	defer obs.close()

	c := &checker{e: e, fs: fs, opts: opts, commands: commands, obs: obs}
	if fromStdin {
		return c.stdin()
	}
	r := c.check(argv)
	if opts.json {
		writeJSON(e.stdout, r)
	} else {
		c.printLong(r)
	}
	return c.exitCode(r)
}

// afterDashDash reports whether the flag parser stopped at a "--" argument
// (which it drops) before rest.
func afterDashDash(args, rest []string) bool {
	n := len(args) - len(rest)
	return n > 0 && args[n-1] == "--"
}

// sandboxDir returns the absolute sandbox directory for the --sandbox
// value dir ("" is the current directory). It must exist.
func sandboxDir(dir string) (string, error) {
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	st, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("sandbox directory: %w", err)
	}
	if !st.IsDir() {
		return "", fmt.Errorf("sandbox directory %s is not a directory", abs)
	}
	return abs, nil
}

// checker checks commands with one set of lists and authorizers.
type checker struct {
	e        *env
	fs       *flag.FlagSet
	opts     checkOptions
	commands *sandboxauth.ShellAllowedCommands
	obs      *observer
}

// checkResult is the outcome of checking one command; it is also check's
// JSON output.
type checkResult struct {
	Line    int       `json:"line,omitempty"`  // stdin mode: the line number
	Input   string    `json:"input,omitempty"` // stdin mode: the line as read
	Argv    []string  `json:"argv"`            // the command checked
	Sandbox string    `json:"sandbox"`
	Cwd     string    `json:"cwd"`
	Error   string    `json:"error,omitempty"`          // the command could not be classified
	Class   *classOut `json:"classification,omitempty"` // as the authorizers classify it (protected paths included)
	// Base is the class of the command alone, without the protected paths,
	// when it differs from Class.
	Base     *classOut `json:"base,omitempty"`
	Policies []verdict `json:"policies"`
}

// classOut is a sandboxauth.Classification in JSON.
type classOut struct {
	Class    string     `json:"class"`
	Rule     string     `json:"rule,omitempty"`
	Reason   string     `json:"reason,omitempty"`
	Argv     []string   `json:"argv,omitempty"` // as classified, after unwrapping
	Segments []classOut `json:"segments,omitempty"`
}

func toClassOut(c sandboxauth.Classification) classOut {
	out := classOut{Class: c.Result.String(), Rule: c.Rule, Reason: c.Reason, Argv: c.Argv}
	for _, s := range c.Segments {
		out.Segments = append(out.Segments, toClassOut(s))
	}
	return out
}

// check classifies argv and observes every policy on it.
func (c *checker) check(argv []string) checkResult {
	r := checkResult{Argv: argv, Sandbox: c.opts.sandbox, Cwd: c.opts.cwd}
	if r.Argv == nil {
		r.Argv = []string{}
	}
	site := sandboxauth.CommandSite{SandboxDir: c.opts.sandbox, Cwd: c.opts.cwd}
	cl, err := c.obs.classify(c.opts.sandbox, c.opts.cwd, argv)
	if err != nil {
		r.Error = err.Error()
	} else {
		co := toClassOut(cl)
		r.Class = &co
		if base, err := c.commands.Classify(site, argv); err == nil && (base.Result != cl.Result || base.Rule != cl.Rule) {
			bo := toClassOut(base)
			r.Base = &bo
		}
	}
	r.Policies = c.obs.shell(c.opts.sandbox, c.opts.cwd, argv)
	return r
}

// exitCode is the status r gives under the chosen policy.
func (c *checker) exitCode(r checkResult) int {
	if r.Error != "" {
		return exitUsage
	}
	return verdictFor(r.Policies, c.opts.policy).Decision.exitCode()
}

// printLong prints one result in full.
func (c *checker) printLong(r checkResult) {
	w := c.e.stdout
	fmt.Fprintf(w, "command:     %s\n", quoteArgv(r.Argv))
	if r.Cwd != r.Sandbox {
		fmt.Fprintf(w, "cwd:         %s\n", r.Cwd)
	}
	fmt.Fprintf(w, "sandbox:     %s\n", r.Sandbox)
	if r.Error != "" {
		fmt.Fprintf(w, "error:       %s\n", r.Error)
	} else {
		cl := r.Class
		fmt.Fprintf(w, "class:       %s\n", cl.Class)
		if cl.Rule != "" {
			fmt.Fprintf(w, "rule:        %s\n", ruleLabel(cl.Rule))
		}
		if cl.Reason != "" {
			fmt.Fprintf(w, "reason:      %s\n", cl.Reason)
		}
		if b := r.Base; b != nil {
			fmt.Fprintf(w, "changed:     %s on its own (%s); the protected path above makes it %s\n", b.Class, ruleLabel(b.Rule), cl.Class)
		}
		if len(cl.Argv) > 0 && !slices.Equal(cl.Argv, r.Argv) {
			fmt.Fprintf(w, "classified:  %s\n", quoteArgv(cl.Argv))
		}
		if len(cl.Segments) > 0 {
			fmt.Fprintf(w, "segments:\n")
			printSegments(w, cl.Segments, "  ")
		}
	}
	fmt.Fprintf(w, "policies:\n")
	for _, v := range r.Policies {
		fmt.Fprintf(w, "  %-12s %s", v.Policy, v.Decision)
		if v.Reason != "" {
			fmt.Fprintf(w, ": %s", v.Reason)
		}
		fmt.Fprintln(w)
	}
}

func printSegments(w io.Writer, segs []classOut, indent string) {
	for i, s := range segs {
		fmt.Fprintf(w, "%s%d. %-11s %s", indent, i+1, s.Class, quoteArgv(s.Argv))
		if s.Rule != "" {
			fmt.Fprintf(w, "  [%s]", ruleLabel(s.Rule))
		}
		fmt.Fprintln(w)
		printSegments(w, s.Segments, indent+"   ")
	}
}

const shortFormat = "%-11s  %-7s  %-10s  %-11s  %s\n"

// printShort prints one result on one line (stdin mode).
func (c *checker) printShort(r checkResult) {
	class, rule := "error", r.Error
	if r.Class != nil {
		class, rule = r.Class.Class, r.Class.Rule
	}
	cmd := r.Input
	if rule != "" {
		cmd += "  # " + oneLine(ruleLabel(rule))
	}
	fmt.Fprintf(c.e.stdout, shortFormat, class,
		verdictFor(r.Policies, "sandbox").Decision,
		verdictFor(r.Policies, "permissive").Decision,
		verdictFor(r.Policies, "autoapprove").Decision,
		cmd)
}

// stdin checks the commands of standard input, one per line, and returns
// the worst status.
func (c *checker) stdin() int {
	if isTerminal(c.e.stdin) {
		fmt.Fprintln(c.e.stderr, "Reading commands from standard input, one per line; end with Ctrl-D.")
	}
	if !c.opts.json {
		fmt.Fprintf(c.e.stdout, shortFormat, "CLASS", "SANDBOX", "PERMISSIVE", "AUTOAPPROVE", "COMMAND  # RULE")
	}
	code := exitOK
	sc := bufio.NewScanner(c.e.stdin)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimRight(sc.Text(), "\r")
		argv := splitLine(line)
		if argv == nil {
			continue
		}
		r := c.check(argv)
		r.Line, r.Input = n, strings.TrimSpace(line)
		if r.Error != "" {
			fmt.Fprintf(c.e.stderr, "%s: line %d: %s\n", c.fs.Name(), n, r.Error)
		}
		if c.opts.json {
			writeJSON(c.e.stdout, r)
		} else {
			c.printShort(r)
		}
		code = max(code, c.exitCode(r))
	}
	if err := sc.Err(); err != nil {
		return inputError(c.e, c.fs, "reading standard input: line %d: %v", n+1, err)
	}
	return code
}

// quoteArgv renders argv as it would be typed in a shell.
func quoteArgv(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		s, err := syntax.Quote(a, syntax.LangBash)
		if err != nil {
			s = fmt.Sprintf("%q", a)
		}
		q[i] = s
	}
	return strings.Join(q, " ")
}

// ruleLabel is a rule as printed after "rule:": without the library's
// own "rule: " label, so that it is not printed twice.
func ruleLabel(rule string) string {
	return strings.TrimPrefix(rule, "rule: ")
}

// oneLine replaces line breaks so that a text fits on one output line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// writeJSON writes v as one line of JSON.
func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		fmt.Fprintf(w, "{\"error\":%q}\n", err.Error())
	}
}
