package sandboxauth

import (
	"context"
	"errors"

	"github.com/sandboxauth/sandboxauth/auth"
)

// A ContextAuthorizer decides calls under a context.Context: when ctx ends
// while the call waits for a person, the call stops waiting, its UserRequest
// is withdrawn (its Done channel is closed and answering it changes nothing),
// and it returns an error matching ErrCallCanceled, ErrDenied and ctx.Err()
// (context.Canceled or context.DeadlineExceeded). A call whose ctx has
// already ended is refused the same way without being decided.
//
// Every authorizer this package returns implements ContextAuthorizer, and so
// do the views of ForToolCall; assert it where a context is at hand:
//
//	ca := a.(sandboxauth.ContextAuthorizer)
//	err := ca.IsShellAuthorizedContext(ctx, false, "", sandbox, cwd, argv)
//
// The methods without a context (auth.Authorizer) are unchanged and behave
// as the Context ones with context.Background().
type ContextAuthorizer interface {
	auth.Authorizer

	// IsAuthorizedForReadContext is IsAuthorizedForRead under ctx.
	IsAuthorizedForReadContext(ctx context.Context, requestPermission bool, requestReason, toolName, sandboxDir string, absPath ...string) error
	// IsAuthorizedForWriteContext is IsAuthorizedForWrite under ctx.
	IsAuthorizedForWriteContext(ctx context.Context, requestPermission bool, requestReason, toolName, sandboxDir string, absPath ...string) error
	// IsShellAuthorizedContext is IsShellAuthorized under ctx.
	IsShellAuthorizedContext(ctx context.Context, requestPermission bool, requestReason, sandboxDir, cwd string, command []string) error
}

// ErrCallCanceled: the caller's context ended before the call was decided
// (the tool call was cancelled or its deadline passed). The error also
// matches ErrDenied and the context's own error.
var ErrCallCanceled = errors.New("call cancelled")

// canceledError is the refusal of a call whose context ended: errors.Is
// matches ErrDenied, ErrCallCanceled and the context's error.
type canceledError struct {
	msg   string
	cause error
}

func (e *canceledError) Error() string        { return e.msg }
func (e *canceledError) Unwrap() []error      { return []error{ErrCallCanceled, e.cause} }
func (e *canceledError) Is(target error) bool { return target == ErrDenied }

// errWrapperClosed is the cause with which a wrapping authorizer withdraws
// the calls it handed to its fallback when it is closed.
var errWrapperClosed = errors.New("sandboxauth: wrapper closed")

// ended returns the refusal of c when its context has ended, or nil. A
// context ended by the close of a wrapper gives the closed refusal.
func ended(c *call) error {
	if c.ctx.Err() == nil {
		return nil
	}
	return endedError(c)
}

// endedError is the refusal of c, whose context has ended.
func endedError(c *call) error {
	if errors.Is(context.Cause(c.ctx), errWrapperClosed) {
		return closedError(c)
	}
	return &canceledError{
		msg:   "sandboxauth: " + describe(c) + " was not authorized because the tool call was cancelled (" + c.ctx.Err().Error() + "). Nothing was run; call the tool again if it is still needed.",
		cause: c.ctx.Err(),
	}
}

// withCtx sets c's context, refusing a nil one as context.Background.
func withCtx(ctx context.Context, c *call) *call {
	if ctx == nil {
		ctx = context.Background()
	}
	c.ctx = ctx
	return c
}

// The Context methods of every authorizer, in one place.

func (s *sandboxAuthorizer) IsAuthorizedForReadContext(ctx context.Context, requestPermission bool, requestReason, toolName, sandboxDir string, absPath ...string) error {
	return s.authorize(withCtx(ctx, readCall(requestPermission, requestReason, toolName, sandboxDir, absPath)))
}

func (s *sandboxAuthorizer) IsAuthorizedForWriteContext(ctx context.Context, requestPermission bool, requestReason, toolName, sandboxDir string, absPath ...string) error {
	return s.authorize(withCtx(ctx, writeCall(requestPermission, requestReason, toolName, sandboxDir, absPath)))
}

func (s *sandboxAuthorizer) IsShellAuthorizedContext(ctx context.Context, requestPermission bool, requestReason, sandboxDir, cwd string, command []string) error {
	return s.authorize(withCtx(ctx, shellCall(requestPermission, requestReason, sandboxDir, cwd, command)))
}

func (p *permissiveAuthorizer) IsAuthorizedForReadContext(ctx context.Context, requestPermission bool, requestReason, toolName, sandboxDir string, absPath ...string) error {
	return p.authorize(withCtx(ctx, readCall(requestPermission, requestReason, toolName, sandboxDir, absPath)))
}

