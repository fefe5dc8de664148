package sandboxauth

import "strings"

// Programs that carry a small program of their own (sed scripts, awk
// programs) are safe only when that program is provably harmless: it may
// print and transform text, but not write or read other files, or run
// commands. Other safe programs have arguments that change what they do
// beyond what their matcher can express; argumentChecks holds both kinds.

// argumentCheck is a test of a safe command's arguments (argv[2:] seen as
// args after the name): when harmless fails, the command is dangerous for
// the rule and reason given.
type argumentCheck struct {
	harmless     func(args []string) bool
	rule, reason string
}

var (
	sedCheck = argumentCheck{sedArgsHarmless, "rule: sed script not provably harmless",
		"sed scripts with w, W, r, R or e commands, s///w or s///e flags, or that cannot be parsed, may write files or run commands"}
	awkCheck = argumentCheck{awkArgsHarmless, "rule: awk program not provably harmless",
		"awk programs with system(), pipes, output redirection, getline or comparisons written with > may run commands or write files"}
)

// argumentChecks applies to a command that the lists found safe, by
// program name.
var argumentChecks = map[string]argumentCheck{
	"sed": sedCheck, "awk": awkCheck, "gawk": awkCheck, "mawk": awkCheck, "nawk": awkCheck,
	"date": {dateArgsHarmless, "rule: date with an operand other than +FORMAT",
		"an operand that is not a +FORMAT sets the system clock"},
	"hostname": {hostnameArgsHarmless, "rule: hostname with an operand", "an operand sets the host name"},
	"unzip": {unzipArgsHarmless, "rule: unzip options after the listing mode",
		"unzip negates an option with a second dash, so a later option can switch listing off and extract"},
	"jq": {jqArgsHarmless, "rule: jq program not provably harmless",
		"jq programs read from a file, or using import, include, env or $ENV, may read files or secrets"},
	"npm": {npmArgsHarmless, "rule: npm configuration flag",
		"npm takes any configuration setting as a flag (--script-shell, --node-options, ...), which can change what runs"},
	"strings": {func(args []string) bool { return !responseFileArg(args) }, "rule: response file argument",
		"an @FILE argument makes strings read FILE as more arguments, unchecked"},
}

// gitArguments adjusts the verdict of a git command (args after "git" and
// its global options) for what the lists cannot see: signature placeholders
// run gpg, `git config KEY` is a read, and configuration reads must stay
// with the repository's own settings.
func gitArguments(v cmdVerdict, args []string) cmdVerdict {
	switch {
	case v.res == CommandCheckResultSafe && gitRunsGPG(args):
		return mkVerdict(CommandCheckResultDangerous, "rule: git signature placeholders",
			"%G placeholders and %(signature) make git run gpg, which may reach a key server")
	case v.res != CommandCheckResultBlocked && gitConfigKeyRead(args) && gitConfigReadHarmless(args):
		return mkVerdict(CommandCheckResultSafe, "safe: git config KEY", "reads one configuration value")
	case v.res == CommandCheckResultSafe && !gitConfigReadHarmless(args):
		return mkVerdict(CommandCheckResultDangerous, "rule: git config read beyond the repository",
			"listing configuration without --local shows the user's global settings, and http, url and credential keys hold secrets")
	}
	return v
}

// sedArgsHarmless reports whether every script given to sed (with -e,
// --expression, or as the first operand) is harmless. The safe sed matcher
// already excludes -i and -f.
func sedArgsHarmless(args []string) bool {
	found := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		switch {
		case longAbbrev(a, "--expression") && !strings.Contains(a, "="):
			if i+1 >= len(args) {
				return false
			}
			i++
			found = true
			if !sedScriptHarmless(args[i]) {
				return false
			}
		case longAbbrev(a, "--expression"):
			found = true
			if !sedScriptHarmless(a[strings.IndexByte(a, '=')+1:]) {
				return false
			}
		case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && len(a) > 1:
			if j := strings.IndexByte(a, 'e'); j >= 0 {
				// Every letter before e must be a known flag.
				for _, c := range a[1:j] {
					if !strings.ContainsRune("nrEsuz", c) {
						return false
					}
				}
				script := a[j+1:]
				if script == "" {
					if i+1 >= len(args) {
						return false
					}
					i++
					script = args[i]
				}
				found = true
				if !sedScriptHarmless(script) {
					return false
				}
			} else if j := strings.IndexByte(a, 'l'); j >= 0 && j == len(a)-1 {
				i++ // -l N takes the next argument
			}
		}
	}
	if found {
		return true
	}
	// The script is the first operand.
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			if i+1 < len(args) {
				return sedScriptHarmless(args[i+1])
			}
			return false
		}
		if len(a) > 1 && a[0] == '-' {
			if a == "-l" || a == "--line-length" {
				i++
			}
			continue
		}
		return sedScriptHarmless(a)
	}
	return false
}

