package repotrust

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unicode/utf8"
)

// rustfmt follows a file's out-of-line modules (mod x; reads x.rs or
// x/mod.rs beside it, or beneath the directory named after it) and the
// file a #[path = "..."] attribute names, anywhere; cargo fmt does so from
// every target of every package its manifests name, and a manifest's
// target, member and dependency paths may point anywhere too. Both print
// the files they read when they differ from the formatted form. So the
// tree a formatter starts in is walked: no symbolic link that could be a
// module (an identifier, or an identifier with .rs) or a manifest may be
// in it, no
// Rust file may hold a path attribute (a cfg_attr or a macro may carry
// one: any "path =" inside an attribute counts), and no manifest may name
// a path that is absolute, climbs with "..", or is written with escapes.
// The walk skips target and node_modules directories (build output and
// packages, never the project's modules), so a module named after one of
// them is not trusted either.

// maxRustEntries bounds the walk.
const maxRustEntries = 20000

// skippedRustDirs are directories the walk does not enter. It is built on first use.
var skippedRustDirs = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"target": true, "node_modules": true}
})

// RustTreeTrusted walks root (in the sandbox) as described above.
// manifests says whether Cargo.toml files are judged too (cargo fmt).
func RustTreeTrusted(root, sandbox string, manifests bool) (ok bool, reason string) {
	if _, in := projectDirs(root, sandbox); !in {
		return false, root + " is not in the sandbox, so the Rust files the formatter follows are not known"
	}
	if _, err := os.Lstat(root); os.IsNotExist(err) {
		return true, "" // the formatter finds no file there to read
	}
	n := 0
	reason = ""
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			reason = p + " cannot be read, so the Rust files the formatter follows are not known"
			return fs.SkipAll
		}
		if n++; n > maxRustEntries {
			reason = root + " holds more than 20000 entries, too many to check for the files the formatter follows"
			return fs.SkipAll
		}
		name := d.Name()
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			if moduleName(strings.TrimSuffix(name, ".rs")) || name == "Cargo.toml" {
				reason = p + " is a symbolic link, which the formatter would follow"
				return fs.SkipAll
			}
		case d.IsDir():
			if p != root && (skippedRustDirs()[name] || strings.HasPrefix(name, ".")) {
				return fs.SkipDir
			}
		case strings.HasSuffix(name, ".rs"):
			if why := rustSourceProblem(p); why != "" {
				reason = why
				return fs.SkipAll
			}
		case manifests && name == "Cargo.toml":
			if why := manifestPathProblem(p); why != "" {
				reason = why
				return fs.SkipAll
			}
		}
		return nil
	})
	if err != nil && reason == "" {
		reason = root + " cannot be walked: " + err.Error()
	}
	return reason == "", reason
}

// rustSourceProblem reads one Rust file and says why the formatter could
// leave the tree through it, or "".
func rustSourceProblem(p string) string {
	b, err := readRustFile(p)
	if err != nil {
		return p + " cannot be read (" + err.Error() + "), so the modules it declares are not known"
	}
	attr, mods, ok := scanRust(b)
	switch {
	case !ok:
		return p + " is not read here as Rust source (an unterminated comment, string or attribute), so the modules it declares are not known"
	case attr:
		return p + " holds a path attribute, which makes the formatter read the file it names, anywhere"
	}
	for _, m := range mods {
		if skippedRustDirs()[m] {
			return p + " declares the module " + m + ", whose directory is not checked"
		}
	}
	return ""
}

func readRustFile(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errNotRegular
	}
	if fi.Size() > 4<<20 {
		return nil, errTooLarge
	}
	b := make([]byte, fi.Size())
	_, err = f.ReadAt(b, 0)
	return b, err
}

