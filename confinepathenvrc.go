package sandboxauth

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// The project's .envrc files (at its top and two levels down, one per
// package of a repository of several) name directories direnv puts on
// PATH when the user enters their directory, which the agent's own PATH
// may lack (an agent started from an editor, a shell without direnv's
// hook). Each is read as bash reads it, for what sets PATH: direnv's PATH_add DIR... and
// path_add PATH DIR... (a relative directory from the .envrc's, as
// direnv's expand_path takes it), load_prefix DIR (DIR/bin and DIR/sbin),
// the layouts of direnv's standard library (layoutDirs),
// and an assignment to PATH (PATH=..., export PATH=..., declare, local),
// whose pieces may be literal (quoted or not), $PWD, ${PWD} or $HOME, and
// $PATH alone; a relative piece stays relative on PATH (see
// confinepathdirs.go). A file it reads (source_env, source, ., dotenv)
// is read the same way. Whatever else touches PATH —
// an assignment of another form, eval, a command given PATH as a word, a
// file that cannot be read or parsed — is not understood, and every
// directory of the project is then taken for one on PATH (the entry ".").

// envrcDepth is how deep files read by .envrc are followed; deeper is
// not understood.
const envrcDepth = 4

// readEnvrcPath records in p the directories the project's .envrc puts
// on PATH.
func readEnvrcPath(sandbox string, p *pathDirs) {
	for _, pattern := range envrcPlaces {
		files, _ := filepath.Glob(filepath.Join(sandbox, pattern))
		for _, f := range files {
			r := envrcReader{dir: filepath.Dir(f), p: p}
			r.file(f, 0)
		}
	}
}

// envrcPlaces are where the .envrc files read lie: direnv loads the
// nearest one above the user's working directory, and a repository of
// several packages has one in each (the depths projectBinDirs looks at).
var envrcPlaces = [...]string{".envrc", "*/.envrc", "*/*/.envrc"}

// envrcReader reads the project's .envrc and the files it reads.
type envrcReader struct {
	// dir is the directory of the .envrc, its working directory.
	dir string
	p   *pathDirs
}

// everywhere records that something touching PATH was not understood.
func (r *envrcReader) everywhere() { r.p.entry(".") }

// file reads one file of shell the environment is made from.
func (r *envrcReader) file(name string, depth int) {
	if _, err := os.Lstat(name); os.IsNotExist(err) {
		return
	}
	b, err := readSmallFile(name)
	if err != nil || depth > envrcDepth {
		r.everywhere()
		return
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(bytes.NewReader(b), name)
	if err != nil {
		r.everywhere()
		return
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Assign:
			r.assign(n)
		case *syntax.CallExpr:
			r.call(n, depth)
		}
		return true
	})
}

// assign reads an assignment: one to PATH, or one whose name is only
// known when it runs and that mentions PATH.
func (r *envrcReader) assign(a *syntax.Assign) {
	if a.Name == nil {
		if a.Value != nil && strings.Contains(printWord(a.Value), "PATH") {
			r.everywhere()
		}
		return
	}
	if a.Name.Value != "PATH" || (a.Naked && a.Value == nil) {
		return
	}
	if a.Array != nil || a.Index != nil {
		r.everywhere()
		return
	}
	value := ""
	if a.Value != nil {
		v, ok := r.text(a.Value, true)
		if !ok {
			r.everywhere()
			return
		}
		value = v
	}
	if a.Append {
		value = pathMarker + value // PATH+=:DIR
	}
	for _, piece := range strings.Split(value, ":") {
		switch {
		case piece == pathMarker:
		case strings.Contains(piece, pathMarker):
			r.everywhere()
		default:
			r.p.entry(piece)
		}
	}
}

// pathMarker stands for $PATH in an assignment's value.
const pathMarker = "\x00"

// call reads a command of direnv's that changes PATH or reads a file.
func (r *envrcReader) call(c *syntax.CallExpr, depth int) {
	if len(c.Args) == 0 {
		return
	}
	args := c.Args[1:]
	switch c.Args[0].Lit() {
	case "PATH_add":
		r.dirs(args, "")
	case "path_add":
		if len(args) == 0 {
			return
		}
		if v := args[0].Lit(); v == "" {
			r.everywhere()
		} else if v == "PATH" {
			r.dirs(args[1:], "")
		}
	case "load_prefix":
		r.dirs(args, "bin")
		r.dirs(args, "sbin")
	case "source_env", "source_env_if_exists":
		if len(args) == 0 {
			return
		}
		r.source(args[0], depth, true)
	case "source", ".":
		if len(args) == 0 {
			return
		}
		r.source(args[0], depth, false)
	case "dotenv", "dotenv_if_exists":
		if len(args) == 0 {
			r.file(filepath.Join(r.dir, ".env"), depth+1)
			return
		}
		r.source(args[0], depth, false)
	case "layout":
		r.layout(args)
	case "eval":
		r.everywhere()
	default:
		for _, a := range c.Args {
			if s := printWord(a); s == "PATH" || strings.HasPrefix(s, "PATH=") {
				r.everywhere()
			}
		}
	}
}

