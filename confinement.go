package sandboxauth

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"github.com/sandboxauth/sandboxauth/internal/classify"

	"github.com/sandboxauth/sandboxauth/confine"
)

// WithConfinement declares that the caller runs every shell command it is
// allowed (not only project code) through confine.Start (or confine.Run)
// with policy p, Sandbox set to the call's sandbox and the authorizer's
// protected paths added by ProtectConfinement, so that whatever a command
// does stays within its sandbox: no network, nothing written outside,
// .git's configuration and hooks and the other write-protected paths
// read-only, credentials and read-protected files hidden (see package
// confine). Config.ConfinePolicy builds exactly that policy from a policy
// file. The Sandbox and Permissive policies then allow project code
// (see Classification.ProjectCode: go test, npm run, make, ./build.sh,
// ...) without asking, and the decision log, the user request and the
// refusal or approval say that the answer relies on confinement.
//
// A policy that allows the network must restrict reads (p.Readable
// non-nil) for project code to be allowed: otherwise project code could
// read the user's files and send them out, and it is asked about as
// without confinement.
//
// p.Sandbox may be empty: each command is then to be confined to the
// sandbox of its own call (confine.DefaultPolicy(sandboxDir) is a good
// start). When p.Sandbox is set, only calls whose sandbox is p.Sandbox
// count as confined; project code in any other sandbox is asked about.
//
// Confinement is a second wall, not a reason to look less: blocked
// commands stay blocked, and commands that reach outside the sandbox
// visibly (a path argument, a redirection, an environment variable) are
// decided as without it.
//
// On a machine that cannot confine (see confine.Available), the
// constructor returns an error wrapping both ErrInvalidConfig and
// confine.ErrUnavailable: never a silent promise that nothing keeps.
func WithConfinement(p confine.Policy) Option {
	// The machine is asked once per option, however often it is applied
	// (a Config's constructors apply their options more than once), for
	// asking starts bubblewrap.
	var probe sync.Once
	var unavailable error
	return func(o *options) error {
		if p.Sandbox != "" && !cleanAbs(p.Sandbox) {
			return invalid(ErrInvalidConfig, "sandboxauth: WithConfinement: Policy.Sandbox %q must be an absolute, clean path, or empty for the sandbox of each call", p.Sandbox)
		}
		for _, list := range [][]string{p.Writable, p.Readable} {
			for _, d := range list {
				if !filepath.IsAbs(d) || strings.IndexByte(d, 0) >= 0 {
					return invalid(ErrInvalidConfig, "sandboxauth: WithConfinement: %q in the policy is not an absolute path", d)
				}
			}
		}
		probe.Do(func() { unavailable = confine.Available() })
		if unavailable != nil {
			return unavailableConfinement(unavailable)
		}
		cp := p
		cp.Writable = append([]string(nil), p.Writable...)
		if p.Readable != nil {
			cp.Readable = append([]string{}, p.Readable...)
		}
		o.confinement = &cp
		return nil
	}
}

// WithProjectCode adds commands that run project code to the built-in ones
// (go test, cargo build, npm test, make, pytest, ./script, ... : see
// Classification.ProjectCode). A command matched by m is labelled project
// code when the command lists alone would have decided it: asked about
// without confinement, allowed with WithConfinement. Use it for a
// project's own task runners (`rake`, `bundle exec`, `./x.py`).
func WithProjectCode(m ...CommandMatcher) Option {
	return func(o *options) error {
		for i, mm := range m {
			if strings.TrimSpace(mm.Command) == "" {
				return invalid(ErrInvalidConfig, "sandboxauth: WithProjectCode: matcher %d has no Command", i)
			}
			o.projectCode = append(o.projectCode, classify.Matcher(mm).Clone())
		}
		return nil
	}
}

func cleanAbs(p string) bool {
	return filepath.IsAbs(p) && filepath.Clean(p) == p && strings.IndexByte(p, 0) < 0
}

// confinedFor reports whether shell commands of a call in sandbox run
// confined, by the caller's declaration, tightly enough to allow project
// code: a confinement that allows the network and leaves reads
// unrestricted would let project code send the user's files anywhere.
func (o *options) confinedFor(sandbox string) bool {
	c := o.confinement
	return c != nil && (c.Sandbox == "" || c.Sandbox == filepath.Clean(sandbox)) && (!c.Network || c.Readable != nil)
}

// confinesWithNetwork reports whether shell commands of a call in
// sandbox run confined, but with the network and reads unrestricted: not
// tightly enough to allow project code (see confinedFor).
func (o *options) confinesWithNetwork(sandbox string) bool {
	c := o.confinement
	return c != nil && (c.Sandbox == "" || c.Sandbox == filepath.Clean(sandbox)) && c.Network && c.Readable == nil
}

// confinedProjectCode reports a command that runs project code and
// nothing else, under confinement: the policies allow it.
func confinedProjectCode(f *facts) bool {
	return f.confined && f.class.ProjectCode
}

// confinedWhy is the reason the policies and the decision log give for a
// command allowed because it runs confined.
const confinedWhy = "runs project code, allowed because the command runs confined (writes only inside the sandbox, no network)"

// projectCodeVerdict decides a command whose only danger is that it runs
// project code: allowed when it runs confined (unless the model asked for
// permission), asked about otherwise.
func projectCodeVerdict(c *call, f *facts) verdict {
	if f.confined {
		return askIf(c.requested, "the model asked for permission (the command "+confinedWhy+")")
	}
	what := strings.TrimPrefix(f.class.Rule, classify.ProjectRule)
	if r := f.class.Reason; r != "" && r != classify.ProjectCodeReason {
		what += ": " + r // inline code, a program on PATH, a hook: in words
	}
	if f.leaky {
		return ask("the command runs project code (" + what + "), confined but with the network and every file the user can read, so it could send them anywhere; to run project code without asking, drop \"network\" from the policy file's \"confine\" section (or WithConfinement's Network), or name what it may read in \"readable\"")
	}
	return ask("the command runs project code (" + what + "), and nothing confines it: it can do whatever the user can")
}

// unavailableConfinement is the constructor's error when the kernel cannot
// confine: it wraps ErrInvalidConfig and err (which wraps
// confine.ErrUnavailable).
func unavailableConfinement(err error) error {
	return fmt.Errorf("sandboxauth: WithConfinement: project code cannot be allowed on the strength of confinement, because this system cannot confine commands; drop WithConfinement and project code will be asked about (%w): %w", ErrInvalidConfig, err)
}
