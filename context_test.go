package sandboxauth

import (
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/codeunit"
	"github.com/sandboxauth/sandboxauth/toolpolicy"
)

// contextAuthorizers builds every authorizer of the package around one
// Sandbox authorizer that asks, with its request channel.
func contextAuthorizers(t *testing.T, sandbox string) (map[string]ContextAuthorizer, <-chan UserRequest, func()) {
	t.Helper()
	base, ch, err := NewSandboxAuthorizer(testCommands())
	require.NoError(t, err)
	unit, err := codeunit.NewCodeUnit("unit", sandbox)
	require.NoError(t, err)
	policy, err := toolpolicy.Compile(toolpolicy.Layer{Allow: []string{"*"}})
	require.NoError(t, err)
	cu := NewCodeUnitAuthorizer(unit, base)
	tp := NewToolPolicyAuthorizer(policy, base)
	as := map[string]ContextAuthorizer{
		"sandbox":     base.(ContextAuthorizer),
		"code unit":   cu.(ContextAuthorizer),
		"tool policy": tp.(ContextAuthorizer),
		"view":        ForToolCall(base, "call-1").(ContextAuthorizer),
		"foreign":     NewCodeUnitAuthorizer(unit, foreignCtx{base}).(ContextAuthorizer),
	}
	perm, pch, err := NewPermissiveSandboxAuthorizer(testCommands())
	require.NoError(t, err)
	_ = pch
	as["permissive"] = perm.(ContextAuthorizer)
	return as, ch, func() { cu.Close(); tp.Close(); perm.Close(); base.Close() }
}

// foreignCtx hides the package's own authorizer behind the public
// interfaces, ContextAuthorizer included, so that calls reach it through its
// Context methods.
type foreignCtx struct{ Authorizer }

func (f foreignCtx) IsAuthorizedForReadContext(ctx context.Context, rp bool, rr, tool, sb string, p ...string) error {
	return f.Authorizer.(ContextAuthorizer).IsAuthorizedForReadContext(ctx, rp, rr, tool, sb, p...)
}

func (f foreignCtx) IsAuthorizedForWriteContext(ctx context.Context, rp bool, rr, tool, sb string, p ...string) error {
	return f.Authorizer.(ContextAuthorizer).IsAuthorizedForWriteContext(ctx, rp, rr, tool, sb, p...)
}

func (f foreignCtx) IsShellAuthorizedContext(ctx context.Context, rp bool, rr, sb, cwd string, argv []string) error {
	return f.Authorizer.(ContextAuthorizer).IsShellAuthorizedContext(ctx, rp, rr, sb, cwd, argv)
}

// The calls that ask a person, through each Context method.
func askingCalls(sb string) map[string]func(ctx context.Context, a ContextAuthorizer) error {
	return map[string]func(ctx context.Context, a ContextAuthorizer) error{
		"read": func(ctx context.Context, a ContextAuthorizer) error {
			return a.IsAuthorizedForReadContext(ctx, true, "why", "read_file", sb, filepath.Join(sb, "main.go"))
		},
		"write": func(ctx context.Context, a ContextAuthorizer) error {
			return a.IsAuthorizedForWriteContext(ctx, true, "why", "write_file", sb, filepath.Join(sb, "main.go"))
		},
		"shell": func(ctx context.Context, a ContextAuthorizer) error {
			return a.IsShellAuthorizedContext(ctx, false, "", sb, sb, []string{"rm", "x"})
		},
	}
}

func TestContextCancelWithdrawsTheQuestion(t *testing.T) {
	f := newFixture(t)
	as, ch, done := contextAuthorizers(t, f.sandbox)
	defer done()
	for aname, a := range as {
		if aname == "permissive" {
			continue // its requests go to another channel; covered below
		}
		for cname, call := range askingCalls(f.sandbox) {
			t.Run(aname+"/"+cname, func(t *testing.T) {
				ctx, cancel := context.WithCancel(context.Background())
				errc := make(chan error, 1)
				go func() { errc <- call(ctx, a) }()
				req := <-ch
				cancel()
				err := <-errc
				assert.ErrorIs(t, err, ErrCallCanceled)
				assert.ErrorIs(t, err, ErrDenied)
				assert.ErrorIs(t, err, context.Canceled)
				assert.NotErrorIs(t, err, ErrAuthorizerClosed)
				assert.Contains(t, err.Error(), "cancelled")
				select {
				case <-req.Done:
				default:
					t.Fatal("the request's Done channel is not closed after the call was withdrawn")
				}
				req.Allow() // ignored: the call is over
			})
		}
	}
}

