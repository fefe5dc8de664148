package shell

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func cmd(args ...string) Command { return Command{Args: args} }

// parseTests lists scripts that parse into simple commands, with the exact
// result expected.
var parseTests = []struct {
	in   string
	want Script
}{
	{"ls", Script{Commands: []Command{cmd("ls")}}},
	{"ls -la", Script{Commands: []Command{cmd("ls", "-la")}}},
	{"  ls\t-la  ", Script{Commands: []Command{cmd("ls", "-la")}}},
	{"ls # comment", Script{Commands: []Command{cmd("ls")}}},
	{`"cu"rl x`, Script{Commands: []Command{cmd("curl", "x")}}},
	{`'su''do' id`, Script{Commands: []Command{cmd("sudo", "id")}}},
	{`\curl x`, Script{Commands: []Command{cmd("curl", "x")}}},
	{`c\url x`, Script{Commands: []Command{cmd("curl", "x")}}},
	{`echo "a\$b" "c\"d" "e\\f" "g\h"`, Script{Commands: []Command{cmd("echo", "a$b", `c"d`, `e\f`, `g\h`)}}},
	{`echo 'a$b' 'c\d'`, Script{Commands: []Command{cmd("echo", "a$b", `c\d`)}}},
	{`grep -n 'a|b' x`, Script{Commands: []Command{cmd("grep", "-n", "a|b", "x")}}},
	{"find . -exec rm {} +", Script{Commands: []Command{cmd("find", ".", "-exec", "rm", "{}", "+")}}},
	{"find . -name '*.go'", Script{Commands: []Command{cmd("find", ".", "-name", "*.go")}}},
	{"[ -f go.mod ]", Script{Commands: []Command{cmd("[", "-f", "go.mod", "]")}}},
	{"ls ~/x", Script{Commands: []Command{cmd("ls", "~/x")}}},
	{"time ls", Script{Commands: []Command{cmd("ls")}}},
	{"! false", Script{Commands: []Command{{Args: []string{"false"}, Negated: true}}}},
	{"set -euo pipefail", Script{Commands: []Command{cmd("set", "-euo", "pipefail")}}},
	{"set -e -x", Script{Commands: []Command{cmd("set", "-e", "-x")}}},
	{"A=1 B='x y' ls", Script{Commands: []Command{{Assigns: []Assign{{Name: "A", Value: "1"}, {Name: "B", Value: "x y"}}, Args: []string{"ls"}}}}},
	{"A=1", Script{Commands: []Command{{Assigns: []Assign{{Name: "A", Value: "1"}}}}}},
	{"P+=x", Script{Commands: []Command{{Assigns: []Assign{{Name: "P", Value: "x", Append: true}}}}}},
	{"A= ls", Script{Commands: []Command{{Assigns: []Assign{{Name: "A"}}, Args: []string{"ls"}}}}},
	{"ls *.go", Script{Commands: []Command{{Args: []string{"ls", "*.go"}, Globs: []bool{false, true}, Patterns: []string{"", "*.go"}}}}},
	{"ls a?c", Script{Commands: []Command{{Args: []string{"ls", "a?c"}, Globs: []bool{false, true}, Patterns: []string{"", "a?c"}}}}},
	{"ls [ab]", Script{Commands: []Command{{Args: []string{"ls", "[ab]"}, Globs: []bool{false, true}, Patterns: []string{"", "[ab]"}}}}},
	{`ls \*.go`, Script{Commands: []Command{cmd("ls", "*.go")}}},
	{`ls "*.go"`, Script{Commands: []Command{cmd("ls", "*.go")}}},
	{"ls > out.txt", Script{Commands: []Command{{Args: []string{"ls"}, Redirs: []Redirect{{Fd: -1, Op: ">", Target: "out.txt"}}}}}},
	{"ls >> out 2>&1", Script{Commands: []Command{{Args: []string{"ls"}, Redirs: []Redirect{{Fd: -1, Op: ">>", Target: "out"}, {Fd: 2, Op: ">&", Target: "1"}}}}}},
	{"ls 2>/dev/null", Script{Commands: []Command{{Args: []string{"ls"}, Redirs: []Redirect{{Fd: 2, Op: ">", Target: "/dev/null"}}}}}},
	{"ls &> log", Script{Commands: []Command{{Args: []string{"ls"}, Redirs: []Redirect{{Fd: -1, Op: "&>", Target: "log"}}}}}},
	{"ls &>> log", Script{Commands: []Command{{Args: []string{"ls"}, Redirs: []Redirect{{Fd: -1, Op: "&>>", Target: "log"}}}}}},
	{"ls >| log", Script{Commands: []Command{{Args: []string{"ls"}, Redirs: []Redirect{{Fd: -1, Op: ">|", Target: "log"}}}}}},
	{"cat < in", Script{Commands: []Command{{Args: []string{"cat"}, Redirs: []Redirect{{Fd: -1, Op: "<", Target: "in"}}}}}},
	{"cat 3<> f", Script{Commands: []Command{{Args: []string{"cat"}, Redirs: []Redirect{{Fd: 3, Op: "<>", Target: "f"}}}}}},
	{"ls >&2", Script{Commands: []Command{{Args: []string{"ls"}, Redirs: []Redirect{{Fd: -1, Op: ">&", Target: "2"}}}}}},
	{"ls >&-", Script{Commands: []Command{{Args: []string{"ls"}, Redirs: []Redirect{{Fd: -1, Op: ">&", Target: "-"}}}}}},
	{"> out ls", Script{Commands: []Command{{Args: []string{"ls"}, Redirs: []Redirect{{Fd: -1, Op: ">", Target: "out"}}}}}},
	{"a | b", Script{Commands: []Command{cmd("a"), cmd("b")}, Ops: []string{"|"}}},
	{"a |& b", Script{Commands: []Command{cmd("a"), cmd("b")}, Ops: []string{"|&"}}},
	{"a && b || c", Script{Commands: []Command{cmd("a"), cmd("b"), cmd("c")}, Ops: []string{"&&", "||"}}},
	{"a; b", Script{Commands: []Command{cmd("a"), cmd("b")}, Ops: []string{";"}}},
	{"a\nb", Script{Commands: []Command{cmd("a"), cmd("b")}, Ops: []string{";"}}},
	{"a && b | c; d", Script{Commands: []Command{cmd("a"), cmd("b"), cmd("c"), cmd("d")}, Ops: []string{"&&", "|", ";"}}},
	{"exec ls", Script{Commands: []Command{cmd("exec", "ls")}}},
	{"cd x && ls", Script{Commands: []Command{cmd("cd", "x"), cmd("ls")}, Ops: []string{"&&"}}},
}

