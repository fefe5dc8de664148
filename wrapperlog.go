package sandboxauth

import (
	"context"
	"log/slog"
)

// decisionLogger is implemented by this package's authorizers: the logger
// of their decision log, or nil.
type decisionLogger interface {
	decisionLog() *slog.Logger
}

func (a *asker) decisionLog() *slog.Logger     { return a.opts.log }
func (d *delegator) decisionLog() *slog.Logger { return d.log }

// wrapperLogger returns the logger a wrapping authorizer writes its own
// refusals to: the one given with WithDecisionLog, else its fallback's when
// the fallback is one of this package's authorizers.
func wrapperLogger(opts []Option, fallback Authorizer) (*slog.Logger, error) {
	o, err := buildOptions(opts)
	if err != nil {
		return nil, err
	}
	if o.log != nil {
		return o.log, nil
	}
	if l, ok := fallback.(decisionLogger); ok {
		return l.decisionLog(), nil
	}
	return nil, nil
}

// logRefusal writes the record of a call that a wrapping authorizer
// refused itself (its fallback logs the calls it decides). Nothing is
// written without a logger or for an allowed call.
func (d *delegator) logRefusal(policy string, c *call, err error, by, rule string) {
	if d.log == nil || err == nil {
		return
	}
	outcome := "deny"
	if _, ok := err.(*inputError); ok {
		outcome = "error"
	}
	attrs := []slog.Attr{
		slog.String("policy", policy),
		slog.String("operation", string(c.op)),
		slog.String("outcome", outcome),
		slog.String("decided_by", by),
		slog.String("rule", rule),
	}
	if c.tool != "" {
		attrs = append(attrs, slog.String("tool", c.tool))
	}
	if c.toolCallID != "" {
		attrs = append(attrs, slog.String("tool_call_id", c.toolCallID))
	}
	if c.op == OpShell {
		attrs = append(attrs, slog.Any("argv", c.argv), slog.String("cwd", c.cwd))
	} else {
		attrs = append(attrs, slog.Any("paths", c.paths))
	}
	attrs = append(attrs, slog.String("error", err.Error()))
	d.log.LogAttrs(context.Background(), slog.LevelWarn, "sandboxauth decision", attrs...)
}
