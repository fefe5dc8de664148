package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/sandboxauth/sandboxauth"
	"github.com/sandboxauth/sandboxauth/confine"
	"github.com/sandboxauth/sandboxauth/internal/pathres"
)

const runSynopsis = "[--config FILE] [--sandbox DIR] [--net] -- COMMAND [ARGUMENTS...]"

const runDescription = `Decide a shell command under the Sandbox policy with kernel confinement, then
run it confined: it can write only beneath the sandbox directory (and the
temporary directory, toolchain caches and /dev/null), cannot make TCP
connections or listen unless --net is given, and cannot signal processes
outside it. Because it runs confined, commands that run project code (go test,
npm test, make, pytest, ./build.sh, ...) need nobody's approval; blocked
commands are refused, and what the policy would ask a person about is asked on
the terminal (y or yes runs it). Without a terminal on standard input,
whatever must be asked is refused.

With --net, project code is asked about: with the network open and reads
unrestricted, confinement no longer stops it from sending the user's files
out. Pipelines and lists given as one bash -c script are judged segment by
segment. The working directory is the current directory, which must be inside
the sandbox.

Exit status: the command's own when it ran (128+N when killed by signal N);
126 when it was refused or the kernel cannot confine it (nothing ran: the
reason is printed on standard error); 127 when the program is not found (a
name in no PATH directory, a path to nothing) or cannot be started; 125 for
a usage error.
`

var runExamples = []string{
	"sandboxauth run -- go test ./...",
	"sandboxauth run --sandbox ~/src/app -- npm test",
	"sandboxauth run --net -- go mod download",
}

// Exit statuses of run, which otherwise passes the command's own on.
const (
	exitRunUsage    = 125 // usage error
	exitRunRefused  = 126 // refused, or not confinable: nothing ran
	exitRunNotFound = 127 // the program could not be started
)

func runRun(e *env, args []string) int {
	if code, done := supervise(e, args); done {
		return code
	}
	fs := newFlagSet(e, "run", runSynopsis, runDescription+configHelp, runExamples)
	configPath := configFlag(fs)
	sandbox := fs.String("sandbox", "", "the sandbox directory `DIR` the command may write beneath (default: the current directory)")
	network := fs.Bool("net", false, "share the machine's network: the command reaches the internet and this machine's loopback services (the other limits stay, UNIX sockets included)")
	if code, done := parseFlags(e, fs, args); done {
		if code == exitUsage {
			return exitRunUsage
		}
		return code
	}
	argv := fs.Args()
	if len(argv) == 0 {
		usageError(e, fs, "no command given: put it after --")
		return exitRunUsage
	}
	dir, err := sandboxDir(*sandbox)
	if err != nil {
		inputError(e, fs, "%v", err)
		return exitRunUsage
	}
	cwd, err := os.Getwd()
	if err != nil {
		inputError(e, fs, "%v", err)
		return exitRunUsage
	}
	cfg, err := loadConfig(*configPath)
	if err != nil {
		configError(e, fs, err)
		return exitRunUsage
	}
	warnConfig(e, fs, cfg, *configPath)

	if code, ok := findProgram(e, argv[0], cwd); !ok {
		return code
	}

	if other := sandboxauth.ConfinementWaitsFor(dir); other != "" {
		// A run of a directory holding, or inside, one whose runs are
		// active waits for them (see sandboxauth.ConfinementWaitsFor).
		how := "stop them (a dev server, a watcher)"
		if pathres.Within(other, dir) {
			how += ", or give this one their sandbox (--sandbox " + other + "): runs of one sandbox do not wait for each other"
		}
		fmt.Fprintf(e.stderr, "sandboxauth run: waiting for the confined commands running in %s to end first, since this sandbox overlaps theirs and each run judges what changed against its own record of the tree: %s.\n", other, how)
	}
	policy := confinePolicy(cfg, dir, *network)
	authz, requests, err := cfg.NewPolicyAuthorizer(sandboxauth.PolicySandbox, commandsFor(cfg, true), sandboxauth.WithConfinement(policy))
	if err != nil {
		fmt.Fprintf(e.stderr, "sandboxauth run: refused to run %s: %v\n", quoteArgv(argv), err)
		return exitRunRefused
	}
	var cl sandboxauth.Classification
	if cc, ok := authz.(sandboxauth.CommandClassifier); ok {
		cl, _ = cc.ClassifyCommand(dir, cwd, argv)
	}
	q := question{argv: argv, cwd: cwd, policy: policy, class: cl, terminal: isTTY(e.stdin)}
	decided := make(chan error, 1)
	go func() { decided <- authz.IsShellAuthorized(false, "", dir, cwd, argv) }()
	err = q.ask(e, requests, decided)
	authz.Close()
	if err != nil {
		fmt.Fprintf(e.stderr, "sandboxauth run: refused `%s`: %s\n", quoteArgv(argv), q.refusal(err))
		return exitRunRefused
	}
	return runConfined(e, argv, cwd, policy, *configPath)
}

