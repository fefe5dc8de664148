package sandboxauth

import "github.com/sandboxauth/sandboxauth/toolpolicy"

// ShellToolName is the tool name under which NewToolPolicyAuthorizer judges
// shell calls, which carry no tool name of their own, unless WithShellTool
// or WithToolVocabulary names the agent's own shell tool. It is the
// canonical name of the command-running tool in package toolpolicy, of
// which every agent's shell tool (Bash, run_shell_command, shell, exec) is
// an alias.
const ShellToolName = "exec"

// NewToolPolicyAuthorizer returns an authorizer that refuses calls from tools
// that policy does not give the agent, and hands every other call to
// fallback:
//
//   - a read or write whose toolName policy does not allow is refused with
//     ErrToolNotPermitted, whatever the paths and even when the model requests
//     permission; nobody is asked;
//   - a shell call is judged as a call of the agent's shell tool, named by
//     WithShellTool or WithToolVocabulary (ShellToolName, "exec", by
//     default): if policy does not allow it, every shell call is refused
//     with ErrToolNotPermitted, and the refusal names the tool as the agent
//     calls it ("Bash", "run_shell_command", ...);
//   - everything else is decided by fallback, which may ask a person.
//
// It never allows what fallback would refuse. Close stops this authorizer
// only, as for NewCodeUnitAuthorizer: later calls return ErrAuthorizerClosed,
// calls handed to a fallback of this package are withdrawn, and fallback stays
// open. A nil policy or fallback, or an invalid option, yields an authorizer
// that refuses every call with an error matching ErrInvalidConfig.
//
// Of the options, WithShellTool and WithToolVocabulary name the agent's
// shell tool, and WithDecisionLog applies: the calls this authorizer refuses
// itself are logged there with policy "toolpolicy" and the deciding layer and
// rule. Without it, they go to the decision log of fallback when fallback is
// one of this package's authorizers. Calls handed to fallback are logged by
// fallback. Other options are ignored.
func NewToolPolicyAuthorizer(policy *toolpolicy.Policy, fallback Authorizer, opts ...Option) Authorizer {
	d := newDelegator(fallback, opts)
	o, err := buildOptions(opts)
	if d.optErr == nil {
		d.optErr = err
	}
	shell := o.shellTool
	if shell == "" {
		shell = ShellToolName
	}
	return &toolPolicyAuthorizer{policy: policy, delegator: d, shellTool: shell}
}

type toolPolicyAuthorizer struct {
	policy    *toolpolicy.Policy
	shellTool string // the agent's name of its shell tool
	delegator
}

func (a *toolPolicyAuthorizer) IsAuthorizedForRead(requestPermission bool, requestReason, toolName, sandboxDir string, absPath ...string) error {
	return a.authorize(readCall(requestPermission, requestReason, toolName, sandboxDir, absPath))
}

func (a *toolPolicyAuthorizer) IsAuthorizedForWrite(requestPermission bool, requestReason, toolName, sandboxDir string, absPath ...string) error {
	return a.authorize(writeCall(requestPermission, requestReason, toolName, sandboxDir, absPath))
}

func (a *toolPolicyAuthorizer) IsShellAuthorized(requestPermission bool, requestReason, sandboxDir, cwd string, command []string) error {
	return a.authorize(shellCall(requestPermission, requestReason, sandboxDir, cwd, command))
}

// Close stops this authorizer and withdraws the calls it handed to its
// fallback; it does not close the fallback.
func (a *toolPolicyAuthorizer) Close() { a.close() }

func (a *toolPolicyAuthorizer) authorize(c *call) error {
	if a.closed() {
		err := closedError(c)
		a.logRefusal("toolpolicy", c, err, byClose, "authorizer closed")
		return err
	}
	if err := ended(c); err != nil {
		a.logRefusal("toolpolicy", c, err, byCancel, "call cancelled")
		return err
	}
	if a.optErr != nil {
		return a.optErr
	}
	if a.policy == nil || a.fallback == nil {
		return invalid(ErrInvalidConfig, "sandboxauth: the tool policy authorizer was built with a nil policy or fallback; nothing can be authorized")
	}
	if err := validateCall(c); err != nil {
		a.logRefusal("toolpolicy", c, err, byInput, "malformed call")
		return err
	}
	tool := c.tool
	if c.op == OpShell {
		tool = a.shellTool
	}
	if !a.policy.Allowed(tool) {
		d := a.policy.Explain(tool)
		err := deny(ErrToolNotPermitted, "sandboxauth: %s was refused: the tool %q is not available to this agent (%s). Use one of the tools you were given instead.", describe(c), tool, d.Reason)
		a.logRefusal("toolpolicy", c, err, byPolicy, toolRule(d))
		return err
	}
	return a.delegate(c)
}

// toolRule is the decision-log rule of a tool policy refusal: the kind of
// rule, the layer and the rule that decided.
func toolRule(d toolpolicy.Decision) string {
	s := "tool policy " + d.Kind.String()
	if d.Layer != "" {
		s += " in layer " + d.Layer
	}
	if d.Rule != "" {
		s += ": " + d.Rule
	}
	if d.Source != "" {
		s += " (" + d.Source + ")"
	}
	return s
}
