package sandboxauth

import (
	"strconv"

	"github.com/sandboxauth/sandboxauth/internal/classify"
)

// CommandCheckResult is the class of a shell command.
type CommandCheckResult int

const (
	// CommandCheckResultNone: a command the library understands that is on
	// no list.
	CommandCheckResultNone CommandCheckResult = iota
	// CommandCheckResultSafe: on the safe list, with none of its dangerous
	// flags, and touching nothing outside the sandbox.
	CommandCheckResultSafe
	// CommandCheckResultBlocked: on the blocked list; never run.
	CommandCheckResultBlocked
	// CommandCheckResultDangerous: on the dangerous list, or reaching outside
	// the sandbox.
	CommandCheckResultDangerous
	// CommandCheckResultInscrutable: the library cannot tell what the command
	// would do (pipelines, substitutions, xargs, unparsable wrappers, ...).
	CommandCheckResultInscrutable
)

// String returns "none", "safe", "blocked", "dangerous" or "inscrutable".
func (r CommandCheckResult) String() string {
	if r < CommandCheckResultNone || r > CommandCheckResultInscrutable {
		return "CommandCheckResult(" + strconv.Itoa(int(r)) + ")"
	}
	return classify.Result(r).String() // the same classes, in the same order
}
