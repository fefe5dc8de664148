package sandboxauth

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"github.com/sandboxauth/sandboxauth/internal/classify"
	"github.com/sandboxauth/sandboxauth/internal/pathres"
)

// action is what a policy makes of a call.
type action int

const (
	actAllow action = iota
	actAsk
	actRefuse
)

// verdict is a policy's decision with what justifies it: the refusal for
// actRefuse, the reason to ask a person for actAsk.
type verdict struct {
	action action
	err    error
	why    string
}

func allow() verdict           { return verdict{action: actAllow} }
func ask(why string) verdict   { return verdict{action: actAsk, why: why} }
func refuse(err error) verdict { return verdict{action: actRefuse, err: err} }

// askIf asks when cond holds and allows otherwise.
func askIf(cond bool, why string) verdict {
	if cond {
		return ask(why)
	}
	return allow()
}

// facts is what the checks shared by every policy learned about a call
// before the policy decides.
type facts struct {
	place      placement      // reads and writes: where the paths lie
	protected  string         // reads and writes: the protected-path rule hit, if any
	cwd        string         // shell: the working directory
	cwdOutside bool           // shell: the working directory is outside the sandbox
	cwdPlaced  placedDir      // shell: the working directory, placed against the sandbox
	class      Classification // shell: the command's class
	confined   bool           // shell: the caller confines commands in this sandbox (WithConfinement)
	leaky      bool           // shell: confined, but with the network and every file readable
}

// Who decided a call, for the decision log.
const (
	byPolicy   = "policy"
	byPerson   = "person"
	byGrant    = "grant"
	byClose    = "close"
	byTimeout  = "timeout"
	byHeadless = "headless"
	byInput    = "input"
	byCancel   = "cancel" // the caller's context ended
)

// asker holds what the Sandbox and Permissive policies share: the command
// lists, the broker, and the way from a verdict to an answer.
type asker struct {
	policy   string
	commands *ShellAllowedCommands
	broker   *broker
	opts     options

	// facts recycles the facts of decided calls (see run).
	facts sync.Pool

	// searchPaths holds the PATH directories inside the last sandbox seen;
	// writes into them are protected (see internal/classify/searchpath.go).
	searchPaths classify.SearchPathCache
}

func newAsker(policy string, commands *ShellAllowedCommands, opts []Option) (*asker, error) {
	if commands == nil {
		commands = NewShellAllowedCommands() // nil means the default lists
	}
	o, err := buildOptions(opts)
	if err != nil {
		return nil, err
	}
	a := &asker{policy: policy, commands: commands, broker: newBroker(o.buffer), opts: o}
	a.facts.New = func() any { return new(facts) }
	return a, nil
}

// run checks c, lets decide judge it, and carries the verdict out: allowing,
// refusing, applying a session grant, or asking a person.
//
// The facts of c come from a.facts and go back there when run returns:
// nothing keeps them longer (a UserRequest copies what it shows, a session
// offer copies what it will record, errors and the log are text), and a
// decision allocates a few hundred bytes less.
func (a *asker) run(c *call, decide func(*call, *facts) verdict) error {
	var start time.Time
	if a.opts.log != nil {
		start = time.Now()
	}
	f := a.facts.Get().(*facts)
	by, rule, err := a.decide(c, f, decide)
	if a.opts.log != nil {
		a.logDecision(c, f, err, by, rule, time.Since(start))
	}
	*f = facts{}
	a.facts.Put(f)
	return err
}

func (a *asker) decide(c *call, f *facts, decide func(*call, *facts) verdict) (by, rule string, err error) {
	if a.broker.isClosed() {
		return byClose, "authorizer closed", closedError(c)
	}
	if err := ended(c); err != nil {
		return byCancel, "call cancelled", err
	}
	if c.op == OpShell {
		err = a.shellFacts(c, f)
	} else {
		f.place, err = place(c.sandboxDir, c.paths)
		if err == nil && len(c.paths) == 0 {
			return byPolicy, "no paths", nil
		}
		if err == nil && len(f.place.outside) == 0 {
			if r, p := protectedHit(a.opts.protected, c.op, c.sandboxDir, &f.place, c.paths); r != nil {
				f.protected = "protected path " + r.Pattern + ": " + p
			} else if c.op == OpRead && searches(c) {
				f.protected = protectedInSearch(a.opts.protected, c, &f.place, maxSearchWalk)
			} else if c.op == OpWrite {
				sp := a.searchPaths.Get(pathres.Clean(c.sandboxDir))
				for i, p := range c.paths {
					if dir, ok := sp.Holds(pathres.Clean(p), f.place.real[i]); ok {
						f.protected = "PATH directory " + dir + ": " + p
						break
					}
				}
			}
		}
	}
	if err != nil {
		return byInput, "malformed call", err
	}
	v := decide(c, f)
	switch v.action {
	case actAllow:
		return byPolicy, allowRule(c, f), nil
	case actRefuse:
		return byPolicy, refusalRule(v.err, f), v.err
	}
	if g, ok := a.granted(c, f); ok {
		return byGrant, "grant: " + g.String(), nil
	}
	if a.opts.headless {
		return byHeadless, v.why, deny(ErrNoUser, "sandboxauth: %s needs a person's approval (%s), but this agent runs without one, so it was refused. Continue without it, or finish and report what you would have needed.", describe(c), v.why)
	}
	return a.ask(c, f, v.why)
}

