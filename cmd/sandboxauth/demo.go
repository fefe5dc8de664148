package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sandboxauth/sandboxauth"
	"github.com/sandboxauth/sandboxauth/confine"
)

const demoSynopsis = "[--config FILE] [--sandbox DIR] [--policy sandbox|permissive|autoapprove] [--split-compound=false] [--execute]"

const demoDescription = `An interactive session in which you play an LLM agent and the person it asks.
Type what the agent's tools would do; the chosen policy decides, and when it
needs a person, its question arrives on the library's UserRequest channel and
is shown with a y/n prompt (y or yes allows; n, no or an empty answer refuses).
Where the library offers a session grant, "a" allows and stops asking about
the stated scope (a command's program and subcommand words, or a path), and
"d1", "d2", ... pick a directory instead.

Commands:
  read PATH...     a read_file tool reads PATH (relative paths are in the sandbox)
  write PATH...    a write_file tool writes PATH
  run COMMAND...   a shell tool runs COMMAND in the sandbox (shell syntax: a
                   line with pipes, redirections or $variables runs as bash -c)
  ask read|write|run ...
                   the same, with the model requesting permission explicitly
  grants           list what was allowed for the rest of the session
  help             list the commands
  quit             end the session (so does end of input, Ctrl-D)

Nothing is actually read, written or run: the session only shows the
decisions. With --execute, shell commands that are allowed really run in the
sandbox, confined by the kernel (Linux Landlock: writes only beneath the
sandbox and the toolchains' caches, no TCP), and their output and exit status
are shown; the policies then allow project code (go test, make, ...) without
asking, since it runs confined. --execute is refused where the kernel cannot
confine. The outcome of each call is "allowed", "refused: <the message the
model would read>" or "error: <what is wrong with the call>".

The session reads standard input line by line, so it works in a terminal and
with piped input, where y/n answers are read from the same stream as the
commands (in order). The sandbox directory must exist; it defaults to the
current directory. The policy (unless --policy is given), command lists,
protected paths, prompt timeout and tool policy come from the --config file.
Exit status: 0 when the session ends, 3 on a usage error.

`

var demoExamples = []string{
	"sandboxauth demo",
	"sandboxauth demo --sandbox /tmp/play --policy permissive",
	"sandboxauth demo --execute --sandbox ~/src/app",
	"printf 'read notes.txt\\nrun rm -rf build\\ny\\nwrite /etc/hosts\\n' | sandboxauth demo",
}

// task is one tool call the agent makes.
type task struct {
	op        sandboxauth.Operation
	paths     []string // read, write: absolute
	argv      []string // shell
	requested bool     // the model asks for permission explicitly
}

// event is what the agent reports after a tool call.
type event struct {
	task task
	err  error
	ran  *ranCommand // --execute: the shell command that ran
}

type demo struct {
	e        *env
	sandbox  string
	policy   string
	authz    sandboxauth.Authorizer
	requests <-chan sandboxauth.UserRequest // closed for autoapprove
	echo     bool                           // input is not a terminal: echo what is read
	lines    <-chan string                  // every line of standard input, from one reader goroutine
	tasks    chan task
	events   chan event
	eof      bool
	grants   *sandboxauth.Grants // "allow for the rest of the session" answers
	confined *confine.Policy     // --execute: allowed shell commands run confined by it
}

func runDemo(e *env, args []string) int {
	fs := newFlagSet(e, "demo", demoSynopsis, demoDescription+configHelp, demoExamples)
	configPath := configFlag(fs)
	sandbox := fs.String("sandbox", "", "the sandbox directory `DIR`; it must exist (default: the current directory)")
	policy := fs.String("policy", "", "the `POLICY`: sandbox, permissive or autoapprove (default: the configuration's, else sandbox)")
	split := fs.Bool("split-compound", true, "classify each command of a pipeline or list, as the hook and run do; false: call every pipeline and list inscrutable, as the library does by default")
	execute := fs.Bool("execute", false, "run the allowed shell commands, confined by the kernel (Linux Landlock)")
	if code, done := parseFlags(e, fs, args); done {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(e, fs, "unexpected argument %q: demo reads its commands from standard input", fs.Arg(0))
	}
	if *policy != "" && !slices.Contains(policyNames, *policy) {
		return usageError(e, fs, "--policy %q: want sandbox, permissive or autoapprove", *policy)
	}
	dir, err := sandboxDir(*sandbox)
	if err != nil {
		return inputError(e, fs, "%v", err)
	}
	cfg, err := loadConfig(*configPath)
	if err != nil {
		return configError(e, fs, err)
	}
	warnConfig(e, fs, cfg, *configPath)
	pol := policyFor(*policy, cfg)
	d := &demo{e: e, sandbox: dir, policy: pol, echo: !isTerminal(e.stdin), grants: sandboxauth.NewGrants()}
	opts := []sandboxauth.Option{sandboxauth.WithGrants(d.grants)}
	if *execute {
		p := confinePolicy(cfg, dir, false)
		if err := confine.Available(); err != nil {
			return inputError(e, fs, "--execute runs commands only under kernel confinement, which this system lacks: %v", err)
		}
		d.confined = &p
		opts = append(opts, sandboxauth.WithConfinement(p))
	}
	if !*execute {
		cfg = cfg.WithoutConfinement() // the demo runs nothing: nothing is confined
	}
	d.authz, d.requests, err = cfg.NewPolicyAuthorizer(pol, commandsFor(cfg, *split), opts...)
	if err != nil {
		return inputError(e, fs, "%v", err)
	}
	d.run()
	return exitOK
}

