package programs

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSyntaxes reads the same shapes of argv with each syntax, where the
// syntaxes differ: "-f=V", a value that looks like an option, a bundle
// whose options take values, one option per word.
func TestSyntaxes(t *testing.T) {
	spec := func(syntax Syntax, list string) *Spec {
		return &Spec{Command: "prog", Syntax: syntax, Options: join(opts(list), hyphenValues("-e,--regexp="), unsafe("runs a program", "--pre= -x"))}
	}
	const list = "-a -b -f,--file=R -o,--out=W -L,--level= -n,--number --color[=]"
	tests := []struct {
		name   string
		syntax Syntax
		args   []string
		want   string // "ok", "unknown" or "unsafe"
		files  []Arg
	}{
		{"getopt: -f=V keeps the =", GNU, []string{"-f=pats", "x"}, "ok", []Arg{{"=pats", Read}, {"x", Read}}},
		{"clap: -f=V is -f V", Clap, []string{"-f=pats", "x"}, "ok", []Arg{{"pats", Read}, {"x", Read}}},
		{"argparse: -f=V is -f V", Argparse, []string{"-f=pats", "x"}, "ok", []Arg{{"pats", Read}, {"x", Read}}},
		{"clap: -fV", Clap, []string{"-fpats"}, "ok", []Arg{{"pats", Read}}},
		{"getopt: a value may begin with -", GNU, []string{"--level", "--pre=sh", "x"}, "ok", []Arg{{"x", Read}}},
		{"clap: a value that begins with - is read as an option", Clap, []string{"--level", "--pre=sh", "x"}, "unknown", nil},
		{"clap: the same with a short option", Clap, []string{"-L", "-x"}, "unknown", nil},
		{"clap: an attached value may begin with -", Clap, []string{"--level=-x"}, "ok", []Arg{}},
		{"clap: an option that takes hyphen values", Clap, []string{"-e", "-x", "f"}, "ok", []Arg{{"f", Read}}},
		{"argparse: a value that begins with - is read as an option", Argparse, []string{"-f", "-x"}, "unknown", nil},
		{"argparse abbreviates", Argparse, []string{"--num"}, "ok", []Arg{}},
		{"clap does not abbreviate", Clap, []string{"--num"}, "unknown", nil},
		{"getopt bundle: the value is the rest", GNU, []string{"-Lo", "2", "out"}, "ok", []Arg{{"2", Read}, {"out", Read}}},
		{"bundled: values are the next words", Bundled, []string{"-Lo", "2", "out"}, "ok", []Arg{{"out", Write}}},
		{"bundled: in order", Bundled, []string{"-oL", "out", "2", "d"}, "ok", []Arg{{"out", Write}, {"d", Read}}},
		{"bundled: a value missing", Bundled, []string{"-Lo", "2"}, "unknown", nil},
		{"bundled: flags and values", Bundled, []string{"-aLb", "2", "d"}, "ok", []Arg{{"d", Read}}},
		{"bundled: no optional values in a bundle", Bundled, []string{"-a", "--color=x", "d"}, "ok", []Arg{{"d", Read}}},
		{"single: one option per word", Single, []string{"-ab", "x"}, "unknown", nil},
		{"single: whole spellings", Single, []string{"-a", "-number", "x"}, "unknown", nil},
		{"single: a digit attached", Single, []string{"-L16", "x"}, "ok", []Arg{{"x", Read}}},
		{"single: a letter attached is a longer spelling", Single, []string{"-Lx", "x"}, "unknown", nil},
		{"single: options end at the first operand", Single, []string{"x", "-a"}, "ok", []Arg{{"x", Read}, {"-a", Read}}},
		{"single: a value in the next word", Single, []string{"-L", "-3", "x"}, "ok", []Arg{{"x", Read}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Parse(spec(tt.syntax, list), tt.args)
			switch tt.want {
			case "unknown":
				require.NotNil(t, p.Problem)
				assert.True(t, p.Problem.Unknown, p.Problem.Rule)
			case "unsafe":
				require.NotNil(t, p.Problem)
				assert.False(t, p.Problem.Unknown, p.Problem.Rule)
			default:
				require.Nil(t, p.Problem, "%+v", p.Problem)
				if tt.files != nil {
					assert.Equal(t, tt.files, append([]Arg{}, p.Files...))
				}
			}
		})
	}
}

