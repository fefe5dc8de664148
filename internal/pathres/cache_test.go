package pathres

import (
	"os"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cacheProbeEnv is set in the inner go test runs of TestResultsCacheable,
// which skips itself there.
const cacheProbeEnv = "SANDBOXAUTH_PATHRES_CACHE_PROBE"

// TestResultsCacheable runs this package's tests twice with go test and
// requires the second run to come from go test's result cache. go test
// keys its cache on the files, directories and environment variables a
// test reads; a test that reads something that differs on every run (a
// working directory in a fresh temporary directory, /proc/self/cwd)
// makes every warm run repeat the whole package.
func TestResultsCacheable(t *testing.T) {
	if os.Getenv(cacheProbeEnv) != "" {
		t.Skip("inner run of TestResultsCacheable")
	}
	if testing.Short() {
		t.Skip("runs the package's tests twice; skipped with -short")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command on PATH to run the tests with: %v", err)
	}
	run := func() string {
		cmd := exec.Command(goCmd, "test", ".")
		cmd.Env = append(os.Environ(), cacheProbeEnv+"=1", "GOFLAGS=")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		return string(out)
	}
	run()
	assert.Contains(t, run(), "(cached)", "the second run of the package's tests did not come from the cache")
}