func allowRule(c *call, f *facts) string {
	if c.op == OpShell && confinedProjectCode(f) {
		return "confined: " + f.class.Rule
	}
	if c.op == OpShell {
		return f.class.Rule
	}
	return "inside the sandbox"
}

func refusalRule(err error, f *facts) string {
	if d, ok := err.(*denial); ok {
		if d.kind == ErrBlockedCommand {
			return f.class.Rule
		}
		return d.kind.Error()
	}
	return ""
}

// shellFacts validates a shell call, places its working directory and
// classifies its command.
func (a *asker) shellFacts(c *call, f *facts) error {
	if err := checkArgv(c.argv); err != nil {
		return err
	}
	cwd := c.cwd
	if cwd == "" {
		cwd = c.sandboxDir
	}
	if err := checkDir("working directory", cwd); err != nil {
		return err
	}
	if err := checkDir("sandbox directory", c.sandboxDir); err != nil {
		return err
	}
	if err := validateArgv(c.argv); err != nil {
		return err
	}
	// The working directory is placed once, for the classifier and for
	// the policy: often as a by-product of placing a path beneath it.
	f.cwd, f.cwdPlaced = cwd, placedDir{sandbox: c.sandboxDir, dir: cwd}
	class := a.commands.classifyProtected(CommandSite{SandboxDir: c.sandboxDir, Cwd: cwd}, a.opts.protected, &f.cwdPlaced, c.argv, a.opts.projectCode)
	if err := f.cwdPlaced.place(); err != nil {
		return err
	}
	f.cwdOutside, f.class = !f.cwdPlaced.inside, class
	f.confined = a.opts.confinedFor(c.sandboxDir)
	f.leaky = !f.confined && a.opts.confinesWithNetwork(c.sandboxDir)
	return nil
}

// ask raises a UserRequest for c and turns the answer into an error.
func (a *asker) ask(c *call, f *facts, why string) (by, rule string, err error) {
	req := UserRequest{
		ToolCallID:     c.toolCallID,
		ToolName:       c.tool,
		Policy:         a.policy,
		Operation:      c.op,
		SandboxDir:     c.sandboxDir,
		Rule:           why,
		Reason:         c.reason,
		Requested:      c.requested,
		Outside:        append([]string(nil), f.place.where...),
		Classification: f.class.Result,
	}
	if c.op == OpShell {
		req.Argv = append([]string(nil), c.argv...)
		req.Cwd = f.cwd
	} else {
		req.Paths = append([]string(nil), c.paths...)
	}
	offer := a.offer(c, f)
	req.Prompt = prompt(a.policy, c, f, why, offer)
	switch a.broker.ask(c.ctx, req, a.opts.promptTimeout, offer) {
	case stateAllowed:
		return byPerson, why, nil
	case stateDenied:
		return byPerson, why, deny(ErrAuthorizationDenied, "sandboxauth: the user refused %s. Do not retry the same call; ask the user how to proceed or take another approach.", describe(c))
	case stateTimedOut:
		return byTimeout, why, deny(ErrPromptTimeout, "sandboxauth: nobody answered the request to allow %s within %v, so it was refused. Continue without it, or try again later.", describe(c), a.opts.promptTimeout)
	case stateWithdrawn:
		err := endedError(c)
		if errors.Is(err, ErrAuthorizerClosed) {
			return byClose, why, err
		}
		return byCancel, why, err
	default:
		return byClose, why, closedError(c)
	}
}

// offer returns the session grant a person may make for c, or nil.
func (a *asker) offer(c *call, f *facts) *sessionOffer {
	store := a.opts.grants
	if store == nil {
		return nil
	}
	if c.op == OpShell {
		if f.cwdOutside {
			return nil
		}
		argv := grantArgv(c.argv)
		g, ok := commandScope(argv, f.class.Result)
		if !ok {
			return nil
		}
		if exactGrantNeeded(f.class.Rule) || !allPlain(argv[len(g.Command):]) {
			if g, ok = exactShellGrant(argv, f.cwd, f.class.Rule); !ok {
				return nil
			}
		}
		g.Sandbox = pathres.Clean(c.sandboxDir)
		return &sessionOffer{scope: g.String(), record: func(string) { _ = store.Add(g) }}
	}
	if len(f.place.outside) > 0 {
		return nil // never for what the strict Sandbox policy refuses outright
	}
	resolved := f.place.real
	op := c.op
	o := &sessionOffer{}
	if f.protected == "" {
		// A protected path is granted exactly, never with a directory.
		o.dirs = pathScope(f.place.root, resolved)
	}
	o.scope = Grant{Operation: op, Path: resolved[0]}.String()
	if len(resolved) > 1 {
		o.scope = string(op) + " exactly these paths"
	}
	o.record = func(dir string) {
		if dir != "" {
			_ = store.Add(Grant{Operation: op, Path: dir, Subtree: true})
			return
		}
		for _, p := range resolved {
			_ = store.Add(Grant{Operation: op, Path: p})
		}
	}
	return o
}

