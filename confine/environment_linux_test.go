package confine

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCommandEnv(t *testing.T) {
	v := &view{writable: []bind{{"/work/sb", "/work/sb"}, {"/var/cache/w", "/var/cache/w"}}}
	for _, tc := range []struct {
		name    string
		env     []string
		network bool
		want    []string
	}{
		{"no TMPDIR, no network", []string{"A=1"}, false, []string{"A=1", "npm_config_offline=true", "YARN_ENABLE_NETWORK=0"}},
		{"TMPDIR out of sight", []string{"TMPDIR=/home/u/tmp"}, true, []string{"TMPDIR=/tmp"}},
		{"TMPDIR relative", []string{"TMPDIR=tmp"}, true, []string{"TMPDIR=/tmp"}},
		{"TMPDIR in the sandbox", []string{"TMPDIR=/work/sb/tmp"}, true, []string{"TMPDIR=/work/sb/tmp"}},
		{"TMPDIR writable", []string{"TMPDIR=/var/cache/w"}, true, []string{"TMPDIR=/var/cache/w"}},
		{"the last TMPDIR counts", []string{"TMPDIR=/work/sb", "TMPDIR=/etc"}, true, []string{"TMPDIR=/work/sb", "TMPDIR=/tmp"}},
		{"the caller's npm setting stays", []string{"npm_config_offline=false"}, false, []string{"npm_config_offline=false", "YARN_ENABLE_NETWORK=0"}},
		{"with the network, no hints", []string{"A=1"}, true, []string{"A=1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := append([]string(nil), tc.env...)
			assert.Equal(t, tc.want, commandEnv(tc.env, v, tc.network, nil, nil))
			assert.Equal(t, in, tc.env, "the caller's slice is not changed")
		})
	}
}

func TestCredentialEnvHidden(t *testing.T) {
	v := &view{}
	env := []string{"PATH=/usr/bin", "AWS_SECRET_ACCESS_KEY=x", "aws_profile=dev", "GITHUB_TOKEN=x", "GH_TOKEN=x",
		"ANTHROPIC_API_KEY=x", "OPENAI_API_KEY=x", "NPM_TOKEN=x", "DB_PASSWORD=x", "SSH_AUTH_SOCK=/run/x",
		"HOME=/home/u", "GOFLAGS=-mod=mod", "TOKENIZERS_PARALLELISM=false", "DATABASE_URL=postgres://u:p@h/db"}
	got := commandEnv(env, v, true, CredentialEnv(), nil)
	assert.Equal(t, []string{"PATH=/usr/bin", "HOME=/home/u", "GOFLAGS=-mod=mod", "TOKENIZERS_PARALLELISM=false"}, got)
}

// TestCredentialEnvRound22a: variables that carry a secret themselves
// under names the older patterns missed (pip's and uv's index URLs with
// a password, poetry's and Terraform's tokens, OCI's key, passphrases)
// are kept from the command; the variables that only name a place are
// not.
func TestCredentialEnvRound22a(t *testing.T) {
	for _, name := range []string{"PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "UV_INDEX_URL", "POETRY_PYPI_TOKEN_PYPI",
		"POETRY_HTTP_BASIC_CORP_PASSWORD", "TF_TOKEN_app_terraform_io", "OCI_CLI_KEY_CONTENT", "GPG_PASSPHRASE",
		"HF_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN", "CODEX_API_KEY"} {
		assert.True(t, envHidden(name, CredentialEnv()), "%s is not hidden", name)
	}
	for _, name := range []string{"PATH", "HOME", "CLAUDE_CONFIG_DIR", "CODEX_HOME", "HF_HOME", "PIP_CONFIG_FILE"} {
		assert.False(t, envHidden(name, CredentialEnv()), "%s is hidden", name)
	}
}
