package sandboxauth

import (
	"os"
	"path/filepath"
	"strings"
	"unicode"
)

// gitProgramKeys are the last parts of the names of git settings whose
// value git runs as a command (core.fsmonitor, core.editor,
// credential.helper, filter.<driver>.clean, diff.<driver>.textconv,
// gpg.program, difftool.<tool>.path, ...); alias.* values starting with
// "!" are commands too.
var gitProgramKeys = map[string]bool{
	"fsmonitor": true, "editor": true, "pager": true, "sshcommand": true,
	"askpass": true, "gitproxy": true, "program": true, "helper": true,
	"clean": true, "smudge": true, "process": true, "textconv": true,
	"command": true, "driver": true, "external": true, "cmd": true,
	"difffilter": true, "browser": true, "path": true,
}

// gitValueWord splits a setting's value into the words that may name a
// file: at white space, quotes, and the shell's operators.
func gitValueWord(r rune) bool {
	return unicode.IsSpace(r) || strings.ContainsRune("\"'!;&|()<>=`,", r)
}

// programs keeps read-only the files in the sandbox that the value of a
// setting of the user's git configuration names: git runs the program a
// command-valued setting names (core.fsmonitor = ~/proj/tools/watch, in
// every repository of the user), and what another names (an excludes
// file, a commit template) is configuration too. Every word of the value
// that is a path ("/", "~", "$HOME" first) counts; in a command-valued
// setting (gitProgramKeys, not aliases, which the user runs by name), so
// does a relative one holding a "/", taken in the work tree of every
// known repository. An existing directory is not a program (a
// safe.directory, a cd in an alias) and is left writable; a missing path
// a command-valued setting names is kept from being created.
func (g *globalGitConfigReader) programs(section, key, value string) {
	program := section != "alias" && gitProgramKeys[key]
	for _, w := range strings.FieldsFunc(value, gitValueWord) {
		for _, prefix := range []string{"${HOME}/", "$HOME/"} {
			if rest, ok := strings.CutPrefix(w, prefix); ok && g.home != "" {
				w = g.home + "/" + rest
			}
		}
		var paths []string
		switch {
		case filepath.IsAbs(w) || strings.HasPrefix(w, "~"):
			paths = expandGitPath(w, "/", g.home)
		case program && strings.Contains(w, "/"):
			for _, repo := range g.c.knownRepositories() {
				paths = append(paths, expandGitPath(w, repo, g.home)...)
			}
		}
		for _, p := range paths {
			real, ok := g.inSandbox(p)
			if !ok {
				continue
			}
			fi, err := os.Lstat(real)
			switch {
			case err == nil && fi.IsDir():
			case err == nil:
				g.c.readOnly(real)
			case program && (filepath.IsAbs(w) || strings.HasPrefix(w, "~")):
				g.c.readOnly(real)
				g.c.policy.Placeholders[real] = "" // an empty file, not executable
			}
		}
	}
}
