package sandboxauth

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/sandboxauth/sandboxauth/codeunit"
)

// waitFor is the generous bound on anything that must happen "promptly". It
// is never a measurement: a correct broker meets it by orders of magnitude,
// and only a hang (a bug) reaches it.
const waitFor = 10 * time.Second

// newBrokerSandbox returns a Sandbox authorizer, its channel and an empty
// sandbox directory. The authorizer is closed when the test ends.
func newBrokerSandbox(t *testing.T, opts ...Option) (Authorizer, <-chan UserRequest, string) {
	t.Helper()
	a, ch, err := NewSandboxAuthorizer(NewShellAllowedCommands(), opts...)
	require.NoError(t, err)
	require.NotNil(t, a)
	require.NotNil(t, ch)
	t.Cleanup(a.Close)
	return a, ch, t.TempDir()
}

// askRead reads dir/name with requestPermission=true: under the Sandbox and
// Permissive policies that always asks a person. The reason carries the name
// too, so a request can be matched to its caller by its paths or its reason.
func askRead(a interface {
	IsAuthorizedForRead(bool, string, string, string, ...string) error
}, dir, name string) error {
	return a.IsAuthorizedForRead(true, "need "+name, "read_file", dir, filepath.Join(dir, name))
}

// goCall runs f on a new goroutine; the channel receives its result once.
func goCall(f func() error) <-chan error {
	ch := make(chan error, 1)
	go func() { ch <- f() }()
	return ch
}

// result waits for a call started by goCall.
func result(t *testing.T, ch <-chan error) error {
	t.Helper()
	select {
	case err := <-ch:
		return err
	case <-time.After(waitFor):
		t.Fatalf("the call did not return within %v", waitFor)
		return nil
	}
}

// recvRequest receives one request, failing if none comes or the channel is
// closed.
func recvRequest(t *testing.T, ch <-chan UserRequest) UserRequest {
	t.Helper()
	select {
	case req, ok := <-ch:
		require.True(t, ok, "the request channel was closed")
		return req
	case <-time.After(waitFor):
		t.Fatalf("no user request within %v", waitFor)
		return UserRequest{}
	}
}

// requireNoRequest checks that nothing is waiting in ch. Calls are
// synchronous, so once a call has returned, any request it raised is there.
func requireNoRequest(t *testing.T, ch <-chan UserRequest) {
	t.Helper()
	select {
	case req, ok := <-ch:
		if ok {
			t.Fatalf("unexpected user request: %q", req.Prompt)
		}
	default:
	}
}

// requireClosedChannel checks that ch is closed and empty.
func requireClosedChannel(t *testing.T, ch <-chan UserRequest) {
	t.Helper()
	select {
	case req, ok := <-ch:
		require.False(t, ok, "the channel still delivered a request after Close: %q", req.Prompt)
	case <-time.After(waitFor):
		t.Fatalf("the request channel was not closed within %v", waitFor)
	}
}

// brokerOf returns the broker of one of this package's asking authorizers.
func brokerOf(t *testing.T, a Authorizer) *broker {
	t.Helper()
	switch v := a.(type) {
	case *sandboxAuthorizer:
		return v.broker
	case *permissiveAuthorizer:
		return v.broker
	}
	t.Fatalf("%T has no broker", a)
	return nil
}

// pendingCalls is how many calls are registered with b: sending their
// request (possibly blocked on a full buffer) or waiting for its answer.
func pendingCalls(b *broker) int {
	b.pmu.Lock()
	defer b.pmu.Unlock()
	return len(b.calls)
}

// requireClosedErr checks that err is the refusal of a closed authorizer.
func requireClosedErr(t *testing.T, err error) {
	t.Helper()
	require.Error(t, err)
	require.ErrorIs(t, err, ErrAuthorizerClosed)
	require.ErrorIs(t, err, ErrDenied)
	require.NotErrorIs(t, err, ErrAuthorizationDenied)
	require.NotErrorIs(t, err, ErrPromptTimeout)
}

