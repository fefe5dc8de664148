package confine

// Escapes found by the third red-team round: each test asserts that the
// escape does NOT happen, and fails while it does.

import (
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// init lets the test binary double as a UNIX socket listener
// (ESCAPE3_LISTEN=path: binds path, accepts one connection and writes what
// it reads to path.got) and as a client (ESCAPE3_CONNECT=path: connects to
// path and writes a line).
func init() {
	if p := os.Getenv("ESCAPE3_LISTEN"); p != "" {
		l, err := net.Listen("unix", p)
		if err != nil {
			os.Exit(2)
		}
		_ = os.WriteFile(p+".ready", nil, 0o644)
		_ = l.(*net.UnixListener).SetDeadline(time.Now().Add(20 * time.Second))
		c, err := l.Accept()
		if err != nil {
			os.Exit(3)
		}
		b := make([]byte, 100)
		n, _ := c.Read(b)
		_ = os.WriteFile(p+".got", b[:n], 0o644)
		os.Exit(0)
	}
	if p := os.Getenv("ESCAPE3_CONNECT"); p != "" {
		c, err := net.Dial("unix", p)
		if err != nil {
			os.Exit(4)
		}
		_, _ = c.Write([]byte("from the sandbox\n"))
		c.Close()
		os.Exit(0)
	}
}

// TestEscapeMoreCredentialEnv: CredentialEnv's patterns (*_TOKEN,
// *_API_KEY, *_PASSWORD, DATABASE_URL, ...) miss common secrets, which
// the confined command reads from its environment. Verified with the CLI
// (root): each of these reached the command.
func TestEscapeMoreCredentialEnv(t *testing.T) {
	sb, _, _ := dirs(t)
	p := DefaultPolicy(sb)
	secrets := map[string]string{
		"GITHUB_PAT":            "ghp_escape3",
		"OPENAI_KEY":            "sk-escape3",
		"AZURE_OPENAI_KEY":      "azure-escape3",
		"SECRET_KEY_BASE":       "rails-escape3",
		"PASSWORD":              "password-escape3",
		"SMTP_PASS":             "smtp-escape3",
		"MONGODB_URI":           "mongodb://u:pw-escape3@db/x",
		"POSTGRES_URL":          "postgres://u:pw-escape3@db/x",
		"SLACK_WEBHOOK_URL":     "https://hooks.slack.com/services/escape3",
		"SENTRY_DSN":            "https://key-escape3@sentry.example/1",
		"CI_JOB_JWT":            "jwt-escape3",
		"GIT_CONFIG_PARAMETERS": "'http.extraheader'='AUTHORIZATION: basic escape3'",
	}
	cmd := exec.Command("/usr/bin/env")
	cmd.Dir = sb
	cmd.Env = os.Environ()
	for k, v := range secrets {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, Run(cmd, p))
	for k, v := range secrets {
		assert.NotContains(t, out.String(), k+"="+v, "the confined command read the secret in $%s", k)
	}
}
