package confine

// Escapes found by the second red-team round: each test asserts that the
// escape does NOT happen, and fails while it does.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEscapeProcSysWritable: run as root (uid 0 outside, mapped to 0 in the
// user namespace), the confined command writes the machine's sysctls.
// bubblewrap's --proc covers /proc/sys read-only only when access(W_OK)
// on the directory succeeds, and /proc/sys is r-xr-xr-x, so it is left
// writable; its files are owned by the global root, whose euid the command
// keeps, and the helper's Landlock domain allows writes beneath /proc.
// Verified with the CLI as root:
//
//	echo "|$SB/evil.sh" > /proc/sys/kernel/core_pattern; sh -c 'kill -SEGV $$'
//
// runs $SB/evil.sh as the real root, in the initial namespaces, with every
// capability (the kernel's core dump helper). The test changes a harmless
// knob and puts it back. (Unprivileged, the sysctls are the global root's
// and the write fails; the test then passes.)
func TestEscapeProcSysWritable(t *testing.T) {
	sb, _, p := dirs(t)
	const knob = "/proc/sys/kernel/printk_ratelimit_burst"
	orig, err := os.ReadFile(knob)
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.WriteFile(knob, orig, 0) })
	want := "17"
	if strings.TrimSpace(string(orig)) == want {
		want = "18"
	}
	out, _ := sh(t, p, sb, "echo "+want+" > "+knob+" && echo wrote")
	got, err := os.ReadFile(knob)
	require.NoError(t, err)
	assert.Equal(t, string(orig), string(got), "the confined command changed the machine's %s: %s", knob, out)
}

// TestEscapeMoreCredentialsNotHidden: CredentialPaths is a list of known
// places, and well-known ones are still missing from it (the first round
// reported the family; these are further instances): Stripe, Pulumi,
// Sentry, Kaggle, Cloudflare wrangler, Supabase, the Vercel CLI's current
// location, opencode's auth, a Solana keypair, adb's private key, fish's
// universal variables (where users keep exported tokens) and atuin's shell
// history.
func TestEscapeMoreCredentialsNotHidden(t *testing.T) {
	requireConfinement(t)
	home := fakeHome(t)
	t.Setenv("GOCACHE", filepath.Join(home, ".cache", "go-build"))
	secrets := map[string]string{
		".config/stripe/config.toml":            "test_mode_api_key = 'STRIPESECRET'",
		".pulumi/credentials.json":              `{"accessTokens":{"x":"PULUMISECRET"}}`,
		".sentryclirc":                          "[auth]\ntoken=SENTRYSECRET",
		".kaggle/kaggle.json":                   `{"key":"KAGGLESECRET"}`,
		".wrangler/config/default.toml":         `oauth_token = "WRANGLERSECRET"`,
		".supabase/access-token":                "SUPABASESECRET",
		".local/share/com.vercel.cli/auth.json": `{"token":"VERCELSECRET"}`,
		".local/share/opencode/auth.json":       `{"anthropic":{"key":"OPENCODESECRET"}}`,
		".config/solana/id.json":                "[1,2,3,SOLANASECRET]",
		".android/adbkey":                       "ADBSECRET PRIVATE KEY",
		".config/fish/fish_variables":           "SETUVAR --export GITHUB_TOKEN:FISHSECRET",
		".local/share/atuin/history.db":         "ATUINSECRET export AWS_SECRET_ACCESS_KEY=...",
	}
	assertSecretsHidden(t, home, secrets)
}