// isTerminal reports whether r is a terminal (a character device).
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// readLines starts the only goroutine that reads r. It sends every line
// on the returned channel and closes it at end of input (or on a read
// error), so that agent commands and y/n answers are read in order by one
// reader and received by one loop.
func readLines(r io.Reader) <-chan string {
	lines := make(chan string)
	go func() {
		defer close(lines)
		br := bufio.NewReader(r)
		for {
			line, err := br.ReadString('\n')
			if line != "" {
				lines <- strings.TrimRight(line, "\r\n")
			}
			if err != nil {
				return
			}
		}
	}()
	return lines
}

// run is the session: the seed's event loop, with the input lines as a
// third source while the agent is idle.
func (d *demo) run() {
	d.lines = readLines(d.e.stdin)
	d.tasks = make(chan task)
	d.events = make(chan event)
	go d.agent()

	fmt.Fprintf(d.e.stdout, "sandboxauth demo: policy %s, sandbox %s\n", d.policy, d.sandbox)
	if d.confined != nil {
		fmt.Fprintln(d.e.stdout, "Allowed shell commands run in the sandbox, confined by the kernel.")
	}
	fmt.Fprintln(d.e.stdout, `Type read PATH, write PATH, run COMMAND (prefix with "ask" to request permission), help or quit.`)
	d.prompt()

	busy := false
	for {
		var input <-chan string
		if !busy && !d.eof {
			input = d.lines
		}
		select {
		case req, ok := <-d.requests:
			if !ok {
				d.requests = nil
				continue
			}
			d.answer(req)
		case ev := <-d.events:
			d.report(ev)
			busy = false
			if d.eof {
				d.end()
				return
			}
			d.prompt()
		case line, ok := <-input:
			if !ok {
				d.eof = true
				fmt.Fprintln(d.e.stdout)
				d.end()
				return
			}
			if d.echo {
				fmt.Fprintln(d.e.stdout, line)
			}
			t, quit, ok := d.parse(line)
			switch {
			case quit:
				d.end()
				return
			case ok:
				busy = true
				d.tasks <- t
			default:
				d.prompt()
			}
		}
	}
}

// end closes the session: no more tasks, the authorizer closed (which
// closes the request channel), and the agent goroutine finished.
func (d *demo) end() {
	close(d.tasks)
	d.authz.Close()
	for range d.events {
	}
	fmt.Fprintln(d.e.stdout, "bye")
}

func (d *demo) prompt() {
	fmt.Fprint(d.e.stdout, "> ")
}

// agent runs the tool calls one at a time, as an agent's tool loop would:
// each call blocks while the authorizer waits for a person.
func (d *demo) agent() {
	defer close(d.events)
	for t := range d.tasks {
		ev := event{task: t, err: d.call(t)}
		if ev.err == nil && t.op == sandboxauth.OpShell && d.confined != nil {
			ev.ran = runDemoCommand(t.argv, d.sandbox, *d.confined)
		}
		d.events <- ev
	}
}

const demoReason = "the demo user typed ask"

func (d *demo) call(t task) error {
	reason := ""
	if t.requested {
		reason = demoReason
	}
	switch t.op {
	case sandboxauth.OpRead:
		return d.authz.IsAuthorizedForRead(t.requested, reason, "read_file", d.sandbox, t.paths...)
	case sandboxauth.OpWrite:
		return d.authz.IsAuthorizedForWrite(t.requested, reason, "write_file", d.sandbox, t.paths...)
	default:
		return d.authz.IsShellAuthorized(t.requested, reason, d.sandbox, d.sandbox, t.argv)
	}
}