// findProgram looks for the program name as the command will: in the PATH
// directories, or at its path from cwd. A program that is not there is a
// typing mistake, not a decision: exit status 127 and a message saying so.
func findProgram(e *env, name, cwd string) (code int, ok bool) {
	var err error
	if strings.Contains(name, "/") {
		p := name
		if !filepath.IsAbs(p) {
			p = filepath.Join(cwd, p)
		}
		_, err = os.Stat(p)
	} else {
		_, err = exec.LookPath(name)
	}
	if err != nil {
		where := "in any directory of PATH"
		if strings.Contains(name, "/") {
			where = "at that path"
		}
		fmt.Fprintf(e.stderr, "sandboxauth run: %s: command not found (no such program %s); nothing ran\n", name, where)
		return exitRunNotFound, false
	}
	return 0, true
}

// question is the decision run asks the person at the terminal about.
type question struct {
	argv     []string
	cwd      string
	policy   confine.Policy
	class    sandboxauth.Classification
	terminal bool   // standard input is a terminal to ask on
	why      string // why the policy asked, in words for the person
}

// whyAsked is why the policy asks about the command, for the person who
// typed it: the rule of the request, except for project code with --net,
// which the confinement does not contain.
func (q *question) whyAsked(rule string) string {
	if q.class.ProjectCode && q.policy.Network {
		return fmt.Sprintf("the command runs project code (%s), and with --net the network is open and reads are not restricted, so the confinement would not stop it from sending your files out",
			strings.TrimPrefix(strings.TrimPrefix(q.class.Rule, "rule: "), "project code: "))
	}
	return rule
}

// ask answers the authorizer's questions until the decision arrives, and
// returns it: on the terminal, or, without one, "no" (the refusal then
// says why the person would have been asked).
func (q *question) ask(e *env, requests <-chan sandboxauth.UserRequest, decided <-chan error) error {
	for {
		select {
		case err := <-decided:
			return err
		case req, ok := <-requests:
			if !ok {
				return <-decided
			}
			if q.why == "" {
				q.why = q.whyAsked(req.Rule)
			}
			if !q.terminal {
				req.Disallow()
				continue
			}
			fmt.Fprintf(e.stderr, "sandboxauth run: `%s` in %s needs your approval: %s.\n%s\nRun it? [y/N] ",
				quoteArgv(q.argv), q.cwd, q.why, q.confinement())
			answer, _ := readAnswer(e.stdin)
			if a := strings.ToLower(strings.TrimSpace(answer)); a == "y" || a == "yes" {
				req.Allow()
			} else {
				req.Disallow()
			}
		}
	}
}

// confinement says what the command would run under.
func (q *question) confinement() string {
	net := "no network"
	if q.policy.Network {
		net = "the network open (--net)"
	}
	reads := "reads unrestricted"
	if q.policy.Readable != nil {
		reads = "reads restricted"
	}
	return fmt.Sprintf("It would run confined: writes only beneath %s and the temporary and cache directories, %s, %s.", q.policy.Sandbox, net, reads)
}