// TestValueRoles: the roles a value may have, and what the parser makes of
// each.
func TestValueRoles(t *testing.T) {
	s := &Spec{Command: "prog", Syntax: GNU, Recursive: true, DefaultTree: ".", First: Text,
		Options: join(opts("-m=P -T=L -g=G --ignore-file=I"), recursiveIf("-d,--directories=", "recurse"))}
	p := Parse(s, []string{"-m", "a:b", "KEY", "dir"})
	require.Nil(t, p.Problem)
	assert.Equal(t, []Arg{{"a:b", ReadPaths}, {"dir", ReadTree}}, p.Files)
	p = Parse(s, []string{"-T", "list", "KEY"})
	require.NotNil(t, p.Problem, "a list of more names is never safe")
	assert.False(t, p.Problem.Unknown)
	assert.Equal(t, []string{"*.go"}, Parse(s, []string{"-g", "*.go", "KEY"}).Whitelist, "a positive glob selects hidden files")
	assert.Empty(t, Parse(s, []string{"-g", "!*.go", "KEY"}).Whitelist, "a negated glob only excludes")
	rg := Lookup("rg", nil)
	assert.Equal(t, []string{"*.go"}, Parse(rg, []string{"-t", "go", "KEY"}).Whitelist, "a type stands for its globs")
	assert.Equal(t, []string{"*"}, Parse(rg, []string{"-t", "zz-unknown-type", "KEY"}).Whitelist, "an unknown type for every file")
	p = Parse(rg, []string{"--files", "-g", "*_test.go"})
	require.Nil(t, p.Problem)
	assert.Equal(t, []Arg{{".", Read}}, p.Files, "rg --files lists names: its tree is not read")
	p = Parse(rg, []string{"--files", "sub", "other"})
	assert.Equal(t, []Arg{{"sub", Read}, {"other", Read}}, p.Files)
	p = Parse(s, []string{"--ignore-file", "ig", "KEY"})
	assert.Equal(t, []Arg{{"ig", IgnoreRules}, {".", ReadTree}}, p.Files)
	for r := Role(0); r < 255; r++ {
		assert.Equal(t, r >= Text && r <= FileType, r.Known(), "role %d", r)
	}
}

// TestReadOnlyArgvRoles: only the reading roles leave a command read-only.
func TestReadOnlyArgvRoles(t *testing.T) {
	assert.True(t, ReadOnlyArgv("file", []string{"-m", "a:b", "x"}))
	assert.True(t, ReadOnlyArgv("rg", []string{"--ignore-file", "ig", "-g", "*.go", "KEY"}))
	assert.False(t, ReadOnlyArgv("cp", []string{"a", "b"}))
	assert.False(t, ReadOnlyArgv("tar", []string{"-tf", "a.tar", "-T", "list"}))
	assert.False(t, ReadOnlyArgv("xxd", []string{"-rc", "in", "out"}))
}

// TestRecursiveIf: a value that chooses recursion, by its whole name or a
// prefix, as GNU's argmatch takes it.
func TestRecursiveIf(t *testing.T) {
	grep := Lookup("grep", nil)
	for _, args := range [][]string{{"-d", "recurse", "K"}, {"-d", "rec", "K"}, {"--dir=recurse", "K"}, {"--directories", "r", "K"}, {"-drecurse", "K"}} {
		p := Parse(grep, args)
		require.Nil(t, p.Problem, "%q", args)
		assert.Equal(t, []Arg{{".", ReadTree}}, p.Files, "%q reads the working directory's tree", args)
		assert.True(t, p.Hidden, "%q: grep's walk includes hidden files", args)
	}
	p := Parse(grep, []string{"-d", "skip", "K", "f"})
	require.Nil(t, p.Problem)
	assert.Equal(t, []Arg{{"f", Read}}, p.Files)
}

// installed skips the test when the program is not installed.
func installed(t *testing.T, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s is not installed, so this grammar is not compared with the real program (CI installs it)", name)
	}
	return path
}

// throwaway makes a directory with a .env holding SECRET and the given
// files, and returns it.
func throwaway(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files[".env"] = "SECRET=hunter2\n"
	for name, body := range files {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o755))
	}
	return dir
}

// run runs argv in dir and returns its standard output and error.
func run(t *testing.T, dir string, argv ...string) string {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	out, _ := cmd.CombinedOutput() // a failing status is part of what is compared
	return string(out)
}

func exists(dir, name string) bool {
	_, err := os.Lstat(filepath.Join(dir, name))
	return err == nil
}