// answer shows a request and answers it with the next y/n line. At end of
// input the request is refused.
func (d *demo) answer(req sandboxauth.UserRequest) {
	choices := "y/N"
	if req.AllowForSession != nil {
		fmt.Fprintf(d.e.stdout, "%s\n  a:  allow, and for the rest of the session: %s\n", strings.TrimSuffix(req.Prompt, "Allow?"), req.SessionScope)
		for i, dir := range req.GrantDirs {
			fmt.Fprintf(d.e.stdout, "  d%d: allow, and for the rest of the session anything below %s\n", i+1, dir)
		}
		choices = "y/N/a"
		switch n := len(req.GrantDirs); {
		case n == 1:
			choices += "/d1"
		case n > 1:
			choices += fmt.Sprintf("/d1..d%d", n)
		}
		fmt.Fprintf(d.e.stdout, "Allow? [%s] ", choices)
	} else {
		fmt.Fprint(d.e.stdout, req.Prompt+" [y/N] ")
	}
	for {
		line, ok := <-d.lines
		if !ok {
			d.eof = true
			fmt.Fprintln(d.e.stdout, "\n(end of input: refusing)")
			req.Disallow()
			return
		}
		if d.echo {
			fmt.Fprintln(d.e.stdout, line)
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "y", "yes":
			req.Allow()
			return
		case "", "n", "no":
			req.Disallow()
			return
		case "a", "always":
			if req.AllowForSession != nil {
				req.AllowForSession()
				return
			}
		default:
			var n int
			if _, err := fmt.Sscanf(strings.TrimSpace(line), "d%d", &n); err == nil && req.AllowForSessionUnder != nil && n >= 1 && n <= len(req.GrantDirs) {
				if err := req.AllowForSessionUnder(req.GrantDirs[n-1]); err == nil {
					return
				}
			}
		}
		fmt.Fprintf(d.e.stdout, "Please answer one of %s. Allow? [%s] ", choices, choices)
	}
}

// report prints the outcome of a tool call.
func (d *demo) report(ev event) {
	switch {
	case ev.err == nil && ev.ran != nil:
		fmt.Fprintf(d.e.stdout, "allowed; ran confined:\n%s%s\n", ev.ran.output, ev.ran.status)
	case ev.err == nil:
		fmt.Fprintln(d.e.stdout, "allowed")
	case errors.Is(ev.err, sandboxauth.ErrDenied):
		fmt.Fprintf(d.e.stdout, "refused: %s\n", ev.err)
	default:
		fmt.Fprintf(d.e.stdout, "error: %s\n", ev.err)
	}
}

// parse reads one command line. It prints help and mistakes itself.
func (d *demo) parse(line string) (t task, quit, ok bool) {
	verb, rest := cut(line)
	if verb == "ask" {
		t.requested = true
		verb, rest = cut(rest)
	}
	switch verb {
	case "":
		if t.requested {
			fmt.Fprintln(d.e.stdout, "ask what? ask read PATH, ask write PATH or ask run COMMAND")
		}
		return t, false, false
	case "help", "?":
		d.help()
		return t, false, false
	case "quit", "exit", "q":
		return t, true, false
	case "grants":
		list := d.grants.List()
		if len(list) == 0 {
			fmt.Fprintln(d.e.stdout, "no session grants")
		}
		for _, g := range list {
			fmt.Fprintln(d.e.stdout, "granted:", g)
		}
		return t, false, false
	case "read", "write":
		t.op = sandboxauth.OpRead
		if verb == "write" {
			t.op = sandboxauth.OpWrite
		}
		words, lit, blank := splitWords(rest)
		if blank {
			fmt.Fprintf(d.e.stdout, "%s what? %s PATH...\n", verb, verb)
			return t, false, false
		}
		if !lit {
			fmt.Fprintln(d.e.stdout, "paths must be plain words (quotes are fine; no globs, ~ or $variables)")
			return t, false, false
		}
		for _, p := range words {
			if !filepath.IsAbs(p) {
				p = filepath.Join(d.sandbox, p)
			}
			t.paths = append(t.paths, p)
		}
		return t, false, true
	case "run":
		t.op = sandboxauth.OpShell
		t.argv = splitLine(rest)
		if t.argv == nil {
			fmt.Fprintln(d.e.stdout, "run what? run COMMAND...")
			return t, false, false
		}
		return t, false, true
	}
	fmt.Fprintf(d.e.stdout, "unknown command %q; type help\n", verb)
	return t, false, false
}

// cut splits off the first word of s.
func cut(s string) (word, rest string) {
	s = strings.TrimSpace(s)
	i := strings.IndexAny(s, " \t")
	if i < 0 {
		return s, ""
	}
	return s[:i], strings.TrimSpace(s[i:])
}

func (d *demo) help() {
	fmt.Fprint(d.e.stdout, `  read PATH...      a read_file tool reads PATH (relative to the sandbox)
  write PATH...     a write_file tool writes PATH
  run COMMAND...    a shell tool runs COMMAND in the sandbox
  ask read|write|run ...  the same, with the model requesting permission
  help, quit
`)
}

// ranCommand is what a shell command run by --execute did.
type ranCommand struct {
	output string // standard output and error, each line indented
	status string // "exit status 0", "could not start: ..."
}

// runDemoCommand runs argv in the sandbox confined by p, with no standard
// input (the session's input is the person's).
func runDemoCommand(argv []string, sandbox string, p confine.Policy) *ranCommand {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = sandbox
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	r := &ranCommand{status: "exit status 0"}
	err := confine.Run(cmd, p)
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.status = ee.String()
	case err != nil:
		r.status = "could not start: " + err.Error()
	}
	for _, line := range strings.SplitAfter(out.String(), "\n") {
		if line != "" {
			r.output += "  | " + strings.TrimSuffix(line, "\n") + "\n"
		}
	}
	return r
}
