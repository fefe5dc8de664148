package main

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// splitLine turns one line of shell syntax into the argv a shell would run.
//
// A line that is a single simple command of literal words (plain words,
// 'single quotes', "double quotes" without expansions, backslash escapes)
// is split into those words. Anything else a shell would interpret
// (pipes, lists, redirections, assignments, $expansions, globs, ~, braces,
// a syntax error) cannot be reduced to an argv honestly, so the line is
// returned as `bash -c LINE`, which lets the classifier parse the script
// itself. A blank line or a comment returns nil.
func splitLine(line string) []string {
	argv, ok, blank := splitWords(line)
	switch {
	case blank:
		return nil
	case ok:
		return argv
	}
	return []string{"bash", "-c", line}
}

// splitWords returns the literal words of line and true when line is one
// simple command of literal words, and blank when it holds no command at
// all (only white space or a comment).
func splitWords(line string) (argv []string, ok, blank bool) {
	if strings.TrimSpace(line) == "" {
		return nil, false, true
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
	if err != nil {
		return nil, false, false
	}
	if len(f.Stmts) == 0 {
		return nil, false, true // a comment
	}
	argv, ok = literalCommand(f)
	return argv, ok, false
}

// literalCommand returns the words of f when f is one simple command made
// of literal words only.
func literalCommand(f *syntax.File) ([]string, bool) {
	if len(f.Stmts) != 1 {
		return nil, false
	}
	st := f.Stmts[0]
	if st.Negated || st.Background || st.Coprocess || len(st.Redirs) > 0 {
		return nil, false
	}
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 || len(call.Args) == 0 {
		return nil, false
	}
	argv := make([]string, 0, len(call.Args))
	for _, w := range call.Args {
		s, ok := literalWord(w)
		if !ok {
			return nil, false
		}
		argv = append(argv, s)
	}
	return argv, true
}

// literalWord returns the text of w when it means the same in every shell
// state: no parameter, command, arithmetic or process expansion, and no
// character that could start a glob, a brace expansion or a tilde
// expansion (even an escaped one, to stay on the safe side: such a line is
// checked as a script instead). Quotes and backslashes are removed as a
// shell removes them.
func literalWord(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "*?[]{}~") {
				return "", false
			}
			unescape(&b, p.Value, func(byte) bool { return true })
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", false
			}
			for _, in := range p.Parts {
				lit, ok := in.(*syntax.Lit)
				if !ok {
					return "", false
				}
				// Inside double quotes a backslash escapes only these.
				unescape(&b, lit.Value, func(c byte) bool { return strings.IndexByte("$`\\\"\n", c) >= 0 })
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// unescape writes s with its backslash escapes removed: a backslash before
// a character for which escapes reports true stands for that character (a
// backslash before a newline stands for nothing); any other backslash is
// kept.
func unescape(b *strings.Builder, s string, escapes func(byte) bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) && escapes(s[i+1]) {
			i++
			if s[i] != '\n' {
				b.WriteByte(s[i])
			}
			continue
		}
		b.WriteByte(c)
	}
}