func TestContextDeadline(t *testing.T) {
	f := newFixture(t)
	as, ch, done := contextAuthorizers(t, f.sandbox)
	defer done()
	ctx, cancel := context.WithDeadline(context.Background(), time.Now())
	defer cancel()
	for name, a := range as {
		err := a.IsShellAuthorizedContext(ctx, false, "", f.sandbox, f.sandbox, []string{"ls"})
		assert.ErrorIs(t, err, context.DeadlineExceeded, name)
		assert.ErrorIs(t, err, ErrCallCanceled, name)
		assert.ErrorIs(t, err, ErrDenied, name)
	}
	assert.Empty(t, ch, "a call whose context has ended asks nobody")
	aa := NewAutoApproveAuthorizer().(ContextAuthorizer)
	assert.ErrorIs(t, aa.IsAuthorizedForReadContext(ctx, false, "", "read_file", f.sandbox, f.inFile), ErrCallCanceled)
	assert.NoError(t, aa.IsAuthorizedForReadContext(context.Background(), false, "", "read_file", f.sandbox, f.inFile))
}

func TestContextAnsweredCallIsNotCancelled(t *testing.T) {
	f := newFixture(t)
	as, ch, done := contextAuthorizers(t, f.sandbox)
	defer done()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		errc <- as["code unit"].IsShellAuthorizedContext(ctx, false, "", f.sandbox, f.sandbox, []string{"rm", "x"})
	}()
	req := <-ch
	req.Allow()
	require.NoError(t, <-errc)
	cancel()
	<-req.Done
}

// Many goroutines ask; half are cancelled, half answered; under -race.
// Every call returns the right error, no request stays pending and no
// goroutine is left behind.
func TestContextCancelManyGoroutines(t *testing.T) {
	f := newFixture(t)
	as, ch, done := contextAuthorizers(t, f.sandbox)
	names := []string{"sandbox", "code unit", "tool policy"} // the ID does not travel through a foreign fallback
	const n = 200
	var wg sync.WaitGroup
	results := make(chan error, n)
	cancels := make([]context.CancelFunc, n)
	for i := 0; i < n; i++ {
		ctx, cancel := context.WithCancel(context.Background())
		cancels[i] = cancel
		a := as[names[i%len(names)]]
		wg.Add(1)
		go func() {
			defer wg.Done()
			v := ForToolCall(a, strconv.Itoa(i)).(ContextAuthorizer)
			results <- v.IsShellAuthorizedContext(ctx, false, "", f.sandbox, f.sandbox, []string{"rm", "x"})
		}()
	}
	// Answer the requests of even calls, cancel odd ones as they arrive.
	for i := 0; i < n; i++ {
		req := <-ch
		k, err := strconv.Atoi(req.ToolCallID)
		require.NoError(t, err)
		if k%2 == 0 {
			req.Allow()
		} else {
			cancels[k]()
		}
	}
	wg.Wait()
	close(results)
	assert.Empty(t, ch, "no request left over")
	var allowed, canceled int
	for err := range results {
		switch {
		case err == nil:
			allowed++
		case errors.Is(err, ErrCallCanceled) && errors.Is(err, context.Canceled):
			canceled++
		default:
			t.Errorf("unexpected error: %v", err)
		}
	}
	assert.Equal(t, n/2, allowed)
	assert.Equal(t, n/2, canceled)
	for _, c := range cancels {
		c()
	}
	done()
	// TestMain checks with goleak that no goroutine outlives the tests.
}