func TestBrokerConstructorsReturnBufferedChannel(t *testing.T) {
	ctors := map[string]func(*ShellAllowedCommands, ...Option) (Authorizer, <-chan UserRequest, error){
		"sandbox":    NewSandboxAuthorizer,
		"permissive": NewPermissiveSandboxAuthorizer,
	}
	for name, ctor := range ctors {
		for _, tc := range []struct {
			name string
			opts []Option
			want int
		}{
			{"default", nil, 16},
			{"buffer 1", []Option{WithRequestBuffer(1)}, 1},
			{"buffer 3", []Option{WithRequestBuffer(3)}, 3},
			{"buffer 500", []Option{WithRequestBuffer(500)}, 500},
			{"last option wins", []Option{WithRequestBuffer(2), WithRequestBuffer(7)}, 7},
		} {
			t.Run(name+"/"+tc.name, func(t *testing.T) {
				a, ch, err := ctor(NewShellAllowedCommands(), tc.opts...)
				require.NoError(t, err)
				require.NotNil(t, a)
				require.NotNil(t, ch)
				defer a.Close()
				assert.Equal(t, tc.want, cap(ch))
				assert.Zero(t, len(ch))
			})
		}
		for _, tc := range []struct {
			name string
			opt  Option
		}{
			{"buffer 0", WithRequestBuffer(0)},
			{"buffer -1", WithRequestBuffer(-1)},
			{"negative timeout", WithPromptTimeout(-time.Second)},
			{"nil option", nil},
		} {
			t.Run(name+"/invalid "+tc.name, func(t *testing.T) {
				a, ch, err := ctor(NewShellAllowedCommands(), tc.opt)
				require.ErrorIs(t, err, ErrInvalidConfig)
				require.NotErrorIs(t, err, ErrDenied, "a configuration error is not a refusal")
				assert.Nil(t, a)
				assert.Nil(t, ch)
			})
		}
	}
}

