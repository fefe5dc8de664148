package sandboxauth

import "strings"

// NewSandboxAuthorizer returns the strict Sandbox policy and the channel on
// which it asks a person.
//
// Reads and writes:
//   - any path outside the sandbox (after resolving symlinks) refuses the
//     whole call with ErrOutsideSandbox, even when the model requests
//     permission;
//   - paths all inside the sandbox are allowed, unless the model requests
//     permission or a path is protected (see ProtectedPath), in which case a
//     person is asked.
//
// Shell commands:
//   - a working directory outside the sandbox is refused with
//     ErrOutsideSandbox, and so is a command that writes, creates or
//     deletes a path outside it (Classification.WritesOutside: rm -rf ~,
//     cp x /etc/hosts, echo x > ~/.bashrc), even with permission, as a
//     tool's write outside is; a command that only reads outside is asked
//     about;
//   - commands consults the classes in order: safe runs (a person is asked if
//     the model requests permission), blocked is refused with
//     ErrBlockedCommand, and dangerous, inscrutable and unlisted (none)
//     commands are asked about.
//
// A nil commands means the default lists, as NewShellAllowedCommands()
// returns them (a fresh copy for this authorizer); pass
// &ShellAllowedCommands{} for empty lists. The returned channel is buffered
// (see WithRequestBuffer) and is closed by Close. Close must be called
// when the authorizer is no longer needed.
func NewSandboxAuthorizer(commands *ShellAllowedCommands, opts ...Option) (Authorizer, <-chan UserRequest, error) {
	a, err := newAsker("sandbox", commands, opts)
	if err != nil {
		return nil, nil, err
	}
	return &sandboxAuthorizer{a}, a.broker.requests, nil
}

type sandboxAuthorizer struct{ *asker }

func (s *sandboxAuthorizer) IsAuthorizedForRead(requestPermission bool, requestReason, toolName, sandboxDir string, absPath ...string) error {
	return s.authorize(readCall(requestPermission, requestReason, toolName, sandboxDir, absPath))
}

func (s *sandboxAuthorizer) IsAuthorizedForWrite(requestPermission bool, requestReason, toolName, sandboxDir string, absPath ...string) error {
	return s.authorize(writeCall(requestPermission, requestReason, toolName, sandboxDir, absPath))
}

func (s *sandboxAuthorizer) IsShellAuthorized(requestPermission bool, requestReason, sandboxDir, cwd string, command []string) error {
	return s.authorize(shellCall(requestPermission, requestReason, sandboxDir, cwd, command))
}

func (s *sandboxAuthorizer) Close() { s.close() }

func (s *sandboxAuthorizer) authorize(c *call) error { return s.run(c, sandboxPolicy) }

// sandboxPolicy is the Sandbox policy proper.
func sandboxPolicy(c *call, f *facts) verdict {
	if c.op == OpShell {
		if f.cwdOutside {
			return refuse(deny(ErrOutsideSandbox, "sandboxauth: %s was refused: the working directory is outside the sandbox %q, and this policy runs commands only inside it. Run the command with a working directory inside the sandbox.", describe(c), c.sandboxDir))
		}
		switch f.class.Result {
		case CommandCheckResultSafe:
			return askIf(c.requested, "the model asked for permission")
		case CommandCheckResultBlocked:
			return refuse(blockedError(c, f))
		}
		if f.class.WritesOutside {
			return refuse(deny(ErrOutsideSandbox, "sandboxauth: %s was refused: outside the sandbox %q, %s. This policy never writes, creates or deletes anything outside the sandbox, even with permission. Change files inside the sandbox only, or ask the user to do this themselves.",
				describe(c), c.sandboxDir, writesWhat(f.class)))
		}
		if f.class.ProjectCode {
			return projectCodeVerdict(c, f)
		}
		return ask(classWhy(f))
	}
	if len(f.place.outside) > 0 {
		return refuse(deny(ErrOutsideSandbox, "sandboxauth: %s was refused: %s outside the sandbox %q (%s), and this policy never reads or writes outside the sandbox, even with permission. Work with files inside the sandbox, or ask the user to copy what you need into it.",
			describe(c), plural(len(f.place.outside), "this path is", "these paths are"), c.sandboxDir, formatPaths(f.place.outside)))
	}
	if f.protected != "" {
		return ask(f.protected)
	}
	return askIf(c.requested, "the model asked for permission")
}

// writesWhat says what a command that writes outside the sandbox writes,
// from its rule: "it would write, create or delete ~", "its redirection
// >~/.bashrc writes there".
func writesWhat(c Classification) string {
	r := ruleText(c)
	if p, ok := strings.CutPrefix(r, "writes outside sandbox: "); ok {
		return "it would write, create or delete " + p
	}
	if p, ok := strings.CutPrefix(r, "redirection outside sandbox: "); ok {
		return "its redirection " + p + " writes there"
	}
	return "it writes there (" + r + ")"
}

// blockedError is the refusal of a blocked command, under any policy.
func blockedError(c *call, f *facts) error {
	why := f.class.Reason
	if why == "" {
		why = f.class.Rule
	}
	return deny(ErrBlockedCommand, "sandboxauth: %s was refused: the command is blocked (%s). Blocked commands never run, even with permission. Do the task without it, or ask the user to run it themselves.", describe(c), why)
}

// classWhy says why a command of class f.class needs a person, in words:
// the class and the reason a person reads ("the command is dangerous:
// runs inline code or a module"), and the rule only where it names a
// subject (a path, an option) that the reason does not ("... (path
// outside sandbox: /etc/passwd)"). A list entry's own form (python
// [-c -m]) is not shown: the reason says what it means.
func classWhy(f *facts) string {
	cl := f.class
	rule := ruleText(cl)
	var s string
	switch cl.Result {
	case CommandCheckResultNone:
		s = "the command is on none of the lists"
		if strings.HasPrefix(cl.Rule, "rule: ") && rule != "on no list" {
			s += " (" + rule + ")"
		}
		return s
	default:
		s = "the command is " + cl.Result.String()
	}
	if cl.Reason == "" {
		if rule != "" {
			return s + " (" + rule + ")"
		}
		return s
	}
	if r := subjectRule(cl); r != "" {
		return s + ": " + cl.Reason + " (" + r + ")"
	}
	return s + ": " + cl.Reason
}

// ruleText is the rule of a classification without the class it already
// names or the "rule: " label: "npm run" rather than "dangerous: npm run",
// "protected path .env: .env" rather than "rule: protected path .env: .env".
func ruleText(c Classification) string {
	return strings.TrimPrefix(strings.TrimPrefix(c.Rule, c.Result.String()+": "), "rule: ")
}
