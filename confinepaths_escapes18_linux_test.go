package sandboxauth

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEscape18CredentialCreatedBesideNoHiddenPath: Landlock handles
// reading only in the directories that hold a hidden path that EXISTS at
// the start (readRulesFor: a missing hidden path is skipped by viewOf and
// so makes no holder). A directory of the home that holds no existing
// credential yet (~/.cargo of an installed toolchain without
// credentials.toml, ~/.config without gh/, ~/.cache without huggingface/,
// ~/.codex without auth.json, ~/.gradle without gradle.properties) is
// granted reading whole, beneath it: the credential the user's program
// creates there while the command runs (`cargo login`, `gh auth login`,
// `huggingface-cli login`, `codex login`) is read by the command.
//
//	payload: touch started; while [ ! -e userdone ]; do sleep 0.05; done; cat ~/.cargo/credentials.toml ~/.config/gh/hosts.yml
//	user:    printf '[registry]\ntoken = "CARGOSECRET"\n' > ~/.cargo/credentials.toml
//	         mkdir ~/.config/gh; echo 'oauth_token: GHSECRET' > ~/.config/gh/hosts.yml
//
// Verified with sandboxauth run, as root (fake HOME under /root) and as
// the unprivileged sbtest: the payload printed both tokens. (~/.aws and
// ~/.npmrc created the same way stay unreadable: the home holds hidden
// paths, so new entries of the home get no rule.)
func TestEscape18CredentialCreatedBesideNoHiddenPath(t *testing.T) {
	sb := escapeSandbox(t)
	home := dotHome15(t)
	require.NoError(t, os.MkdirAll(filepath.Join(home, ".cargo", "bin"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(home, ".config", "fish"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(home, ".codex", "sessions"), 0o755))
	write15(t, filepath.Join(home, ".git-credentials"), "https://u:OLD@example.invalid\n", 0o600) // the home is a holder
	cargo := filepath.Join(home, ".cargo", "credentials.toml")
	gh := filepath.Join(home, ".config", "gh", "hosts.yml")
	codex := filepath.Join(home, ".codex", "auth.json")
	out := while17(t, sb, func() {
		write15(t, cargo, "[registry]\ntoken = \"CARGOSECRET18\"\n", 0o600)
		write15(t, gh, "github.com:\n  oauth_token: GHSECRET18\n", 0o600)
		write15(t, codex, "{\"OPENAI_API_KEY\":\"CODEXSECRET18\"}\n", 0o600)
	}, cargo, gh, codex)
	assert.NotContains(t, out, "CARGOSECRET18", "the confined command read ~/.cargo/credentials.toml made by `cargo login` while it ran")
	assert.NotContains(t, out, "GHSECRET18", "the confined command read ~/.config/gh/hosts.yml made by `gh auth login` while it ran")
	assert.NotContains(t, out, "CODEXSECRET18", "the confined command read ~/.codex/auth.json made by `codex login` while it ran")
}
