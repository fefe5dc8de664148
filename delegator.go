package sandboxauth

import (
	"context"
	"errors"
	"log/slog"
)

// delegator is the part of a wrapping authorizer that hands calls to its
// fallback. Closing it refuses later calls and withdraws the calls it has
// handed to a fallback of this package, without closing the fallback.
type delegator struct {
	fallback Authorizer
	ctx      context.Context // cancelled by close
	cancel   context.CancelFunc
	log      *slog.Logger // the decision log of the wrapper's own refusals, or nil
	optErr   error        // an invalid Option: every call is refused with it
}

func newDelegator(fallback Authorizer, opts []Option) delegator {
	ctx, cancel := context.WithCancel(context.Background())
	d := delegator{fallback: fallback, ctx: ctx, cancel: cancel}
	d.log, d.optErr = wrapperLogger(opts, fallback)
	return d
}

func (d *delegator) closed() bool { return d.ctx.Err() != nil }

func (d *delegator) close() { d.cancel() }

// delegate decides c with the fallback, under a context that ends when
// either c's context or the delegator ends.
func (d *delegator) delegate(c *call) error {
	ctx, cancel := context.WithCancelCause(c.ctx)
	defer cancel(nil)
	stop := context.AfterFunc(d.ctx, func() { cancel(errWrapperClosed) })
	defer stop()
	inner := *c
	inner.ctx = ctx
	err := dispatch(d.fallback, &inner)
	// Only a refusal that comes from the close (the fallback saw the call
	// withdrawn) becomes this wrapper's closed refusal. A decision the
	// fallback reached before the close stands: the user's no, a path
	// outside the sandbox, a timeout, an input error (never a denial).
	if errors.Is(err, ErrAuthorizerClosed) && d.closed() {
		return closedError(c)
	}
	return err
}
