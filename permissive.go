package sandboxauth

// NewPermissiveSandboxAuthorizer returns the Permissive Sandbox policy and
// the channel on which it asks a person.
//
// Reads and writes:
//   - paths all inside the sandbox are allowed;
//   - a person is asked whenever the model requests permission, whenever
//     any path lies outside the sandbox (after resolving symlinks), and for
//     protected paths (see ProtectedPath).
//
// Shell commands:
//   - a working directory outside the sandbox is asked about;
//   - commands consults the classes in order: safe runs, blocked is refused
//     with ErrBlockedCommand (even when the model requests permission),
//     dangerous and inscrutable commands are asked about, and unlisted (none)
//     commands run;
//   - a person is asked whenever the model requests permission for a command
//     that is not blocked.
//
// A nil commands means the default lists, as NewShellAllowedCommands()
// returns them (a fresh copy for this authorizer); pass
// &ShellAllowedCommands{} for empty lists. The returned channel is buffered
// (see WithRequestBuffer) and is closed by Close. Close must be called
// when the authorizer is no longer needed.
func NewPermissiveSandboxAuthorizer(commands *ShellAllowedCommands, opts ...Option) (Authorizer, <-chan UserRequest, error) {
	a, err := newAsker("permissive", commands, opts)
	if err != nil {
		return nil, nil, err
	}
	return &permissiveAuthorizer{a}, a.broker.requests, nil
}

type permissiveAuthorizer struct{ *asker }

func (p *permissiveAuthorizer) IsAuthorizedForRead(requestPermission bool, requestReason, toolName, sandboxDir string, absPath ...string) error {
	return p.authorize(readCall(requestPermission, requestReason, toolName, sandboxDir, absPath))
}

func (p *permissiveAuthorizer) IsAuthorizedForWrite(requestPermission bool, requestReason, toolName, sandboxDir string, absPath ...string) error {
	return p.authorize(writeCall(requestPermission, requestReason, toolName, sandboxDir, absPath))
}

func (p *permissiveAuthorizer) IsShellAuthorized(requestPermission bool, requestReason, sandboxDir, cwd string, command []string) error {
	return p.authorize(shellCall(requestPermission, requestReason, sandboxDir, cwd, command))
}

func (p *permissiveAuthorizer) Close() { p.close() }

func (p *permissiveAuthorizer) authorize(c *call) error { return p.run(c, permissivePolicy) }

// permissivePolicy is the Permissive Sandbox policy proper.
func permissivePolicy(c *call, f *facts) verdict {
	if c.op == OpShell {
		switch {
		case f.class.Result == CommandCheckResultBlocked:
			return refuse(blockedError(c, f))
		case f.cwdOutside:
			return ask("the working directory is outside the sandbox")
		case f.class.ProjectCode:
			return projectCodeVerdict(c, f)
		case f.class.Result == CommandCheckResultDangerous, f.class.Result == CommandCheckResultInscrutable:
			return ask(classWhy(f))
		}
		return askIf(c.requested, "the model asked for permission")
	}
	if len(f.place.outside) > 0 {
		return ask(plural(len(f.place.outside), "a path is", "paths are") + " outside the sandbox")
	}
	if f.protected != "" {
		return ask(f.protected)
	}
	return askIf(c.requested, "the model asked for permission")
}
