package confine

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

// TestEnvCredentials: the places the environment moves credentials to are
// hidden; values that would hide a home, the root or relative paths are
// passed over.
func TestEnvCredentials(t *testing.T) {
	env := map[string]string{
		"CARGO_HOME":      "/h/opt/cargo",
		"XDG_CONFIG_HOME": "/h/cfg",
		"XDG_DATA_HOME":   "/h/data",
		"KUBECONFIG":      "/h/k1.yaml:/h/k2.yaml",
		"GNUPGHOME":       "/h/gpg",
		"DOCKER_CONFIG":   "/h/docker",
		"HISTFILE":        "/h",
		"GH_CONFIG_DIR":   "relative/gh",
		"CLOUDSDK_CONFIG": "~/gcloud-cfg",
		"AWS_CONFIG_FILE": "/",
		// Round 22a: the coding agents' homes and more tools' places.
		"CLAUDE_CONFIG_DIR":    "/h/claude-work",
		"CODEX_HOME":           "~/codex-home",
		"HF_HOME":              "/h/hf",
		"PIP_CONFIG_FILE":      "/h/secrets/pip.conf",
		"POETRY_CONFIG_DIR":    "/h/poetry",
		"HELM_REGISTRY_CONFIG": "/h/secrets/helm-registry.json",
		"TELEPORT_HOME":        "/h/tsh",
		"TALOSCONFIG":          "/h/secrets/talosconfig",
		"GLAB_CONFIG_DIR":      "/h/glab",
		"OCI_CLI_CONFIG_FILE":  "/h/secrets/oci-config",
		"ZDOTDIR":              "/h/.config/zsh",
	}
	wd, err := os.Getwd()
	require.NoError(t, err)
	got := envCredentials(func(k string) string { return env[k] }, []string{"/h"})
	for _, want := range []string{
		"/h/opt/cargo/credentials.toml", "/h/cfg/gh", "/h/cfg/gcloud", "/h/data/keyrings",
		"/h/k1.yaml", "/h/k2.yaml", "/h/gpg", "/h/docker/config.json", "/h/gcloud-cfg", filepath.Join(wd, "relative/gh"),
		"/h/claude-work/.credentials.json", "/h/claude-work/.claude.json", "/h/claude-work/projects",
		"/h/claude-work/history.jsonl", "/h/codex-home/auth.json", "/h/codex-home/sessions", "/h/hf/token",
		"/h/secrets/pip.conf", "/h/poetry/auth.toml", "/h/secrets/helm-registry.json", "/h/tsh",
		"/h/secrets/talosconfig", "/h/glab", "/h/secrets/oci-config", "/h/.config/zsh/.zsh_history",
		"/h/data/amp", "/h/cfg/claude/projects",
	} {
		assert.Contains(t, got, want)
	}
	for _, not := range []string{"/h", "/"} {
		assert.NotContains(t, got, not)
	}
	assert.Empty(t, envCredentials(func(string) string { return "" }, []string{"/h"}))
}