// granted reports whether a session grant covers c, so that it is allowed
// without asking. The rules of Grant apply: never outside the sandbox, never
// for a command a grant may not name, and a command grant only where the
// command, with the grant taken as a safe matcher, classifies as safe.
func (a *asker) granted(c *call, f *facts) (Grant, bool) {
	store := a.opts.grants
	if store == nil {
		return Grant{}, false
	}
	grants := store.List()
	if len(grants) == 0 {
		return Grant{}, false
	}
	if c.op == OpShell {
		if f.cwdOutside {
			return Grant{}, false
		}
		argv := grantArgv(c.argv)
		if _, ok := commandScope(argv, f.class.Result); !ok {
			return Grant{}, false
		}
		sandbox := pathres.Clean(c.sandboxDir)
		for _, g := range grants {
			if g.Operation != OpShell || !g.appliesIn(sandbox) || !hasPrefix(argv, g.Command) {
				continue
			}
			if g.Exact {
				if len(argv) == len(g.Command) && g.Cwd == filepath.Clean(f.cwd) && g.Rule == f.class.Rule {
					return g, true
				}
				continue
			}
			if !allPlain(argv[len(g.Command):]) {
				continue
			}
			grant := classify.Matcher{Command: g.Command[0], CommandArgsPrefix: g.Command[1:], Reason: "session grant"}
			cl := a.commands.classifyGranted(CommandSite{SandboxDir: c.sandboxDir, Cwd: f.cwd}, a.opts.protected, &f.cwdPlaced, c.argv, a.opts.projectCode, grant)
			if cl.Result == CommandCheckResultSafe || cl.ProjectCode {
				return g, true
			}
		}
		return Grant{}, false
	}
	if len(f.place.outside) > 0 {
		return Grant{}, false
	}
	var last Grant
	for i, p := range f.place.real {
		covered := false
		exact := a.protectedAt(c, f, i)
		for _, g := range grants {
			if g.covers(c.op, p) && (!exact || !g.Subtree) {
				covered, last = true, g
				break
			}
		}
		if !covered {
			return Grant{}, false
		}
	}
	return last, true
}

// protectedAt reports whether the i-th path of a read or write is
// protected (a protected path, or a PATH directory for a write), so that only
// a grant of that very path covers it.
func (a *asker) protectedAt(c *call, f *facts, i int) bool {
	if classify.ProtectedFor(a.opts.protected, c.op == OpWrite, c.sandboxDir, f.place.root, c.paths[i], f.place.real[i]) != nil {
		return true
	}
	if c.op == OpWrite {
		sp := a.searchPaths.Get(pathres.Clean(c.sandboxDir))
		if _, ok := sp.Holds(pathres.Clean(c.paths[i]), f.place.real[i]); ok {
			return true
		}
	}
	return false
}

// allPlain reports whether every word is a plain operand (see plainOperand).
func allPlain(words []string) bool {
	for _, w := range words {
		if !plainOperand(w) {
			return false
		}
	}
	return true
}

func hasPrefix(argv, words []string) bool {
	if len(words) > len(argv) {
		return false
	}
	for i, w := range words {
		if argv[i] != w {
			return false
		}
	}
	return true
}

// logDecision writes one record for a decided call.
func (a *asker) logDecision(c *call, f *facts, err error, by, rule string, took time.Duration) {
	outcome, level := "allow", slog.LevelInfo
	if err != nil {
		outcome, level = "deny", slog.LevelWarn
		if _, ok := err.(*inputError); ok {
			outcome = "error"
		}
	}
	attrs := []slog.Attr{
		slog.String("policy", a.policy),
		slog.String("operation", string(c.op)),
		slog.String("outcome", outcome),
		slog.String("decided_by", by),
		slog.String("rule", rule),
	}
	if c.tool != "" {
		attrs = append(attrs, slog.String("tool", c.tool))
	}
	if c.toolCallID != "" {
		attrs = append(attrs, slog.String("tool_call_id", c.toolCallID))
	}
	if c.op == OpShell {
		attrs = append(attrs, slog.Any("argv", c.argv), slog.String("cwd", f.cwd), slog.String("class", f.class.Result.String()))
	} else {
		attrs = append(attrs, slog.Any("paths", c.paths))
	}
	if c.requested {
		attrs = append(attrs, slog.Bool("requested", true), slog.String("reason", c.reason))
	}
	if by == byPerson || by == byTimeout {
		attrs = append(attrs, slog.Duration("waited", took))
	}
	if err != nil {
		attrs = append(attrs, slog.String("error", err.Error()))
	}
	a.opts.log.LogAttrs(context.Background(), level, "sandboxauth decision", attrs...)
}

func (a *asker) close() { a.broker.close() }

// closedError is the refusal of every call made to, or pending in, a closed
// authorizer.
func closedError(c *call) error {
	return deny(ErrAuthorizerClosed, "sandboxauth: %s was not authorized because the authorizer is closed (the session is ending); no further tool call can be approved.", describe(c))
}
