package programs

import (
	"strings"
	"sync"
)

// Arg is a word that names a file, with the role it has for the program:
// an operand or an option's value.
type Arg struct {
	Word string
	Role Role
}

// Used is one option as the program will see it.
type Used struct {
	Option   *Option
	Name     string // the spelling given, without "=value"
	Value    string
	HasValue bool
}

// Parsed is an argv read with a spec's grammar.
type Parsed struct {
	Spec     *Spec
	Options  []Used
	Operands []string
	// Files lists every word that names a file, with its role; a
	// recursive reader's operands (or its default tree) are ReadTree.
	Files []Arg
	// Hidden is true when a recursive walk includes hidden and ignored
	// files.
	Hidden bool
	// Whitelist holds the globs (rg -g, the globs of rg -t) that select
	// files for the walk, hidden and ignored ones included; "*" stands for
	// a selection of every file.
	Whitelist []string
	// FollowsLinks is true when a recursive walk follows symbolic links
	// (zip -r without -y): the engine then checks where every link in the
	// trees leads.
	FollowsLinks bool
	// Problem is the first reason the command is not safe, or nil.
	Problem *Problem

	// lenient reads past the options the spec knows to be unsafe (see
	// Writes).
	lenient bool
}

// Has reports whether an option with one of the given spellings was used.
func (p *Parsed) Has(names ...string) bool {
	for _, u := range p.Options {
		for _, n := range u.Option.Names {
			for _, want := range names {
				if n == want {
					return true
				}
			}
		}
	}
	return false
}

// Values returns the values given to the option with the given spelling, in
// order.
func (p *Parsed) Values(name string) []string {
	var out []string
	for _, u := range p.Options {
		for _, n := range u.Option.Names {
			if n == name {
				out = append(out, u.Value)
				break
			}
		}
	}
	return out
}

// Parse reads args (the words after s.Command and s.Prefix) as the program
// does and returns what it found. It never fails: anything it does not
// understand is a Problem with Unknown set.
func Parse(s *Spec, args []string) *Parsed {
	p := new(Parsed)
	p.parse(s, args)
	return p
}

// parsedPool recycles Parsed values, so that classifying a command
// allocates nothing in the common case.
var parsedPool = sync.Pool{New: func() any { return new(Parsed) }}

// Acquire is Parse into a recycled Parsed. The caller must not keep the
// result, or anything in it, after handing it back with Release.
func Acquire(s *Spec, args []string) *Parsed {
	p := parsedPool.Get().(*Parsed)
	p.parse(s, args)
	return p
}

// Release hands back a Parsed obtained from Acquire.
func Release(p *Parsed) {
	*p = Parsed{Options: p.Options[:0], Operands: p.Operands[:0], Files: p.Files[:0], Whitelist: p.Whitelist[:0]}
	parsedPool.Put(p)
}

// Writes reads args (the words after s.Command and s.Prefix) as the
// program does, options the spec knows to be unsafe included (rm -rf), and
// returns the words it writes, creates or deletes: its Write operands and
// the values of its Write options (for a program that copies, the
// destination, and the sources of one that moves). ok is false when the argv holds
// something the spec does not understand (an unknown option), whose
// effect on the other words cannot be known.
func Writes(s *Spec, args []string) (words []string, ok bool) {
	p := &Parsed{lenient: true}
	p.parse(s, args)
	if p.Problem != nil && p.Problem.Unknown {
		return nil, false
	}
	if s.Copies {
		// cp reads its sources and writes the destination; mv deletes
		// its sources too.
		dest, sources, _, ok := CopyDestination(p)
		if !ok {
			return nil, true
		}
		words = append(words, dest)
		if s.Moves {
			words = append(words, sources...)
		}
		return words, true
	}
	for _, f := range p.Files {
		if f.Role == Write {
			words = append(words, f.Word)
		}
	}
	return words, true
}

func (p *Parsed) parse(s *Spec, args []string) {
	p.Spec = s
	if s.TextOnly {
		p.Operands = append(p.Operands, args...)
		if s.Check != nil {
			p.Problem = s.Check(p)
		}
		return
	}
	switch s.Syntax {
	case GoFlag, GoTool:
		p.goFlags(args)
	case Find:
		p.find(args)
	case Single:
		p.single(args)
	default:
		p.getopt(args)
	}
	if p.Problem == nil {
		p.finish()
	}
}