func TestParse(t *testing.T) {
	for _, tc := range parseTests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := Parse(tc.in, Bash)
			require.NoError(t, err)
			require.Equal(t, tc.want, *got)
		})
	}
}

// inscrutableTests lists scripts that must be refused, with a fragment of
// the reason.
var inscrutableTests = []struct {
	in     string
	reason string
}{
	{"", "empty script"},
	{"   ", "empty script"},
	{"# only a comment", "empty script"},
	{"echo $(id)", "command substitution"},
	{"echo `id`", "command substitution"},
	{`echo "$(id)"`, "command substitution inside double quotes"},
	// The shell removes backslash-newline before splitting words, even
	// inside double quotes: these are command substitutions.
	{"echo \"$\\\n(id)\"", "line continuation"},
	{"echo $\\\n(id)", "line continuation"},
	{"ls \\\n -la", "line continuation"},
	// Bash expands ~ after = or : in any argument shaped like an
	// assignment.
	{"cat x=~/secret", "shaped like an assignment"},
	{"cat x=a:~/b", "shaped like an assignment"},
	{"cat PATH=/bin:~/bin", "shaped like an assignment"},
	{`cat x=a:"b":~/c`, "shaped like an assignment"},
	{"make PREFIX=~/bin", "shaped like an assignment"},
	{"cat x+=~/a", "shaped like an assignment"},
	{"cat a[0]=~/x", "shaped like an assignment"},
	{"cat a['k']=~/x", "shaped like an assignment"},
	{`cat a["k l"]=~/x`, "shaped like an assignment"},
	// A $ the parser leaves as text is an expansion in zsh.
	{"cat $~HOME/.ssh/id_rsa", "a $ left as text"},
	{"echo x >> $=HOME/.zshrc", "a $ left as text"},
	{"echo $^a $+b", "a $ left as text"},
	{`echo "$~HOME"`, "a $ left as text inside double quotes"},
	{`echo "x$HOME"`, "parameter expansion inside double quotes"},
	{"ls $HOME", "parameter expansion"},
	{"ls ${HOME}", "parameter expansion"},
	{"ls $1", "parameter expansion"},
	{`"$0" "$@"`, "parameter expansion"},
	{"echo $((1+2))", "arithmetic expansion"},
	{"cat <(ls)", "process substitution"},
	{"echo x > >(sh)", "process substitution"},
	{"echo $'\\x41'", "ANSI-C"},
	{`echo $"x"`, "locale"},
	{"echo {a,b}", "brace expansion"},
	{"echo x{1..3}", "brace expansion"},
	{`echo {"a",b}`, "brace expansion"},
	{"ls @(a|b)", "extended glob"},
	{"(ls)", "subshell"},
	{"{ ls; }", "brace group"},
	{"f() { ls; }", "function"},
	{"function f { ls; }", "function"},
	{"for i in a; do ls; done", "loop"},
	{"while true; do ls; done", "loop"},
	{"until false; do ls; done", "loop"},
	{"if true; then ls; fi", "if clause"},
	{"case x in x) ls;; esac", "case clause"},
	{"[[ -f x ]]", "test clause"},
	{"(( x++ ))", "arithmetic command"},
	{"let x=1", "let"},
	{"export A=1", "declaration"},
	{"declare -x A=1", "declaration"},
	{"local a", "declaration"},
	{"readonly a=1", "declaration"},
	{"cat <<EOF\nx\nEOF", "here-document"},
	{"cat <<-EOF\n\tx\n\tEOF", "here-document"},
	{"cat <<< x", "here-string"},
	{"ls &", "background"},
	{"coproc ls", "coprocess"},
	{"eval ls", "eval"},
	{"source x", "source"},
	{". x", ". runs a file"},
	{"trap 'rm x' EXIT", "trap"},
	{"alias ls=x", "alias"},
	{"builtin echo", "builtin"},
	{"enable -f x.so y", "enable"},
	{"hash -p /tmp/x git", "hash"},
	{"shopt -s extglob", "shopt"},
	{"set -- a b", "set changes"},
	{"set", "set changes"},
	{"set -o vi", "set changes"},
	{"ls > $OUT", "parameter expansion"},
	{"ls > *.txt", "glob in redirection"},
	{"ls {fd}> x", "named file descriptor"},
	{"A=$(id) ls", "command substitution"},
	{"A=(1 2) ls", "array"},
	{"A[1]=2", "array"},
	{"*ls", "glob in command name"},
	{"ls 'unterminated", "syntax error"},
	{"ls |", "syntax error"},
	{"ls && && x", "syntax error"},
	{"echo \x00", "NUL"},
	{"(ls) > x", "subshell"},
	{"time (ls)", "time of a compound"},
}

