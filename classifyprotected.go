package sandboxauth

// ClassifyProtected is Classify with protected paths, as the Sandbox and
// Permissive authorizers classify a command: with site.SandboxDir set, a
// path argument, redirection or recursive read that reaches one of
// protected makes the command dangerous. The result is the class the
// authorizers act on (an authorizer built with WithProtectedPaths(ps...)
// classifies as ClassifyProtected(site, ps, argv); one built without it uses
// DefaultProtectedPaths()). A malformed pattern is an error matching
// ErrInvalidConfig; other errors as for Check.
func (s *ShellAllowedCommands) ClassifyProtected(site CommandSite, protected []ProtectedPath, argv []string) (Classification, error) {
	rules, err := compileProtected(protected)
	if err != nil {
		return Classification{}, err
	}
	if err := validateArgv(argv); err != nil {
		return Classification{}, err
	}
	return s.classifyProtected(site, rules, nil, argv, nil), nil
}
