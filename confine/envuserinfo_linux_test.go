package confine

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCredentialHeadersAndProxyEnv (round 25b): headers a program is told
// to send (an API key, a bearer token) are hidden under any name ending
// in _HEADERS or _HEADER (and npm's scoped token, a name ending in
// :_authToken, under npm_config_); a proxy stays, without its password, with the
// default policy's settings.
func TestCredentialHeadersAndProxyEnv(t *testing.T) {
	v := &view{}
	env := []string{"PATH=/usr/bin", "ANTHROPIC_CUSTOM_HEADERS=x-api-key: sk-1", "OTEL_EXPORTER_OTLP_HEADERS=Authorization=Bearer 2",
		"OTEL_EXPORTER_OTLP_TRACES_HEADERS=api-key=3", "otel_exporter_otlp_logs_headers=a=4", "X_AUTH_HEADER=Bearer 5",
		"SESSION_COOKIE=sid=6", "npm_config_//registry.npmjs.org/:_authToken=npm_7", "HTTPS_PROXY=http://me:pw@proxy:3128", "https_proxy=http://me:pw@proxy:3128",
		"HTTP_PROXY=me:pw@proxy:3128", "NO_PROXY=localhost", "OTEL_EXPORTER_OTLP_ENDPOINT=http://collector:4318"}
	p := DefaultPolicy("/work/sb")
	got := commandEnv(env, v, true, p.HiddenEnv, p.HiddenEnvUserinfo)
	assert.Equal(t, []string{"PATH=/usr/bin", "HTTPS_PROXY=http://proxy:3128", "https_proxy=http://proxy:3128",
		"HTTP_PROXY=proxy:3128", "NO_PROXY=localhost", "OTEL_EXPORTER_OTLP_ENDPOINT=http://collector:4318"}, got)
}
