package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/sandboxauth/sandboxauth"
	"github.com/sandboxauth/sandboxauth/auth"
	"github.com/sandboxauth/sandboxauth/internal/hookproto"
)

// maxHookEvent bounds the event read from standard input. Events are a few
// kilobytes; a patch or a file written whole can be larger.
const maxHookEvent = 16 << 20

// projectDirEnv names, per agent, the environment variable in which the
// agent gives its hooks the project's root directory.
var projectDirEnv = map[string]string{
	"claude-code": "CLAUDE_PROJECT_DIR",
	"gemini-cli":  "GEMINI_PROJECT_DIR",
}

const hookDescription = `Decide one pre-tool event of a coding agent, read on standard input, and
answer in that agent's own hook protocol. Shell commands are checked as
bash -c scripts, or zsh -c when the user's SHELL (or CLAUDE_CODE_SHELL) is
zsh, or as both when it is neither bash nor zsh, the stricter answer
winning (each command of a pipeline or list on its own), reads and
writes against the project directory (the sandbox), other tools against the
tool policy under the agent's own names. "Ask" is handed to the agent's own
prompt; where the event cannot ask (Codex PreToolUse, Cursor beforeReadFile)
it is a refusal saying a person must approve. The hook never prompts on a
terminal.

It never fails open: an event it cannot read, a missing field, an unknown
event, a configuration error or an internal error is answered with the
protocol's explicit refusal (for Claude Code, Codex and Gemini CLI also
exit status 2 with the reason on standard error; for Cursor and Copilot a
deny on standard output). A usage error (an unknown --for) exits 2.

The policy comes from --config FILE, or else the user's
sandboxauth/config.json in the user configuration directory and the
project's .sandboxauth.json (the configuration file every subcommand
reads; see Configuration below); with neither, the defaults. When both
exist, both decide every call and the stricter answer wins: the project's
file can narrow the user's policy, never loosen it. It may only narrow the
defaults too (add blocked and dangerous commands and protected paths,
remove safe commands, go headless), since a repository can ship one. The
policy is the file's (Sandbox by default) with the project directory as
sandbox.

With a "confine" section in the user's file (or the --config file) and the
Sandbox policy, a Claude Code Bash command the policy allows, project code
included (go test, npm test, ./build.sh), is not asked about: the answer
allows it rewritten to run confined, as
  /abs/sandboxauth run --config FILE --sandbox PROJECT -- bash -c 'COMMAND'
Where the kernel cannot confine, and for the other agents (whose hooks
cannot rewrite a command reliably), the answers are as without it.

"sandboxauth hook install --help" shows how to register the hook with an
agent.
`

// runHook is the hook subcommand: "hook --for AGENT", or "hook install".
func runHook(e *env, args []string) int {
	if len(args) > 0 && args[0] == "install" {
		return runHookInstall(e, args[1:])
	}
	fs := newFlagSet(e, "hook", "--for AGENT [--config FILE] < EVENT", hookDescription+configHelp, []string{
		"sandboxauth hook install --for codex --project --dry-run",
		`echo '{"hook_event_name":"PreToolUse","cwd":"'$PWD'","tool_name":"Bash","tool_input":{"command":"git status"}}' | sandboxauth hook --for claude-code`,
	})
	agentName := fs.String("for", "", "the agent whose protocol to speak: "+strings.Join(hookproto.Names(), ", "))
	config := fs.String("config", "", "the policy file (default: the user's "+userConfigPath+" and the project's "+projectConfigName+", the stricter answer winning)")
	if code, done := parseFlags(e, fs, args); done {
		if code != exitOK {
			return exitDeny // a hook that exits 3 lets most agents run the call
		}
		return code
	}
	agent, ok := hookproto.Lookup(*agentName)
	if !ok || fs.NArg() > 0 {
		usageError(e, fs, "--for must name one of %s, and no arguments follow", strings.Join(hookproto.Names(), ", "))
		fmt.Fprintln(e.stderr, "sandboxauth: the tool call was refused because the hook is misconfigured.")
		return exitDeny
	}
	// A hook process decides one call and exits (it runs on one
	// processor: see internal/hookstart): collecting its garbage on the
	// way costs more than the memory it holds. The collector runs only if
	// the heap nears hookMemoryLimit.
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(hookMemoryLimit)
	return writeAnswer(e, hookAnswer(e.stdin, agent, *config))
}

// hookMemoryLimit is the heap at which a hook process collects garbage
// after all (see runHook): far above what deciding the largest event
// takes.
const hookMemoryLimit = 256 << 20