func TestRequestRaisedOnlyWhenPolicyNeedsPerson(t *testing.T) {
	type ctor func(*ShellAllowedCommands, ...Option) (Authorizer, <-chan UserRequest, error)
	for _, tc := range []struct {
		name      string
		ctor      ctor
		policy    string
		op        Operation
		outside   bool
		requested bool
		ask       bool  // a person must be asked
		err       error // the error when nobody is asked (nil: allowed)
	}{
		{"sandbox read inside", NewSandboxAuthorizer, "sandbox", OpRead, false, false, false, nil},
		{"sandbox read inside requested", NewSandboxAuthorizer, "sandbox", OpRead, false, true, true, nil},
		{"sandbox write inside", NewSandboxAuthorizer, "sandbox", OpWrite, false, false, false, nil},
		{"sandbox write inside requested", NewSandboxAuthorizer, "sandbox", OpWrite, false, true, true, nil},
		{"sandbox read outside", NewSandboxAuthorizer, "sandbox", OpRead, true, false, false, ErrOutsideSandbox},
		{"sandbox read outside requested", NewSandboxAuthorizer, "sandbox", OpRead, true, true, false, ErrOutsideSandbox},
		{"sandbox write outside requested", NewSandboxAuthorizer, "sandbox", OpWrite, true, true, false, ErrOutsideSandbox},
		{"permissive read inside", NewPermissiveSandboxAuthorizer, "permissive", OpRead, false, false, false, nil},
		{"permissive read inside requested", NewPermissiveSandboxAuthorizer, "permissive", OpRead, false, true, true, nil},
		{"permissive write inside", NewPermissiveSandboxAuthorizer, "permissive", OpWrite, false, false, false, nil},
		{"permissive read outside", NewPermissiveSandboxAuthorizer, "permissive", OpRead, true, false, true, nil},
		{"permissive write outside", NewPermissiveSandboxAuthorizer, "permissive", OpWrite, true, false, true, nil},
	} {
		for _, allowIt := range []bool{true, false} {
			name := tc.name
			if tc.ask {
				name += map[bool]string{true: "/allowed", false: "/refused"}[allowIt]
			} else if !allowIt {
				continue
			}
			t.Run(name, func(t *testing.T) {
				a, ch, err := tc.ctor(NewShellAllowedCommands())
				require.NoError(t, err)
				defer a.Close()
				sandbox, elsewhere := t.TempDir(), t.TempDir()
				dir := sandbox
				if tc.outside {
					dir = elsewhere
				}
				path := filepath.Join(dir, "notes.txt")
				do := func() error {
					if tc.op == OpWrite {
						return a.IsAuthorizedForWrite(tc.requested, "the reason", "edit_file", sandbox, path)
					}
					return a.IsAuthorizedForRead(tc.requested, "the reason", "read_file", sandbox, path)
				}
				if !tc.ask {
					err := do()
					if tc.err == nil {
						require.NoError(t, err)
					} else {
						require.ErrorIs(t, err, tc.err)
						require.ErrorIs(t, err, ErrDenied)
					}
					requireNoRequest(t, ch)
					return
				}
				done := goCall(do)
				req := recvRequest(t, ch)
				assert.Equal(t, tc.policy, req.Policy)
				assert.Equal(t, tc.op, req.Operation)
				assert.Equal(t, []string{path}, req.Paths)
				assert.Equal(t, sandbox, req.SandboxDir)
				assert.Equal(t, tc.requested, req.Requested)
				assert.Equal(t, "the reason", req.Reason)
				assert.Nil(t, req.Argv)
				assert.NotEmpty(t, req.Rule)
				assert.Contains(t, req.Prompt, path)
				assert.Contains(t, req.Prompt, "the reason")
				require.NotNil(t, req.Allow)
				require.NotNil(t, req.Disallow)
				if allowIt {
					req.Allow()
					require.NoError(t, result(t, done))
				} else {
					req.Disallow()
					err := result(t, done)
					require.ErrorIs(t, err, ErrAuthorizationDenied)
					require.ErrorIs(t, err, ErrDenied)
					require.NotErrorIs(t, err, ErrAuthorizerClosed)
				}
				requireNoRequest(t, ch) // one call, one request
			})
		}
	}
}

func TestRequestAnswersIdempotentFirstAnswerWins(t *testing.T) {
	for _, tc := range []struct {
		name       string
		first      func(UserRequest)
		later      func(UserRequest)
		wantDenied bool
	}{
		{"allow then allow", func(r UserRequest) { r.Allow() }, func(r UserRequest) { r.Allow() }, false},
		{"allow then disallow", func(r UserRequest) { r.Allow() }, func(r UserRequest) { r.Disallow() }, false},
		{"disallow then disallow", func(r UserRequest) { r.Disallow() }, func(r UserRequest) { r.Disallow() }, true},
		{"disallow then allow", func(r UserRequest) { r.Disallow() }, func(r UserRequest) { r.Allow() }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, ch, dir := newBrokerSandbox(t)
			done := goCall(func() error { return askRead(a, dir, "f") })
			req := recvRequest(t, ch)
			tc.first(req)
			// Later answers from many goroutines, before and after the call
			// returns, change nothing and do not panic.
			var wg sync.WaitGroup
			for range 32 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					tc.later(req)
					tc.first(req)
					tc.later(req)
				}()
			}
			err := result(t, done)
			wg.Wait()
			if tc.wantDenied {
				require.ErrorIs(t, err, ErrAuthorizationDenied)
				require.ErrorIs(t, err, ErrDenied)
			} else {
				require.NoError(t, err)
			}
			tc.later(req)
			requireNoRequest(t, ch)
		})
	}
}

