package sandboxauth

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if any goroutine is still running once
// they have all finished: no authorizer, broker, wrapper or test helper may
// leave one behind. Tests that start goroutines must wait for them (or close
// the authorizer that releases them) before they return.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
