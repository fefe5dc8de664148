package classify

import (
	"os"

	"github.com/sandboxauth/sandboxauth/internal/programs"
)

// envClass classifies one environment assignment in front of a command
// (see programs.EnvEffect): the class it caps the command at (safe means
// "no effect") and why.
func envClass(name, value string) (Result, string) {
	switch effect, why := programs.EnvEffect(name, value); effect {
	case programs.EnvHarmless:
		return Safe, ""
	case programs.EnvDangerous:
		return Dangerous, why
	default:
		return None, why
	}
}

// posixlyCorrectInherited reports POSIXLY_CORRECT in this process's
// environment, which the commands it starts inherit: GNU programs then
// stop reading options at the first operand (grep KEY a -e .env reads
// .env).
func posixlyCorrectInherited() bool {
	_, ok := os.LookupEnv("POSIXLY_CORRECT")
	return ok
}
