package shell

import "strings"

// IsOperator reports whether word, given to a program as one argument, is
// written like a shell operator or a redirection without its target (|,
// ||, &&, ;, &, {, 2>, >>, 2>&1, >&-, 0<&3, ...): an argv built by a caller
// who expected a shell to read it. A word that merely contains | or > (a
// regular expression, a pattern) is not one.
func IsOperator(word string) bool {
	switch word {
	case "|", "||", "&&", ";", ";;", "&", "|&", ">", ">>", "<", "<<", "<<<", "<>", ">|", "&>", "&>>", "{", "}", "((", "))", "$":
		return true
	}
	// [n]>file-less redirections such as 2>, 2>>, 2>&1, >&2, 1>&-, 0<&3.
	i := 0
	for i < len(word) && word[i] >= '0' && word[i] <= '9' {
		i++
	}
	rest := word[i:]
	switch {
	case rest == ">" || rest == ">>" || rest == "<" || rest == ">|" || rest == "<>":
		return true
	case strings.HasPrefix(rest, ">&") || strings.HasPrefix(rest, "<&"):
		t := rest[2:]
		return t == "" || t == "-" || isDigits(t)
	case (rest == "&>" || rest == "&>>") && i == 0:
		return true
	}
	return false
}

// HasSubstitution reports whether word holds a command or parameter
// substitution ($(, ${, a backtick) or starts with a process substitution
// (<( or >().
func HasSubstitution(word string) bool {
	return strings.Contains(word, "$(") || strings.Contains(word, "${") || strings.IndexByte(word, '`') >= 0 ||
		strings.HasPrefix(word, "<(") || strings.HasPrefix(word, ">(")
}