func (p *Parsed) unknown(rule, reason string) {
	if p.Problem == nil {
		p.Problem = &Problem{Unknown: true, Rule: rule, Reason: reason}
	}
}

func (p *Parsed) unknownOption(name string) {
	p.unknown("unknown option "+name,
		p.Spec.title()+" does not know "+name+" as a harmless option; a person decides (or drop the option)")
}

func (s *Spec) title() string {
	if len(s.Prefix) == 0 {
		return "the classifier's spec of " + s.Command
	}
	return "the classifier's spec of " + s.Command + " " + strings.Join(s.Prefix, " ")
}

// use records an option; an unsafe option is a problem.
func (p *Parsed) use(o *Option, name, value string, hasValue bool) {
	p.Options = append(p.Options, Used{Option: o, Name: name, Value: value, HasValue: hasValue})
	if o.Unsafe != "" && p.Problem == nil && !p.lenient {
		p.Problem = &Problem{Rule: p.Spec.Command + " " + o.Names[0], Reason: o.Unsafe}
	}
	if !hasValue || o.Value == 0 || o.Value == Text {
		return
	}
	switch o.Value {
	case ReadList:
		if p.Problem == nil {
			p.Problem = &Problem{Rule: p.Spec.Command + " " + o.Names[0] + " (a list of names)",
				Reason: o.Names[0] + " makes " + p.Spec.Command + " read " + value + " as more names (and options, such as another list) that are never checked here; name the files on the command line instead"}
		}
	case Whitelist:
		// A positive glob selects files, hidden and ignored ones included;
		// a negated one ("!x") only excludes.
		if !strings.HasPrefix(value, "!") {
			p.Whitelist = append(p.Whitelist, value)
		}
	case FileType:
		globs, ok := p.Spec.FileTypes[value]
		if !ok {
			globs = "*"
		}
		for globs != "" {
			var g string
			g, globs, _ = strings.Cut(globs, ",")
			p.Whitelist = append(p.Whitelist, g)
		}
	default:
		p.Files = append(p.Files, Arg{Word: value, Role: o.Value})
	}
}

// hyphenValuesRefused reports whether the syntax leaves a next word that
// begins with "-" to be read as an option rather than as a value.
func (s Syntax) hyphenValuesRefused() bool { return s == Clap || s == Argparse }

// equalsAttached reports whether the syntax reads -f=V as -f V.
func (s Syntax) equalsAttached() bool { return s == Clap || s == Argparse }

// abbreviates reports whether the syntax takes a unique prefix of a long
// option for the option.
func (s Syntax) abbreviates() bool { return s == GNU || s == Argparse }

// next takes the word after args[*i] as the value of o (spelled name), as
// the program would, and advances *i; false (with a Problem) when there is
// no such word, or when the program would read it as an option instead.
func (p *Parsed) next(o *Option, name string, args []string, i *int) (string, bool) {
	if *i+1 >= len(args) {
		p.unknown("missing value for "+name, name+" needs a value")
		return "", false
	}
	v := args[*i+1]
	if p.Spec.Syntax.hyphenValuesRefused() && !o.HyphenValue && len(v) > 1 && v[0] == '-' {
		p.unknown("value of "+name+" that looks like an option: "+v,
			p.Spec.Command+" does not take "+v+" as the value of "+name+": it reads it as an option of its own, or refuses; attach the value ("+name+"=VALUE) or a person decides")
		return "", false
	}
	*i++
	return v, true
}

// long finds a long option by its exact name or, when abbrev is set, by a
// unique prefix among all the spec's long names (unsafe ones included).
func (s *Spec) long(name string, abbrev bool) *Option {
	var found *Option
	for i := range s.Options {
		o := &s.Options[i]
		for _, n := range o.Names {
			if n == name {
				return o
			}
		}
	}
	if !abbrev || len(name) < 3 {
		return nil
	}
	for i := range s.Options {
		o := &s.Options[i]
		for _, n := range o.Names {
			if strings.HasPrefix(n, "--") && strings.HasPrefix(n, name) {
				if found != nil && found != o {
					return nil // ambiguous: the program refuses it
				}
				found = o
			}
		}
	}
	return found
}

