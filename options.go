package sandboxauth

import (
	"log/slog"
	"time"

	"github.com/sandboxauth/sandboxauth/internal/classify"

	"github.com/sandboxauth/sandboxauth/confine"
	"github.com/sandboxauth/sandboxauth/toolpolicy"
)

// An Option configures an authorizer. Options are appended to the
// constructors' arguments, so calls that pass none keep compiling.
type Option func(*options) error

// options is the configuration every constructor starts from. Defaults are
// set by defaultOptions; a constructor applies its Options to a fresh copy.
type options struct {
	buffer        int
	promptTimeout time.Duration
	protected     []classify.Protected
	headless      bool
	log           *slog.Logger
	grants        *Grants
	toolQuery     toolpolicy.Query   // Config.NewAuthorizer
	shellTool     string             // NewToolPolicyAuthorizer
	confinement   *confine.Policy    // WithConfinement
	projectCode   []classify.Matcher // WithProjectCode
	unitSearch    bool               // WithCodeUnitSearch
}

func defaultOptions() options {
	return options{buffer: 16, protected: defaultProtected()}
}

// defaultProtected returns DefaultProtectedPaths compiled, from the table
// generated from them (classify.ProtectedDefaults; TestProtectedDefaultsTable
// fails when it is stale), so that no process compiles them: every
// authorizer (and every wrapper's options) starts from them, and compiled
// rules are never changed, only replaced.
func defaultProtected() []classify.Protected { return classify.ProtectedDefaults() }

func buildOptions(opts []Option) (options, error) {
	o := defaultOptions()
	for i, opt := range opts {
		if opt == nil {
			return o, invalid(ErrInvalidConfig, "sandboxauth: option %d is nil", i)
		}
		if err := opt(&o); err != nil {
			return o, err
		}
	}
	return o, nil
}

// WithRequestBuffer sets the capacity of the channel of user requests
// (default 16). A call that needs a person while the buffer is full blocks
// until the host receives a request, its prompt timeout passes
// (WithPromptTimeout), or the authorizer is closed. n must be at least 1.
func WithRequestBuffer(n int) Option {
	return func(o *options) error {
		if n < 1 {
			return invalid(ErrInvalidConfig, "sandboxauth: WithRequestBuffer(%d): the buffer must hold at least 1 request", n)
		}
		o.buffer = n
		return nil
	}
}

// WithPromptTimeout refuses a call with ErrPromptTimeout when nobody answers
// its user request within d, counted from the moment the call asks (so a call
// blocked on a full buffer times out too, and its request is never sent).
// Answering after the timeout is a no-op. Zero, the default, waits until
// Close.
func WithPromptTimeout(d time.Duration) Option {
	return func(o *options) error {
		if d < 0 {
			return invalid(ErrInvalidConfig, "sandboxauth: WithPromptTimeout(%v): the duration must not be negative", d)
		}
		o.promptTimeout = d
		return nil
	}
}

// WithHeadless makes the authorizer run without a person: every call the
// policy would ask about is refused at once with ErrNoUser, and nothing is
// ever sent on the channel of user requests. For agents in CI.
func WithHeadless() Option {
	return func(o *options) error {
		o.headless = true
		return nil
	}
}

// WithDecisionLog writes one structured record per decision to logger: the
// policy, tool, operation, paths or argv, cwd, the command's class and the
// rule that decided, the outcome, who decided (policy, person, grant, close,
// timeout, headless) and, when a person was asked, how long the answer took.
// Records are written at Info level for allows and Warn for refusals.
func WithDecisionLog(logger *slog.Logger) Option {
	return func(o *options) error {
		if logger == nil {
			return invalid(ErrInvalidConfig, "sandboxauth: WithDecisionLog(nil): pass a logger")
		}
		o.log = logger
		return nil
	}
}

// WithGrants lets a person answer "allow, and don't ask again this session":
// the grants they make are kept in g, and calls they cover are allowed
// without asking. g may be shared by several authorizers. See Grants.
func WithGrants(g *Grants) Option {
	return func(o *options) error {
		if g == nil {
			return invalid(ErrInvalidConfig, "sandboxauth: WithGrants(nil): pass NewGrants()")
		}
		o.grants = g
		return nil
	}
}