// longAbbrev reports whether the argument a names the long option name,
// possibly abbreviated as getopt_long allows ("--exp=..." for
// "--expression"), with or without "=value". Any abbreviation counts, even
// an ambiguous one: the caller is deciding what may be a script.
func longAbbrev(a, name string) bool {
	if !strings.HasPrefix(a, "--") {
		return false
	}
	if i := strings.IndexByte(a, '='); i >= 0 {
		a = a[:i]
	}
	return len(a) > 2 && strings.HasPrefix(name, a)
}

// sedScriptHarmless parses a sed script and accepts only commands that
// print or transform text: no w/W/r/R/e commands, no s///w or s///e flags.
// Anything it cannot parse is not harmless.
func sedScriptHarmless(s string) bool {
	i := 0
	n := len(s)
	skipSpace := func() {
		for i < n && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
	}
	// delimited skips a delimited regex or text starting after the opening
	// delimiter d; it reports false when the closing one is missing.
	delimited := func(d byte) bool {
		for i < n {
			c := s[i]
			switch {
			case c == '\\':
				i += 2
				continue
			case c == d:
				i++
				return true
			case c == '\n':
				return false
			}
			i++
		}
		return false
	}
	address := func() bool {
		switch {
		case i < n && s[i] >= '0' && s[i] <= '9':
			for i < n && s[i] >= '0' && s[i] <= '9' {
				i++
			}
			if i < n && s[i] == '~' {
				i++
				for i < n && s[i] >= '0' && s[i] <= '9' {
					i++
				}
			}
		case i < n && s[i] == '$':
			i++
		case i < n && s[i] == '/':
			i++
			if !delimited('/') {
				return false
			}
			for i < n && (s[i] == 'I' || s[i] == 'M') {
				i++
			}
		case i+1 < n && s[i] == '\\':
			d := s[i+1]
			if d == '\n' || d == '\\' {
				return false
			}
			i += 2
			if !delimited(d) {
				return false
			}
			for i < n && (s[i] == 'I' || s[i] == 'M') {
				i++
			}
		}
		return true
	}
	toEOL := func() {
		for i < n && s[i] != '\n' {
			i++
		}
	}
	for i < n {
		c := s[i]
		if c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '}' {
			i++
			continue
		}
		if c == '#' {
			toEOL()
			continue
		}
		start := i
		if !address() {
			return false
		}
		if i > start && i < n && s[i] == ',' {
			i++
			skipSpace()
			if i < n && (s[i] == '+' || s[i] == '~') {
				i++
				for i < n && s[i] >= '0' && s[i] <= '9' {
					i++
				}
			} else if !address() {
				return false
			}
		}
		skipSpace()
		for i < n && s[i] == '!' {
			i++
			skipSpace()
		}
		if i >= n {
			return i == start // an address with no command is an error
		}
		cmd := s[i]
		i++
		switch cmd {
		case '{':
		case '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
		case 'l', 'q', 'Q', 'L':
			skipSpace()
			for i < n && s[i] >= '0' && s[i] <= '9' {
				i++
			}
		case ':', 'b', 't', 'T':
			// Labels and branches: GNU sed ends a label at white space, so
			// what follows on the line is another command (":a w FILE"),
			// and tracking that grammar is not worth the risk.
			return false
		case 'a', 'i', 'c':
			// Text to the end of the line; a trailing backslash continues it.
			for i < n {
				if s[i] == '\\' && i+1 < n {
					i += 2
					continue
				}
				if s[i] == '\n' {
					break
				}
				i++
			}
		case 'y':
			if i >= n || s[i] == '\\' || s[i] == '\n' {
				return false
			}
			d := s[i]
			i++
			// Two delimited sections: each call reads one and moves on.
			if !delimited(d) {
				return false
			}
			if !delimited(d) {
				return false
			}
		case 's':
			if i >= n || s[i] == '\\' || s[i] == '\n' {
				return false
			}
			d := s[i]
			i++
			// Two delimited sections: each call reads one and moves on.
			if !delimited(d) {
				return false
			}
			if !delimited(d) {
				return false
			}
			for i < n {
				f := s[i]
				if f == 'g' || f == 'p' || f == 'i' || f == 'I' || f == 'm' || f == 'M' || (f >= '0' && f <= '9') {
					i++
					continue
				}
				if f == ';' || f == '\n' || f == '}' || f == ' ' || f == '\t' || f == '#' {
					break
				}
				return false // w, W, e or anything unknown
			}
		default:
			// w W r R e v and anything unknown.
			return false
		}
	}
	return true
}

