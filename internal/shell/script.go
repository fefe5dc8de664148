package shell

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// Script is a script made only of simple commands.
type Script struct {
	// Commands in source order. A script has at least one command.
	Commands []Command
	// Ops[i] is the operator between Commands[i] and Commands[i+1]: "|",
	// "|&", "&&", "||" or ";" (a newline is reported as ";").
	Ops []string
}

// Compound reports whether the script has more than one command.
func (s *Script) Compound() bool { return len(s.Commands) > 1 }

// HasGlobs reports whether a word of the script holds a glob pattern.
func (s *Script) HasGlobs() bool {
	for i := range s.Commands {
		if s.Commands[i].Globs != nil {
			return true
		}
	}
	return false
}

// Equal reports whether s and o hold the same commands joined by the same
// operators.
func (s *Script) Equal(o *Script) bool {
	if len(s.Commands) != len(o.Commands) || !slices.Equal(s.Ops, o.Ops) {
		return false
	}
	for i := range s.Commands {
		a, b := &s.Commands[i], &o.Commands[i]
		if !slices.Equal(a.Assigns, b.Assigns) || !slices.Equal(a.Args, b.Args) || !slices.Equal(a.Globs, b.Globs) ||
			!slices.Equal(a.Patterns, b.Patterns) || !slices.Equal(a.Redirs, b.Redirs) || a.Negated != b.Negated {
			return false
		}
	}
	return true
}

// Command is one simple command with its words already expanded (they are
// all literal, so expansion is quote removal only).
type Command struct {
	// Assigns are the NAME=value words in front of the command, or the whole
	// statement when Args is empty (`X=1`).
	Assigns []Assign
	// Args is the argv the shell would execute; empty for a bare assignment.
	Args []string
	// Globs[i] reports whether Args[i] holds an unquoted glob pattern.
	// It is nil when no word does.
	Globs []bool
	// Patterns[i] is, when Globs[i] is set, the word as a pattern: Args[i]
	// with the characters that were quoted or escaped in the script
	// escaped with a backslash, so that only the unquoted *, ? and [...]
	// are special. It is nil when Globs is.
	Patterns []string
	// Redirs are the redirections of the command, in order.
	Redirs []Redirect
	// Negated is set for `! cmd`.
	Negated bool
}

// Assign is an environment or shell variable assignment.
type Assign struct {
	Name   string
	Value  string
	Append bool // NAME+=value
}

// Redirect is one redirection with a literal target.
type Redirect struct {
	// Fd is the file descriptor written before the operator, or -1 when
	// none was written (the operator's default: 0 for input, 1 for output).
	Fd int
	// Op is ">", ">>", ">|", "<", "<>", "&>", "&>>", ">&" or "<&".
	Op string
	// Target is the literal target: a file name, or for ">&"/"<&" a file
	// descriptor number or "-".
	Target string
}

// IsDup reports whether the redirection only duplicates or closes a file
// descriptor (`2>&1`, `>&2`, `<&3`, `>&-`): it opens no file.
func (r Redirect) IsDup() bool {
	if r.Op != ">&" && r.Op != "<&" {
		return false
	}
	if r.Target == "-" {
		return true
	}
	return isDigits(r.Target)
}

// Writes reports whether the redirection opens its target for writing.
func (r Redirect) Writes() bool {
	switch r.Op {
	case ">", ">>", ">|", "&>", "&>>", "<>", ">&":
		return !r.IsDup()
	}
	return false
}

// InscrutableError reports a script the package does not fully understand.
type InscrutableError struct {
	// Reason is a short phrase such as "command substitution".
	Reason string
}

func (e *InscrutableError) Error() string { return "inscrutable shell script: " + e.Reason }

func inscrutable(format string, args ...any) error {
	return &InscrutableError{Reason: fmt.Sprintf(format, args...)}
}

// Dialect selects the grammar a script is parsed with. The same text can
// mean different things to different shells: `true &>/dev/null curl x` is
// one command with a redirection to bash, but to dash a background job
// followed by `>/dev/null curl x`. A caller that does not know which shell
// will run a script parses it in every dialect the shell may be and takes
// the worst answer.
type Dialect int

