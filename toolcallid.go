package sandboxauth

import (
	"context"

	"github.com/sandboxauth/sandboxauth/auth"
)

// ForToolCall returns a view of a for one tool call: every UserRequest that
// a call through the view raises carries id as its ToolCallID, and decision
// log records carry it too. The view is cheap; make one per tool call.
//
// a must be an authorizer of this package (or a view or wrapper of one) for
// the ID to travel; calls through a view of any other auth.Authorizer go to
// it unchanged, without the ID.
func ForToolCall(a auth.Authorizer, id string) auth.Authorizer {
	return toolCallView{a: a, id: id}
}

type toolCallView struct {
	a  auth.Authorizer
	id string
}

func (v toolCallView) IsAuthorizedForRead(requestPermission bool, requestReason, toolName, sandboxDir string, absPath ...string) error {
	return v.authorize(readCall(requestPermission, requestReason, toolName, sandboxDir, absPath))
}

func (v toolCallView) IsAuthorizedForWrite(requestPermission bool, requestReason, toolName, sandboxDir string, absPath ...string) error {
	return v.authorize(writeCall(requestPermission, requestReason, toolName, sandboxDir, absPath))
}

func (v toolCallView) IsShellAuthorized(requestPermission bool, requestReason, sandboxDir, cwd string, command []string) error {
	return v.authorize(shellCall(requestPermission, requestReason, sandboxDir, cwd, command))
}

func (v toolCallView) authorize(c *call) error {
	if c.ctx == nil {
		c.ctx = context.Background()
	}
	c.toolCallID = v.id
	return dispatch(v.a, c)
}