// TestRequestRacingAnswers races many goroutines answering one request. The
// winner cannot be observed from outside, but the call must return exactly
// one consistent result: nil only if some goroutine allowed, a refusal by the
// user only if some goroutine disallowed.
func TestRequestRacingAnswers(t *testing.T) {
	a, ch, dir := newBrokerSandbox(t)
	const rounds, racers = 200, 16
	var allowed, denied int
	for round := range rounds {
		mode := round % 3 // 0: all allow, 1: all disallow, 2: mixed
		done := goCall(func() error { return askRead(a, dir, fmt.Sprintf("f%d", round)) })
		req := recvRequest(t, ch)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range racers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				if mode == 0 || (mode == 2 && i%2 == 0) {
					req.Allow()
					req.Allow()
				} else {
					req.Disallow()
					req.Disallow()
				}
			}()
		}
		close(start)
		err := result(t, done)
		wg.Wait()
		switch {
		case err == nil:
			allowed++
			require.NotEqual(t, 1, mode, "allowed although every answer was Disallow")
		case errors.Is(err, ErrAuthorizationDenied):
			denied++
			require.ErrorIs(t, err, ErrDenied)
			require.NotEqual(t, 0, mode, "refused although every answer was Allow")
		default:
			t.Fatalf("round %d: unexpected result %v", round, err)
		}
		select {
		case err := <-done:
			t.Fatalf("the call returned twice (second: %v)", err)
		default:
		}
	}
	t.Logf("%d allowed, %d refused", allowed, denied)
	require.Equal(t, rounds, allowed+denied)
}

// TestRequestConcurrentAnsweredOutOfOrder raises 256 requests from as many
// goroutines (the default buffer of 16 makes most of them wait to send),
// collects them all, and answers them in a shuffled order from several
// goroutines. Every call must get the answer given to its own request.
func TestRequestConcurrentAnsweredOutOfOrder(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			const n = 256
			rng := rand.New(rand.NewPCG(seed, 0))
			a, ch, dir := newBrokerSandbox(t)
			allow := make([]bool, n)
			for i := range allow {
				allow[i] = rng.IntN(2) == 0
			}

			results := make([]error, n)
			var calls sync.WaitGroup
			var returned [n]int
			var mu sync.Mutex
			for i := range n {
				calls.Add(1)
				go func() {
					defer calls.Done()
					err := askRead(a, dir, fmt.Sprintf("f%d", i))
					mu.Lock()
					results[i] = err
					returned[i]++
					mu.Unlock()
				}()
			}

			byName := map[string]UserRequest{}
			for range n {
				req := recvRequest(t, ch)
				require.Len(t, req.Paths, 1)
				name := filepath.Base(req.Paths[0])
				_, dup := byName[name]
				require.False(t, dup, "two requests for %s", name)
				require.Equal(t, "need "+name, req.Reason, "the reason belongs to another call")
				byName[name] = req
			}
			requireNoRequest(t, ch)

			order := rng.Perm(n)
			var answerers sync.WaitGroup
			const workers = 8
			for w := range workers {
				answerers.Add(1)
				go func() {
					defer answerers.Done()
					for k := w; k < n; k += workers {
						i := order[k]
						req := byName[fmt.Sprintf("f%d", i)]
						if allow[i] {
							req.Allow()
						} else {
							req.Disallow()
						}
					}
				}()
			}
			answerers.Wait()
			waitGroup(t, &calls)

			for i := range n {
				require.Equal(t, 1, returned[i], "call %d", i)
				if allow[i] {
					require.NoError(t, results[i], "call %d was allowed", i)
				} else {
					require.ErrorIs(t, results[i], ErrAuthorizationDenied, "call %d was refused", i)
				}
			}
			require.Zero(t, pendingCalls(brokerOf(t, a)))
		})
	}
}

// waitGroup waits for wg within the generous bound.
func waitGroup(t *testing.T, wg *sync.WaitGroup) {
	t.Helper()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(waitFor):
		t.Fatalf("goroutines still running after %v", waitFor)
	}
}