// hookAnswer reads, decides and encodes one event. It never panics: a
// panic anywhere below is answered with the protocol's deny.
func hookAnswer(stdin io.Reader, agent hookproto.Agent, config string) (ans hookproto.Answer) {
	defer func() {
		if r := recover(); r != nil {
			ans = agent.Encode(nil, hookproto.Decision{Action: hookproto.Deny,
				Reason: fmt.Sprintf("sandboxauth: an internal error stopped the hook (%v), so the tool call was refused. Report this to the person running the agent.", r)})
		}
	}()
	payload, err := io.ReadAll(io.LimitReader(stdin, maxHookEvent+1))
	if err == nil && len(payload) > maxHookEvent {
		err = fmt.Errorf("the event is larger than %d bytes", maxHookEvent)
	}
	var req *hookproto.Request
	if err == nil {
		req, err = agent.Decode(payload)
	}
	if err != nil {
		return agent.Encode(nil, hookproto.Decision{Action: hookproto.Deny,
			Reason: fmt.Sprintf("sandboxauth: the %s hook event could not be read (%v), so the tool call was refused. Correct the arguments if they are malformed; otherwise a person must check how the hook is set up.", agent.Name(), err)})
	}
	if v, ok := projectDirEnv[agent.Name()]; ok {
		if dir := os.Getenv(v); dir != "" && filepath.IsAbs(dir) {
			req.ProjectDir = filepath.Clean(dir)
		}
	}
	policies, confined, err := loadHookPolicies(config, req)
	if err != nil {
		return agent.Encode(req, hookproto.Decision{Action: hookproto.Deny,
			Reason: fmt.Sprintf("sandboxauth: every tool call is refused until a person fixes the hook's configuration, which could not be loaded; retrying will not help. Stop and tell the user. The errors, each with its file, line and column:\n%v", err)})
	}
	defer closePolicies(policies)
	return agent.Encode(req, confined.confined(req, decideAll(policies, req)))
}

// decideAll decides req under every policy (one at least, as
// loadHookPolicies returns them) and returns the strictest
// answer (a refusal before a question before an allow; the first of equal
// ones), so that no configuration loosens another.
func decideAll(policies []*hookPolicy, req *hookproto.Request) hookproto.Decision {
	worst := decideHook(policies[0], req)
	for _, p := range policies[1:] {
		worst = hookproto.Stricter(worst, decideHook(p, req))
	}
	return worst
}

// writeAnswer writes ans and returns its exit status.
func writeAnswer(e *env, ans hookproto.Answer) int {
	if len(ans.Stdout) > 0 {
		if _, err := e.stdout.Write(ans.Stdout); err != nil {
			return exitDeny
		}
	}
	if ans.Stderr != "" {
		fmt.Fprintln(e.stderr, ans.Stderr)
	}
	return ans.ExitCode
}

// hookShells returns the shells whose grammar a command line (not an
// argv) is checked with: the shell the agent runs it with, when the
// environment settles it, and both bash and zsh otherwise, the stricter
// answer winning (bash's where they agree, so that messages name bash). zsh reads `>!` and `=cmd` where bash does not, so a
// script judged with the wrong grammar may do what was never judged.
//
// Claude Code runs its Bash tool with CLAUDE_CODE_SHELL when that is set,
// else with SHELL when SHELL names bash or zsh, and otherwise with zsh if
// it finds one and bash if not (anthropics/claude-code issues 7490 and
// 11475: a user whose shell is fish gets zsh). getenv reads the hook's
// environment, which is the agent's.
func hookShells(getenv func(string) string) []string {
	shell := getenv("CLAUDE_CODE_SHELL")
	if shell == "" {
		shell = getenv("SHELL")
	}
	switch base := filepath.Base(shell); {
	case strings.Contains(base, "zsh"):
		return []string{"zsh"}
	case strings.Contains(base, "bash"):
		return []string{"bash"}
	}
	return []string{"bash", "zsh"}
}

// decideHook decides req under p. The hook plays the person: a question
// the authorizer raises is answered "no" at once and becomes an Ask for
// the agent's own prompt.
func decideHook(p *hookPolicy, req *hookproto.Request) hookproto.Decision {
	switch req.Kind {
	case hookproto.KindShell:
		if req.Argv != nil {
			return decideCall(p, req, func() error { return p.authz.IsShellAuthorized(false, "", p.sandbox, req.Cwd, req.Argv) })
		}
		var worst hookproto.Decision
		for i, shell := range hookShells(os.Getenv) {
			argv := []string{shell, "-c", req.Command}
			d := decideCall(p, req, func() error { return p.authz.IsShellAuthorized(false, "", p.sandbox, req.Cwd, argv) })
			if i == 0 {
				worst = d
			} else {
				worst = hookproto.Stricter(worst, d)
			}
		}
		return worst
	case hookproto.KindRead, hookproto.KindSearch:
		if len(req.Paths) == 0 {
			return noPath
		}
		// A search of files' contents reaches the read-protected files
		// beneath its directories that its patterns may match: it asks
		// as a read of them would.
		var reader auth.Authorizer = p.authz
		if req.Contents {
			reader = sandboxauth.ForSearch(p.authz, req.Patterns...)
		}
		return decideCall(p, req, func() error { return reader.IsAuthorizedForRead(false, "", req.Tool, p.sandbox, req.Paths...) })
	case hookproto.KindWrite, hookproto.KindEdit:
		if len(req.Paths) == 0 {
			return noPath
		}
		return decideCall(p, req, func() error { return p.authz.IsAuthorizedForWrite(false, "", req.Tool, p.sandbox, req.Paths...) })
	}
	return decideTool(p, req)
}

