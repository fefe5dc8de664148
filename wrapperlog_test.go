package sandboxauth

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/codeunit"
	"github.com/sandboxauth/sandboxauth/toolpolicy"
)

func decodeLog(t *testing.T, buf *bytes.Buffer) []map[string]any {
	t.Helper()
	var recs []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &m), line)
		recs = append(recs, m)
	}
	return recs
}

// Refusals made by wrapping authorizers and by the shell wrappers a command
// hides behind are in the decision log, with the rule that decided.
func TestDecisionLogRecordsWrapperRefusals(t *testing.T) {
	f := newFixture(t)
	unit, err := codeunit.NewCodeUnit("unit", filepath.Join(f.sandbox, "sub"))
	require.NoError(t, err)
	policy, err := toolpolicy.Compile(toolpolicy.Layer{Name: "agent:coder", Allow: []string{"read_file"}, Deny: []string{"exec"}})
	require.NoError(t, err)

	type build func(fallback Authorizer, logger *slog.Logger) Authorizer
	ownLog := func(wrap func(Authorizer, ...Option) Authorizer) build {
		return func(fb Authorizer, l *slog.Logger) Authorizer { return wrap(fb, WithDecisionLog(l)) }
	}
	codeUnit := func(fb Authorizer, opts ...Option) Authorizer { return NewCodeUnitAuthorizer(unit, fb, opts...) }
	toolPolicy := func(fb Authorizer, opts ...Option) Authorizer { return NewToolPolicyAuthorizer(policy, fb, opts...) }
	tests := []struct {
		name       string
		build      build
		fallbackLg bool // the logger goes to the fallback instead
		call       func(a Authorizer) error
		want       error
		policy     string
		rule       string
	}{
		{"code unit, own log", ownLog(codeUnit), false,
			func(a Authorizer) error { return a.IsAuthorizedForWrite(false, "", "write_file", f.sandbox, f.inFile) },
			ErrOutsideCodeUnit, "codeunit", "outside the code unit unit"},
		{"code unit, fallback's log", func(fb Authorizer, _ *slog.Logger) Authorizer { return NewCodeUnitAuthorizer(unit, fb) }, true,
			func(a Authorizer) error { return a.IsAuthorizedForWrite(false, "", "write_file", f.sandbox, f.inFile) },
			ErrOutsideCodeUnit, "codeunit", "outside the code unit unit"},
		{"tool policy, shell refused", ownLog(toolPolicy), false,
			func(a Authorizer) error { return a.IsShellAuthorized(false, "", f.sandbox, f.sandbox, []string{"ls"}) },
			ErrToolNotPermitted, "toolpolicy", "tool policy exact in layer agent:coder: exec (agent:coder.deny[0])"},
		{"tool policy, tool not listed, fallback's log", func(fb Authorizer, _ *slog.Logger) Authorizer { return NewToolPolicyAuthorizer(policy, fb) }, true,
			func(a Authorizer) error { return a.IsAuthorizedForWrite(false, "", "write_file", f.sandbox, f.inFile) },
			ErrToolNotPermitted, "toolpolicy", "tool policy not-listed in layer agent:coder"},
		{"a shell wrapper around a blocked command", func(fb Authorizer, _ *slog.Logger) Authorizer { return fb }, true,
			func(a Authorizer) error {
				return a.IsShellAuthorized(false, "", f.sandbox, f.sandbox, []string{"timeout", "5", "curl", "https://example.com"})
			},
			ErrBlockedCommand, "sandbox", "blocked: curl"},
		{"a closed wrapper", func(fb Authorizer, l *slog.Logger) Authorizer {
			a := NewCodeUnitAuthorizer(unit, fb, WithDecisionLog(l))
			a.Close()
			return a
		}, false,
			func(a Authorizer) error { return a.IsAuthorizedForRead(false, "", "read_file", f.sandbox, f.inFile) },
			ErrAuthorizerClosed, "codeunit", "authorizer closed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			logger := slog.New(slog.NewJSONHandler(&buf, nil))
			var fbOpts []Option
			if tt.fallbackLg {
				fbOpts = append(fbOpts, WithDecisionLog(logger))
			}
			fb, _, err := NewSandboxAuthorizer(testCommands(), append(fbOpts, WithHeadless())...)
			require.NoError(t, err)
			defer fb.Close()
			a := tt.build(fb, logger)
			defer a.Close()
			err = tt.call(a)
			require.ErrorIs(t, err, tt.want)
			recs := decodeLog(t, &buf)
			require.Len(t, recs, 1, "one record: the refusal")
			assert.Equal(t, tt.policy, recs[0]["policy"])
			assert.Equal(t, "deny", recs[0]["outcome"])
			assert.Equal(t, "WARN", recs[0]["level"])
			assert.Equal(t, tt.rule, recs[0]["rule"])
			assert.Equal(t, err.Error(), recs[0]["error"])
		})
	}
}

func TestWrapperOptionErrors(t *testing.T) {
	fb := NewAutoApproveAuthorizer()
	for name, a := range map[string]Authorizer{
		"code unit":   NewCodeUnitAuthorizer(nil, fb, WithDecisionLog(nil)),
		"tool policy": NewToolPolicyAuthorizer(nil, fb, WithDecisionLog(nil)),
	} {
		assert.ErrorIs(t, a.IsAuthorizedForRead(false, "", "read_file", "/sb", "/sb/x"), ErrInvalidConfig, name)
	}
}