// TestCloseReleasesPendingAndBlockedCalls fills every stage of the broker:
// a request the host received and holds, a full buffer, and callers blocked
// sending. Close, called concurrently from many goroutines, must release them
// all with ErrAuthorizerClosed, discard the buffered requests, close the
// channel, and refuse every later call without blocking.
func TestCloseReleasesPendingAndBlockedCalls(t *testing.T) {
	for _, buffer := range []int{1, 4, 16} {
		t.Run(fmt.Sprint("buffer ", buffer), func(t *testing.T) {
			defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
			const callers = 50
			a, ch, dir := newBrokerSandbox(t, WithRequestBuffer(buffer))
			b := brokerOf(t, a)

			results := make(chan error, callers)
			var calls sync.WaitGroup
			for i := range callers {
				calls.Add(1)
				go func() { defer calls.Done(); results <- askRead(a, dir, fmt.Sprintf("f%d", i)) }()
			}
			held := recvRequest(t, ch) // received, never answered before Close
			require.Eventually(t, func() bool {
				return pendingCalls(b) == callers && len(ch) == cap(ch)
			}, waitFor, time.Millisecond, "every caller registered, buffer full")

			start := make(chan struct{})
			var closers sync.WaitGroup
			for range 20 {
				closers.Add(1)
				go func() { defer closers.Done(); <-start; a.Close() }()
			}
			close(start)
			waitGroup(t, &closers)
			// Every Close has returned: the channel is closed and the
			// requests still in the buffer were discarded.
			requireClosedChannel(t, ch)
			waitGroup(t, &calls)
			close(results)
			n := 0
			for err := range results {
				requireClosedErr(t, err)
				n++
			}
			require.Equal(t, callers, n)
			require.Zero(t, pendingCalls(b))

			// Answers after Close are no-ops.
			require.NotPanics(t, func() { held.Allow(); held.Disallow(); held.Allow() })

			// Every later call is refused at once, whatever it is.
			a.Close()
			later := []func() error{
				func() error { return askRead(a, dir, "later") },
				func() error { return a.IsAuthorizedForRead(false, "", "read_file", dir, filepath.Join(dir, "x")) },
				func() error { return a.IsAuthorizedForWrite(true, "", "edit_file", dir, filepath.Join(dir, "x")) },
				func() error { return a.IsAuthorizedForWrite(false, "", "edit_file", dir, filepath.Join(dir, "x")) },
				func() error { return a.IsShellAuthorized(true, "", dir, dir, []string{"ls"}) },
				func() error { return a.IsShellAuthorized(false, "", dir, "", []string{"rm", "-rf", "/"}) },
			}
			for i, call := range later {
				err := result(t, goCall(call))
				requireClosedErr(t, err)
				assert.NotEmpty(t, err.Error(), "call %d", i)
			}
			require.Zero(t, pendingCalls(b))
		})
	}
}

func TestCloseIdempotentBeforeAnyCall(t *testing.T) {
	for _, ctor := range []func(*ShellAllowedCommands, ...Option) (Authorizer, <-chan UserRequest, error){
		NewSandboxAuthorizer, NewPermissiveSandboxAuthorizer,
	} {
		a, ch, err := ctor(NewShellAllowedCommands())
		require.NoError(t, err)
		var wg sync.WaitGroup
		for range 16 {
			wg.Add(1)
			go func() { defer wg.Done(); a.Close() }()
		}
		wg.Wait()
		a.Close()
		requireClosedChannel(t, ch)
		dir := t.TempDir()
		requireClosedErr(t, result(t, goCall(func() error { return askRead(a, dir, "f") })))
		// Permissive asks about reads outside the sandbox; closed first.
		requireClosedErr(t, result(t, goCall(func() error {
			return a.IsAuthorizedForRead(false, "", "read_file", dir, "/etc/passwd")
		})))
	}
}