// TestGrammarsAgainstRealPrograms runs each grammar's telling case with
// the real program, and checks that the spec reads the argv as the program
// did.
func TestGrammarsAgainstRealPrograms(t *testing.T) {
	t.Run("rg (clap): -f=PATH reads PATH", func(t *testing.T) {
		rg := installed(t, "rg")
		dir := throwaway(t, map[string]string{"pats": "hi\n", "t.txt": "hi\n"})
		assert.Contains(t, run(t, dir, rg, "-f=pats", "t.txt"), "hi")
		p := Parse(Lookup("rg", nil), []string{"-f=pats", "t.txt"})
		require.Nil(t, p.Problem)
		assert.Equal(t, Arg{"pats", Read}, p.Files[0])
	})
	t.Run("rg (clap): a value that looks like an option is one", func(t *testing.T) {
		rg := installed(t, "rg")
		dir := throwaway(t, map[string]string{"t.txt": "hi\n", "pre.sh": "#!/bin/sh\ntouch ran\n"})
		run(t, dir, rg, "--engine", "--pre=./pre.sh", ".", "t.txt")
		// rg 13 takes --engine's default and runs the preprocessor; rg 14
		// refuses the value. Either way the word is not the value.
		p := Parse(Lookup("rg", nil), []string{"--engine", "--pre=./pre.sh", ".", "t.txt"})
		require.NotNil(t, p.Problem, "rg ran the preprocessor: %v", exists(dir, "ran"))
		assert.True(t, p.Problem.Unknown)
	})
	t.Run("rg: a glob whitelists a hidden file", func(t *testing.T) {
		rg := installed(t, "rg")
		dir := throwaway(t, map[string]string{"a.txt": "x\n"})
		assert.NotContains(t, run(t, dir, rg, "SECRET"), "hunter2")
		for _, g := range []string{".env", "*", "**"} {
			assert.Contains(t, run(t, dir, rg, "SECRET", "-g", g), "hunter2", g)
			assert.Equal(t, []string{g}, Parse(Lookup("rg", nil), []string{"SECRET", "-g", g}).Whitelist, g)
		}
		assert.NotContains(t, run(t, dir, rg, "SECRET", "-g", "!a.txt"), "hunter2")
		assert.Empty(t, Parse(Lookup("rg", nil), []string{"SECRET", "-g", "!a.txt"}).Whitelist)
	})
	t.Run("rg: a ! rule in an ignore file whitelists a hidden file", func(t *testing.T) {
		rg := installed(t, "rg")
		for _, name := range Lookup("rg", nil).IgnoreFiles {
			dir := throwaway(t, map[string]string{name: "!.env\n"})
			if name == ".gitignore" {
				require.NoError(t, os.Mkdir(filepath.Join(dir, ".git"), 0o755))
			}
			assert.Contains(t, run(t, dir, rg, "SECRET"), "hunter2", name)
		}
	})
	t.Run("tree (bundled): -Lo N FILE writes FILE", func(t *testing.T) {
		tree := installed(t, "tree")
		dir := throwaway(t, map[string]string{"d/x": ""})
		run(t, dir, tree, "-Lo", "1", "out", "d")
		assert.True(t, exists(dir, "out"), "tree wrote the -o file")
		p := Parse(Lookup("tree", nil), []string{"-Lo", "1", "out", "d"})
		require.NotNil(t, p.Problem)
		assert.Contains(t, p.Problem.Rule, "-o")
	})
	t.Run("xxd (single): -rc IN OUT reverts into OUT", func(t *testing.T) {
		xxd := installed(t, "xxd")
		dir := throwaway(t, map[string]string{"in.hex": "00000000: 6869 0a  hi.\n"})
		run(t, dir, xxd, "-rc", "in.hex", "out")
		assert.True(t, exists(dir, "out"), "xxd took -rc as -r and wrote its second operand")
		p := Parse(Lookup("xxd", nil), []string{"-rc", "in.hex", "out"})
		require.NotNil(t, p.Problem)
		assert.True(t, p.Problem.Unknown)
		assert.Equal(t, "00000000: 6869  hi\n00000002: 0a    .\n", run(t, dir, xxd, "-c2", "out"), "-c2 is two octets per line")
		p = Parse(Lookup("xxd", nil), []string{"-c2", "out"})
		require.Nil(t, p.Problem)
		assert.Equal(t, []Arg{{"out", Read}}, p.Files)
	})
	t.Run("grep: -d recurse and its abbreviations walk the tree", func(t *testing.T) {
		grep := installed(t, "grep")
		dir := throwaway(t, map[string]string{})
		for _, args := range [][]string{{"-d", "recurse"}, {"-d", "rec"}, {"--dir=recurse"}, {"-drecurse"}} {
			assert.Contains(t, run(t, dir, append(append([]string{grep}, args...), "SECRET")...), "hunter2", "%q", args)
			assert.Equal(t, []Arg{{".", ReadTree}}, Parse(Lookup("grep", nil), append(args, "SECRET")).Files, "%q", args)
		}
	})
	t.Run("tar: a -T list may name another list", func(t *testing.T) {
		tar := installed(t, "tar")
		dir := throwaway(t, map[string]string{"a.txt": "x\n", "list": "-T .env\n"})
		run(t, dir, tar, "-cf", "a.tar", "a.txt")
		assert.Contains(t, run(t, dir, tar, "-tf", "a.tar", "-T", "list"), "hunter2")
		assert.NotNil(t, Parse(Lookup("tar", nil), []string{"-tf", "a.tar", "-T", "list"}).Problem)
	})
	t.Run("file: -m takes a colon list", func(t *testing.T) {
		file := installed(t, "file")
		dir := throwaway(t, map[string]string{"a.txt": "x\n"})
		assert.Contains(t, run(t, dir, file, "-m", ".env:/dev/null", "a.txt"), "hunter2")
		p := Parse(Lookup("file", nil), []string{"-m", ".env:/dev/null", "a.txt"})
		require.Nil(t, p.Problem)
		assert.Equal(t, Arg{".env:/dev/null", ReadPaths}, p.Files[0])
	})
}

