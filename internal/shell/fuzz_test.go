package shell

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	shpattern "mvdan.cc/sh/v3/pattern"
	"mvdan.cc/sh/v3/syntax"
)

// hasExpansionSyntax reports a backtick, or a $ that bash would expand: one
// followed by a name, a digit, {, (, or a special parameter. A lone $ (at
// the end of a word, or before a space or quote) is literal in bash.
func hasExpansionSyntax(w string) bool {
	if strings.IndexByte(w, '`') >= 0 {
		return true
	}
	for i := 0; i+1 < len(w); i++ {
		if w[i] != '$' {
			continue
		}
		c := w[i+1]
		if c == '_' || c == '{' || c == '(' || c == '[' || strings.IndexByte("@*#?!$-", c) >= 0 ||
			'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
			return true
		}
	}
	return false
}

// FuzzParseScript checks that Parse never panics and that what it accepts
// is honest: no word of an accepted script can come from an expansion (if
// the source has no quotes or backslashes, no word holds a backtick or a $
// that bash would expand),
// every word re-quoted and re-parsed gives back the same word, and the
// plain-words fast path agrees with the parser.
func FuzzParseScript(f *testing.F) {
	for _, s := range []string{
		"ls -la", "go test ./...", `"cu"rl x`, `\curl x`, "echo $(id)", "a | b && c; d",
		"ls > out 2>&1", "A=1 ls", "cat <<EOF\nx\nEOF", "echo {a,b}", "ls *.go", "echo $'\\x41'",
		"f() { x; }", "time ls", "set -euo pipefail; go test", "ls `id`", "echo \"$HOME\"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 {
			return
		}
		s, err := Parse(src, Bash)
		if err != nil {
			if s != nil {
				t.Fatalf("Parse(%q) returned a script with an error", src)
			}
			return
		}
		if len(s.Commands) == 0 || len(s.Ops) != len(s.Commands)-1 {
			t.Fatalf("Parse(%q): %d commands, %d operators", src, len(s.Commands), len(s.Ops))
		}
		unquoted := !strings.ContainsAny(src, `'"\`)
		for _, c := range s.Commands {
			words := append([]string{}, c.Args...)
			for _, a := range c.Assigns {
				words = append(words, a.Value)
			}
			for _, r := range c.Redirs {
				words = append(words, r.Target)
			}
			for _, w := range words {
				if unquoted && hasExpansionSyntax(w) {
					t.Fatalf("Parse(%q): word %q holds an unexpanded $ or backtick", src, w)
				}
			}
			for i, w := range c.Args {
				if c.Globs != nil && c.Globs[i] {
					continue
				}
				q, err := syntax.Quote(w, syntax.LangBash)
				if err != nil {
					continue // e.g. invalid UTF-8 that needs $'..'
				}
				s2, err := Parse("x "+q, Bash)
				if err != nil {
					if strings.HasPrefix(q, "$'") {
						continue // ANSI-C quoting is inscrutable by design
					}
					t.Fatalf("Parse(%q): word %q re-quoted as %s does not parse: %v", src, w, q, err)
				}
				if got := s2.Commands[0].Args[1]; got != w {
					t.Fatalf("Parse(%q): word %q re-quoted as %s reads back as %q", src, w, q, got)
				}
			}
		}
		if words, ok := PlainWords(src); ok {
			if len(s.Commands) != 1 || strings.Join(words, "\x00") != strings.Join(s.Commands[0].Args, "\x00") {
				t.Fatalf("PlainWords(%q) = %q, Parse = %+v", src, words, s.Commands)
			}
		}
		checkDialects(t, src)
	})
}

// checkDialects parses src with every other grammar: never a panic, and an
// accepted script is well formed, with each glob's pattern reading back as
// its word once the escapes are removed.
func checkDialects(t *testing.T, src string) {
	for _, d := range []Dialect{POSIX, MirBSDKorn, Zsh} {
		s, err := Parse(src, d)
		if err != nil {
			var ie *InscrutableError
			if s != nil || !errors.As(err, &ie) {
				t.Fatalf("%v Parse(%q): script %v, error %v", d, src, s, err)
			}
			continue
		}
		if len(s.Commands) == 0 || len(s.Ops) != len(s.Commands)-1 {
			t.Fatalf("%v Parse(%q): %d commands, %d operators", d, src, len(s.Commands), len(s.Ops))
		}
		for _, c := range s.Commands {
			if (c.Globs == nil) != (c.Patterns == nil) || (c.Globs != nil && len(c.Globs) != len(c.Args)) {
				t.Fatalf("%v Parse(%q): globs %v, patterns %q", d, src, c.Globs, c.Patterns)
			}
			for i, g := range c.Globs {
				if g && unescape(c.Patterns[i]) != c.Args[i] {
					t.Fatalf("%v Parse(%q): pattern %q is not word %q", d, src, c.Patterns[i], c.Args[i])
				}
			}
		}
	}
}

// FuzzGlobMatch checks that Match never panics, that an exact answer for a
// pattern of letters, digits, *, ? and bracket expressions against a plain
// name agrees with mvdan.cc/sh/v3/pattern's (an independent reading of the
// same rules), and that Expand never panics on a real directory.
func FuzzGlobMatch(f *testing.F) {
	for _, s := range [][2]string{
		{"*", "abc"}, {"[!a]*", "b1"}, {"[^a]*", "a"}, {"a?c", "abc"}, {"[]a]", "a"}, {"[!]a]*", "b"},
		{"[[:punct:]]*", "-rf"}, {"[[.-.]]*", "-x"}, {"[a-c]", "b"}, {"*[0-9]", "a1"}, {"\\*", "*"},
		{"[[:alpha:]", "a"}, {"**", "ab"}, {"[a", "[a"}, {".*", ".git"}, {"[[=a=]]", "a"},
	} {
		f.Add(s[0], s[1])
	}
	dir := f.TempDir()
	for _, n := range []string{"-rf", "a", "b1", ".env", "sub/x"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, n)), 0o755); err != nil {
			f.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			f.Fatal(err)
		}
	}
	simplePat := regexp.MustCompile(`^[a-c0-9*?\[\]!]+$`)
	simpleName := regexp.MustCompile(`^[a-c0-9]+$`)
	f.Fuzz(func(t *testing.T, pat, name string) {
		if len(pat) > 64 || len(name) > 64 {
			return
		}
		for _, d := range []Dialect{Bash, POSIX} {
			_, _ = Expand(dir, pat, d, GlobLimits{Entries: 64, Matches: 16})
			got, err := Match(pat, name, d)
			if err != nil {
				if !errors.Is(err, ErrNotExact) {
					t.Fatalf("Match(%q, %q): %v does not wrap ErrNotExact", pat, name, err)
				}
				continue
			}
			if !simplePat.MatchString(pat) || !simpleName.MatchString(name) {
				continue
			}
			expr, rerr := shpattern.Regexp(pat, shpattern.Filenames|shpattern.EntireString)
			if rerr != nil {
				continue
			}
			rx, rerr := regexp.Compile(expr)
			if rerr != nil {
				continue
			}
			if want := rx.MatchString(name); want != got {
				t.Fatalf("%v Match(%q, %q) = %v; pattern package says %v", d, pat, name, got, want)
			}
		}
	})
}