// TestCloseEndsHostEventLoop runs the seed's event loop: the host answers
// what it receives until the channel is closed. Requests it answered before
// Close keep their answers; the loop ends after Close.
func TestCloseEndsHostEventLoop(t *testing.T) {
	a, ch, dir := newBrokerSandbox(t)
	loopDone := make(chan int)
	go func() {
		n := 0
		for {
			req, ok := <-ch
			if !ok {
				loopDone <- n
				return
			}
			n++
			if strings.HasSuffix(req.Paths[0], "allow") {
				req.Allow()
			} else {
				req.Disallow()
			}
		}
	}()
	require.NoError(t, askRead(a, dir, "allow"))
	require.ErrorIs(t, askRead(a, dir, "deny"), ErrAuthorizationDenied)
	require.NoError(t, askRead(a, dir, "also-allow"))
	a.Close()
	select {
	case n := <-loopDone:
		require.Equal(t, 3, n)
	case <-time.After(waitFor):
		t.Fatal("the host loop did not see the channel closed")
	}
	requireClosedErr(t, askRead(a, dir, "allow"))
}

func TestCloseThenAllowIsNoop(t *testing.T) {
	a, ch, dir := newBrokerSandbox(t)
	done := goCall(func() error { return askRead(a, dir, "f") })
	req := recvRequest(t, ch)
	a.Close()
	requireClosedErr(t, result(t, done))
	require.NotPanics(t, req.Allow)
	require.NotPanics(t, req.Disallow)
	requireClosedChannel(t, ch)
}

func TestPromptTimeout(t *testing.T) {
	const d = 20 * time.Millisecond
	requireTimedOut := func(t *testing.T, err error) {
		t.Helper()
		require.ErrorIs(t, err, ErrPromptTimeout)
		require.ErrorIs(t, err, ErrDenied)
		require.NotErrorIs(t, err, ErrAuthorizationDenied)
		require.NotErrorIs(t, err, ErrAuthorizerClosed)
	}

	t.Run("received and not answered", func(t *testing.T) {
		a, ch, dir := newBrokerSandbox(t, WithPromptTimeout(d))
		done := goCall(func() error { return askRead(a, dir, "f") })
		req := recvRequest(t, ch)
		requireTimedOut(t, result(t, done))
		require.NotPanics(t, req.Allow, "answering late is a no-op")
		// The authorizer is still usable.
		done = goCall(func() error { return askRead(a, dir, "g") })
		recvRequest(t, ch).Allow()
		require.NoError(t, result(t, done))
	})

	t.Run("never received", func(t *testing.T) {
		a, ch, dir := newBrokerSandbox(t, WithPromptTimeout(d))
		requireTimedOut(t, result(t, goCall(func() error { return askRead(a, dir, "f") })))
		// The stale request is still in the channel; answering it is a no-op.
		req := recvRequest(t, ch)
		require.NotPanics(t, req.Allow)
		require.Zero(t, pendingCalls(brokerOf(t, a)))
	})

	t.Run("blocked on a full buffer", func(t *testing.T) {
		// Nobody consumes: the first request fills the buffer and the others
		// cannot even be sent. Nobody answers any of them within d, so all
		// are refused with ErrPromptTimeout rather than waiting for Close.
		a, _, dir := newBrokerSandbox(t, WithPromptTimeout(d), WithRequestBuffer(1))
		var dones []<-chan error
		for i := range 5 {
			dones = append(dones, goCall(func() error { return askRead(a, dir, fmt.Sprint("f", i)) }))
		}
		for _, done := range dones {
			requireTimedOut(t, result(t, done))
		}
		require.Zero(t, pendingCalls(brokerOf(t, a)))
	})

	t.Run("answered in time", func(t *testing.T) {
		a, ch, dir := newBrokerSandbox(t, WithPromptTimeout(time.Hour))
		done := goCall(func() error { return askRead(a, dir, "f") })
		recvRequest(t, ch).Allow()
		require.NoError(t, result(t, done))
		done = goCall(func() error { return askRead(a, dir, "g") })
		recvRequest(t, ch).Disallow()
		require.ErrorIs(t, result(t, done), ErrAuthorizationDenied)
	})

	t.Run("closed before the timeout", func(t *testing.T) {
		a, ch, dir := newBrokerSandbox(t, WithPromptTimeout(time.Hour))
		done := goCall(func() error { return askRead(a, dir, "f") })
		recvRequest(t, ch)
		a.Close()
		requireClosedErr(t, result(t, done))
	})
}

