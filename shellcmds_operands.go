package sandboxauth

import "strings"

// operandSpec says which arguments of a program name files. Arguments that
// name files are checked against the sandbox; patterns, scripts and other
// text are not. A program without a spec has every operand and every flag
// value checked, which is the conservative choice.
type operandSpec struct {
	// shortValue lists the short options (getopt style) that take a value,
	// attached (-fFILE) or as the next argument.
	shortValue string
	// shortText lists those of shortValue whose value is text, not a file.
	shortText string
	// longValue lists the long options that take their value as the next
	// argument when written without "=".
	longValue []string
	// longText lists the long options (or single-dash long options for
	// find-style programs) whose value is text, not a file.
	longText []string
	// firstIsText: the first operand is a pattern, script or program
	// (grep, sed, awk, jq), unless one of givenText was given.
	firstIsText bool
	givenText   []string
	// noPaths: no operand names a file (echo, expr, basename...).
	noPaths bool
	// writes: the program may write the files it names; such files must not
	// lie in a .git directory, whose hooks and config later git commands
	// run.
	writes bool
	// assignOperands: operands of the form name=value are variable
	// assignments, not files (awk).
	assignOperands bool
	// longPair lists long options that take two arguments (jq --arg NAME
	// VALUE); the value says whether the second one is text too.
	longPair map[string]bool
}

var noSpec operandSpec

// walkOperands calls visit for every argument of args (argv[1:]) that may
// name a file, with the file part of the argument. It stops early when
// visit returns false and reports whether it ran to the end.
func walkOperands(spec *operandSpec, style flagStyle, args []string, visit func(string) bool) bool {
	if spec != nil && spec.noPaths {
		return true
	}
	sp := spec
	if sp == nil {
		sp = &noSpec
	}
	textFirst := sp.firstIsText
	if textFirst {
		for _, a := range args {
			if a == "--" {
				break
			}
			for _, g := range sp.givenText {
				if argHasFlag(style, a, g) {
					textFirst = false
				}
			}
		}
	}
	operands := 0
	endOfFlags := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if endOfFlags || len(a) < 2 || a[0] != '-' {
			operands++
			if textFirst && operands == 1 {
				continue
			}
			if sp.assignOperands && isAssignmentWord(a) {
				continue
			}
			if !visit(a) {
				return false
			}
			if j := strings.IndexByte(a, '='); j > 0 && j+1 < len(a) {
				if !visit(a[j+1:]) {
					return false
				}
			}
			continue
		}
		if a == "--" && style != styleSingleDash {
			endOfFlags = true
			continue
		}
		// An option. Find its name and value.
		if strings.HasPrefix(a, "--") || style != styleGNU {
			name, value, hasValue := a, "", false
			if j := strings.IndexAny(a, "= "); j >= 0 {
				name, value, hasValue = a[:j], a[j+1:], true
			}
			if style == styleGo && !strings.HasPrefix(name, "--") {
				name = "-" + name // compare Go flags in their -- form too
			}
			if second, ok := sp.longPair[name]; ok && !hasValue {
				if i+2 < len(args) {
					if !second && !visit(args[i+2]) {
						return false
					}
				}
				i += 2
				continue
			}
			text := containsFlag(sp.longText, name, style)
			if !hasValue && containsFlag(sp.longValue, name, style) && i+1 < len(args) {
				i++
				value, hasValue = args[i], true
			} else if !hasValue && text && style == styleSingleDash && i+1 < len(args) {
				i++
				continue // find's text predicates take the next argument
			}
			if hasValue && !text {
				if !visit(value) {
					return false
				}
			}
			continue
		}
		// getopt short options: a bundle, maybe ending in a value. For an
		// unknown program, any letter may take the rest as its value
		// (tar -T.env): check the text after the first letter as a path.
		if spec == nil && len(a) > 2 && !visit(a[2:]) {
			return false
		}
		for k := 1; k < len(a); k++ {
			c := a[k]
			if strings.IndexByte(sp.shortValue, c) < 0 {
				if spec == nil || strings.IndexByte("/~.", c) >= 0 {
					// Unknown program, or an odd bundle: check any
					// path-looking tail (-I../include, -o/tmp/x).
					if c == '/' || c == '~' || (c == '.' && k+1 < len(a) && a[k+1] == '.') {
						if !visit(a[k:]) {
							return false
						}
						break
					}
				}
				continue
			}
			value := a[k+1:]
			if value == "" && i+1 < len(args) {
				i++
				value = args[i]
			}
			if strings.IndexByte(sp.shortText, c) < 0 && value != "" {
				if !visit(value) {
					return false
				}
			}
			break
		}
	}
	return true
}

func containsFlag(list []string, name string, style flagStyle) bool {
	for _, f := range list {
		if f == name {
			return true
		}
		if style == styleGo && "-"+f == name {
			return true
		}
		if style == styleGNU && strings.HasPrefix(name, "--") && len(name) > 2 && strings.HasPrefix(f, name) {
			return true // abbreviation
		}
	}
	return false
}

func isAssignmentWord(a string) bool {
	j := strings.IndexByte(a, '=')
	if j <= 0 {
		return false
	}
	for i := 0; i < j; i++ {
		c := a[i]
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || (i > 0 && '0' <= c && c <= '9')) {
			return false
		}
	}
	return true
}
