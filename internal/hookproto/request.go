package hookproto

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// Kind is what a tool call does, as far as the authorizer is concerned.
type Kind string

// The kinds of call.
const (
	KindShell  Kind = "shell"  // runs a shell command
	KindRead   Kind = "read"   // reads files or lists a directory
	KindWrite  Kind = "write"  // creates or overwrites files
	KindEdit   Kind = "edit"   // changes existing files (also patches, deletes)
	KindSearch Kind = "search" // searches beneath directories (glob, grep)
	KindOther  Kind = "other"  // anything else: decided by the tool policy
)

// Request is one pre-tool event, whichever agent sent it.
type Request struct {
	Agent string // the agent's name, as in Names
	Event string // the hook event, e.g. "PreToolUse", "beforeReadFile"
	Kind  Kind
	Tool  string // the tool as the agent named it ("Bash", "read_file", ...)

	// Command is the shell script of a shell call (run as `bash -c`
	// Command), or "" when Argv is set instead.
	Command string
	// Argv is the command of a shell call given as an argv (Codex may send
	// one); nil otherwise.
	Argv []string

	// Paths are the absolute paths the call reads, writes or searches.
	Paths []string

	// Contents reports a search that reads the contents of the files
	// beneath the directories in Paths (grep, read_many_files), not only
	// their names (glob); Patterns are then its glob patterns as the tool
	// takes them, relative to the directory searched (none: every file).
	Contents bool
	Patterns []string

	Cwd        string // absolute working directory of the event
	ProjectDir string // absolute project directory: the sandbox
	Session    string // the agent's session or conversation ID, if given

	// CanAsk reports whether the event can hand an "ask" to the agent's
	// own prompt. When false, an ask is answered with a deny saying that
	// a person must approve.
	CanAsk bool

	// CanRewrite reports whether the agent runs, in place of a shell
	// call's own command, the command an allow gives in Decision.Command
	// (Claude Code's Bash tool: updatedInput). Where it is false, a
	// Decision with a Command is refused, never allowed as it stands.
	CanRewrite bool

	// input is the tool's input as the agent sent it, which a rewrite
	// keeps apart from the command.
	input map[string]json.RawMessage
}

// Action is what a Decision tells the agent.
type Action int

// The actions.
const (
	Allow Action = iota // run the call
	Ask                 // hand the call to the agent's own prompt
	Deny                // refuse the call; Reason is for the model
)

// String returns "allow", "ask" or "deny".
func (a Action) String() string {
	switch a {
	case Allow:
		return "allow"
	case Ask:
		return "ask"
	case Deny:
		return "deny"
	}
	return fmt.Sprintf("Action(%d)", int(a))
}

// Decision is the hook's answer before it is encoded.
type Decision struct {
	Action Action
	// Reason explains a deny to the model or an ask to the person. It is
	// never empty for Ask and Deny once encoded (a default is supplied).
	Reason string
	// Command, with Allow, is the shell command the agent is to run
	// instead of the call's own, every other input of the tool unchanged:
	// the same command confined, for instance. It is honoured only where
	// the request's CanRewrite is set; elsewhere the call is refused.
	Command string
}

// Stricter returns the stricter of a and b: a refusal before a question
// before an allow, an unknown action counting as a refusal (as Encode
// treats it); a when both are equally strict.
func Stricter(a, b Decision) Decision {
	if strictness(b.Action) > strictness(a.Action) {
		return b
	}
	return a
}

func strictness(a Action) int {
	switch a {
	case Allow:
		return 0
	case Ask:
		return 1
	}
	return 2
}

// Answer is an encoded Decision: what the hook process writes and how it
// exits.
type Answer struct {
	Stdout   []byte // JSON, or nothing
	Stderr   string // the reason, for protocols that read it on exit 2
	ExitCode int
}

// ErrMalformed matches every decoding error: the event is not one the
// decoder understands, so the call must be refused.
var ErrMalformed = errors.New("malformed hook event")

// malformed returns an ErrMalformed error with a formatted message.
func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrMalformed, fmt.Sprintf(format, args...))
}

// absDir checks that dir is a usable absolute directory name and cleans it.
func absDir(field, dir string) (string, error) {
	if dir == "" {
		return "", malformed("%s is empty", field)
	}
	if strings.ContainsRune(dir, 0) {
		return "", malformed("%s contains a NUL byte", field)
	}
	if !filepath.IsAbs(dir) {
		return "", malformed("%s %q is not absolute", field, dir)
	}
	return filepath.Clean(dir), nil
}

// resolve returns p made absolute against base (already absolute). An
// empty path or one with a NUL byte is an error.
func resolve(field, base, p string) (string, error) {
	if p == "" {
		return "", malformed("%s is empty", field)
	}
	if strings.ContainsRune(p, 0) {
		return "", malformed("%s contains a NUL byte", field)
	}
	if p == "~" || strings.HasPrefix(p, "~/") {
		return "", malformed("%s %q starts with ~, which the hook does not expand", field, p)
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p), nil
	}
	return filepath.Join(base, p), nil
}

// globBase returns the directory a glob pattern searches beneath: base
// joined with the pattern's literal leading elements (those before the
// first element holding a glob metacharacter). An absolute pattern or one
// climbing with ".." thus names the directory it really reaches.
func globBase(field, base, pattern string) (string, error) {
	if strings.ContainsRune(pattern, 0) {
		return "", malformed("%s contains a NUL byte", field)
	}
	if pattern == "~" || strings.HasPrefix(pattern, "~/") {
		return "", malformed("%s %q starts with ~, which the hook does not expand", field, pattern)
	}
	dir := base
	if filepath.IsAbs(pattern) {
		dir = string(filepath.Separator)
	}
	elems := strings.Split(filepath.ToSlash(pattern), "/")
	for i, elem := range elems {
		if strings.ContainsAny(elem, "*?[{\\") {
			if isParentRef(strings.Join(elems[i:], "/")) {
				// ".." after a wildcard climbs from directories the
				// pattern has not named: it may reach anywhere.
				return string(filepath.Separator), nil
			}
			break
		}
		dir = filepath.Join(dir, elem)
	}
	return filepath.Clean(dir), nil
}
