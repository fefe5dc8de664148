package sandboxauth

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if any goroutine is still running once
// they have all finished: no authorizer, broker, wrapper or test helper may
// leave one behind. Tests that start goroutines must wait for them (or close
// the authorizer that releases them) before they return.
//
// PATH is reduced to its absolute entries first: a relative entry (which
// some machines have) would make no command safe, and the figures the
// tests pin would depend on the machine. Tests of PATH itself set their own.
func TestMain(m *testing.M) {
	var abs []string
	for _, e := range filepath.SplitList(os.Getenv("PATH")) {
		if filepath.IsAbs(e) {
			abs = append(abs, e)
		}
	}
	os.Setenv("PATH", strings.Join(abs, string(os.PathListSeparator)))
	goleak.VerifyTestMain(m)
}