const (
	// Bash is GNU bash's grammar.
	Bash Dialect = iota
	// Zsh has no grammar here. A zsh script is accepted only when the
	// bash and the POSIX grammars give the same commands, with none of
	// zsh's expansions of plain-looking words: a word beginning with an
	// unquoted = (`=curl` expands to curl's path), a $ left as text, or a
	// glob pattern (zsh's differ from bash's) is inscrutable.
	Zsh
	// POSIX is the POSIX shell grammar, as dash, posh and busybox ash
	// read it. Bash-only syntax (`&>`, `|&`, extended globs, [[ ]]) is a
	// syntax error, hence inscrutable.
	POSIX
	// MirBSDKorn is mksh's grammar (`|&` starts a coprocess).
	MirBSDKorn
	numDialects
)

// String returns the dialect's name.
func (d Dialect) String() string {
	switch d {
	case Bash:
		return "bash"
	case Zsh:
		return "zsh"
	case POSIX:
		return "posix"
	case MirBSDKorn:
		return "mksh"
	}
	return fmt.Sprintf("Dialect(%d)", int(d))
}

// MaxScriptLen is the longest script Parse accepts; longer ones are
// inscrutable.
const MaxScriptLen = 64 << 10

// parserPools holds idle parsers, one pool per grammar.
var parserPools = [numDialects]sync.Pool{
	Bash:       {New: func() any { return newParser(syntax.LangBash) }},
	POSIX:      {New: func() any { return newParser(syntax.LangPOSIX) }},
	MirBSDKorn: {New: func() any { return newParser(syntax.LangMirBSDKorn) }},
}

func newParser(l syntax.LangVariant) *syntax.Parser {
	return syntax.NewParser(syntax.Variant(l), syntax.KeepComments(false))
}

// Parse parses src with d's grammar and returns its simple commands, or an
// error: an *InscrutableError for anything not fully understood (syntax
// errors included). Parse never panics.
func Parse(src string, d Dialect) (*Script, error) {
	switch d {
	case Bash, POSIX, MirBSDKorn:
		return parse(src, d, d)
	case Zsh:
		s, err := parse(src, Bash, Zsh)
		if err != nil {
			return nil, err
		}
		p, err := parse(src, POSIX, Zsh)
		if err != nil {
			return nil, inscrutable("zsh script that POSIX sh reads otherwise: %s", err.(*InscrutableError).Reason)
		}
		if !s.Equal(p) {
			return nil, inscrutable("zsh script that bash and POSIX sh read differently")
		}
		return s, nil
	}
	return nil, inscrutable("unknown shell dialect %v", d)
}

// parse parses src with grammar g and builds the script with the word
// rules of dialect d.
func parse(src string, g, d Dialect) (s *Script, err error) {
	if len(src) > MaxScriptLen {
		return nil, inscrutable("script longer than %d bytes", MaxScriptLen)
	}
	if strings.IndexByte(src, 0) >= 0 {
		return nil, inscrutable("NUL byte in script")
	}
	if strings.Contains(src, "\\\n") {
		// The shell drops a backslash-newline before it splits words,
		// even inside double quotes, so "$\<newline>(cmd)" is a command
		// substitution; the parser does not always see it that way.
		return nil, inscrutable("line continuation (backslash-newline)")
	}
	defer func() {
		if r := recover(); r != nil {
			s, err = nil, inscrutable("parser failure")
		}
	}()
	p := parserPools[g].Get().(*syntax.Parser)
	f, perr := p.Parse(strings.NewReader(src), "")
	parserPools[g].Put(p)
	if perr != nil {
		return nil, inscrutable("syntax error: %v", perr)
	}
	if len(f.Stmts) == 0 {
		return nil, inscrutable("empty script")
	}
	b := builder{dialect: d, script: &Script{}}
	for i, st := range f.Stmts {
		if i > 0 {
			b.script.Ops = append(b.script.Ops, ";")
		}
		if err := b.stmt(st); err != nil {
			return nil, err
		}
	}
	return b.script, nil
}

type builder struct {
	dialect Dialect
	script  *Script
}