// TestCodeUnitCloseWithdrawsDelegatedCalls closes a CodeUnit wrapper while
// calls it delegated wait in its fallback's broker, at every stage: received
// by the host, buffered, and blocked on the full buffer. They must all return
// ErrAuthorizerClosed; the fallback must stay open and usable.
func TestCodeUnitCloseWithdrawsDelegatedCalls(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	const callers = 12
	fallback, ch, dir := newBrokerSandbox(t, WithRequestBuffer(2))
	unit, err := codeunit.NewCodeUnit("unit", dir)
	require.NoError(t, err)
	wrapper := NewCodeUnitAuthorizer(unit, fallback)
	b := brokerOf(t, fallback)

	results := make(chan error, callers)
	var calls sync.WaitGroup
	for i := range callers {
		calls.Add(1)
		go func() { defer calls.Done(); results <- askRead(wrapper, dir, fmt.Sprintf("f%d", i)) }()
	}
	held := recvRequest(t, ch)
	require.Eventually(t, func() bool {
		return pendingCalls(b) == callers && len(ch) == cap(ch)
	}, waitFor, time.Millisecond)

	var closers sync.WaitGroup
	for range 8 {
		closers.Add(1)
		go func() { defer closers.Done(); wrapper.Close() }()
	}
	waitGroup(t, &closers)
	waitGroup(t, &calls)
	close(results)
	for err := range results {
		requireClosedErr(t, err)
	}
	require.Eventually(t, func() bool { return pendingCalls(b) == 0 }, waitFor, time.Millisecond)
	require.NotPanics(t, held.Allow, "answering a withdrawn request is a no-op")

	// Later calls through the wrapper are refused without reaching the
	// fallback, whether or not they would ask.
	requireClosedErr(t, result(t, goCall(func() error { return askRead(wrapper, dir, "later") })))
	requireClosedErr(t, wrapper.IsAuthorizedForRead(false, "", "read_file", dir, filepath.Join(dir, "x")))

	// The requests still buffered are stale: answering them is a no-op.
	for range cap(ch) {
		stale := recvRequest(t, ch)
		require.NotPanics(t, stale.Allow)
	}
	requireNoRequest(t, ch)

	// The fallback is open and still asks and answers.
	done := goCall(func() error { return askRead(fallback, dir, "direct") })
	req := recvRequest(t, ch)
	require.Equal(t, []string{filepath.Join(dir, "direct")}, req.Paths)
	req.Allow()
	require.NoError(t, result(t, done))
	require.NoError(t, fallback.IsAuthorizedForRead(false, "", "read_file", dir, filepath.Join(dir, "x")))
}

// TestCodeUnitFallbackCloseReleasesWrapperCalls closes the fallback while
// calls made through a wrapper wait for a person.
func TestCodeUnitFallbackCloseReleasesWrapperCalls(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	fallback, ch, dir := newBrokerSandbox(t, WithRequestBuffer(1))
	unit, err := codeunit.NewCodeUnit("unit", dir)
	require.NoError(t, err)
	wrapper := NewCodeUnitAuthorizer(unit, fallback)
	defer wrapper.Close()

	var dones []<-chan error
	for i := range 6 {
		dones = append(dones, goCall(func() error { return askRead(wrapper, dir, fmt.Sprint("f", i)) }))
	}
	recvRequest(t, ch)
	require.Eventually(t, func() bool { return pendingCalls(brokerOf(t, fallback)) == 6 }, waitFor, time.Millisecond)
	fallback.Close()
	for _, done := range dones {
		requireClosedErr(t, result(t, done))
	}
	requireClosedChannel(t, ch)
	requireClosedErr(t, askRead(wrapper, dir, "later"))
}