// scanRust lexes Rust source: comments (nested block comments included),
// strings, raw strings, byte and C strings, character literals and
// lifetimes. It reports whether an attribute holds a path key ("path"
// followed by "="), the names of the modules declared with "mod NAME",
// and whether the source was read to its end.
func scanRust(b []byte) (pathAttr bool, mods []string, ok bool) {
	type frame struct{ attr bool }
	var stack []frame // open brackets: whether each belongs to an attribute
	inAttr := func() bool {
		for _, f := range stack {
			if f.attr {
				return true
			}
		}
		return false
	}
	prevIdent := ""      // the previous token when it was an identifier
	pendingAttr := 0     // 1 after '#', 2 after "#!": the next '[' opens an attribute
	pendingPath := false // "path" was the previous token, inside an attribute
	i := 0
	for i < len(b) {
		c := b[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
			continue
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				i++
			}
			continue
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			depth := 0
			for {
				if i+1 >= len(b) {
					return pathAttr, mods, false
				}
				if b[i] == '/' && b[i+1] == '*' {
					depth++
					i += 2
				} else if b[i] == '*' && b[i+1] == '/' {
					depth--
					i += 2
					if depth == 0 {
						break
					}
				} else {
					i++
				}
			}
			continue
		}
		// A token: comments and white space do not reset what came before.
		tokIdent := ""
		switch {
		case c == '"':
			end, good := skipString(b, i+1)
			if !good {
				return pathAttr, mods, false
			}
			i = end
		case (c == 'r' || c == 'b' || c == 'c') && rawOrPrefixedString(b, i):
			end, good := skipPrefixedString(b, i)
			if !good {
				return pathAttr, mods, false
			}
			i = end
		case c == '\'':
			end, good := skipCharOrLifetime(b, i)
			if !good {
				return pathAttr, mods, false
			}
			i = end
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80:
			j := i
			if c == 'r' && i+2 < len(b) && b[i+1] == '#' && identStart(b[i+2]) {
				j = i + 2 // a raw identifier, r#name
			}
			k := j
			for k < len(b) && (identByte(b[k])) {
				k++
			}
			tokIdent = string(b[j:k])
			if k == j {
				k = j + 1
			}
			i = k
		default:
			i++
		}
		switch {
		case tokIdent != "":
			if prevIdent == "mod" {
				mods = append(mods, tokIdent)
			}
			pendingPath = tokIdent == "path" && inAttr()
			prevIdent = tokIdent
			pendingAttr = 0
			continue
		case c == '=':
			if pendingPath && !(i < len(b) && b[i] == '=') {
				pathAttr = true
			}
		case c == '#':
			pendingAttr = 1
			pendingPath, prevIdent = false, ""
			continue
		case c == '!' && pendingAttr == 1:
			pendingAttr = 2
			continue
		case c == '[' || c == '(' || c == '{':
			stack = append(stack, frame{attr: c == '[' && pendingAttr > 0})
		case c == ']' || c == ')' || c == '}':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
		pendingAttr, pendingPath, prevIdent = 0, false, ""
	}
	return pathAttr, mods, len(stack) == 0 || !inAttr()
}

// moduleName reports whether a file name (without .rs) could be a
// module's: an identifier. Other names (a-link, x.txt) are never read as
// modules.
func moduleName(s string) bool {
	if s == "" || !identStart(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !identByte(s[i]) {
			return false
		}
	}
	return true
}

func identStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func identByte(c byte) bool { return identStart(c) || c >= '0' && c <= '9' }

// skipString skips a string body from i (after the opening quote), with
// backslash escapes, and returns the index after the closing quote.
func skipString(b []byte, i int) (int, bool) {
	for i < len(b) {
		switch b[i] {
		case '\\':
			i += 2
		case '"':
			return i + 1, true
		default:
			i++
		}
	}
	return i, false
}