func (b *builder) stmt(st *syntax.Stmt) error {
	switch {
	case st.Background:
		return inscrutable("background job (&)")
	case st.Coprocess:
		return inscrutable("coprocess")
	}
	switch c := st.Cmd.(type) {
	case *syntax.CallExpr:
		cmd, err := b.call(c)
		if err != nil {
			return err
		}
		if err := b.redirs(&cmd, st.Redirs); err != nil {
			return err
		}
		cmd.Negated = st.Negated
		b.script.Commands = append(b.script.Commands, cmd)
		return nil
	case *syntax.BinaryCmd:
		if len(st.Redirs) > 0 || st.Negated {
			return inscrutable("redirection or negation of a compound command")
		}
		if err := b.stmt(c.X); err != nil {
			return err
		}
		switch c.Op {
		case syntax.AndStmt:
			b.script.Ops = append(b.script.Ops, "&&")
		case syntax.OrStmt:
			b.script.Ops = append(b.script.Ops, "||")
		case syntax.Pipe:
			b.script.Ops = append(b.script.Ops, "|")
		case syntax.PipeAll:
			b.script.Ops = append(b.script.Ops, "|&")
		default:
			return inscrutable("operator %v", c.Op)
		}
		return b.stmt(c.Y)
	case *syntax.TimeClause:
		if c.Stmt == nil || len(st.Redirs) > 0 {
			return inscrutable("time clause")
		}
		if _, ok := c.Stmt.Cmd.(*syntax.CallExpr); !ok {
			return inscrutable("time of a compound command")
		}
		inner := *c.Stmt
		inner.Negated = inner.Negated || st.Negated
		return b.stmt(&inner)
	case nil:
		return inscrutable("redirection without a command")
	case *syntax.Subshell:
		return inscrutable("subshell")
	case *syntax.Block:
		return inscrutable("brace group")
	case *syntax.FuncDecl:
		return inscrutable("function definition")
	case *syntax.IfClause:
		return inscrutable("if clause")
	case *syntax.WhileClause:
		return inscrutable("loop")
	case *syntax.ForClause:
		return inscrutable("loop")
	case *syntax.CaseClause:
		return inscrutable("case clause")
	case *syntax.ArithmCmd:
		return inscrutable("arithmetic command")
	case *syntax.TestClause:
		return inscrutable("[[ ]] test clause")
	case *syntax.DeclClause:
		return inscrutable("declaration (%s)", c.Variant.Value)
	case *syntax.LetClause:
		return inscrutable("let arithmetic")
	case *syntax.CoprocClause:
		return inscrutable("coprocess")
	default:
		return inscrutable("unsupported construct %T", c)
	}
}

// runsText are builtins that run a string as code or change how later
// command names resolve. (exec is left to the caller, which can look
// through `exec cmd` like any wrapper.) It is built on first use.
var runsText = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"eval":      "eval runs its arguments as a script",
		"source":    "source runs a file in the shell",
		".":         ". runs a file in the shell",
		"trap":      "trap registers code to run later",
		"alias":     "alias changes what a name runs",
		"unalias":   "unalias changes what a name runs",
		"builtin":   "builtin bypasses functions and aliases",
		"enable":    "enable can load builtins from a shared object",
		"hash":      "hash changes where a command name points",
		"shopt":     "shopt changes the shell's expansion rules",
		"fc":        "fc edits and runs history",
		"bind":      "bind binds keys to commands",
		"mapfile":   "mapfile can run a callback",
		"readarray": "readarray can run a callback",
		"let":       "let evaluates arithmetic",
		"typeset":   "declaration",
		"declare":   "declaration",
		"export":    "declaration",
		"local":     "declaration",
		"readonly":  "declaration",
		"coproc":    "coprocess",
		"select":    "select loop",
		"function":  "function definition",
		"emulate":   "zsh emulate changes the shell's rules",
		"autoload":  "autoload loads functions",
		"zmodload":  "zmodload loads shell modules",
		"noglob":    "zsh precommand modifier",
		"nocorrect": "zsh precommand modifier",
	}
})

