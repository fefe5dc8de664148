package programs

// sed: GNU sed. Its script is a small program: safe only when every
// command in it prints or transforms text (no w, W, r, R or e commands, no
// s///w or s///e flags), which sedScriptHarmless proves or refuses.
func sed() []*Spec {
	return []*Spec{{
		ReadOnly: true, Command: "sed", Syntax: GNU, Reason: "stream editor, safe only with a provably harmless script",
		First: Text, FirstGiven: []string{"-e", "-f"},
		Options: join(
			opts("-n,--quiet,--silent --debug -e,--expression= -l,--line-length= --posix -E,-r,--regexp-extended -s,--separate --sandbox -u,--unbuffered -z,--null-data --follow-symlinks --help --version"),
			unsafe("edits files in place", "-i,--in-place[=]"),
			unsafe("reads its script from a file the classifier cannot inspect", "-f,--file="),
		),
		Check: sedCheck,
	}}
}

func sedCheck(p *Parsed) *Problem {
	scripts := p.Values("-e")
	if len(scripts) == 0 {
		if len(p.Operands) == 0 {
			return &Problem{Unknown: true, Rule: "sed without a script", Reason: "sed needs a script"}
		}
		scripts = p.Operands[:1]
	}
	for _, s := range scripts {
		if !sedScriptHarmless(s) {
			return &Problem{Rule: "sed script not provably harmless",
				Reason: "sed scripts with w, W, r, R or e commands, s///w or s///e flags, labels, or that cannot be parsed, may write files or run commands; use a simpler script or a person decides"}
		}
	}
	return nil
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
		case 'y', 's':
			if i >= n || s[i] == '\\' || s[i] == '\n' {
				return false
			}
			d := s[i]
			i++
			// Two delimited sections: each call reads one and moves on.
			for range 2 {
				if !delimited(d) {
					return false
				}
			}
			for cmd == 's' && i < n {
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
