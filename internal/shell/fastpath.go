package shell

import "strings"

// PlainWords splits src into words when it is a single simple command made
// only of plain characters (letters, digits and _ . / - + , : @ % =,
// separated by spaces or tabs, with no = in the first word). For such a
// script the shell's own splitting gives exactly these words, so callers may
// skip the full parser. ok is false for anything else, including an empty
// script; then Parse must decide.
func PlainWords(src string) (words []string, ok bool) {
	n := 0
	inWord := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == ' ' || c == '\t':
			inWord = false
		case plainByte(c):
			if c == '=' && n <= 1 && (n == 0 || inWord) {
				return nil, false
			}
			if !inWord {
				n++
				inWord = true
			}
		default:
			return nil, false
		}
	}
	if n == 0 {
		return nil, false
	}
	first := src
	for len(first) > 0 && (first[0] == ' ' || first[0] == '\t') {
		first = first[1:]
	}
	if i := strings.IndexAny(first, " \t"); i >= 0 {
		first = first[:i]
	}
	if reservedWords[first] || runsText()[first] != "" || first == "set" {
		return nil, false
	}
	words = make([]string, 0, n)
	start := -1
	for i := 0; i <= len(src); i++ {
		if i == len(src) || src[i] == ' ' || src[i] == '\t' {
			if start >= 0 {
				words = append(words, src[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	return words, true
}

// reservedWords start compound commands or change how the rest of the
// line is read; scripts starting with one go to the parser.
var reservedWords = map[string]bool{
	"if": true, "then": true, "else": true, "elif": true, "fi": true, "for": true, "while": true,
	"until": true, "do": true, "done": true, "case": true, "esac": true, "in": true, "function": true,
	"select": true, "time": true, "coproc": true, "!": true, "{": true, "}": true, "[[": true, "]]": true,
}

func plainByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	switch c {
	case '_', '.', '/', '-', '+', ',', ':', '@', '%', '=':
		return true
	}
	return false
}
