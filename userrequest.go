package sandboxauth

import (
	"context"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Operation is the kind of call a UserRequest asks about.
type Operation string

// The operations an Authorizer decides.
const (
	OpRead  Operation = "read"
	OpWrite Operation = "write"
	OpShell Operation = "shell"
)

// A UserRequest is a question for a person: may this call run?
//
// Requests arrive on the channel an authorizer's constructor returns. The
// authorization call that raised one blocks until Allow or Disallow is
// called, the authorizer is closed, or the call's context ends (see
// ContextAuthorizer). Allow and Disallow may be called from any goroutine,
// any number of times: the first answer wins and later ones are cheap no-ops,
// as are answers given after the call was released by Close or withdrawn.
// Calling neither leaves the authorization call blocked until Close.
//
// The fields beyond the first six are for a user interface that wants to show
// more than the Prompt; they are copies, and changing them changes nothing.
type UserRequest struct {
	ToolCallID string   // the related tool call ID, when the tool supplied one
	ToolName   string   // name of the tool; "" for shell requests
	Prompt     string   // the question to show a person, complete in itself
	Argv       []string // the shell command; nil unless Operation is OpShell
	Allow      func()   // idempotent; releases the call with an allow
	Disallow   func()   // idempotent; releases the call with a refusal

	Policy         string             // the policy that asks: "sandbox" or "permissive"
	Operation      Operation          // read, write or shell
	Paths          []string           // the paths of a read or write, as the tool gave them
	SandboxDir     string             // the sandbox directory of the call
	Cwd            string             // the working directory of a shell command
	Classification CommandCheckResult // the command's class; meaningful for OpShell only
	Rule           string             // the rule that made the policy ask
	Reason         string             // the model's reason, if it gave one
	Requested      bool               // the model asked for permission explicitly
	Outside        []string           // the paths that resolve outside the sandbox, resolved

	// Session grants (see WithGrants). SessionScope states, for a person,
	// what AllowForSession would allow from now on without asking; it is ""
	// and AllowForSession is nil when no grant may be offered.
	SessionScope    string
	AllowForSession func() // allows, and records the grant; idempotent like Allow

	// For reads and writes, a person may instead pick one of GrantDirs (the
	// nearest directory holding every path, and its parents up to the
	// sandbox): AllowForSessionUnder(dir) allows this call and every later
	// one of the same operation below dir. It returns an error, and answers
	// nothing, for a dir not in GrantDirs. Nil when no grant may be offered.
	GrantDirs            []string
	AllowForSessionUnder func(dir string) error

	// Done is closed once the request needs no answer any more: it was
	// answered, its prompt timed out, the authorizer was closed, or the
	// call was withdrawn because its context ended (see ContextAuthorizer).
	// A user interface may select on it to take the question down.
	Done <-chan struct{}

	// Deadline is when the request is refused with ErrPromptTimeout if
	// nobody answers it (WithPromptTimeout, a configuration's
	// "promptTimeout" or DefaultPromptTimeout); zero when it waits until
	// the authorizer is closed. A user interface may show it.
	Deadline time.Time
}

// sessionOffer is what the asker lets a person grant for one request.
type sessionOffer struct {
	scope  string
	dirs   []string
	record func(dir string) // records the grant ("" for the offered scope)
}

// Answer states of a pending request. The first transition away from
// statePending wins; every later one fails.
const (
	statePending   int32 = iota
	stateAnswering       // claimed by an answer that still has work to do
	stateAllowed
	stateDenied
	stateClosed    // the authorizer was closed
	stateWithdrawn // the caller's context ended (a wrapper was closed)
)

// pending is one call waiting for an answer.
type pending struct {
	state   atomic.Int32
	decided chan struct{} // closed by whoever wins the transition
}

func (p *pending) decide(s int32) bool {
	if p.state.CompareAndSwap(statePending, s) {
		close(p.decided)
		return true
	}
	return false
}

// claim wins the transition for an answer that must do some work (record a
// grant) before the caller is released by finish.
func (p *pending) claim() bool { return p.state.CompareAndSwap(statePending, stateAnswering) }

func (p *pending) finish(s int32) {
	p.state.Store(s)
	close(p.decided)
}

// broker hands UserRequests to the host and waits for the answers.
//
// Invariants: requests is closed exactly once, by close, and only while mu is
// held for writing, so no send (made under mu's read lock) can race with it;
// every pending call registered before close observes stateClosed or an
// earlier answer.
type broker struct {
	requests chan UserRequest
	done     chan struct{} // closed first thing in close: releases blocked senders
	once     sync.Once

	mu     sync.RWMutex // read: a call registering or sending; write: close
	closed bool

	pmu   sync.Mutex
	calls map[*pending]struct{}
}

func newBroker(buffer int) *broker {
	return &broker{
		requests: make(chan UserRequest, buffer),
		done:     make(chan struct{}),
		calls:    make(map[*pending]struct{}),
	}
}

// isClosed reports whether close has begun.
func (b *broker) isClosed() bool {
	select {
	case <-b.done:
		return true
	default:
		return false
	}
}

// ask sends req and blocks until it is answered, the broker is closed, ctx
// ends, or timeout (if positive) passes. It returns the final state.
func (b *broker) ask(ctx context.Context, req UserRequest, timeout time.Duration, offer *sessionOffer) int32 {
	p := &pending{decided: make(chan struct{})}
	req.Done = p.decided
	req.Allow = func() { p.decide(stateAllowed) }
	req.Disallow = func() { p.decide(stateDenied) }
	if offer != nil {
		req.SessionScope = offer.scope
		req.AllowForSession = func() {
			if p.claim() {
				offer.record("")
				p.finish(stateAllowed)
			}
		}
		if len(offer.dirs) > 0 {
			req.GrantDirs = append([]string(nil), offer.dirs...)
			req.AllowForSessionUnder = func(dir string) error {
				if !slices.Contains(offer.dirs, dir) {
					return invalid(ErrInvalidConfig, "sandboxauth: %q is not one of the directories offered for this grant (%s)", dir, strings.Join(offer.dirs, ", "))
				}
				if p.claim() {
					offer.record(dir)
					p.finish(stateAllowed)
				}
				return nil
			}
		}
	}

	b.mu.RLock()
	if b.closed {
		b.mu.RUnlock()
		return stateClosed
	}
	b.pmu.Lock()
	b.calls[p] = struct{}{}
	b.pmu.Unlock()
	defer b.forget(p)

	// The prompt timeout runs from the moment the call asks, not from the
	// moment its request enters the channel: a call blocked on a full buffer
	// (a host that stopped receiving) is refused with ErrPromptTimeout too,
	// instead of waiting for Close. Its request is then never sent.
	var expired <-chan time.Time
	if timeout > 0 {
		req.Deadline = time.Now().Add(timeout)
		t := time.NewTimer(timeout)
		defer t.Stop()
		expired = t.C
	}

	select {
	case b.requests <- req:
	case <-b.done:
		b.mu.RUnlock()
		p.decide(stateClosed)
		return p.state.Load()
	case <-ctx.Done():
		b.mu.RUnlock()
		p.decide(stateWithdrawn)
		return p.state.Load()
	case <-expired:
		b.mu.RUnlock()
		p.decide(stateTimedOut)
		return p.state.Load()
	}
	b.mu.RUnlock()

	select {
	case <-p.decided:
	case <-ctx.Done():
		p.decide(stateWithdrawn)
	case <-expired:
		p.decide(stateTimedOut)
	}
	<-p.decided
	return p.state.Load()
}

// stateTimedOut: nobody answered within the configured time.
const stateTimedOut int32 = stateWithdrawn + 1

func (b *broker) forget(p *pending) {
	b.pmu.Lock()
	delete(b.calls, p)
	b.pmu.Unlock()
}

// close releases every pending call with stateClosed, discards requests
// nobody received, and closes the channel. It is idempotent; every call
// returns after the channel is closed.
func (b *broker) close() {
	b.once.Do(func() {
		close(b.done)
		b.mu.Lock()
		defer b.mu.Unlock()
		b.closed = true
		b.pmu.Lock()
		for p := range b.calls {
			p.decide(stateClosed)
		}
		b.pmu.Unlock()
		for {
			select {
			case <-b.requests:
				continue
			default:
			}
			break
		}
		close(b.requests)
	})
}
