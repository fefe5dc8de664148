package sandboxauth

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
	cwd        string         // shell: the working directory ("" means the sandbox)
	cwdOutside bool           // shell: the working directory is outside the sandbox
	class      Classification // shell: the command's class
}

// asker holds what the Sandbox and Permissive policies share: the command
// lists, the broker, and the way from a verdict to an answer.
type asker struct {
	policy   string
	commands *ShellAllowedCommands
	broker   *broker
	opts     options
}

func newAsker(policy string, commands *ShellAllowedCommands, opts []Option) (*asker, error) {
	if commands == nil {
		return nil, invalid(ErrInvalidConfig, "sandboxauth: %s policy: commands is nil; pass NewShellAllowedCommands() for the default lists or &ShellAllowedCommands{} for empty ones", policy)
	}
	o, err := buildOptions(opts)
	if err != nil {
		return nil, err
	}
	return &asker{policy: policy, commands: commands, broker: newBroker(o.buffer), opts: o}, nil
}

// run checks c, lets decide judge it, and carries the verdict out, asking
// a person if it says so.
func (a *asker) run(c *call, decide func(*call, *facts) verdict) error {
	if a.broker.isClosed() {
		return closedError(c)
	}
	var f facts
	var err error
	if c.op == OpShell {
		f, err = a.shellFacts(c)
	} else {
		f.place, err = place(c.sandboxDir, c.paths)
		if err == nil && len(c.paths) == 0 {
			return nil
		}
	}
	if err != nil {
		return err
	}
	v := decide(c, &f)
	switch v.action {
	case actAllow:
		return nil
	case actRefuse:
		return v.err
	}
	return a.ask(c, &f, v.why)
}

// shellFacts validates a shell call, places its working directory and
// classifies its command.
func (a *asker) shellFacts(c *call) (facts, error) {
	var f facts
	if err := checkArgv(c.argv); err != nil {
		return f, err
	}
	cwd := c.cwd
	if cwd == "" {
		cwd = c.sandboxDir
	}
	if err := checkDir("working directory", cwd); err != nil {
		return f, err
	}
	pl, err := place(c.sandboxDir, []string{cwd})
	if err != nil {
		return f, err
	}
	f.cwd, f.cwdOutside = cwd, len(pl.outside) > 0
	f.class, err = a.commands.Classify(CommandSite{SandboxDir: c.sandboxDir, Cwd: cwd}, c.argv)
	return f, err
}

// ask raises a UserRequest for c and turns the answer into an error.
func (a *asker) ask(c *call, f *facts, why string) error {
	req := UserRequest{
		ToolCallID:     c.toolCallID,
		ToolName:       c.tool,
		Prompt:         prompt(a.policy, c, f, why),
		Policy:         a.policy,
		Operation:      c.op,
		SandboxDir:     c.sandboxDir,
		Rule:           why,
		Reason:         c.reason,
		Requested:      c.requested,
		Outside:        append([]string(nil), f.place.resolved...),
		Classification: f.class.Result,
	}
	if c.op == OpShell {
		req.Argv = append([]string(nil), c.argv...)
		req.Cwd = f.cwd
	} else {
		req.Paths = append([]string(nil), c.paths...)
	}
	switch a.broker.ask(c.ctx, req, a.opts.promptTimeout) {
	case stateAllowed:
		return nil
	case stateDenied:
		return deny(ErrAuthorizationDenied, "sandboxauth: the user refused %s. Do not retry the same call; ask the user how to proceed or take another approach.", describe(c))
	case stateTimedOut:
		return deny(ErrPromptTimeout, "sandboxauth: nobody answered the request to allow %s within %v, so it was refused. Continue without it, or try again later.", describe(c), a.opts.promptTimeout)
	default:
		return closedError(c)
	}
}

func (a *asker) close() { a.broker.close() }

// closedError is the refusal of every call made to, or pending in, a closed
// authorizer.
func closedError(c *call) error {
	return deny(ErrAuthorizerClosed, "sandboxauth: %s was not authorized because the authorizer is closed (the session is ending); no further tool call can be approved.", describe(c))
}
