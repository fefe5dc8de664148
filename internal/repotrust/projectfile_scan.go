package repotrust

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// projectDirs returns dir and each of its parents up to sandbox, both
// absolute and clean; ok is false when dir is not in the sandbox.
func projectDirs(dir, sandbox string) (dirs []string, ok bool) {
	dir, sandbox = filepath.Clean(dir), filepath.Clean(sandbox)
	if dir != sandbox && !strings.HasPrefix(dir, strings.TrimSuffix(sandbox, "/")+"/") {
		return nil, false
	}
	for d := dir; ; d = filepath.Dir(d) {
		dirs = append(dirs, d)
		if d == sandbox || d == "/" {
			return dirs, true
		}
	}
}

// scanProjectFiles reads each existing file named by names (relative to
// the directory) in dir and its parents up to sandbox, nearest first, and
// hands it to check, stopping at the first file check does not trust. what
// names the files in the reason given when dir is not in the sandbox.
func scanProjectFiles(dir, sandbox, what string, names []string, check func(name, base string, b []byte) (bool, string)) (ok bool, reason string) {
	dirs, in := projectDirs(dir, sandbox)
	if !in {
		return false, dir + " is not in the sandbox, so its " + what + " are not known"
	}
	for _, d := range dirs {
		for _, n := range names {
			name := filepath.Join(d, n)
			b, exists, problem := readProjectFile(name)
			if problem != "" {
				return false, problem
			}
			if !exists {
				continue
			}
			if ok, reason := check(name, n, b); !ok {
				return false, reason
			}
		}
	}
	return true, ""
}

// readProjectFile reads a project file: (nil, false, "") when it does not
// exist, a reason when it exists but cannot be read as a small regular
// file (a directory, a FIFO, a file too large, no permission).
func readProjectFile(name string) (b []byte, exists bool, problem string) {
	var ss stamps
	b, exists, err := ss.readFile(name)
	if err != nil {
		return nil, true, name + " cannot be read (" + err.Error() + "), so what it sets is not known"
	}
	if l, ok := oddLineBreak(b); ok {
		return nil, true, fmt.Sprintf("%s:%d: a line break other than LF or CR LF (a lone CR, NEL, or a Unicode line or paragraph separator) ends a line for some readers and not for others, so what the file sets is not known", name, l)
	}
	return b, exists, ""
}

// oddLineBreak finds a line break the scanners here do not split on but
// some program's reader does: a CR not followed by LF (npm's ini reader
// and YAML end a line there), NEL, U+2028 and U+2029 (line breaks to some
// YAML and JavaScript readers). It returns the line (from 1) it is on.
func oddLineBreak(b []byte) (int, bool) {
	ln := 1
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] == '\n':
			ln++
		case b[i] == '\r' && (i+1 == len(b) || b[i+1] != '\n'):
			return ln, true
		case b[i] == 0xc2 && i+1 < len(b) && b[i+1] == 0x85:
			return ln, true
		case b[i] == 0xe2 && i+2 < len(b) && b[i+1] == 0x80 && (b[i+2] == 0xa8 || b[i+2] == 0xa9):
			return ln, true
		}
	}
	return 0, false
}

// line is one logical line of a configuration file, numbered from 1,
// with the column (from 1) where its text starts.
type line struct {
	text     string
	num, col int
}

// lines splits text into lines, stripping a UTF-8 byte order mark, CR
// before LF, and the leading white space of each line (col says where the
// text starts). Blank lines are dropped.
func lines(b []byte) []line {
	s := strings.TrimPrefix(string(b), "\xef\xbb\xbf")
	var out []line
	for i, l := range strings.Split(s, "\n") {
		l = strings.TrimSuffix(l, "\r")
		t := strings.TrimLeft(l, " \t")
		if strings.TrimSpace(t) == "" {
			continue
		}
		out = append(out, line{text: strings.TrimRight(t, " \t"), num: i + 1, col: len(l) - len(t) + 1})
	}
	return out
}

func at(file string, l line) string { return fmt.Sprintf("%s:%d:%d", file, l.num, l.col) }