// shortName returns o's spelling of the short option c ("-c"), without
// allocating.
func (o *Option) shortName(c byte) string {
	for _, n := range o.Names {
		if len(n) == 2 && n[1] == c {
			return n
		}
	}
	return string([]byte{'-', c})
}

// short returns the option spelled -c, or nil.
func (s *Spec) short(c byte) *Option {
	if s.shorts != nil && c < 128 {
		if i := s.shorts[c]; i > 0 {
			return &s.Options[i-1]
		}
		return nil
	}
	return s.scanShort(c)
}

// scanShort is short without the index (a spec not in the registry).
func (s *Spec) scanShort(c byte) *Option {
	for i := range s.Options {
		o := &s.Options[i]
		for _, n := range o.Names {
			if len(n) == 2 && n[0] == '-' && n[1] == c {
				return o
			}
		}
	}
	return nil
}

// shortIndex builds the index of short options that short uses, the first
// option to name a letter winning as in scanShort; nil when the options are
// too many to index.
func (s *Spec) shortIndex() *[128]uint16 {
	if len(s.Options) >= 1<<16-1 {
		return nil
	}
	var idx [128]uint16
	for i := range s.Options {
		for _, n := range s.Options[i].Names {
			if len(n) == 2 && n[0] == '-' && n[1] < 128 && idx[n[1]] == 0 {
				idx[n[1]] = uint16(i + 1)
			}
		}
	}
	return &idx
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// getopt reads the GNU, POSIX, Exact, Clap, Argparse and Bundled syntaxes.
func (p *Parsed) getopt(args []string) {
	s := p.Spec
	ended := false
	if s.OldStyle && len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		var bad byte
		var missing bool
		if args, bad, missing = oldStyle(s, args); bad != 0 {
			if !missing {
				p.unknownOption("-" + string(bad))
				return
			}
			p.unknown("option "+string(bad)+" without its value",
				"the bundled option "+string(bad)+" takes the next word as its value, and there is none; a person decides")
			return
		}
	}
	for i := 0; i < len(args) && p.Problem == nil; i++ {
		a := args[i]
		if ended || a == "-" || len(a) < 2 || a[0] != '-' {
			p.Operands = append(p.Operands, a)
			if s.Syntax == POSIX {
				ended = true
			}
			continue
		}
		if a == "--" {
			ended = true
			continue
		}
		if strings.HasPrefix(a, "--") {
			name, value, hasValue := strings.Cut(a, "=")
			o := s.long(name, s.Syntax.abbreviates())
			if o == nil {
				p.unknownOption(name)
				return
			}
			switch o.Arity {
			case NoValue:
				if hasValue {
					p.unknownOption(a)
					return
				}
			case Value:
				if !hasValue {
					v, ok := p.next(o, name, args, &i)
					if !ok {
						return
					}
					value, hasValue = v, true
				}
			case Pair:
				if hasValue || i+2 >= len(args) {
					p.unknown("two values for "+name, name+" takes two words, NAME and VALUE")
					return
				}
				i++ // NAME is text
				v, ok := p.next(o, name, args, &i)
				if !ok {
					return
				}
				value, hasValue = v, true
			}
			p.use(o, name, value, hasValue)
			if o.Ends {
				ended = true
			}
			continue
		}
		if s.Numeric && allDigits(a[1:]) {
			continue
		}
		// In the Bundled syntax each option of the bundle that takes a
		// value takes the next word not taken yet: last is the last word
		// taken so far.
		last := i
		for k := 1; k < len(a); k++ {
			o := s.short(a[k])
			if o == nil {
				p.unknownOption("-" + a[k:k+1])
				return
			}
			name := a[k-1 : k+1] // "-x" when k is 1; the spelling is looked up below
			if k > 1 {
				name = o.shortName(a[k])
			}
			if o.Arity == NoValue {
				p.use(o, name, "", false)
				continue
			}
			if o.Arity == Pair || s.Syntax == Bundled && o.Arity == Attached {
				p.unknownOption(name)
				return
			}
			if s.Syntax == Bundled {
				v, ok := p.next(o, name, args, &last)
				if !ok {
					return
				}
				p.use(o, name, v, true)
				if o.Ends {
					ended = true
				}
				continue
			}
			value, hasValue := a[k+1:], k+1 < len(a)
			if hasValue && value[0] == '=' && s.Syntax.equalsAttached() {
				value = value[1:]
			}
			if !hasValue && o.Arity == Value {
				v, ok := p.next(o, name, args, &i)
				if !ok {
					return
				}
				value, hasValue = v, true
			}
			p.use(o, name, value, hasValue)
			if o.Ends {
				ended = true
			}
			break
		}
		i = max(i, last)
	}
}

