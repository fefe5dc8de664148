package sandboxauth

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConfigAuthorizerDoesNotWaitForever: an authorizer built from a
// configuration that says neither "headless" nor "promptTimeout" refuses a
// question nobody answers after DefaultPromptTimeout, so that a program
// that never reads its channel is not left waiting until Close; a file's
// own timeout, headless mode and WithPromptTimeout(0) keep their meaning.
func TestConfigAuthorizerDoesNotWaitForever(t *testing.T) {
	sb := t.TempDir()
	rm := []string{"rm", "-rf", "build"}
	deadlineOf := func(t *testing.T, body string, opts ...Option) time.Time {
		t.Helper()
		cfg, err := ParseConfig([]byte(body))
		require.NoError(t, err)
		a, ch, err := cfg.NewAuthorizer(opts...)
		require.NoError(t, err)
		defer a.Close()
		done := make(chan error, 1)
		go func() { done <- a.IsShellAuthorized(false, "", sb, sb, rm) }()
		req := <-ch
		req.Disallow()
		require.ErrorIs(t, <-done, ErrAuthorizationDenied)
		return req.Deadline
	}
	d := deadlineOf(t, `{}`)
	require.False(t, d.IsZero(), "a question of a configured authorizer has a deadline by default")
	assert.WithinDuration(t, time.Now().Add(DefaultPromptTimeout), d, time.Minute)
	assert.WithinDuration(t, time.Now().Add(90*time.Second), deadlineOf(t, `{"promptTimeout": "90s"}`), 30*time.Second)
	assert.True(t, deadlineOf(t, `{}`, WithPromptTimeout(0)).IsZero(), "WithPromptTimeout(0) waits until Close")

	// A program that never reads the channel gets its answer: the
	// deadline's refusal (shortened here), or at once when headless.
	cfg, err := ParseConfig([]byte(`{}`))
	require.NoError(t, err)
	a, _, err := cfg.NewAuthorizer(WithPromptTimeout(50 * time.Millisecond))
	require.NoError(t, err)
	defer a.Close()
	assert.ErrorIs(t, a.IsShellAuthorized(false, "", sb, sb, rm), ErrPromptTimeout)

	cfg, err = ParseConfig([]byte(`{"headless": true}`))
	require.NoError(t, err)
	h, _, err := cfg.NewAuthorizer()
	require.NoError(t, err)
	defer h.Close()
	assert.ErrorIs(t, h.IsShellAuthorized(false, "", sb, sb, rm), ErrNoUser)
}
