package sandboxauth

import "github.com/sandboxauth/sandboxauth/internal/classify"

// CommandMatcher matches a command by its name, its leading arguments and
// its flags. The zero value matches nothing.
//
//   - Command is the program name, compared with the base name of argv[0]
//     (so "/usr/bin/curl" matches "curl"), without regard to ASCII case
//     (CURL is curl on a case-insensitive file system) and ignoring a
//     trailing ".exe". A matcher for "python" or "pip" also matches a
//     versioned name such as python3.12 or pip3. Whether a case variant may
//     be *safe* is decided by the classifier, not here: it never is.
//   - CommandArgsPrefix must equal argv[1:1+len(prefix)] exactly:
//     {"go", {"test"}} matches `go test .` but not `go help test`. A
//     configuration file calls it "args", the name its readers look for
//     ({"command": "go", "args": ["test"]}); the Go field keeps the seed's
//     name, which says that the words are a prefix of the arguments.
//   - Flags, when not empty, require at least one of them among the
//     arguments after the prefix.
//   - ExceptFlags: the matcher does not match when any of them is present
//     (a safe `find` does not match `find . -exec ...`). An entry that does
//     not begin with "-" names an operand word instead, which must not
//     appear anywhere after the prefix (a safe `git reflog` does not match
//     `git reflog expire`).
//   - Reason is a one-line reason shown to people; it is ignored when
//     matchers are compared by AddXxx/RemoveXxx.
//
// How a flag is recognised depends on how the program parses its options:
//
//   - Most programs follow getopt_long: "--name" matches "--name",
//     "--name=value", the single argument "--name value", and any unique
//     abbreviation such as "--out" for "--output" (getopt and git accept
//     those); "-x" matches "-x", "-xVALUE" and every bundle of short
//     options holding x ("-rf" and "-fr" carry "-f").
//   - find and its relatives take long options with one dash and do not
//     bundle: "-exec" matches only "-exec" (or "-exec value" as one
//     argument).
//   - Go programs (go, gofmt, ...) do not bundle and accept one or two
//     dashes and "=": "-o" matches "-o", "--o", "-o=x" and "--o=x".
//
// Flags are looked for up to a "--" argument, after which everything is an
// operand, except for find-style programs, where "--" has no such meaning
// in the expression.
type CommandMatcher struct {
	Command           string
	CommandArgsPrefix []string
	Flags             []string
	ExceptFlags       []string
	Reason            string
}

// Matches reports whether argv matches m (see CommandMatcher for the rules).
func (m CommandMatcher) Matches(argv []string) bool {
	return classify.Matcher(m).Matches(argv)
}

// String renders the matcher the way rules name it: `git log (except
// --output, --ext-diff)`, `rm [-r -f ...]`.
func (m CommandMatcher) String() string {
	return classify.Matcher(m).String()
}
