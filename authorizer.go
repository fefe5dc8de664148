package sandboxauth

import (
	"context"
	"errors"
	"fmt"

	"github.com/sandboxauth/sandboxauth/auth"
)

// An Authorizer is an auth.Authorizer that holds resources: the channel on
// which it asks a person, and the calls waiting for an answer.
//
// All methods are safe for concurrent use.
type Authorizer interface {
	auth.Authorizer

	// Close refuses every call waiting for a person's answer with
	// ErrAuthorizerClosed, closes the channel of user requests, and makes
	// every later call return ErrAuthorizerClosed. Close is idempotent and
	// returns once no call is left waiting.
	Close()
}

// Refusals. Every error that refuses a call matches ErrDenied with
// errors.Is, and also exactly one of the more specific sentinels below.
var (
	// ErrDenied matches every refusal, whatever its cause.
	ErrDenied = errors.New("denied")

	// ErrOutsideSandbox: a path, a working directory or a command resolves
	// outside the sandbox directory, and the policy refuses such calls.
	ErrOutsideSandbox = errors.New("outside the sandbox")

	// ErrBlockedCommand: the shell command is on the blocked list.
	ErrBlockedCommand = errors.New("blocked command")

	// ErrOutsideCodeUnit: a path lies outside the code unit the agent works on.
	ErrOutsideCodeUnit = errors.New("outside the code unit")

	// ErrAuthorizationDenied: a person was asked and said no.
	ErrAuthorizationDenied = errors.New("refused by the user")

	// ErrAuthorizerClosed: the authorizer was closed before or while the
	// call was decided.
	ErrAuthorizerClosed = errors.New("authorizer closed")

	// ErrToolNotPermitted: the tool policy does not give this tool to the
	// agent at all.
	ErrToolNotPermitted = errors.New("tool not permitted")

	// ErrPromptTimeout: a person was asked and did not answer in time.
	ErrPromptTimeout = errors.New("no answer in time")

	// ErrNoUser: the call needed a person, and the authorizer runs headless
	// (WithHeadless).
	ErrNoUser = errors.New("no user to ask")
)

// Input errors. They are not refusals (they do not match ErrDenied) but they
// never authorize anything: the call is malformed and must be corrected.
var (
	// ErrEmptyCommand: a shell call with an empty argv.
	ErrEmptyCommand = errors.New("empty command")

	// ErrInvalidPath: a path, sandbox directory or working directory that is
	// empty, relative, or contains a NUL byte.
	ErrInvalidPath = errors.New("invalid path")

	// ErrInvalidCommand: an argv element that contains a NUL byte, which no
	// program can receive.
	ErrInvalidCommand = errors.New("invalid command")

	// ErrInvalidConfig: an authorizer built from a nil or contradictory
	// configuration.
	ErrInvalidConfig = errors.New("invalid configuration")
)

// denial is the error type of every refusal. Its message is the whole text
// the model sees; errors.Is matches ErrDenied and kind.
type denial struct {
	kind error
	msg  string
}

func (d *denial) Error() string        { return d.msg }
func (d *denial) Unwrap() error        { return d.kind }
func (d *denial) Is(target error) bool { return target == ErrDenied }

// deny returns a refusal of the given kind with a formatted message.
func deny(kind error, format string, args ...any) error {
	return &denial{kind: kind, msg: fmt.Sprintf(format, args...)}
}

// inputError is the error type of malformed calls: errors.Is matches kind,
// never ErrDenied.
type inputError struct {
	kind error
	msg  string
}

func (e *inputError) Error() string { return e.msg }
func (e *inputError) Unwrap() error { return e.kind }

// invalid returns an input error of the given kind with a formatted message.
func invalid(kind error, format string, args ...any) error {
	return &inputError{kind: kind, msg: fmt.Sprintf(format, args...)}
}

// call is one authorization request, whichever method it came through.
// Wrappers in this package hand calls to each other in this form so that a
// tool call ID and a cancellation travel with them.
type call struct {
	ctx        context.Context // ends when the caller withdraws (its context ended, or a wrapper was closed)
	op         Operation
	requested  bool   // requestPermission
	reason     string // requestReason
	tool       string
	sandboxDir string
	paths      []string
	cwd        string
	argv       []string
	toolCallID string
	search     bool     // a read through ForSearch: it searches beneath its directories
	patterns   []string // the search's patterns (ForSearch); none: every file
}

// caller is implemented by this package's authorizers: authorize decides c.
type caller interface {
	authorize(c *call) error
}

// dispatch decides c with a, through authorize when a is one of this
// package's authorizers (so that c's context and tool call ID are kept) and
// through the public methods otherwise.
func dispatch(a auth.Authorizer, c *call) error {
	if in, ok := a.(caller); ok {
		return in.authorize(c)
	}
	if ca, ok := a.(ContextAuthorizer); ok {
		switch c.op {
		case OpRead:
			return ca.IsAuthorizedForReadContext(c.ctx, c.requested, c.reason, c.tool, c.sandboxDir, c.paths...)
		case OpWrite:
			return ca.IsAuthorizedForWriteContext(c.ctx, c.requested, c.reason, c.tool, c.sandboxDir, c.paths...)
		default:
			return ca.IsShellAuthorizedContext(c.ctx, c.requested, c.reason, c.sandboxDir, c.cwd, c.argv)
		}
	}
	switch c.op {
	case OpRead:
		return a.IsAuthorizedForRead(c.requested, c.reason, c.tool, c.sandboxDir, c.paths...)
	case OpWrite:
		return a.IsAuthorizedForWrite(c.requested, c.reason, c.tool, c.sandboxDir, c.paths...)
	default:
		return a.IsShellAuthorized(c.requested, c.reason, c.sandboxDir, c.cwd, c.argv)
	}
}

func readCall(requested bool, reason, tool, sandboxDir string, paths []string) *call {
	return &call{ctx: context.Background(), op: OpRead, requested: requested, reason: reason, tool: tool, sandboxDir: sandboxDir, paths: paths}
}

func writeCall(requested bool, reason, tool, sandboxDir string, paths []string) *call {
	return &call{ctx: context.Background(), op: OpWrite, requested: requested, reason: reason, tool: tool, sandboxDir: sandboxDir, paths: paths}
}

func shellCall(requested bool, reason, sandboxDir, cwd string, argv []string) *call {
	return &call{ctx: context.Background(), op: OpShell, requested: requested, reason: reason, sandboxDir: sandboxDir, cwd: cwd, argv: argv}
}
