package classify

import "github.com/sandboxauth/sandboxauth/internal/programs"

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
