package sandboxauth

import (
	"strings"

	"github.com/sandboxauth/sandboxauth/codeunit"
	"github.com/sandboxauth/sandboxauth/toolpolicy"
)

// codeUnitConfinesRead reports whether the CodeUnit authorizer confines
// the reads of tool to the code unit: tools that read or search files in
// the vocabulary of package toolpolicy, under any agent's name (Read,
// read_file, Grep, grep_search, LS, list_directory, ...), and the
// diagnostics and run_tests tools. Reads by other tools go to the fallback.
func codeUnitConfinesRead(tool string) bool {
	switch toolpolicy.KindOf(tool) {
	case toolpolicy.KindRead, toolpolicy.KindSearch:
		return true
	}
	n, _ := toolpolicy.Normalize(tool)
	return n == "diagnostics" || n == "run_tests"
}

// NewCodeUnitAuthorizer returns an authorizer that confines an agent to a
// code unit and otherwise defers to fallback. It never allows anything that
// fallback would refuse:
//
//   - reads by tools that read or search files (read_file, Read, ls, Grep,
//     glob, ... in any agent's vocabulary; see toolpolicy.Vocabulary), and by
//     diagnostics and run_tests, are refused with ErrOutsideCodeUnit when any
//     path is outside unit;
//   - writes by any tool are refused with ErrOutsideCodeUnit when any path is
//     outside unit;
//   - shell commands are not confined (their paths cannot be known reliably);
//   - everything not refused is decided by fallback, which may ask a person.
//     The CodeUnit authorizer itself never asks, even when the model requests
//     permission.
//
// Membership is decided on resolved paths (see codeunit.CodeUnit.Includes).
// Close stops this authorizer only: later calls return ErrAuthorizerClosed,
// and calls it has handed to a fallback built by this package are withdrawn
// (their questions become no-ops and the calls return ErrAuthorizerClosed).
// The fallback stays open; it belongs to whoever created it. A fallback from
// elsewhere finishes calls already handed to it in its own time.
//
// A nil unit or fallback, or an invalid option, yields an authorizer that
// refuses every call with an error matching ErrInvalidConfig.
//
// Of the options, WithDecisionLog applies: the calls this authorizer refuses
// itself are logged there with policy "codeunit" and the rule "outside the
// code unit NAME". Without it, they go to the decision log of fallback when
// fallback is one of this package's authorizers. Other options are ignored.
func NewCodeUnitAuthorizer(unit *codeunit.CodeUnit, fallback Authorizer, opts ...Option) Authorizer {
	return &codeUnitAuthorizer{unit: unit, delegator: newDelegator(fallback, opts)}
}

type codeUnitAuthorizer struct {
	unit *codeunit.CodeUnit
	delegator
}

func (a *codeUnitAuthorizer) IsAuthorizedForRead(requestPermission bool, requestReason, toolName, sandboxDir string, absPath ...string) error {
	return a.authorize(readCall(requestPermission, requestReason, toolName, sandboxDir, absPath))
}

func (a *codeUnitAuthorizer) IsAuthorizedForWrite(requestPermission bool, requestReason, toolName, sandboxDir string, absPath ...string) error {
	return a.authorize(writeCall(requestPermission, requestReason, toolName, sandboxDir, absPath))
}

func (a *codeUnitAuthorizer) IsShellAuthorized(requestPermission bool, requestReason, sandboxDir, cwd string, command []string) error {
	return a.authorize(shellCall(requestPermission, requestReason, sandboxDir, cwd, command))
}

// Close stops this authorizer and withdraws the calls it handed to its
// fallback; it does not close the fallback.
func (a *codeUnitAuthorizer) Close() { a.close() }

func (a *codeUnitAuthorizer) authorize(c *call) error {
	if a.closed() {
		err := closedError(c)
		a.logRefusal("codeunit", c, err, byClose, "authorizer closed")
		return err
	}
	if a.optErr != nil {
		return a.optErr
	}
	if err := ended(c); err != nil {
		a.logRefusal("codeunit", c, err, byCancel, "call cancelled")
		return err
	}
	if a.unit == nil || a.fallback == nil {
		return invalid(ErrInvalidConfig, "sandboxauth: the code unit authorizer was built with a nil code unit or fallback; nothing can be authorized")
	}
	if err := validateCall(c); err != nil {
		a.logRefusal("codeunit", c, err, byInput, "malformed call")
		return err
	}
	confined := c.op == OpWrite || (c.op == OpRead && codeUnitConfinesRead(c.tool))
	if confined {
		var outside []string
		for _, p := range c.paths {
			if !a.unit.Includes(p) {
				outside = append(outside, p)
			}
		}
		if len(outside) > 0 {
			err := deny(ErrOutsideCodeUnit, "sandboxauth: %s was refused: %s outside the code unit %q (%s). Work only on files of this code unit; its directories are: %s.",
				describe(c), plural(len(outside), "this path is", "these paths are"), a.unit.Name(), formatPaths(outside), strings.Join(a.unit.Dirs(), ", "))
			a.logRefusal("codeunit", c, err, byPolicy, "outside the code unit "+a.unit.Name())
			return err
		}
	}
	return a.delegate(c)
}