// refusal says why the command was not run, for the person who typed it.
func (q *question) refusal(err error) string {
	cl := q.class
	switch {
	case errors.Is(err, sandboxauth.ErrAuthorizationDenied) && !q.terminal:
		return fmt.Sprintf("it needs your approval (%s), and standard input is not a terminal to ask on. Run it from a terminal to answer, or add it to the safe list of a policy file (--config FILE)", q.why)
	case errors.Is(err, sandboxauth.ErrAuthorizationDenied):
		return "you answered no; nothing ran"
	case errors.Is(err, sandboxauth.ErrBlockedCommand):
		reason := cl.Reason
		if reason == "" {
			reason = strings.TrimPrefix(cl.Rule, "blocked: ")
		}
		return fmt.Sprintf("the command is blocked (%s); blocked commands never run here. Run it yourself outside sandboxauth if you mean to, or remove its entry from the blocked list with a policy file (--config FILE; `sandboxauth defaults blocked` lists them)", reason)
	case errors.Is(err, sandboxauth.ErrOutsideSandbox) && cl.WritesOutside:
		return fmt.Sprintf("it writes outside the sandbox %s (%s), which sandboxauth run never does. Pass --sandbox with a directory that holds what it writes, or run it yourself", q.policy.Sandbox, strings.TrimPrefix(cl.Rule, "rule: "))
	case errors.Is(err, sandboxauth.ErrOutsideSandbox):
		return fmt.Sprintf("the working directory %s is outside the sandbox %s. Run it from inside the sandbox, or pass --sandbox", q.cwd, q.policy.Sandbox)
	}
	return err.Error()
}

// confinePolicy is the policy commands run under: the configuration's
// (confine.DefaultPolicy of the sandbox, the "confine" section, the
// protected paths kept read-only or hidden) with --net on top.
func confinePolicy(cfg *sandboxauth.Config, sandbox string, network bool) confine.Policy {
	p := cfg.ConfinePolicy(sandbox)
	p.Network = p.Network || network
	return p
}

// readAnswer reads one line from r a byte at a time, so that nothing after
// it is taken from the command's standard input.
func readAnswer(r io.Reader) (string, error) {
	var b strings.Builder
	one := make([]byte, 1)
	for {
		n, err := r.Read(one)
		if n == 1 {
			if one[0] == '\n' {
				return b.String(), nil
			}
			b.WriteByte(one[0])
		}
		if err != nil {
			return b.String(), err
		}
	}
}

// runConfined runs argv confined by p with the program's standard streams
// and returns its exit status; config is the --config file, if any.
func runConfined(e *env, argv []string, cwd string, p confine.Policy, config string) int {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = cwd
	cmd.Stdin, cmd.Stdout, cmd.Stderr = e.stdin, e.stdout, e.stderr
	// The status is reported only once AfterExit has run: when a signal
	// ends the sandbox, cmd.Wait returns before that.
	cleaned := make(chan struct{})
	after := p.AfterExit
	p.AfterExit = func() {
		defer close(cleaned)
		if after != nil {
			after()
		}
	}
	// Interrupts end the sandbox; this process outlives it. They are
	// caught from before the start, so that none ends this process
	// between the start and the wait.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	defer signal.Stop(sigs)
	if err := confine.Start(cmd, p); err != nil {
		switch {
		case errors.Is(err, confine.ErrUnavailable):
			fmt.Fprintf(e.stderr, "sandboxauth run: refused to run %s unconfined: %v\n", quoteArgv(argv), err)
			return exitRunRefused
		case errors.Is(err, confine.ErrUnsafePolicy):
			fmt.Fprintf(e.stderr, "sandboxauth run: refused to run %s: %v\n", quoteArgv(argv), err)
			return exitRunRefused
		}
		fmt.Fprintf(e.stderr, "sandboxauth run: %v\n", err)
		return exitRunNotFound
	}
	done := make(chan struct{})
	got := make(chan syscall.Signal, 1) // the first interrupt, if any
	go func() {
		for {
			select {
			case s := <-sigs:
				select {
				case got <- s.(syscall.Signal):
				default:
				}
				// Any of them ends the sandbox, and SIGKILL does so
				// even when this program was started with the others
				// ignored (nohup, a script's &), which bubblewrap
				// would have inherited.
				_ = cmd.Process.Kill()
			case <-done:
				return
			}
		}
	}()
	err := cmd.Wait()
	<-cleaned
	close(done)
	var ee *exec.ExitError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ee):
		select {
		case s := <-got:
			return 128 + int(s) // as a shell reports a command it interrupted
		default:
		}
		fmt.Fprintln(e.stderr, withheld(p, config))
		if st, ok := ee.Sys().(syscall.WaitStatus); ok && st.Signaled() {
			return 128 + int(st.Signal())
		}
		return ee.ExitCode()
	}
	fmt.Fprintf(e.stderr, "sandboxauth run: %v\n", err)
	return exitRunNotFound
}