// single reads the Single syntax: one option per word, matched by its
// whole spelling; options end at the first operand or "--".
func (p *Parsed) single(args []string) {
	s := p.Spec
	for i := 0; i < len(args) && p.Problem == nil; i++ {
		a := args[i]
		if a == "--" {
			p.Operands = append(p.Operands, args[i+1:]...)
			return
		}
		if a == "-" || len(a) < 2 || a[0] != '-' {
			p.Operands = append(p.Operands, args[i:]...)
			return
		}
		o, name := s.long(a, false), a
		value, hasValue := "", false
		if o == nil && len(a) > 2 && a[1] != '-' {
			// -c16: a one-letter option with its value attached, when the
			// value begins with a digit or a sign (a letter would continue
			// a longer spelling, which the program may take differently).
			if c := a[2]; c >= '0' && c <= '9' || c == '+' || c == '-' {
				if so := s.short(a[1]); so != nil && so.Arity == Value {
					o, name, value, hasValue = so, a[:2], a[2:], true
				}
			}
		}
		if o == nil {
			p.unknownOption(a)
			return
		}
		if o.Arity == Pair || o.Arity == Attached && !hasValue {
			p.unknownOption(a)
			return
		}
		if o.Arity == Value && !hasValue {
			v, ok := p.next(o, name, args, &i)
			if !ok {
				return
			}
			value, hasValue = v, true
		}
		p.use(o, name, value, hasValue)
	}
}

// oldStyle rewrites a first word without a dash (tar's "tzvf a.tgz") as the
// options it bundles: each letter is a short option, and each one that
// takes a value takes the next unused word. It returns, instead, a letter
// that is no option of the spec (missing false; a "-" among the letters
// would otherwise end the options), or one that takes a value when no
// word is left for it (missing true): the program refuses both.
func oldStyle(s *Spec, args []string) (out []string, bad byte, missing bool) {
	letters, rest := args[0], args[1:]
	out = make([]string, 0, len(args)+len(letters))
	for k := 0; k < len(letters); k++ {
		o := s.short(letters[k])
		if o == nil {
			return nil, letters[k], false
		}
		out = append(out, "-"+letters[k:k+1])
		if o.Arity == Value {
			if len(rest) == 0 {
				return nil, letters[k], true
			}
			out = append(out, rest[0])
			rest = rest[1:]
		}
	}
	return append(out, rest...), 0, false
}

// goFlags reads Go's flag package syntax (GoFlag) and the go command's
// (GoTool, where options may follow operands).
func (p *Parsed) goFlags(args []string) {
	s := p.Spec
	for i := 0; i < len(args) && p.Problem == nil; i++ {
		a := args[i]
		if a == "--" {
			p.Operands = append(p.Operands, args[i+1:]...)
			return
		}
		if len(a) < 2 || a[0] != '-' {
			if s.Syntax == GoFlag {
				p.Operands = append(p.Operands, args[i:]...)
				return
			}
			p.Operands = append(p.Operands, a)
			continue
		}
		name := a[1:]
		if name[0] == '-' {
			name = name[1:]
		}
		if name == "" || name[0] == '-' || name[0] == '=' {
			p.unknown("bad flag syntax "+a, a+" is not a flag the program accepts")
			return
		}
		name, value, hasValue := strings.Cut(name, "=")
		o := s.long("-"+name, false)
		if o == nil {
			p.unknownOption("-" + name)
			return
		}
		switch o.Arity {
		case NoValue:
			if hasValue && !goBool(value) {
				p.unknownOption(a)
				return
			}
		default:
			if !hasValue {
				if i+1 >= len(args) {
					p.unknown("missing value for -"+name, "-"+name+" needs a value")
					return
				}
				i++
				value, hasValue = args[i], true
			}
		}
		p.use(o, "-"+name, value, hasValue)
		if o.Ends {
			p.Operands = append(p.Operands, args[i+1:]...)
			return
		}
	}
}