// awkArgsHarmless reports whether the awk program (first operand, or the
// texts of -e/--source) is provably harmless. The safe awk matchers exclude
// -f, -i, -l and -E already.
func awkArgsHarmless(args []string) bool {
	found := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		switch {
		case a == "-e" || (longAbbrev(a, "--source") && !strings.Contains(a, "=")):
			if i+1 >= len(args) {
				return false
			}
			i++
			found = true
			if !awkProgramHarmless(args[i]) {
				return false
			}
		case longAbbrev(a, "--source"):
			found = true
			if !awkProgramHarmless(a[strings.IndexByte(a, '=')+1:]) {
				return false
			}
		case strings.HasPrefix(a, "-e"):
			found = true
			if !awkProgramHarmless(a[2:]) {
				return false
			}
		}
	}
	if found {
		return true
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return i+1 < len(args) && awkProgramHarmless(args[i+1])
		}
		if len(a) > 1 && a[0] == '-' {
			if a == "-F" || a == "-v" || (!strings.Contains(a, "=") && (longAbbrev(a, "--assign") || longAbbrev(a, "--field-separator"))) {
				i++
			}
			continue
		}
		return awkProgramHarmless(a)
	}
	return false
}

// awkProgramHarmless accepts an awk program that has no way to run a
// command, open a file or load code: no system(), no pipes, no output
// redirection (nor comparisons written with >, which awk cannot tell apart
// here), no getline, no @include/@load.
func awkProgramHarmless(p string) bool {
	if strings.ContainsAny(p, "|>@`") {
		return false
	}
	for _, bad := range []string{"system", "getline", "close", "fflush", "PROCINFO", "ENVIRON", "ARGV", "ARGC"} {
		if strings.Contains(p, bad) {
			return false
		}
	}
	return true
}

// dateArgsHarmless reports whether date only prints: every operand is a
// +FORMAT. Any other operand (MMDDhhmm[[CC]YY][.ss]) sets the system clock,
// which a privileged process may do. The safe date matcher already excludes
// -s and --set.
func dateArgsHarmless(args []string) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			for _, o := range args[i+1:] {
				if !strings.HasPrefix(o, "+") {
					return false
				}
			}
			return true
		case strings.HasPrefix(a, "--"):
			if strings.IndexByte(a, '=') < 0 && (longAbbrev(a, "--date") || longAbbrev(a, "--file") ||
				longAbbrev(a, "--reference") || longAbbrev(a, "--set") || longAbbrev(a, "--rfc-3339")) {
				i++ // the value is the next argument
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			// A bundle: -d, -f, -r and -s take a value, attached or next.
			for j := 1; j < len(a); j++ {
				if strings.IndexByte("dfrs", a[j]) >= 0 {
					if j == len(a)-1 {
						i++
					}
					break
				}
				if a[j] == 'I' {
					break // -I takes an optional attached value
				}
			}
		case !strings.HasPrefix(a, "+"):
			return false
		}
	}
	return true
}

// hostnameArgsHarmless reports whether hostname only prints: an operand
// would set the host name.
func hostnameArgsHarmless(args []string) bool {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") || a == "--" {
			return false
		}
	}
	return true
}

// gitRunsGPG reports whether a git command asks for signature data, which
// makes git run gpg (gpg.program, and possibly a key server): the %G
// placeholders of --format and --pretty, or for-each-ref's %(signature).
func gitRunsGPG(args []string) bool {
	for _, a := range args {
		if strings.Contains(a, "%G") || strings.Contains(a, "%(signature") {
			return true
		}
	}
	return false
}