func (b *builder) call(c *syntax.CallExpr) (Command, error) {
	var cmd Command
	for _, a := range c.Assigns {
		if a.Naked || a.Name == nil || a.Index != nil || a.Array != nil {
			return cmd, inscrutable("array or indexed assignment")
		}
		v := ""
		if a.Value != nil {
			s, glob, err := b.word(a.Value, false)
			if err != nil {
				return cmd, err
			}
			if glob {
				// Assignments do not glob, but a pattern here is unusual
				// enough not to guess.
				return cmd, inscrutable("glob in assignment value")
			}
			v = s
		}
		cmd.Assigns = append(cmd.Assigns, Assign{Name: a.Name.Value, Value: v, Append: a.Append})
	}
	for i, w := range c.Args {
		s, glob, err := b.word(w, i == 0)
		if err != nil {
			return cmd, err
		}
		if glob {
			if b.dialect == Zsh {
				return cmd, inscrutable("glob in a zsh script (zsh's patterns are not bash's)")
			}
			if cmd.Globs == nil {
				cmd.Globs = make([]bool, len(c.Args))
				cmd.Patterns = make([]string, len(c.Args))
			}
			cmd.Globs[i] = true
			cmd.Patterns[i] = pattern(w)
			if unescape(cmd.Patterns[i]) != s {
				// A trailing backslash, say: the word and the pattern
				// the shell matches would differ.
				return cmd, inscrutable("glob word %q whose pattern does not read back as the word", s)
			}
		}
		cmd.Args = append(cmd.Args, s)
	}
	if len(cmd.Args) > 0 {
		if cmd.Globs != nil && cmd.Globs[0] {
			return cmd, inscrutable("glob in command name")
		}
		if why, ok := runsText()[cmd.Args[0]]; ok {
			return cmd, inscrutable("%s", why)
		}
		if cmd.Args[0] == "set" && !PlainSet(cmd.Args[1:]) {
			return cmd, inscrutable("set changes positional parameters or unusual options")
		}
	}
	return cmd, nil
}

// PlainSet reports whether args (the words after `set`) are only options
// that change error handling or tracing: -e -u -x -v and -o
// pipefail/errexit/nounset/xtrace/verbose, in - and + forms. Bare set (it
// prints every variable, the environment's among them), positional
// parameters and every other option (-k and -a change how later commands
// read assignments, -o posix and -B how they parse) are not plain.
func PlainSet(args []string) bool {
	if len(args) == 0 {
		return false // prints all variables and functions: unusual
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if len(a) < 2 || (a[0] != '-' && a[0] != '+') {
			return false
		}
		for j := 1; j < len(a); j++ {
			switch a[j] {
			case 'e', 'u', 'x', 'v':
			case 'o':
				if j != len(a)-1 || i+1 >= len(args) {
					return false
				}
				switch args[i+1] {
				case "pipefail", "errexit", "nounset", "xtrace", "verbose":
				default:
					return false
				}
				i++
			default:
				return false
			}
		}
	}
	return true
}

func (b *builder) redirs(cmd *Command, rs []*syntax.Redirect) error {
	for _, r := range rs {
		if r.Hdoc != nil {
			return inscrutable("here-document")
		}
		fd := -1
		if r.N != nil {
			if !isDigits(r.N.Value) || len(r.N.Value) > 4 {
				return inscrutable("named file descriptor {%s}", r.N.Value)
			}
			fd = atoi(r.N.Value)
		}
		var op string
		switch r.Op {
		case syntax.RdrOut:
			op = ">"
		case syntax.AppOut:
			op = ">>"
		case syntax.RdrIn:
			op = "<"
		case syntax.RdrInOut:
			op = "<>"
		case syntax.DplIn:
			op = "<&"
		case syntax.DplOut:
			op = ">&"
		case syntax.ClbOut:
			op = ">|"
		case syntax.RdrAll:
			op = "&>"
		case syntax.AppAll:
			op = "&>>"
		case syntax.Hdoc, syntax.DashHdoc:
			return inscrutable("here-document")
		case syntax.WordHdoc:
			return inscrutable("here-string")
		default:
			return inscrutable("redirection %v", r.Op)
		}
		if r.Word == nil {
			return inscrutable("redirection without a target")
		}
		if b.dialect == Zsh && len(r.Word.Parts) > 0 {
			if l, ok := r.Word.Parts[0].(*syntax.Lit); ok && strings.HasPrefix(l.Value, "!") {
				// bash and sh read `>! f` as a write to the file "!"
				// and f as an argument; zsh as one operator, >!, that
				// overwrites f.
				return inscrutable("zsh reads %s! as one operator that overwrites the word after it", op)
			}
		}
		t, glob, err := b.word(r.Word, false)
		if err != nil {
			return err
		}
		if glob {
			return inscrutable("glob in redirection target")
		}
		if t == "" {
			return inscrutable("empty redirection target")
		}
		cmd.Redirs = append(cmd.Redirs, Redirect{Fd: fd, Op: op, Target: t})
	}
	return nil
}