// layoutDirs are the directories of the project direnv's layouts put on
// PATH beyond projectBinDirs (.direnv/go/bin, .direnv/python-3.12/bin,
// .direnv/ruby/bin and node_modules/.bin are among those), by layout; a
// layout not listed is not understood.
var layoutDirs = map[string][]string{
	"go": nil, "node": nil, "perl": nil, "python": nil, "python2": nil, "python3": nil,
	"pipenv": nil, "pyenv": nil, "julia": nil,
	"php":  {"vendor/bin"},
	"ruby": {".direnv/bin"},
	"opam": {"_opam/bin", "_opam/sbin"},
}

// layout reads a layout line: the directories of the layouts direnv's
// standard library knows; another (a function of the user's direnvrc, an
// environment named by a path) is not understood.
func (r *envrcReader) layout(args []*syntax.Word) {
	if len(args) == 0 {
		return
	}
	dirs, ok := layoutDirs[args[0].Lit()]
	if !ok {
		r.everywhere()
		return
	}
	for _, d := range dirs {
		r.p.addInside(filepath.Join(r.dir, d))
	}
}

// dirs records the directories words name (below each, sub), relative
// ones from the .envrc's directory.
func (r *envrcReader) dirs(words []*syntax.Word, sub string) {
	for _, w := range words {
		d, ok := r.text(w, false)
		switch {
		case !ok:
			r.everywhere()
		case strings.HasPrefix(d, "~"):
			r.p.entry(filepath.Join(d, sub))
		case filepath.IsAbs(d):
			r.p.addInside(filepath.Join(d, sub))
		default:
			r.p.addInside(filepath.Join(r.dir, d, sub))
		}
	}
}

// source reads the file a word names, from the .envrc's directory (a
// directory stands for its .envrc, as source_env takes it); with cd, from
// the file's own directory, which source_env makes the working directory
// while it reads it.
func (r *envrcReader) source(w *syntax.Word, depth int, cd bool) {
	name, ok := r.text(w, false)
	if !ok || strings.HasPrefix(name, "~") {
		r.everywhere()
		return
	}
	if !filepath.IsAbs(name) {
		name = filepath.Join(r.dir, name)
	}
	if fi, err := os.Stat(name); err == nil && fi.IsDir() {
		name = filepath.Join(name, ".envrc")
	}
	if cd {
		sub := envrcReader{dir: filepath.Dir(name), p: r.p}
		sub.file(name, depth+1)
		return
	}
	r.file(name, depth+1)
}

// text returns the value of a word made of literal text (quoted, or
// unquoted without pattern or brace characters),
// $PWD (the .envrc's directory), $HOME and, when path is true, $PATH (as
// pathMarker); it reports false for anything else.
func (r *envrcReader) text(w *syntax.Word, path bool) (string, bool) {
	var b strings.Builder
	var parts func(ps []syntax.WordPart) bool
	parts = func(ps []syntax.WordPart) bool {
		for _, part := range ps {
			switch part := part.(type) {
			case *syntax.Lit:
				if strings.ContainsAny(part.Value, "*?[{") {
					return false // a pattern or a brace expansion: more words
				}
				b.WriteString(part.Value)
			case *syntax.SglQuoted:
				if part.Dollar {
					return false
				}
				b.WriteString(part.Value)
			case *syntax.DblQuoted:
				if !parts(part.Parts) {
					return false
				}
			case *syntax.ParamExp:
				if part.Exp != nil || part.Slice != nil || part.Repl != nil || part.Index != nil ||
					part.Length || part.Excl || part.Width || part.Names != 0 || part.Param == nil {
					return false
				}
				switch part.Param.Value {
				case "PWD":
					b.WriteString(r.dir)
				case "HOME":
					home := os.Getenv("HOME")
					if !filepath.IsAbs(home) {
						return false
					}
					b.WriteString(home)
				case "PATH":
					if !path {
						return false
					}
					b.WriteString(pathMarker)
				default:
					return false
				}
			default:
				return false
			}
		}
		return true
	}
	if !parts(w.Parts) {
		return "", false
	}
	return b.String(), true
}

// printWord returns a word as it is written.
func printWord(w *syntax.Word) string {
	var b strings.Builder
	_ = syntax.NewPrinter().Print(&b, w)
	return b.String()
}
