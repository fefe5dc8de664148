package sandboxauth

// CommandClassifier is implemented by the authorizers of this package that
// classify shell commands: the Sandbox and Permissive authorizers, the
// authorizers Config.NewAuthorizer returns for those policies, and the
// wrappers (NewToolPolicyAuthorizer, NewCodeUnitAuthorizer, ForToolCall)
// around one of them.
//
// ClassifyCommand returns the class the authorizer acts on for argv run in
// cwd (empty: the sandbox) inside sandboxDir: its own command lists, its
// protected paths (WithProtectedPaths, a configuration's
// "protectedPaths") and its project-code matchers (WithProjectCode). A
// program that shows a command's class next to the authorizer's decision
// should take it from here, so that the two cannot come from different
// lists. It decides nothing and asks nobody. Errors are those of
// IsShellAuthorized for a malformed call (ErrEmptyCommand,
// ErrInvalidCommand, ErrInvalidPath), or ErrInvalidConfig from a wrapper
// whose fallback classifies nothing (AutoApprove).
type CommandClassifier interface {
	ClassifyCommand(sandboxDir, cwd string, argv []string) (Classification, error)
}

// ClassifyCommand implements CommandClassifier for the Sandbox and
// Permissive authorizers.
func (a *asker) ClassifyCommand(sandboxDir, cwd string, argv []string) (Classification, error) {
	c := shellCall(false, "", sandboxDir, cwd, argv)
	var f facts
	if err := a.shellFacts(c, &f); err != nil {
		return Classification{}, err
	}
	return f.class, nil
}

// ClassifyCommand implements CommandClassifier for the wrappers: it is
// their fallback's.
func (d *delegator) ClassifyCommand(sandboxDir, cwd string, argv []string) (Classification, error) {
	return classifyWith(d.fallback, sandboxDir, cwd, argv)
}

// ClassifyCommand implements CommandClassifier for a tool call's view: it
// is the underlying authorizer's.
func (v *toolCallView) ClassifyCommand(sandboxDir, cwd string, argv []string) (Classification, error) {
	return classifyWith(v.a, sandboxDir, cwd, argv)
}

// classifyWith is a's ClassifyCommand, or an error when a classifies
// nothing.
func classifyWith(a any, sandboxDir, cwd string, argv []string) (Classification, error) {
	cc, ok := a.(CommandClassifier)
	if !ok {
		return Classification{}, invalid(ErrInvalidConfig, "sandboxauth: ClassifyCommand: the authorizer %T classifies no commands", a)
	}
	return cc.ClassifyCommand(sandboxDir, cwd, argv)
}

var (
	_ CommandClassifier = (*sandboxAuthorizer)(nil)
	_ CommandClassifier = (*permissiveAuthorizer)(nil)
	_ CommandClassifier = (*toolPolicyAuthorizer)(nil)
	_ CommandClassifier = (*codeUnitAuthorizer)(nil)
	_ CommandClassifier = (*toolCallView)(nil)
)
