package sandboxauth

import "time"

// An Option configures an authorizer. Options are appended to the
// constructors' arguments, so calls that pass none keep compiling.
type Option func(*options) error

// options is the configuration every constructor starts from. Defaults are
// set by defaultOptions; a constructor applies its Options to a fresh copy.
type options struct {
	buffer        int
	promptTimeout time.Duration
}

func defaultOptions() options {
	return options{buffer: 16}
}

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
// until the host receives a request or the authorizer is closed. n must be at
// least 1.
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
// its user request within d. Zero, the default, waits until Close.
func WithPromptTimeout(d time.Duration) Option {
	return func(o *options) error {
		if d < 0 {
			return invalid(ErrInvalidConfig, "sandboxauth: WithPromptTimeout(%v): the duration must not be negative", d)
		}
		o.promptTimeout = d
		return nil
	}
}
