package sandboxauth

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// A repository's own configuration can make a read-only git command run a
// program: `git status` runs core.fsmonitor, `git diff` runs diff.external
// and textconv drivers, a clean filter runs on every worktree file with the
// attribute. Writes into .git are protected, but a repository may arrive
// with such a configuration (an archive, a copied directory), so the safe
// git commands are safe only when the sandbox's repository configuration
// names no program (git-lfs filters aside) and includes no other file.

// maxGitConfig bounds how much of a configuration file is read; a larger
// one is not understood.
const maxGitConfig = 256 << 10

// gitConfigProgram looks through the configuration files of the
// repository whose .git entry is dotGit (a directory, or a file naming the
// directory with "gitdir: ...") and returns the first setting that runs a
// program or widens what git reads, as "section.key". accept, when not
// nil, may pass a setting with its value after all (a hooks directory the
// model cannot write). ok is false when a file exists but cannot be read or
// understood; that is not safe either.
func gitConfigProgram(dotGit string, accept func(setting, value string) bool) (setting string, ok bool) {
	gitDir := dotGit
	fi, err := os.Lstat(dotGit)
	if err != nil {
		return "", false
	}
	if !fi.IsDir() {
		gitDir, ok = readGitdirFile(dotGit)
		if !ok {
			return "", false
		}
	}
	// A linked worktree's git directory names the shared one in commondir;
	// a plain .git directory has none.
	dirs := []string{gitDir}
	if !fi.IsDir() {
		if b, err := os.ReadFile(gitDir + "/commondir"); err == nil {
			common := strings.TrimSpace(string(b))
			if !filepath.IsAbs(common) {
				common = filepath.Join(gitDir, common)
			}
			dirs = append(dirs, common)
		}
	}
	// config.worktree counts only with extensions.worktreeConfig, which
	// cannot be set without the word appearing in a config file.
	worktreeConfig := false
	for _, dir := range dirs {
		b, err := readSmallFile(dir + "/config")
		if err != nil && !os.IsNotExist(err) {
			return "", false
		}
		if s, found, ok := gitConfigScan(b, accept); !ok || found {
			return s, ok
		}
		worktreeConfig = worktreeConfig || bytes.Contains(bytes.ToLower(b), []byte("worktreeconfig"))
	}
	for _, dir := range dirs {
		if !worktreeConfig {
			break
		}
		b, err := readSmallFile(dir + "/config.worktree")
		if err != nil && !os.IsNotExist(err) {
			return "", false
		}
		if s, found, ok := gitConfigScan(b, accept); !ok || found {
			return s, ok
		}
	}
	return "", true
}

// readGitdirFile reads a .git file ("gitdir: PATH") and returns the
// directory it names, relative paths taken from the file's directory.
func readGitdirFile(name string) (string, bool) {
	b, err := readSmallFile(name)
	if err != nil {
		return "", false
	}
	dir, found := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
	dir = strings.TrimSpace(dir)
	if !found || dir == "" {
		return "", false
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(filepath.Dir(name), dir)
	}
	return dir, true
}

func readSmallFile(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxGitConfig+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxGitConfig {
		return nil, os.ErrInvalid
	}
	return b, nil
}

// gitConfigScan parses git configuration text loosely and reports the first
// setting that runs a program. ok is false for text it does not understand
// (an unterminated section header, a continuation line).
func gitConfigScan(b []byte, accept func(setting, value string) bool) (setting string, found, ok bool) {
	section, sub := "", ""
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 4096), maxGitConfig)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			end := headerEnd(line)
			if end < 0 {
				return "", false, false
			}
			section, sub = parseSectionHeader(line[1:end])
			line = strings.TrimSpace(line[end+1:]) // a key may follow on the same line
		}
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if strings.HasSuffix(line, "\\") {
			return "", false, false // a value continued on the next line
		}
		key, value, _ := strings.Cut(line, "=")
		key = strings.ToLower(strings.TrimSpace(key))
		value = strings.Trim(strings.TrimSpace(value), `"`)
		if gitSettingRunsProgram(section, sub, key, value) {
			name := section + "." + key
			if sub != "" {
				name = section + "." + sub + "." + key
			}
			if accept != nil && accept(name, value) {
				continue
			}
			return name, true, true
		}
	}
	if sc.Err() != nil {
		return "", false, false
	}
	return "", false, true
}

// headerEnd returns the index of the ] that closes the section header
// starting line, or -1. A quoted subsection may hold ] and escaped quotes.
func headerEnd(line string) int {
	quoted := false
	for i := 1; i < len(line); i++ {
		switch c := line[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case c == ']' && !quoted:
			return i
		}
	}
	return -1
}

// parseSectionHeader splits `core`, `diff "name"` or the old `diff.name`
// into a lower-case section and its subsection.
func parseSectionHeader(h string) (section, sub string) {
	h = strings.TrimSpace(h)
	if i := strings.IndexByte(h, '"'); i >= 0 {
		return strings.ToLower(strings.TrimSpace(h[:i])), strings.Trim(h[i:], `"`)
	}
	if i := strings.IndexByte(h, '.'); i >= 0 {
		return strings.ToLower(h[:i]), h[i+1:]
	}
	return strings.ToLower(h), ""
}

// lfsFilterCommands are the filter commands git-lfs installs.
var lfsFilterCommands = map[string]bool{
	"git-lfs clean -- %f":           true,
	"git-lfs smudge -- %f":          true,
	"git-lfs smudge --skip -- %f":   true,
	"git-lfs filter-process":        true,
	"git-lfs filter-process --skip": true,
}

// gitSettingRunsProgram decides one setting (section and key lower-case).
func gitSettingRunsProgram(section, sub, key, value string) bool {
	switch section {
	case "core":
		switch key {
		case "fsmonitor":
			v := strings.ToLower(value)
			return v != "" && v != "true" && v != "false" && v != "yes" && v != "no" && v != "on" && v != "off" && v != "0" && v != "1"
		case "pager", "editor", "askpass", "gitproxy", "sshcommand", "alternaterefscommand", "worktree", "hookspath":
			// worktree points git at files outside the sandbox; hooksPath
			// takes hooks (which even git add and git status may run)
			// from a directory of the worktree. The caller may accept a
			// hooksPath the model cannot write.
			return true
		}
	case "diff":
		return key == "external" || (sub != "" && (key == "command" || key == "textconv"))
	case "filter":
		if key == "clean" || key == "smudge" || key == "process" {
			// Only the commands `git lfs install` writes: git runs the
			// value through a shell, so anything more may run anything.
			return !lfsFilterCommands[value]
		}
	case "pager", "include", "includeif":
		return true
	case "gpg":
		return key == "program"
	case "log":
		return key == "showsignature" && value != "false"
	}
	return false
}