// TestGetoptAgainstRealPrograms: GNU getopt_long abbreviates and permutes,
// and so does the GNU syntax; jq permutes its own way (Exact).
func TestGetoptAgainstRealPrograms(t *testing.T) {
	t.Run("sed --in-pl abbreviates --in-place", func(t *testing.T) {
		sed := installed(t, "sed")
		dir := throwaway(t, map[string]string{"f": "a\n"})
		run(t, dir, sed, "--in-pl=.bak", "s/a/b/", "f")
		assert.True(t, exists(dir, "f.bak"), "sed took --in-pl as --in-place")
		p := Parse(Lookup("sed", nil), []string{"--in-pl=.bak", "s/a/b/", "f"})
		require.NotNil(t, p.Problem)
		assert.False(t, p.Problem.Unknown)
	})
	t.Run("grep reads options after operands", func(t *testing.T) {
		grep := installed(t, "grep")
		dir := throwaway(t, map[string]string{"f": "KEY\n"})
		assert.Contains(t, run(t, dir, grep, "KEY", "f", "-c"), "1", "-c after the file counts")
		p := Parse(Lookup("grep", nil), []string{"KEY", "f", "-c"})
		require.Nil(t, p.Problem)
		assert.Equal(t, []Arg{{"f", Read}}, p.Files)
	})
	t.Run("jq reads options after its program", func(t *testing.T) {
		jq := installed(t, "jq")
		dir := throwaway(t, map[string]string{"a.json": `{"name":"x"}`})
		assert.Equal(t, "x\n", run(t, dir, jq, ".name", "-r", "a.json"), "-r after the program prints raw")
		p := Parse(Lookup("jq", nil), []string{".name", "-r", "a.json"})
		require.Nil(t, p.Problem)
		assert.Equal(t, []Arg{{"a.json", Read}}, p.Files)
	})
}

// TestArgparseAgainstPython: python -m unittest (argparse) takes --verb
// for --verbose, -k=PATTERN for -k PATTERN, and refuses a value that
// begins with "-".
func TestArgparseAgainstPython(t *testing.T) {
	py := installed(t, "python3")
	dir := throwaway(t, map[string]string{"test_x.py": "import unittest\nclass T(unittest.TestCase):\n    def test_a(self): pass\n    def test_b(self): pass\n"})
	out := run(t, dir, py, "-m", "unittest", "--verb", "-k=test_a", "test_x")
	assert.Contains(t, out, "test_a")
	assert.NotContains(t, out, "test_b", "-k=test_a selected test_a alone")
	spec := Lookup("python3", words("-m unittest"))
	p := Parse(spec, []string{"--verb", "-k=test_a", "test_x"})
	require.Nil(t, p.Problem)
	assert.Equal(t, "test_a", p.Values("-k")[0])
	assert.Contains(t, run(t, dir, py, "-m", "unittest", "-k", "-x", "test_x"), "expected one argument")
	p = Parse(spec, []string{"-k", "-x", "test_x"})
	require.NotNil(t, p.Problem)
	assert.True(t, p.Problem.Unknown)
}

