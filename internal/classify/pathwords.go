package classify

import "strings"

// pathWords calls visit for every word of args (argv[1:] of a program that
// no spec describes) that may name a file: each operand, the value after
// "=" in an operand or option, the text after the first letter of a short
// option bundle (tar -T.env reads .env), any path-looking tail of a
// bundle (-I../include, -o/tmp/x), and the file of an @FILE argument
// file, which compilers and the JDK's tools read as more arguments.
// Without a grammar, every word that may be a path is one. It stops when
// visit returns false.
func pathWords(style flagStyle, args []string, visit func(string) bool) {
	endOfFlags := false
	for _, a := range args {
		if endOfFlags || len(a) < 2 || a[0] != '-' {
			if !visit(a) {
				return
			}
			if j := strings.IndexByte(a, '='); j > 0 && j+1 < len(a) && !visit(a[j+1:]) {
				return
			}
			if len(a) > 1 && a[0] == '@' && !endOfFlags && !visit(a[1:]) {
				return // an argument file (gcc, clang, javac, java, jar read @FILE)
			}
			continue
		}
		if a == "--" && style != styleSingleDash {
			endOfFlags = true
			continue
		}
		if strings.HasPrefix(a, "--") || style != styleGNU {
			if j := strings.IndexByte(a, '='); j >= 0 && !visit(a[j+1:]) {
				return
			}
			continue
		}
		if len(a) > 2 && !visit(a[2:]) {
			return
		}
		for k := 1; k < len(a); k++ {
			if c := a[k]; c == '/' || c == '~' || (c == '.' && k+1 < len(a) && a[k+1] == '.') {
				if !visit(a[k:]) {
					return
				}
				break
			}
		}
	}
}
