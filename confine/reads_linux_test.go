package confine

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeHome makes a home directory under the real one and points HOME (and
// with it DefaultPolicy) at it for the test.
func fakeHome(t *testing.T) string {
	t.Helper()
	home := victimDir(t)
	t.Setenv("HOME", home)
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("XDG_CONFIG_HOME", "")
	return home
}

// TestCredentialsHidden: DefaultPolicy hides the user's keys, tokens and
// history, while the rest of the home directory stays readable.
func TestCredentialsHidden(t *testing.T) {
	requireConfinement(t)
	home := fakeHome(t)
	t.Setenv("GOCACHE", filepath.Join(home, ".cache", "go-build"))
	secrets := map[string]string{
		".ssh/id_ed25519":              "PRIVATE KEY",
		".aws/credentials":             "aws_secret_access_key",
		".config/gcloud/creds.db":      "gcloud token",
		".kube/config":                 "kube token",
		".docker/config.json":          "docker auth",
		".netrc":                       "machine example.com password pw",
		".git-credentials":             "https://user:token@example.com",
		".config/gh/hosts.yml":         "oauth_token",
		".npmrc":                       "//registry.npmjs.org/:_authToken=npm",
		".cargo/credentials.toml":      "cargo token",
		".gnupg/private-keys-v1.d/k":   "gpg key",
		".bash_history":                "export TOKEN=history",
		".claude/.credentials.json":    "claude oauth",
		".codex/auth.json":             "codex key",
		".local/share/keyrings/login":  "keyring",
		".mozilla/firefox/p/key4.db":   "browser",
		".config/google-chrome/Cookie": "browser",
	}
	for rel, body := range secrets {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(home, rel)), 0o700))
		require.NoError(t, os.WriteFile(filepath.Join(home, rel), []byte("SECRET "+body), 0o600))
	}
	require.NoError(t, os.WriteFile(filepath.Join(home, "notes.txt"), []byte("plain notes"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(home, ".cargo", "registry"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(home, ".cargo", "registry", "crate.rs"), []byte("fn crate() {}"), 0o644))

	sb, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	p := DefaultPolicy(sb)
	for rel := range secrets {
		out, _ := sh(t, p, sb, "cat "+filepath.Join(home, rel)+"; ls -A "+filepath.Dir(filepath.Join(home, rel)))
		assert.NotContains(t, out, "SECRET", rel)
	}
	t.Setenv("AWS_SECRET_ACCESS_KEY", "SECRET in the environment")
	t.Setenv("GITHUB_TOKEN", "SECRET token")
	out, err := sh(t, p, sb, "env")
	require.NoError(t, err)
	assert.NotContains(t, out, "SECRET", "a credential in the environment")
	assert.Contains(t, out, "HOME=")
	out, err = sh(t, p, sb, "grep -r SECRET "+home+" 2>/dev/null; true")
	require.NoError(t, err)
	assert.Empty(t, out, "a search of the home directory finds credentials")
	out, err = sh(t, p, sb, "cat "+home+"/notes.txt "+home+"/.cargo/registry/crate.rs")
	require.NoError(t, err, out)
	assert.Equal(t, "plain notesfn crate() {}", out)
	// Read-only, as every cache but the build cache.
	out, err = sh(t, p, sb, "echo poison > "+home+"/.cargo/registry/crate.rs")
	assert.Error(t, err, out)
	if os.Geteuid() == 0 {
		out, _ = sh(t, p, sb, "cat /etc/shadow")
		assert.NotContains(t, out, "root:", "root reads the password hashes")
	}
}

// TestSandboxSecretsHidden: a Hidden file inside the sandbox (a .env) reads
// as nothing and cannot be replaced.
func TestSandboxSecretsHidden(t *testing.T) {
	sb, _, p := dirs(t)
	env := filepath.Join(sb, ".env")
	require.NoError(t, os.WriteFile(env, []byte("API_KEY=s3cret"), 0o600))
	require.NoError(t, os.MkdirAll(filepath.Join(sb, "secrets"), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(sb, "secrets", "k"), []byte("s3cret"), 0o600))
	p.Hidden = []string{env, filepath.Join(sb, "secrets")}
	for _, script := range []string{"cat .env", "cat secrets/k", "grep -r s3cret .", "cp .env copy; cat copy"} {
		out, _ := sh(t, p, sb, script)
		assert.NotContains(t, out, "s3cret", script)
	}
	for _, script := range []string{"echo x > .env", "rm .env", "mv .env e2", "echo x > secrets/new"} {
		out, err := sh(t, p, sb, script)
		assert.Error(t, err, "%s: %s", script, out)
	}
	b, err := os.ReadFile(env)
	require.NoError(t, err)
	assert.Equal(t, "API_KEY=s3cret", string(b))
}

// TestPrivateBuildCache: what a command writes in Go's build cache lands
// in a copy kept for its sandbox, seen by its later runs and never by the
// user's own builds; the module cache is read-only.
func TestPrivateBuildCache(t *testing.T) {
	requireConfinement(t)
	home := fakeHome(t)
	gocache := filepath.Join(home, "gocache")
	require.NoError(t, os.MkdirAll(gocache, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(gocache, "trusted"), []byte("the user's"), 0o644))
	t.Setenv("GOCACHE", gocache)
	modcache := filepath.Join(home, "go", "pkg", "mod", "example.com", "m@v1.0.0")
	require.NoError(t, os.MkdirAll(modcache, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(modcache, "m.go"), []byte("package m"), 0o644))

	sb, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	p := DefaultPolicy(sb)
	require.Equal(t, []string{gocache}, p.Private)
	out, err := sh(t, p, sb, "ls "+gocache+"; echo poison > "+gocache+"/entry")
	require.NoError(t, err, out)
	assert.Empty(t, out, "the private copy starts empty")
	assert.NoFileExists(t, filepath.Join(gocache, "entry"), "the user's cache was written")
	out, err = sh(t, p, sb, "cat "+gocache+"/entry")
	require.NoError(t, err, out)
	assert.Equal(t, "poison\n", out, "the copy is kept for the sandbox's next run")

	other, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	out, _ = sh(t, DefaultPolicy(other), other, "cat "+gocache+"/entry")
	assert.NotContains(t, out, "poison", "another sandbox sees the copy")

	out, err = sh(t, p, sb, "echo 'package evil' > "+modcache+"/m.go")
	assert.Error(t, err, out)
	b, err := os.ReadFile(filepath.Join(modcache, "m.go"))
	require.NoError(t, err)
	assert.Equal(t, "package m", string(b))
}

// TestGoTestWithHTTPServer: a Go test suite that starts an httptest server
// passes confined by DefaultPolicy, private build cache and all.
func TestGoTestWithHTTPServer(t *testing.T) {
	requireConfinement(t)
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not installed")
	}
	sb, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	files := map[string]string{
		"go.mod": "module example.com/srv\n\ngo 1.21\n",
		"srv_test.go": `package srv

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestServer(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	defer s.Close()
	resp, err := http.Get(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	if string(b) != "ok" {
		t.Fatalf("%q", b)
	}
}
`,
	}
	for name, body := range files {
		require.NoError(t, os.WriteFile(filepath.Join(sb, name), []byte(body), 0o644))
	}
	p := DefaultPolicy(sb)
	// The tests' own build cache keeps this fast (the private copy of a
	// new sandbox starts empty); it is the caller's choice to share it.
	gocache := goEnv(t, "GOCACHE")
	p.Private, p.Writable = nil, []string{gocache}
	cmd := exec.Command("go", "test", "-count=1", "./...")
	cmd.Dir = sb
	cmd.Env = append(os.Environ(), "GOCACHE="+gocache, "GOTOOLCHAIN=local", "GOFLAGS=", "GOPROXY=off")
	out, err := runCmd(t, cmd, p)
	require.NoError(t, err, out)
	assert.True(t, strings.HasPrefix(out, "ok"), out)
}