// TestArgumentFiles: pytest reads @FILE as more arguments (argparse's
// fromfile_prefix_chars), which are never seen here.
func TestArgumentFiles(t *testing.T) {
	assert.Nil(t, Parse(Lookup("pytest", nil), []string{"-x", "tests"}).Problem)
	p := Parse(Lookup("pytest", nil), []string{"@args.txt"})
	require.NotNil(t, p.Problem)
	assert.False(t, p.Problem.Unknown)
}

// TestFindAndGitAgainstRealPrograms: find's expression has no "--" and
// reads a -newer value as a file; git's own option parser takes a unique
// prefix of a long option, as the GNU syntax does.
func TestFindAndGitAgainstRealPrograms(t *testing.T) {
	t.Run("find -newer reads its value", func(t *testing.T) {
		find := installed(t, "find")
		dir := throwaway(t, map[string]string{"ref": "", "a": ""})
		assert.Contains(t, run(t, dir, find, ".", "-newer", "missing"), "missing", "find stats the -newer file")
		p := Parse(Lookup("find", nil), []string{".", "-newer", "ref"})
		require.Nil(t, p.Problem)
		assert.Equal(t, []Arg{{"ref", Read}, {".", Read}}, p.Files)
	})
	t.Run("git grep abbreviates long options", func(t *testing.T) {
		git := installed(t, "git")
		dir := throwaway(t, map[string]string{"a": "KEY\n"})
		run(t, dir, git, "init", "-q")
		run(t, dir, git, "add", "a")
		assert.Contains(t, run(t, dir, git, "grep", "--max-d=1", "KEY"), "a:KEY", "git took --max-d for --max-depth")
		p := Parse(Lookup("git", words("grep")), []string{"--max-d=1", "KEY"})
		require.Nil(t, p.Problem, "the GNU syntax takes the abbreviation too")
		assert.Equal(t, "--max-depth", p.Options[0].Option.Names[len(p.Options[0].Option.Names)-1])
	})
}

// TestGrammarChoices records the parser each audited program uses, so that
// a spec cannot drift to another grammar unnoticed. Checked against the
// programs' sources or by running them: getopt_long (GNU), getopt without
// permutation (POSIX: awk, look, getconf, zipinfo, the shell's builtins),
// own parsers taking full names (Exact: jq, npm, tsc, rustfmt), clap and
// lexopt (Clap: rg, fd, bat, cargo, ruff, just), argparse (pytest),
// bundles taking following words (tree), one option per word (xxd), and
// Go's flag package.
func TestGrammarChoices(t *testing.T) {
	want := map[string]Syntax{
		"grep": GNU, "sed": GNU, "sort": GNU, "tar": GNU, "file": GNU, "ls": GNU, "du": GNU, "lsblk": GNU, "shellcheck": GNU, "hexdump": GNU, "strings": GNU, "seq": GNU,
		"awk": POSIX, "gawk": POSIX, "mawk": POSIX, "look": POSIX, "getconf": POSIX, "zipinfo": POSIX, "cd": POSIX, "wait": POSIX, "type": POSIX,
		"jq": Exact, "npm": Exact, "tsc": Exact, "rustfmt": Exact,
		"rg": Clap, "fd": Clap, "bat": Clap, "cargo": Clap, "just": Clap,
		"pytest": Argparse, "tree": Bundled, "xxd": Single, "find": Find, "gofmt": GoFlag,
	}
	for _, s := range All() {
		if w, ok := want[s.Command]; ok && !s.TextOnly {
			assert.Equal(t, w, s.Syntax, "%s reads its options with another grammar", s.Command)
		}
	}
	for _, prefix := range [][]string{{"check"}, {"format"}} {
		assert.Equal(t, Clap, Lookup("ruff", prefix).Syntax)
	}
	assert.Equal(t, Argparse, Lookup("python3", words("-m pytest")).Syntax)
	assert.Equal(t, Argparse, Lookup("python3", words("-m unittest")).Syntax)
	assert.Equal(t, GoTool, Lookup("go", words("test")).Syntax)
}

// TestEverySyntaxKnown: every spec's syntax is one the parser reads.
func TestEverySyntaxKnown(t *testing.T) {
	for _, s := range All() {
		assert.LessOrEqual(t, s.Syntax, Single, "%s %s", s.Command, strings.Join(s.Prefix, " "))
		for _, o := range s.Options {
			assert.True(t, o.Value == 0 || o.Value.Known(), "%s %s", s.Command, o.Names[0])
		}
	}
}
