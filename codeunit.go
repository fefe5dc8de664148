package sandboxauth

import (
	"strings"

	"github.com/sandboxauth/sandboxauth/codeunit"
	"github.com/sandboxauth/sandboxauth/toolpolicy"
)

// codeUnitConfinesRead reports whether the CodeUnit authorizer confines
// the reads of tool to the code unit: the seed's read_file, ls,
// diagnostics and run_tests, each under any agent's name in package
// toolpolicy's vocabulary (Read, read_file, read_many_files, LS,
// list_directory, ...), and with search set the search tools too (glob,
// grep: Glob, Grep, grep_search, search_file_content, ...). Reads by other
// tools go to the fallback.
func codeUnitConfinesRead(tool string, search bool) bool {
	n, _ := toolpolicy.Normalize(tool)
	switch n {
	case "read", "ls", "diagnostics", "run_tests":
		return true
	}
	return search && toolpolicy.KindOf(tool) == toolpolicy.KindSearch
}

// WithCodeUnitSearch makes NewCodeUnitAuthorizer confine the reads of the
// search tools as well (glob and grep under any agent's name: Glob, Grep,
// grep_search, search_file_content, ...). Without it, searches go to the
// fallback, as the seed's contract has it, so that an agent working on one
// unit can still find the callers of its code elsewhere. Other
// constructors ignore it.
func WithCodeUnitSearch() Option {
	return func(o *options) error {
		o.unitSearch = true
		return nil
	}
}

// NewCodeUnitAuthorizer returns an authorizer that confines an agent to a
// code unit and otherwise defers to fallback. It never allows anything that
// fallback would refuse:
//
//   - reads by the read_file, ls, diagnostics and run_tests tools, under
//     any agent's name for them (Read, read_file, read_many_files, LS,
//     list_directory, ...; see toolpolicy.Vocabulary), are refused with
//     ErrOutsideCodeUnit when any path is outside unit; reads by other
//     tools (Grep, Glob, grep_search, web tools, ...) go to fallback, so
//     that the agent can still find the callers of its code elsewhere,
//     unless WithCodeUnitSearch confines the search tools too;
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
// Of the options, WithCodeUnitSearch and WithDecisionLog apply: the calls this authorizer refuses
// itself are logged there with policy "codeunit" and the rule "outside the
// code unit NAME". Without it, they go to the decision log of fallback when
// fallback is one of this package's authorizers. Other options are ignored.
func NewCodeUnitAuthorizer(unit *codeunit.CodeUnit, fallback Authorizer, opts ...Option) Authorizer {
	d := newDelegator(fallback, opts)
	o, err := buildOptions(opts)
	if d.optErr == nil {
		d.optErr = err
	}
	return &codeUnitAuthorizer{unit: unit, delegator: d, search: o.unitSearch}
}

type codeUnitAuthorizer struct {
	unit   *codeunit.CodeUnit
	search bool // WithCodeUnitSearch: search tools' reads are confined too
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
	confined := c.op == OpWrite || (c.op == OpRead && codeUnitConfinesRead(c.tool, a.search))
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