func TestParseInscrutable(t *testing.T) {
	for _, tc := range inscrutableTests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := Parse(tc.in, Bash)
			require.Error(t, err, "parsed as %+v", got)
			var ie *InscrutableError
			require.ErrorAs(t, err, &ie)
			assert.Contains(t, ie.Reason, tc.reason)
			assert.Nil(t, got)
		})
	}
}

func TestParseZsh(t *testing.T) {
	_, err := Parse("=curl x", Zsh)
	require.Error(t, err)
	_, err = Parse("ls =x", Zsh)
	require.Error(t, err)
	s, err := Parse("ls a=b", Zsh)
	require.NoError(t, err)
	require.Equal(t, []string{"ls", "a=b"}, s.Commands[0].Args)
}

func TestParseTooLong(t *testing.T) {
	_, err := Parse(strings.Repeat("a ", MaxScriptLen), Bash)
	require.Error(t, err)
}

func TestRedirectKinds(t *testing.T) {
	tests := []struct {
		r           Redirect
		dup, writes bool
	}{
		{Redirect{Fd: 2, Op: ">&", Target: "1"}, true, false},
		{Redirect{Op: ">&", Target: "-"}, true, false},
		{Redirect{Op: "<&", Target: "0"}, true, false},
		{Redirect{Op: ">&", Target: "file"}, false, true},
		{Redirect{Op: ">", Target: "f"}, false, true},
		{Redirect{Op: ">>", Target: "f"}, false, true},
		{Redirect{Op: "&>", Target: "f"}, false, true},
		{Redirect{Op: "<>", Target: "f"}, false, true},
		{Redirect{Op: "<", Target: "f"}, false, false},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.dup, tc.r.IsDup(), "%+v", tc.r)
		assert.Equal(t, tc.writes, tc.r.Writes(), "%+v", tc.r)
	}
}

func TestPlainWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		ok   bool
	}{
		{"go test ./...", []string{"go", "test", "./..."}, true},
		{"  ls\t-la ", []string{"ls", "-la"}, true},
		{"go test -count=1 ./...", []string{"go", "test", "-count=1", "./..."}, true},
		{"git log --format=%h", []string{"git", "log", "--format=%h"}, true},
		{"", nil, false},
		{"   ", nil, false},
		{"A=1 ls", nil, false},
		{"ls; rm", nil, false},
		{"ls | wc", nil, false},
		{"ls 'x'", nil, false},
		{"ls $HOME", nil, false},
		{"ls ~", nil, false},
		{"ls *.go", nil, false},
		{"ls {a,b}", nil, false},
		{"ls\nrm", nil, false},
		{"ls # x", nil, false},
		{`\curl`, nil, false},
		{"ls > x", nil, false},
	}
	for _, tc := range tests {
		got, ok := PlainWords(tc.in)
		assert.Equal(t, tc.ok, ok, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
		if ok {
			// The fast path agrees with the parser.
			s, err := Parse(tc.in, Bash)
			require.NoError(t, err, tc.in)
			require.Len(t, s.Commands, 1)
			assert.Equal(t, tc.want, s.Commands[0].Args, tc.in)
		}
	}
}

