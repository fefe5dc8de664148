package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"

	"github.com/sandboxauth/sandboxauth"
	"github.com/sandboxauth/sandboxauth/confine"
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
reason is printed on standard error); 127 when the program cannot be started;
125 for a usage error.
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
	fs := newFlagSet(e, "run", runSynopsis, runDescription+configHelp, runExamples)
	configPath := configFlag(fs)
	sandbox := fs.String("sandbox", "", "the sandbox directory `DIR` the command may write beneath (default: the current directory)")
	network := fs.Bool("net", false, "allow TCP connections and listening")
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
	warnConfig(e, fs, cfg)

	policy := confinePolicy(cfg, dir, *network)
	terminal := isTTY(e.stdin)
	opts := []sandboxauth.Option{sandboxauth.WithConfinement(policy)}
	if !terminal {
		opts = append(opts, sandboxauth.WithHeadless())
	}
	authz, requests, err := cfg.NewPolicyAuthorizer(sandboxauth.PolicySandbox, commandsFor(cfg, true), opts...)
	if err != nil {
		fmt.Fprintf(e.stderr, "sandboxauth run: refused to run %s: %v\n", quoteArgv(argv), err)
		return exitRunRefused
	}
	decided := make(chan error, 1)
	go func() { decided <- authz.IsShellAuthorized(false, "", dir, cwd, argv) }()
	err = askOnTerminal(e, requests, decided)
	authz.Close()
	if err != nil {
		fmt.Fprintf(e.stderr, "sandboxauth run: refused: %v\n", err)
		return exitRunRefused
	}
	return runConfined(e, argv, cwd, policy)
}

// confinePolicy is the policy commands run under: the configuration's
// (confine.DefaultPolicy of the sandbox, the "confine" section, the
// protected paths kept read-only or hidden) with --net on top.
func confinePolicy(cfg *sandboxauth.Config, sandbox string, network bool) confine.Policy {
	p := cfg.ConfinePolicy(sandbox)
	p.Network = p.Network || network
	return p
}

// askOnTerminal answers the authorizer's questions on the terminal until
// the decision arrives, and returns it.
func askOnTerminal(e *env, requests <-chan sandboxauth.UserRequest, decided <-chan error) error {
	for {
		select {
		case err := <-decided:
			return err
		case req, ok := <-requests:
			if !ok {
				return <-decided
			}
			fmt.Fprintf(e.stderr, "%s [y/N] ", strings.TrimRight(req.Prompt, "\n"))
			answer, _ := readAnswer(e.stdin)
			if a := strings.ToLower(strings.TrimSpace(answer)); a == "y" || a == "yes" {
				req.Allow()
			} else {
				req.Disallow()
			}
		}
	}
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
// and returns its exit status.
func runConfined(e *env, argv []string, cwd string, p confine.Policy) int {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = cwd
	cmd.Stdin, cmd.Stdout, cmd.Stderr = e.stdin, e.stdout, e.stderr
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
	// Pass interrupts on to the command, and outlive it.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case s := <-sigs:
				_ = cmd.Process.Signal(s)
			case <-done:
				return
			}
		}
	}()
	err := cmd.Wait()
	signal.Stop(sigs)
	close(done)
	var ee *exec.ExitError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ee):
		fmt.Fprintln(e.stderr, withheld(p))
		if st, ok := ee.Sys().(syscall.WaitStatus); ok && st.Signaled() {
			return 128 + int(st.Signal())
		}
		return ee.ExitCode()
	}
	fmt.Fprintf(e.stderr, "sandboxauth run: %v\n", err)
	return exitRunNotFound
}
