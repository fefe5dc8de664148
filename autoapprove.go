package sandboxauth

import "sync/atomic"

// NewAutoApproveAuthorizer returns the AutoApprove policy: every well-formed
// call is allowed, nobody is asked, and no command is blocked. Malformed calls
// (relative paths, an empty command) are still errors, and after Close every
// call returns ErrAuthorizerClosed.
//
// Use it only where something else confines the agent, such as a container
// or a virtual machine.
func NewAutoApproveAuthorizer() Authorizer {
	return &autoApproveAuthorizer{}
}

type autoApproveAuthorizer struct {
	closed atomic.Bool
}

func (a *autoApproveAuthorizer) IsAuthorizedForRead(requestPermission bool, requestReason, toolName, sandboxDir string, absPath ...string) error {
	return a.authorize(readCall(requestPermission, requestReason, toolName, sandboxDir, absPath))
}

func (a *autoApproveAuthorizer) IsAuthorizedForWrite(requestPermission bool, requestReason, toolName, sandboxDir string, absPath ...string) error {
	return a.authorize(writeCall(requestPermission, requestReason, toolName, sandboxDir, absPath))
}

func (a *autoApproveAuthorizer) IsShellAuthorized(requestPermission bool, requestReason, sandboxDir, cwd string, command []string) error {
	return a.authorize(shellCall(requestPermission, requestReason, sandboxDir, cwd, command))
}

func (a *autoApproveAuthorizer) Close() { a.closed.Store(true) }

func (a *autoApproveAuthorizer) authorize(c *call) error {
	if a.closed.Load() {
		return closedError(c)
	}
	if err := ended(c); err != nil {
		return err
	}
	return validateCall(c)
}