// rawOrPrefixedString reports whether b[i:] starts a raw, byte or C
// string: r", r#, b", br", c", cr".
func rawOrPrefixedString(b []byte, i int) bool {
	j := i
	if b[j] == 'b' || b[j] == 'c' {
		j++
		if j < len(b) && b[j] == '"' {
			return true
		}
		if j < len(b) && b[j] == '\'' && b[i] == 'b' {
			return false // a byte literal b'x' is lexed as a character literal after the b
		}
	}
	if j < len(b) && b[j] == 'r' {
		j++
		for j < len(b) && b[j] == '#' {
			j++
		}
		return j < len(b) && b[j] == '"'
	}
	return false
}

// skipPrefixedString skips a string that rawOrPrefixedString found.
func skipPrefixedString(b []byte, i int) (int, bool) {
	if b[i] == 'b' || b[i] == 'c' {
		i++
	}
	if b[i] == '"' {
		return skipString(b, i+1)
	}
	i++ // r
	hashes := 0
	for b[i] == '#' {
		hashes++
		i++
	}
	i++ // the opening quote
	closer := "\"" + strings.Repeat("#", hashes)
	end := strings.Index(string(b[i:]), closer)
	if end < 0 {
		return len(b), false
	}
	return i + end + len(closer), true
}

// skipCharOrLifetime skips a character literal ('x', '\n', '\u{1F600}',
// 'é') or a lifetime ('a, 'static) starting at the quote.
func skipCharOrLifetime(b []byte, i int) (int, bool) {
	if i+1 >= len(b) {
		return i + 1, false
	}
	if b[i+1] == '\\' {
		j := i + 2
		for j < len(b) && b[j] != '\'' && b[j] != '\n' {
			j++
		}
		if j >= len(b) || b[j] != '\'' {
			return j, false
		}
		return j + 1, true
	}
	_, size := utf8.DecodeRune(b[i+1:])
	if i+1+size < len(b) && b[i+1+size] == '\'' {
		return i + 2 + size, true // a character literal
	}
	return i + 1, true // a lifetime: its name is lexed as an identifier
}

// manifestDataKey are package metadata keys whose paths cargo fmt never
// reads (a workspace crate's readme = "../README.md"). It is built on first use.
var manifestDataKey = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"readme": true, "license-file": true, "description": true, "documentation": true,
		"homepage": true, "repository": true, "include": true, "exclude": true, "keywords": true, "categories": true, "authors": true}
})

// manifestPathProblem says why a Cargo.toml could make cargo fmt read
// outside the tree: a quoted value that is absolute or climbs with "..",
// or one written with escapes. Every string is judged, whatever its key
// (target paths, workspace members and exclusions, path dependencies,
// package.workspace).
func manifestPathProblem(p string) string {
	b, exists, problem := readProjectFile(p)
	if problem != "" {
		return problem
	}
	if !exists {
		return ""
	}
	for _, l := range lines(b) {
		s := l.text
		key, _, _ := strings.Cut(s, "=")
		if manifestDataKey()[strings.Trim(strings.TrimSpace(key), `"'`)] {
			continue // package metadata: cargo fmt reads no file it names
		}
		for {
			q := strings.IndexAny(s, `"'`)
			if q < 0 || strings.HasPrefix(strings.TrimSpace(s), "#") {
				break
			}
			if h := strings.IndexByte(s, '#'); h >= 0 && h < q {
				break // a comment before the string
			}
			quote := s[q]
			rest := s[q+1:]
			end := strings.IndexByte(rest, quote)
			if end < 0 {
				break // a multi-line string: its lines are judged one by one
			}
			v := rest[:end]
			if quote == '"' && strings.Contains(v, `\`) {
				return at(p, l) + ": a string with escapes, so the paths cargo reads are not known"
			}
			if strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") || v == ".." || strings.HasPrefix(v, "../") ||
				strings.Contains(v, "/../") || strings.HasSuffix(v, "/..") {
				return at(p, l) + ": " + v + " names a path outside the project, which cargo fmt would read"
			}
			s = rest[end+1:]
		}
	}
	return ""
}