// gitConfigKeyRead reports whether args (argv[1:] of git, after its global
// options) is `config KEY` with one plain key: the old spelling of a read
// of one value (`git config user.name`). With a second operand it would
// write.
func gitConfigKeyRead(args []string) bool {
	if len(args) != 2 || args[0] != "config" {
		return false
	}
	key := args[1]
	dot := strings.IndexByte(key, '.')
	if dot <= 0 || dot == len(key)-1 {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// unzipArgsHarmless reports whether an unzip command that starts in a
// listing mode (-l, -v, -Z, -t) stays in it: Info-ZIP negates an option
// with a second dash (--l, -l-), so any later option could turn listing off
// and make unzip extract.
func unzipArgsHarmless(args []string) bool {
	for _, a := range args[1:] {
		if strings.HasPrefix(a, "-") {
			return false
		}
	}
	return true
}

// jqArgsHarmless reports whether jq's program only transforms its input:
// it is given inline (not read from a file with -f), and it uses neither
// modules (import and include, which load files from any directory) nor the
// environment (env, $ENV), which holds secrets. A field named env (.env) is
// fine.
func jqArgsHarmless(args []string) bool {
	prog, found := "", false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-f" || longAbbrev(a, "--from-file") || (strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsRune(a, 'f')):
			return false
		case a == "--":
			if i+1 < len(args) && !found {
				prog, found = args[i+1], true
			}
			i = len(args)
		case longAbbrev(a, "--arg") || longAbbrev(a, "--argjson") || longAbbrev(a, "--slurpfile") || longAbbrev(a, "--rawfile"):
			i += 2
		case longAbbrev(a, "--indent") || a == "-L" || longAbbrev(a, "--library-path"):
			i++
		case strings.HasPrefix(a, "-") && a != "-":
		case !found:
			prog, found = a, true
		}
	}
	return jqProgramHarmless(prog)
}

// jqProgramHarmless scans a jq program for the identifiers that reach
// beyond its input. Strings are scanned too: "\(env.HOME)" interpolates.
func jqProgramHarmless(prog string) bool {
	for i := 0; i < len(prog); {
		c := prog[i]
		if !(c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			i++
			continue
		}
		j := i + 1
		for j < len(prog) && (prog[j] == '_' || 'a' <= prog[j] && prog[j] <= 'z' || 'A' <= prog[j] && prog[j] <= 'Z' || '0' <= prog[j] && prog[j] <= '9') {
			j++
		}
		word := prog[i:j]
		field := i > 0 && prog[i-1] == '.'
		switch word {
		case "import", "include", "modulemeta", "get_search_list", "$ENV", "ENV", "$__prog_args", "__prog_args":
			// jq takes white space or a comment between $ and a name
			// ("$ ENV"), so the bare names count too.
			return false
		case "env":
			if !field {
				return false
			}
		}
		i = j
	}
	return true
}

// responseFileArg reports an argument that names a response file (@FILE),
// which binutils programs such as strings read as more arguments: the file
// is read without being checked, and its words come back in error messages.
func responseFileArg(args []string) bool {
	for _, a := range args {
		if strings.HasPrefix(a, "@") {
			return true
		}
	}
	return false
}

// gitConfigReadHarmless reports whether a safe `git config` read stays with
// the repository's own settings. Listing (--list, -l, list, --get-regexp)
// shows every scope, the user's global file included, unless --local (or
// --worktree) narrows it; a single key is fine unless its section holds
// credentials (http, url, credential, sendemail).
func gitConfigReadHarmless(args []string) bool {
	if len(args) == 0 || args[0] != "config" {
		return true
	}
	local, list := false, false
	var keys []string
	for _, a := range args[1:] {
		switch {
		case a == "--global" || a == "--system" || a == "-f" || a == "--show-origin" || a == "--show-scope" ||
			longAbbrev(a, "--file") || longAbbrev(a, "--blob") || longAbbrev(a, "--includes"):
			return false // the user's or the system's files, or any file
		case a == "--local" || a == "--worktree":
			local = true
		case a == "--get" || a == "--get-all":
			// single-key reads (exact options, not abbreviations of
			// --get-regexp)
		case a == "--list" || a == "-l" || a == "list" || longAbbrev(a, "--get-regexp") || a == "--regexp" || a == "--name-only":
			list = true
		case !strings.HasPrefix(a, "-") && a != "get":
			keys = append(keys, a)
		}
	}
	if list && !local {
		return false
	}
	for _, k := range keys {
		section, _, _ := strings.Cut(strings.ToLower(k), ".")
		switch section {
		case "http", "url", "credential", "sendemail", "include", "includeif":
			return false
		}
	}
	return true
}

// npmArgsHarmless reports whether `npm test` runs the test script as the
// project defines it: npm takes any configuration setting as a flag
// (--script-shell, --node-options, --userconfig, ...), so no flag may come
// before "--", after which arguments go to the script. Other safe npm
// commands (npm -v, npm ls) run no script and are not concerned.
func npmArgsHarmless(args []string) bool {
	if len(args) == 0 || args[0] != "test" {
		return true
	}
	for _, a := range args[1:] {
		if a == "--" {
			return true
		}
		if strings.HasPrefix(a, "-") {
			return false
		}
	}
	return true
}
