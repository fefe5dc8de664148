package sandboxauth

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/sandboxauth/sandboxauth/internal/classify"
)

// TestCommandCheckResultIsTheEngines: the public classes and the engine's
// convert one for one (Check and Classify convert by value).
func TestCommandCheckResultIsTheEngines(t *testing.T) {
	pairs := []struct {
		public CommandCheckResult
		engine classify.Result
	}{
		{CommandCheckResultNone, classify.None},
		{CommandCheckResultSafe, classify.Safe},
		{CommandCheckResultBlocked, classify.Blocked},
		{CommandCheckResultDangerous, classify.Dangerous},
		{CommandCheckResultInscrutable, classify.Inscrutable},
	}
	for _, p := range pairs {
		assert.Equal(t, p.public, CommandCheckResult(p.engine))
		assert.Equal(t, p.public.String(), p.engine.String())
	}
	assert.Equal(t, "CommandCheckResult(9)", CommandCheckResult(9).String())
}
