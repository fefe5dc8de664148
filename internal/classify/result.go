package classify

import "strconv"

// Result is the class of a command. Its values are those of the public
// Result, in the same order, so that one converts to the other.
type Result int

const (
	// None: understood, but on no list.
	None Result = iota
	// Safe: on the safe list, with none of its dangerous options, touching
	// nothing outside the sandbox.
	Safe
	// Blocked: on the blocked list; never run.
	Blocked
	// Dangerous: on the dangerous list, or reaching outside the sandbox.
	Dangerous
	// Inscrutable: what the command would do cannot be told.
	Inscrutable
)

// String returns "none", "safe", "blocked", "dangerous" or "inscrutable".
func (r Result) String() string {
	switch r {
	case None:
		return "none"
	case Safe:
		return "safe"
	case Blocked:
		return "blocked"
	case Dangerous:
		return "dangerous"
	case Inscrutable:
		return "inscrutable"
	}
	return "Result(" + strconv.Itoa(int(r)) + ")"
}

// rank orders classes from best to worst: safe < none < dangerous <
// inscrutable < blocked. An unknown class ranks as inscrutable.
func (r Result) rank() int {
	switch r {
	case Safe:
		return 0
	case None:
		return 1
	case Dangerous:
		return 2
	case Inscrutable:
		return 3
	case Blocked:
		return 4
	}
	return 3
}
