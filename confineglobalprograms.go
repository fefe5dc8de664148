package sandboxauth

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unicode"

	"github.com/sandboxauth/sandboxauth/internal/repotrust"
)

// gitProgramKeys are the last parts of the names of git settings whose
// value git runs as a command (core.fsmonitor, core.editor,
// credential.helper, filter.<driver>.clean, diff.<driver>.textconv,
// gpg.program, difftool.<tool>.path, ...); alias.* values starting with
// "!" are commands too. It is built on first use.
var gitProgramKeys = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"fsmonitor": true, "editor": true, "pager": true, "sshcommand": true,
		"askpass": true, "gitproxy": true, "program": true, "helper": true,
		"clean": true, "smudge": true, "process": true, "textconv": true,
		"command": true, "driver": true, "external": true, "cmd": true,
		"difffilter": true, "browser": true, "path": true,
		"packobjectshook": true, "alternaterefscommand": true, "defaultkeycommand": true,
		"sendmailcmd": true, "smtpserver": true, "tunnel": true, "uploadpack": true,
		"receivepack": true,
	}
})

// gitProgramSections are the sections every setting of which git runs as
// a command (pager.log, pager.diff, ...). It is built on first use.
var gitProgramSections = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"pager": true}
})

// valueWords returns the words of a setting's value that may name a file:
// those between white space, quotes and the shell's operators, each quoted
// string whole (a path with a space, as the shell git runs it with reads
// it), and the whole value.
func valueWords(value string) []string {
	words := strings.FieldsFunc(value, gitValueWord)
	for _, q := range []byte{'"', '\''} {
		rest := value
		for {
			i := strings.IndexByte(rest, q)
			if i < 0 {
				break
			}
			j := strings.IndexByte(rest[i+1:], q)
			if j < 0 {
				break
			}
			words = append(words, rest[i+1:i+1+j])
			rest = rest[i+1+j+1:]
		}
	}
	if v := strings.TrimSpace(value); v != "" {
		words = append(words, v)
	}
	return words
}

// gitValueWord splits a setting's value into the words that may name a
// file: at white space, quotes, and the shell's operators.
func gitValueWord(r rune) bool {
	return unicode.IsSpace(r) || strings.ContainsRune("\"'!;&|()<>=`,", r)
}

// programs keeps read-only the files in the sandbox that the value of a
// setting of the user's git configuration names (see configPrograms),
// relative ones in the work tree of every known repository.
func (g *globalGitConfigReader) programs(section, key, value string) {
	g.c.configPrograms(g.home, g.c.knownRepositories(), true, section, key, value)
}

// repositoryPrograms does what programs does for the configuration file
// config of the repository whose work tree is workTree: the repository's
// configuration is read-only, but the programs it names in the sandbox
// (core.fsmonitor = tools/watch.sh) were not. missing says whether a
// missing program is kept from being created (at the top).
func (c *confinePaths) repositoryPrograms(config, workTree, home string, missing bool) {
	b, err := readGitConfig(config)
	if err != nil {
		return
	}
	_ = repotrust.ParseGitConfig(config, b, func(s repotrust.Setting) error {
		c.configPrograms(home, []string{workTree}, missing, s.Section, s.Key, s.Value)
		return nil
	})
}

// configPrograms keeps read-only the files in the sandbox that the value
// of a git setting names: git runs the program a command-valued setting
// names (core.fsmonitor = ~/proj/tools/watch, which the user's git runs
// in every repository), and what another names (an excludes file, a
// commit template) is configuration too. Every word of the value that is
// a path ("/", "~", "$HOME" first) counts; in a command-valued setting
// (gitProgramKeys, not aliases, which the user runs by name), so does a
// relative one holding a "/", taken in each of workTrees (git runs them
// from the top of the work tree). An existing directory is not a program
// (a safe.directory, a cd in an alias) and is left writable; a missing
// absolute path any setting names is kept from being created when missing
// is set.
func (c *confinePaths) configPrograms(home string, workTrees []string, missing bool, section, key, value string) {
	program := section != "alias" && (gitProgramKeys()[key] || gitProgramSections()[section])
	for _, w := range valueWords(value) {
		for _, prefix := range []string{"${HOME}/", "$HOME/"} {
			if rest, ok := strings.CutPrefix(w, prefix); ok && home != "" {
				w = home + "/" + rest
			}
		}
		var paths []string
		switch {
		case filepath.IsAbs(w) || strings.HasPrefix(w, "~"):
			paths = expandGitPath(w, "/", home)
		case program && strings.Contains(w, "/"):
			for _, dir := range workTrees {
				paths = append(paths, expandGitPath(w, dir, home)...)
			}
		}
		for _, p := range paths {
			real, ok := sandboxPath(c.sandbox, p)
			if !ok {
				continue
			}
			fi, err := os.Lstat(real)
			switch {
			case err == nil && fi.IsDir():
			case err == nil:
				c.readOnly(real)
			case missing && (filepath.IsAbs(w) || strings.HasPrefix(w, "~")):
				// Any setting's: a list of the keys that run a command
				// is never complete.
				c.readOnly(real)
				c.policy.Placeholders[real] = "" // an empty file, not executable
			}
		}
	}
}
