package confine

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestEnvWithoutUserinfo: the user and password of every URL in a value
// are taken out, the rest kept (round 25b: HTTPS_PROXY=http://me:pw@proxy:3128
// reached the confined command whole).
func TestEnvWithoutUserinfo(t *testing.T) {
	for _, tc := range []struct{ name, value, want string }{
		{"HTTPS_PROXY", "http://me:pw@proxy.corp:3128", "http://proxy.corp:3128"},
		{"https_proxy", "http://me:pw@proxy.corp:3128/", "http://proxy.corp:3128/"},
		{"ALL_PROXY", "socks5h://me:pw@proxy:1080", "socks5h://proxy:1080"},
		{"HTTP_PROXY", "me:pw@proxy:3128", "proxy:3128"},
		{"npm_config_https_proxy", "me@proxy:3128", "proxy:3128"},
		{"HTTP_PROXY", "http://proxy:3128", "http://proxy:3128"},
		{"HTTP_PROXY", "proxy:3128", "proxy:3128"},
		{"NO_PROXY", "localhost,127.0.0.1,.corp", "localhost,127.0.0.1,.corp"},
		{"HTTPS_PROXY", "http://me:p@ss@proxy:3128", "http://proxy:3128"},
		{"HTTPS_PROXY", "http://me:pa/ss@proxy:3128", "http://proxy:3128"},
		{"HTTPS_PROXY", "http://proxy:3128/@x", "http://proxy:3128/@x"},
		{"BROKER_URL", "amqp://guest:pw@rabbit:5672/vhost", "amqp://rabbit:5672/vhost"},
		{"MIRRORS", "https://a:b@x/one https://c:d@y/two", "https://x/one https://y/two"},
		{"MIRRORS", "https://a:b@x,https://c:d@y", "https://x,https://y"},
		{"REGISTRY", "https://registry.npmjs.org/@scope%2fpkg", "https://registry.npmjs.org/@scope%2fpkg"},
		{"GIT_URL", "git@github.com:o/r.git", "git@github.com:o/r.git"},
		{"EMAIL", "me@example.com", "me@example.com"},
		{"HTTPS_PROXY", "http://me:pw@[::1]:3128", "http://[::1]:3128"},
	} {
		t.Run(tc.name+"="+tc.value, func(t *testing.T) {
			assert.Equal(t, tc.want, envWithoutUserinfo(tc.name, tc.value))
		})
	}
}
