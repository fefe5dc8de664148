package confine

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCredentialPathsSystemFamily: the system's secrets are named by
// their directories where those hold little else, so that a key under a
// new name is hidden too, and each is listed once, for every home.
func TestCredentialPathsSystemFamily(t *testing.T) {
	home := t.TempDir()
	paths := CredentialPaths(home)
	for _, want := range []string{
		"/etc/shadow", "/etc/ssl/private", "/etc/pki/tls/private", "/etc/letsencrypt",
		"/etc/wireguard", "/etc/NetworkManager/system-connections", "/etc/kubernetes",
		"/etc/rancher", "/etc/ssh/ssh_host_ed25519_key", filepath.Join(home, ".ssh"),
	} {
		assert.Contains(t, paths, want)
	}
	seen := map[string]bool{}
	for _, p := range paths {
		assert.False(t, seen[p], "%s is listed twice", p)
		seen[p] = true
	}
	assert.Equal(t, systemCredentials(), CredentialPaths(""), "without a home, only the system's secrets")
	for _, p := range homeCredentials(home) {
		assert.True(t, filepath.IsAbs(p) && len(p) > len(home) && p[:len(home)] == home, "%s is not beneath the home", p)
	}
}