func goBool(v string) bool {
	switch v {
	case "1", "0", "t", "f", "T", "F", "true", "false", "TRUE", "FALSE", "True", "False":
		return true
	}
	return false
}

// find reads find's global options, starting points and expression.
func (p *Parsed) find(args []string) {
	s := p.Spec
	i := 0
	// Global options before the starting points.
	for ; i < len(args); i++ {
		a := args[i]
		if a == "-H" || a == "-L" || a == "-P" || a == "-D" || a == "-O" || strings.HasPrefix(a, "-O") && allDigits(a[2:]) {
			o := s.long(a, false)
			if o == nil && strings.HasPrefix(a, "-O") {
				o = s.long("-O", false)
			}
			if o == nil {
				p.unknownOption(a)
				return
			}
			value, hasValue := "", false
			if o.Arity == Value {
				if i+1 >= len(args) {
					p.unknown("missing value for "+a, a+" needs a value")
					return
				}
				i++
				value, hasValue = args[i], true
			}
			p.use(o, a, value, hasValue)
			if p.Problem != nil {
				return
			}
			continue
		}
		break
	}
	// Starting points.
	for ; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") || a == "(" || a == "!" {
			break
		}
		p.Operands = append(p.Operands, a)
	}
	// The expression.
	for ; i < len(args) && p.Problem == nil; i++ {
		a := args[i]
		switch a {
		case "(", ")", "!", ",":
			continue
		}
		if !strings.HasPrefix(a, "-") {
			p.unknown("find expression word "+a, "find takes "+a+" as neither a starting point nor a predicate")
			return
		}
		o := s.long(a, false)
		if o == nil {
			p.unknownOption(a)
			return
		}
		value, hasValue := "", false
		if o.Arity == Value {
			if i+1 >= len(args) {
				p.unknown("missing value for "+a, a+" needs a value")
				return
			}
			i++
			value, hasValue = args[i], true
		}
		p.use(o, a, value, hasValue)
	}
}

// finish checks the operand count, assigns operand roles and runs the
// spec's Check.
func (p *Parsed) finish() {
	s := p.Spec
	switch {
	case s.MaxOperands == NoOperands && len(p.Operands) > 0:
		p.unknown("unexpected operand "+p.Operands[0],
			s.title()+" takes no operand, so "+p.Operands[0]+" is not understood; a person decides")
		return
	case s.MaxOperands > 0 && len(p.Operands) > s.MaxOperands:
		extra := p.Operands[s.MaxOperands]
		p.unknown("unexpected operand "+extra,
			s.title()+" takes at most "+itoa(s.MaxOperands)+" operand(s), so "+extra+" is not understood; a person decides")
		return
	}
	recursive, hidden := s.Recursive, s.Hidden || p.Hidden
	firstGiven, names := false, false
	for _, u := range p.Options {
		names = names || u.Option.NamesOnly
		recursive = recursive || u.Option.Recursive || u.HasValue && valueSelects(u.Option.RecursiveIf, u.Value)
		hidden = hidden || u.Option.Hidden
		for _, n := range s.FirstGiven {
			for _, m := range u.Option.Names {
				firstGiven = firstGiven || m == n
			}
		}
	}
	p.Hidden = hidden || (recursive && !s.Recursive)
	role := s.Operands
	if role == 0 {
		role = Read
	}
	if recursive && role == Read && !names {
		role = ReadTree
	}
	trees := 0
	for k, w := range p.Operands {
		r := role
		if k == 0 && s.First != 0 && !firstGiven {
			r = s.First
		}
		if r == ReadTree {
			trees++
		}
		if r != Text {
			p.Files = append(p.Files, Arg{Word: w, Role: r})
		}
	}
	if recursive && trees == 0 && s.DefaultTree != "" && (!names || len(p.Operands) == 0) {
		p.Files = append(p.Files, Arg{Word: s.DefaultTree, Role: role})
	}
	if s.Check != nil && p.Problem == nil {
		p.Problem = s.Check(p)
	}
}

// valueSelects reports whether value names one of values as the program
// matches it: the whole word, or a prefix of it (GNU's argmatch takes a
// unique prefix, and an ambiguous one is refused by the program anyway).
func valueSelects(values []string, value string) bool {
	if value == "" {
		return false
	}
	for _, v := range values {
		if strings.HasPrefix(v, value) {
			return true
		}
	}
	return false
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