// scalarValue reports whether a TOML value is one simple scalar on its
// line: a basic or literal string without a multi-line opener, true,
// false, or a decimal integer, optionally followed by a comment.
func scalarValue(v string) bool {
	v = strings.TrimSpace(v)
	switch {
	case strings.HasPrefix(v, `"""`) || strings.HasPrefix(v, "'''"):
		return false
	case strings.HasPrefix(v, `"`):
		rest, ok := closeBasic(v[1:])
		return ok && trailingComment(rest)
	case strings.HasPrefix(v, "'"):
		i := strings.IndexByte(v[1:], '\'')
		return i >= 0 && trailingComment(v[i+2:])
	}
	word, _, _ := strings.Cut(v, "#")
	word = strings.TrimSpace(word)
	if word == "true" || word == "false" {
		return true
	}
	if word == "" {
		return false
	}
	for i, c := range word {
		if !(c >= '0' && c <= '9' || i == 0 && (c == '-' || c == '+')) {
			return false
		}
	}
	return true
}

// closeBasic finds the end of a basic string (after its opening quote)
// and returns what follows it.
func closeBasic(s string) (rest string, ok bool) {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return s[i+1:], true
		}
	}
	return "", false
}

func trailingComment(s string) bool {
	s = strings.TrimSpace(s)
	return s == "" || s[0] == '#'
}

// tomlKeyPath normalises a TOML key or table name: white space around
// dots and quotes are removed ("tool . uv" and "\"tool\".uv" are tool.uv).
// ok is false for a key this scanner does not read (empty parts).
func tomlKeyPath(k string) (string, bool) {
	parts := strings.Split(k, ".")
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if len(p) >= 2 && (p[0] == '"' && p[len(p)-1] == '"' || p[0] == '\'' && p[len(p)-1] == '\'') {
			p = p[1 : len(p)-1]
		}
		if p == "" || strings.ContainsAny(p, "\"'=[]{}") {
			return "", false
		}
		parts[i] = p
	}
	return strings.Join(parts, "."), true
}

// tomlScan reads a TOML file line by line as tables and "key = scalar"
// settings, calling fn with each setting's full dotted path. Anything
// else (arrays, inline tables, multi-line strings, arrays of tables) is
// a problem, unless skip(table) says the line's table is not of interest.
// fn returns a problem reason or "".
func tomlScan(file string, b []byte, skip func(table string) bool, fn func(path, value string, l line) string) (ok bool, reason string) {
	table := ""
	for _, l := range lines(b) {
		t := l.text
		if t[0] == '#' {
			continue
		}
		if strings.HasPrefix(t, "[") {
			inner, rest, found := strings.Cut(t[1:], "]")
			if strings.HasPrefix(t, "[[") {
				inner, rest, found = strings.Cut(t[2:], "]]")
			}
			if p, okp := tomlKeyPath(inner); found && okp && trailingComment(rest) {
				table = p
				if strings.HasPrefix(t, "[[") && (skip == nil || !skip(table)) {
					return false, at(file, l) + ": array of tables [[" + table + "]] is not read here, so what it sets is not known"
				}
				continue
			}
			if skip != nil && skip(table) {
				continue // inside a value of a table not of interest
			}
			return false, at(file, l) + ": table header not understood"
		}
		k, v, found := strings.Cut(t, "=")
		path, okp := tomlKeyPath(k)
		full := path
		if table != "" {
			full = table + "." + path
		}
		if skip != nil && skip(table) && (!found || !okp || skip(full)) {
			continue
		}
		if !found || !okp {
			return false, at(file, l) + ": line not understood, so what it sets is not known"
		}
		if !scalarValue(v) {
			return false, at(file, l) + ": " + full + " has a value not read here (array, table or multi-line string)"
		}
		if r := fn(full, v, l); r != "" {
			return false, r
		}
	}
	return true, ""
}

// iniScan reads an ini-style file (".npmrc", "pip.conf"): "[section]"
// headers, "key = value" or "key" lines, comments starting with # or ;.
// fn gets the section ("" before any), the key, the value; it returns a
// problem reason or "".
func iniScan(file string, b []byte, fn func(section, key, value string, l line) string) (ok bool, reason string) {
	section := ""
	for _, l := range lines(b) {
		t := l.text
		if t[0] == '#' || t[0] == ';' {
			continue
		}
		if t[0] == '[' {
			end := strings.IndexByte(t, ']')
			if end < 0 || strings.TrimSpace(t[end+1:]) != "" {
				return false, at(file, l) + ": section header not understood"
			}
			section = strings.TrimSpace(t[1:end])
			continue
		}
		k, v, _ := strings.Cut(t, "=")
		if r := fn(section, strings.TrimSpace(k), strings.TrimSpace(v), l); r != "" {
			return false, r
		}
	}
	return true, ""
}

// statNotExist reports whether name does not exist (any other error,
// such as a permission problem, counts as existing: not known).
func statNotExist(name string) bool {
	_, err := os.Lstat(name)
	return os.IsNotExist(err)
}