// word returns the literal value of w after quote removal, and whether it
// holds an unquoted glob pattern.
func (b *builder) word(w *syntax.Word, first bool) (string, bool, error) {
	if braceShaped(w) {
		return "", false, inscrutable("brace expansion")
	}
	if assignmentTilde(w) {
		return "", false, inscrutable("a ~ after = or : in an argument shaped like an assignment, which bash expands to a home directory")
	}
	var sb strings.Builder
	glob := false
	for i, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if b.dialect == Zsh && i == 0 && strings.HasPrefix(p.Value, "=") {
				return "", false, inscrutable("zsh =command expansion")
			}
			if bareDollar(p.Value) {
				return "", false, inscrutable("a $ left as text (zsh expands $~NAME, $=NAME, $^NAME and $+NAME)")
			}
			g := unquoteLit(&sb, p.Value)
			glob = glob || g
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false, inscrutable("ANSI-C $'...' quoting")
			}
			sb.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", false, inscrutable(`locale $"..." quoting`)
			}
			for _, q := range p.Parts {
				lit, ok := q.(*syntax.Lit)
				if !ok {
					return "", false, inscrutable("%s inside double quotes", partName(q))
				}
				if bareDollar(lit.Value) {
					return "", false, inscrutable("a $ left as text inside double quotes")
				}
				unquoteDbl(&sb, lit.Value)
			}
		default:
			return "", false, inscrutable("%s", partName(part))
		}
	}
	return sb.String(), glob, nil
}

// assignmentTilde reports whether w is shaped like an assignment
// (NAME=..., NAME+=..., NAME[i]=..., all unquoted) and has an unquoted ~
// right after its first = or after a :. Bash expands such a tilde in any
// argument, not only in assignments (`cat x=~/secret` reads
// x=/home/user/secret), so the word's text is not what the program gets.
func assignmentTilde(w *syntax.Word) bool {
	// The unquoted text the word begins with, which the parser may give
	// in several literal parts (a, [0]=~/x); joined only then.
	if len(w.Parts) == 0 {
		return false
	}
	first, ok := w.Parts[0].(*syntax.Lit)
	if !ok {
		return false
	}
	if subscripted(first.Value) || len(w.Parts) > 1 && syntax.ValidName(first.Value) && litStarts(w.Parts[1], "[") {
		// NAME[...]: bash reads the word as an assignment whatever the
		// subscript holds (a['k']=~/x, a["k l"]=~/x), so any unquoted ~
		// in it may be expanded.
		for _, part := range w.Parts {
			if lit, ok := part.(*syntax.Lit); ok && strings.Contains(lit.Value, "~") {
				return true
			}
		}
		return false
	}
	text, n := first.Value, 1
	if strings.IndexByte(text, '=') < 0 {
		if len(w.Parts) < 2 {
			return false
		}
		if _, ok := w.Parts[1].(*syntax.Lit); !ok {
			return false
		}
		var lead strings.Builder
		lead.WriteString(text)
		for ; n < len(w.Parts); n++ {
			lit, ok := w.Parts[n].(*syntax.Lit)
			if !ok {
				break
			}
			lead.WriteString(lit.Value)
		}
		text = lead.String()
	}
	eq := strings.IndexByte(text, '=')
	if eq <= 0 || !assignmentName(text[:eq]) {
		return false
	}
	value := text[eq+1:]
	if strings.HasPrefix(value, "~") || strings.Contains(value, ":~") {
		return true
	}
	after := strings.HasSuffix(value, ":") // the next unquoted text follows a :
	for _, part := range w.Parts[n:] {
		lit, ok := part.(*syntax.Lit)
		if !ok {
			after = false
			continue
		}
		if after && strings.HasPrefix(lit.Value, "~") || strings.Contains(lit.Value, ":~") {
			return true
		}
		after = strings.HasSuffix(lit.Value, ":")
	}
	return false
}

// litStarts reports whether part is unquoted text beginning with prefix.
func litStarts(part syntax.WordPart, prefix string) bool {
	lit, ok := part.(*syntax.Lit)
	return ok && strings.HasPrefix(lit.Value, prefix)
}

// subscripted reports whether s begins with a variable name and "[".
func subscripted(s string) bool {
	i := strings.IndexByte(s, '[')
	return i > 0 && syntax.ValidName(s[:i])
}

// assignmentName reports whether s, the text before an argument's first
// "=", makes the argument look like an assignment to bash: a variable
// name, maybe with a subscript (a[0]=), maybe appending (x+=).
func assignmentName(s string) bool {
	s = strings.TrimSuffix(s, "+")
	if i := strings.IndexByte(s, '['); i > 0 && strings.HasSuffix(s, "]") {
		s = s[:i]
	}
	return syntax.ValidName(s)
}