// noPath is the answer to a read or write that names no path.
var noPath = hookproto.Decision{Action: hookproto.Deny, Reason: "sandboxauth: the call names no path, so it was refused."}

// decideCall runs call, answering "no" to every question it raises, and
// turns its outcome into the hook's decision.
func decideCall(p *hookPolicy, req *hookproto.Request, call func() error) hookproto.Decision {
	done := make(chan error, 1)
	go func() {
		growStack(0)
		done <- call()
	}()
	var asked *sandboxauth.UserRequest
	requests := p.requests
	for {
		select {
		case r, ok := <-requests:
			if !ok {
				requests = nil
				continue
			}
			if asked == nil {
				asked = &r
			}
			r.Disallow()
		case err := <-done:
			return decisionOf(req, asked, err)
		}
	}
}

// decisionStack is the stack a decision's goroutine is given before it
// starts (see growStack): a shell command's decision, through the
// parser's and the classifier's recursion, reaches between 16 and 32 KiB.
const decisionStack = 20 << 10

// growStack grows the calling goroutine's stack at once to what a decision
// needs. A goroutine starts with a small stack that the runtime doubles
// and copies whenever a call does not fit, adjusting every frame of the
// copy through the binary's tables; a hook process decides one call, so
// each copy (four, each deeper than the last) is paid cold. Grown here,
// at two frames deep, the stack is copied once and is never shrunk, since
// a hook process runs without the collector (see runHook). i is 0; it
// keeps the compiler from removing the frame.
//
//go:noinline
func growStack(i int) byte {
	var frame [decisionStack]byte
	frame[i] = 1
	return frame[(i+1)%len(frame)]
}

// decisionOf turns the authorizer's answer into the hook's.
func decisionOf(req *hookproto.Request, asked *sandboxauth.UserRequest, err error) hookproto.Decision {
	switch {
	case asked != nil:
		return hookproto.Decision{Action: hookproto.Ask,
			Reason: fmt.Sprintf("sandboxauth: %s needs your approval: %s.", describeRequest(req), asked.Rule)}
	case err == nil:
		return hookproto.Decision{Action: hookproto.Allow}
	case errors.Is(err, sandboxauth.ErrDenied):
		return hookproto.Decision{Action: hookproto.Deny, Reason: err.Error()}
	default:
		return hookproto.Decision{Action: hookproto.Deny,
			Reason: fmt.Sprintf("sandboxauth: the call could not be checked (%v), so it was refused.", err)}
	}
}

// decideTool decides a tool the hook does not look into by the tool policy.
func decideTool(p *hookPolicy, req *hookproto.Request) hookproto.Decision {
	tools, err := p.tools()
	if err != nil {
		return hookproto.Decision{Action: hookproto.Deny,
			Reason: fmt.Sprintf("sandboxauth: the tool policy could not be compiled (%v), so the tool %q was refused.", err, req.Tool)}
	}
	d := tools.Explain(req.Tool)
	switch {
	case d.Allowed:
		return hookproto.Decision{Action: hookproto.Allow}
	case p.toolsAsk:
		return hookproto.Decision{Action: hookproto.Ask,
			Reason: fmt.Sprintf("sandboxauth: the tool %q is neither a shell command nor a file read or write, so sandboxauth cannot check what it does; it needs your approval.", req.Tool)}
	}
	return hookproto.Decision{Action: hookproto.Deny,
		Reason: fmt.Sprintf("sandboxauth: the tool %q is not permitted (%s). Do the task with the tools you have.", req.Tool, d.Reason)}
}

// describeRequest names the call for a question: "running `make test` in
// /src", "Write on /src/a.go".
func describeRequest(req *hookproto.Request) string {
	if req.Kind == hookproto.KindShell {
		cmd := req.Command
		if req.Argv != nil {
			cmd = quoteArgv(req.Argv)
		}
		return fmt.Sprintf("running `%s` in %s", cmd, req.Cwd)
	}
	paths := req.Paths
	more := ""
	if len(paths) > 5 {
		paths, more = paths[:5], fmt.Sprintf(" and %d more", len(req.Paths)-5)
	}
	return fmt.Sprintf("%s (%s) on %s%s", req.Tool, req.Kind, strings.Join(paths, ", "), more)
}