func (p *permissiveAuthorizer) IsAuthorizedForWriteContext(ctx context.Context, requestPermission bool, requestReason, toolName, sandboxDir string, absPath ...string) error {
	return p.authorize(withCtx(ctx, writeCall(requestPermission, requestReason, toolName, sandboxDir, absPath)))
}

func (p *permissiveAuthorizer) IsShellAuthorizedContext(ctx context.Context, requestPermission bool, requestReason, sandboxDir, cwd string, command []string) error {
	return p.authorize(withCtx(ctx, shellCall(requestPermission, requestReason, sandboxDir, cwd, command)))
}

func (a *autoApproveAuthorizer) IsAuthorizedForReadContext(ctx context.Context, requestPermission bool, requestReason, toolName, sandboxDir string, absPath ...string) error {
	return a.authorize(withCtx(ctx, readCall(requestPermission, requestReason, toolName, sandboxDir, absPath)))
}

func (a *autoApproveAuthorizer) IsAuthorizedForWriteContext(ctx context.Context, requestPermission bool, requestReason, toolName, sandboxDir string, absPath ...string) error {
	return a.authorize(withCtx(ctx, writeCall(requestPermission, requestReason, toolName, sandboxDir, absPath)))
}

func (a *autoApproveAuthorizer) IsShellAuthorizedContext(ctx context.Context, requestPermission bool, requestReason, sandboxDir, cwd string, command []string) error {
	return a.authorize(withCtx(ctx, shellCall(requestPermission, requestReason, sandboxDir, cwd, command)))
}

func (a *codeUnitAuthorizer) IsAuthorizedForReadContext(ctx context.Context, requestPermission bool, requestReason, toolName, sandboxDir string, absPath ...string) error {
	return a.authorize(withCtx(ctx, readCall(requestPermission, requestReason, toolName, sandboxDir, absPath)))
}

func (a *codeUnitAuthorizer) IsAuthorizedForWriteContext(ctx context.Context, requestPermission bool, requestReason, toolName, sandboxDir string, absPath ...string) error {
	return a.authorize(withCtx(ctx, writeCall(requestPermission, requestReason, toolName, sandboxDir, absPath)))
}

func (a *codeUnitAuthorizer) IsShellAuthorizedContext(ctx context.Context, requestPermission bool, requestReason, sandboxDir, cwd string, command []string) error {
	return a.authorize(withCtx(ctx, shellCall(requestPermission, requestReason, sandboxDir, cwd, command)))
}

func (a *toolPolicyAuthorizer) IsAuthorizedForReadContext(ctx context.Context, requestPermission bool, requestReason, toolName, sandboxDir string, absPath ...string) error {
	return a.authorize(withCtx(ctx, readCall(requestPermission, requestReason, toolName, sandboxDir, absPath)))
}

func (a *toolPolicyAuthorizer) IsAuthorizedForWriteContext(ctx context.Context, requestPermission bool, requestReason, toolName, sandboxDir string, absPath ...string) error {
	return a.authorize(withCtx(ctx, writeCall(requestPermission, requestReason, toolName, sandboxDir, absPath)))
}

func (a *toolPolicyAuthorizer) IsShellAuthorizedContext(ctx context.Context, requestPermission bool, requestReason, sandboxDir, cwd string, command []string) error {
	return a.authorize(withCtx(ctx, shellCall(requestPermission, requestReason, sandboxDir, cwd, command)))
}

func (v toolCallView) IsAuthorizedForReadContext(ctx context.Context, requestPermission bool, requestReason, toolName, sandboxDir string, absPath ...string) error {
	return v.authorize(withCtx(ctx, readCall(requestPermission, requestReason, toolName, sandboxDir, absPath)))
}

func (v toolCallView) IsAuthorizedForWriteContext(ctx context.Context, requestPermission bool, requestReason, toolName, sandboxDir string, absPath ...string) error {
	return v.authorize(withCtx(ctx, writeCall(requestPermission, requestReason, toolName, sandboxDir, absPath)))
}

func (v toolCallView) IsShellAuthorizedContext(ctx context.Context, requestPermission bool, requestReason, sandboxDir, cwd string, command []string) error {
	return v.authorize(withCtx(ctx, shellCall(requestPermission, requestReason, sandboxDir, cwd, command)))
}

// Compile-time checks that every authorizer implements ContextAuthorizer.
var (
	_ ContextAuthorizer = (*sandboxAuthorizer)(nil)
	_ ContextAuthorizer = (*permissiveAuthorizer)(nil)
	_ ContextAuthorizer = (*autoApproveAuthorizer)(nil)
	_ ContextAuthorizer = (*codeUnitAuthorizer)(nil)
	_ ContextAuthorizer = (*toolPolicyAuthorizer)(nil)
	_ ContextAuthorizer = (*ownedFallback)(nil)
	_ ContextAuthorizer = toolCallView{}
)