// pattern returns w (made of literal and quoted parts only, as word has
// checked) as a glob pattern: unquoted text as written, with its backslash
// escapes, and quoted text with every pattern character escaped.
func pattern(w *syntax.Word) string {
	var sb strings.Builder
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			sb.WriteString(p.Value)
		case *syntax.SglQuoted:
			quoteMeta(&sb, p.Value)
		case *syntax.DblQuoted:
			var q strings.Builder
			for _, dp := range p.Parts {
				if lit, ok := dp.(*syntax.Lit); ok {
					unquoteDbl(&q, lit.Value)
				}
			}
			quoteMeta(&sb, q.String())
		}
	}
	return sb.String()
}

// quoteMeta appends s with the pattern characters * ? [ ] \ escaped.
func quoteMeta(sb *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '*', '?', '[', ']', '\\':
			sb.WriteByte('\\')
		}
		sb.WriteByte(s[i])
	}
}

func partName(p syntax.WordPart) string {
	switch p.(type) {
	case *syntax.ParamExp:
		return "parameter expansion"
	case *syntax.CmdSubst:
		return "command substitution"
	case *syntax.ArithmExp:
		return "arithmetic expansion"
	case *syntax.ProcSubst:
		return "process substitution"
	case *syntax.ExtGlob:
		return "extended glob"
	case *syntax.BraceExp:
		return "brace expansion"
	}
	return fmt.Sprintf("word part %T", p)
}

// unquoteLit appends an unquoted literal with backslash escapes removed and
// reports whether it holds an unescaped glob pattern.
func unquoteLit(sb *strings.Builder, v string) bool {
	glob := false
	openBracket := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c == '\\' {
			if i+1 < len(v) {
				i++
				if v[i] != '\n' {
					sb.WriteByte(v[i])
				}
			}
			continue
		}
		switch c {
		case '*', '?':
			glob = true
		case '[':
			openBracket = true
		case ']':
			if openBracket {
				glob = true
			}
		}
		sb.WriteByte(c)
	}
	return glob
}

// bareDollar reports an unescaped $ in literal text. The parser leaves a $
// as text when no bash expansion follows it, but zsh expands $~NAME,
// $=NAME, $^NAME and $+NAME, and other shells differ too: such a word is
// not understood.
func bareDollar(v string) bool {
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '\\':
			i++
		case '$':
			return true
		}
	}
	return false
}

// unquoteDbl appends a literal found inside double quotes, where a
// backslash escapes only $ ` " \ and newline.
func unquoteDbl(sb *strings.Builder, v string) {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c == '\\' && i+1 < len(v) {
			switch v[i+1] {
			case '$', '`', '"', '\\':
				sb.WriteByte(v[i+1])
				i++
				continue
			case '\n':
				i++
				continue
			}
		}
		sb.WriteByte(c)
	}
}

// braceShaped reports whether the unquoted parts of w form a brace
// expansion. Quoted text stands in as a neutral letter, since bash expands
// {a,"b"} but not {"a,b"}.
func braceShaped(w *syntax.Word) bool {
	open := false
	for _, part := range w.Parts {
		if lit, ok := part.(*syntax.Lit); ok && strings.IndexByte(lit.Value, '{') >= 0 {
			open = true
			break
		}
	}
	if !open {
		return false
	}
	var shape strings.Builder
	for _, part := range w.Parts {
		if lit, ok := part.(*syntax.Lit); ok {
			shape.WriteString(lit.Value)
		} else {
			shape.WriteByte('x')
		}
	}
	return hasBraceExpansion(shape.String())
}

// hasBraceExpansion reports an unescaped {...} holding a comma or "..",
// which bash expands into several words. `{}` alone (find -exec) is literal.
func hasBraceExpansion(v string) bool {
	depth := 0
	start := -1
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '\\':
			i++
		case '{':
			if depth == 0 {
				start = i
			}
			depth++
		case '}':
			if depth > 0 {
				depth--
				if depth == 0 {
					inner := v[start+1 : i]
					if strings.Contains(inner, ",") || strings.Contains(inner, "..") {
						return true
					}
				}
			}
		}
	}
	return false
}

func isDigits(s string) bool {
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

func atoi(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}