func TestScriptCompound(t *testing.T) {
	s, err := Parse("a | b", Bash)
	require.NoError(t, err)
	assert.True(t, s.Compound())
	s, err = Parse("a", Bash)
	require.NoError(t, err)
	assert.False(t, s.Compound())
}

// TestDialects: the same text is read with each shell's grammar.
func TestDialects(t *testing.T) {
	for _, c := range []struct {
		src string
		ok  []Dialect // dialects that accept it; the others refuse it
	}{
		{"true &>/dev/null curl -s x", []Dialect{Bash, MirBSDKorn}}, // a background job to dash
		{"a |& b", []Dialect{Bash}},                                 // a coprocess to mksh, a syntax error to dash
		{"ls @(a|b)", nil},                                          // extended glob (bash) or error (posix)
		{"ls -la && git status", []Dialect{Bash, Zsh, POSIX, MirBSDKorn}},
		{"go test ./... 2>&1 | tail -5", []Dialect{Bash, Zsh, POSIX, MirBSDKorn}},
		{"ls *.go", []Dialect{Bash, POSIX, MirBSDKorn}}, // zsh's patterns are its own
		{"echo $'\\x41'", nil},
		{"=curl x", []Dialect{Bash, POSIX, MirBSDKorn}},      // zsh: =curl is curl's path
		{"time ls", []Dialect{Bash, POSIX, MirBSDKorn}},      // a keyword to bash, a program to dash: zsh refuses the difference
		{"echo hi >! f", []Dialect{Bash, POSIX, MirBSDKorn}}, // zsh: >! overwrites f; the others write to "!"
		{"echo hi >>! ~/.zshrc", []Dialect{Bash, POSIX, MirBSDKorn}},
		{"echo hi >'!' f", []Dialect{Bash, Zsh, POSIX, MirBSDKorn}}, // a quoted ! is a file name to zsh too
	} {
		for d := Bash; d < numDialects; d++ {
			_, err := Parse(c.src, d)
			want := false
			for _, o := range c.ok {
				want = want || o == d
			}
			if want {
				require.NoError(t, err, "%v %q", d, c.src)
			} else {
				var ie *InscrutableError
				require.ErrorAs(t, err, &ie, "%v %q", d, c.src)
			}
		}
	}
	s, err := Parse(`ls "*"x* '[a]'? \*y*`, Bash)
	require.NoError(t, err)
	require.Equal(t, []string{"ls", "*x*", "[a]?", "*y*"}, s.Commands[0].Args)
	require.Equal(t, []string{"", `\*x*`, `\[a\]?`, `\*y*`}, s.Commands[0].Patterns)
	_, err = Parse("ls", numDialects)
	require.Error(t, err)
}

func TestPlainSet(t *testing.T) {
	tests := map[string]bool{
		"-e": true, "-u": true, "-x": true, "-v": true, "+e": true, "-eux": true, "-euo pipefail": true,
		"-o nounset -o xtrace": true, "+o verbose": true,
		"": false, "-k": false, "-a": false, "-ek": false, "-o allexport": false, "-o": false, "-eo": false,
		"-o pipefail extra": false, "--": false, "-- a": false, "x": false, "-": false, "-C": false,
	}
	for line, want := range tests {
		assert.Equal(t, want, PlainSet(strings.Fields(line)), "set %s", line)
	}
}

// TestAssignmentTildeLiteral: a ~ bash leaves alone in an argument shaped
// like an assignment stays text.
func TestAssignmentTildeLiteral(t *testing.T) {
	for src, want := range map[string]string{
		"cat 'x=~/a'":    "x=~/a",  // quoted
		`cat x=\~/a`:     "x=~/a",  // escaped
		"echo a=b~c":     "a=b~c",  // not after = or :
		"cat 1x=~/a":     "1x=~/a", // not a variable name
		`cat "x"=~/a`:    "x=~/a",  // the name is quoted: no assignment shape
		"echo --opt=~/x": "--opt=~/x",
	} {
		s, err := Parse(src, Bash)
		require.NoError(t, err, src)
		require.Len(t, s.Commands, 1, src)
		assert.Equal(t, want, s.Commands[0].Args[1], src)
	}
}