// TestCodeUnitAnsweredThroughWrapper checks that answers reach calls made
// through a wrapper, and that the wrapper itself never asks.
func TestCodeUnitAnsweredThroughWrapper(t *testing.T) {
	fallback, ch, dir := newBrokerSandbox(t)
	unit, err := codeunit.NewCodeUnit("unit", dir)
	require.NoError(t, err)
	wrapper := NewCodeUnitAuthorizer(unit, fallback)
	defer wrapper.Close()

	done := goCall(func() error { return askRead(wrapper, dir, "yes") })
	recvRequest(t, ch).Allow()
	require.NoError(t, result(t, done))
	done = goCall(func() error { return askRead(wrapper, dir, "no") })
	recvRequest(t, ch).Disallow()
	require.ErrorIs(t, result(t, done), ErrAuthorizationDenied)

	// Outside the unit: refused by the wrapper, nobody asked.
	other := t.TempDir()
	err = wrapper.IsAuthorizedForRead(true, "", "read_file", dir, filepath.Join(other, "x"))
	require.ErrorIs(t, err, ErrOutsideCodeUnit)
	requireNoRequest(t, ch)
}

// decidedThenClosed is a fallback whose answer is decided before the wrapper
// that called it is closed: it closes the wrapper, waits until the call's
// context is withdrawn, and only then returns the answer it had.
type decidedThenClosed struct {
	wrapper func() Authorizer
	err     error
}

func (f *decidedThenClosed) authorize(c *call) error {
	f.wrapper().Close()
	<-c.ctx.Done()
	return f.err
}

func (f *decidedThenClosed) IsAuthorizedForRead(bool, string, string, string, ...string) error {
	return f.err
}

func (f *decidedThenClosed) IsAuthorizedForWrite(bool, string, string, string, ...string) error {
	return f.err
}

func (f *decidedThenClosed) IsShellAuthorized(bool, string, string, string, []string) error {
	return f.err
}

func (f *decidedThenClosed) Close() {}

// TestCodeUnitCloseKeepsAnswerGivenBeforeClose: a wrapper closed after its
// fallback has decided a call (the user said no, the path is outside, the
// input is malformed) must return that decision, not ErrAuthorizerClosed:
// only calls still waiting are withdrawn. First answer wins.
func TestCodeUnitCloseKeepsAnswerGivenBeforeClose(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want error
	}{
		{"allowed", nil, nil},
		{"refused by the user", deny(ErrAuthorizationDenied, "no"), ErrAuthorizationDenied},
		{"outside the sandbox", deny(ErrOutsideSandbox, "outside"), ErrOutsideSandbox},
		{"timed out", deny(ErrPromptTimeout, "late"), ErrPromptTimeout},
		{"input error", invalid(ErrInvalidPath, "bad"), ErrInvalidPath},
		{"withdrawn", deny(ErrAuthorizerClosed, "closed"), ErrAuthorizerClosed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			unit, err := codeunit.NewCodeUnit("unit", dir)
			require.NoError(t, err)
			var wrapper Authorizer
			fb := &decidedThenClosed{wrapper: func() Authorizer { return wrapper }, err: tc.err}
			wrapper = NewCodeUnitAuthorizer(unit, fb)
			err = result(t, goCall(func() error { return askRead(wrapper, dir, "f") }))
			if tc.want == nil {
				require.NoError(t, err)
			} else {
				require.ErrorIs(t, err, tc.want)
			}
			// The wrapper is closed now.
			requireClosedErr(t, askRead(wrapper, dir, "g"))
		})
	}
}
