package classify

import (
	"bufio"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// Ignore rules that whitelist. A tree walker that skips hidden and ignored
// files (rg) reads ignore files (.gitignore, .ignore, .rgignore, the
// repository's info/exclude, and any given with --ignore-file); a "!" rule
// in one of them whitelists what it matches, hidden files included, so
// `!.env` in a .ignore makes a plain `rg KEY` print .env. The engine reads
// those files too: a walk that one of them may whitelist into is checked
// as a walk of hidden files. A file that cannot be read is taken to
// whitelist (the walker may read it where the engine could not).

// maxIgnoreFileBytes bounds how much of an ignore file is read; a larger
// file is taken to whitelist.
const maxIgnoreFileBytes = 1 << 20

// rulesWhitelist reports whether the ignore file at path holds a "!" rule
// (or cannot be read whole).
func rulesWhitelist(path string) bool {
	fi, err := os.Stat(path)
	if err != nil {
		return !os.IsNotExist(err)
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxIgnoreFileBytes {
		return true // a FIFO would block the classifier; a device never ends
	}
	f, err := os.Open(path)
	if err != nil {
		return true
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, maxIgnoreFileBytes+1))
	sc.Buffer(make([]byte, 0, 4096), maxIgnoreFileBytes+1)
	n := 0
	for sc.Scan() {
		line := sc.Bytes()
		n += len(line) + 1
		// Blanks and a byte-order mark before the "!" count: some readers
		// trim them.
		for {
			if len(line) >= 3 && line[0] == 0xEF && line[1] == 0xBB && line[2] == 0xBF {
				line = line[3:]
			} else if len(line) > 0 && (line[0] == ' ' || line[0] == '\t' || line[0] == '\r' || line[0] == '\f' || line[0] == '\v') {
				line = line[1:]
			} else {
				break
			}
		}
		if len(line) > 0 && line[0] == '!' {
			return true
		}
	}
	return sc.Err() != nil || n > maxIgnoreFileBytes
}

// dirWhitelists reports whether dir holds one of the ignore files names
// (or a repository whose info/exclude) with a "!" rule.
func dirWhitelists(dir string, names []string) bool {
	for _, n := range names {
		if rulesWhitelist(filepath.Join(dir, n)) {
			return true
		}
	}
	return rulesWhitelist(filepath.Join(dir, ".git", "info", "exclude"))
}

// ancestorsWhitelist reports whether the ignore files of real (a resolved
// directory inside the sandbox) or of a directory above it, up to the
// sandbox's root, whitelist anything.
func (r *cmdClassifier) ancestorsWhitelist(real string, names []string) bool {
	root := r.sandboxRoot()
	for d := filepath.Dir(real); ; d = filepath.Dir(d) {
		if _, inside := relInside(root, d); !inside && d != root {
			return false
		}
		if dirWhitelists(d, names) {
			return true
		}
		if d == root || d == filepath.Dir(d) {
			return false
		}
	}
}

// ignoreEntryWhitelists reports whether a hidden entry that a walk would
// skip is an ignore file, or a repository, whose rules whitelist.
func ignoreEntryWhitelists(path, name string, isDir bool, names []string) bool {
	if isDir {
		return strings.EqualFold(name, ".git") && rulesWhitelist(filepath.Join(path, "info", "exclude"))
	}
	return slices.Contains(names, name) && rulesWhitelist(path)
}

// whitelistMatches reports whether a whitelist glob of a walker (rg -g, the
// globs of rg -t) may select the entry name, hidden or not. A glob that
// names a path (a slash), alternatives or ** is taken to select
// everything; the others are matched against the name with case folded
// (rg --iglob and --glob-case-insensitive fold it), * matching a leading
// dot as the walker's globs do.
func whitelistMatches(globs []string, name string) bool {
	for _, g := range globs {
		if strings.ContainsAny(g, "/{") || strings.Contains(g, "**") {
			return true
		}
		if ok, err := path.Match(strings.ToLower(g), strings.ToLower(name)); ok || err != nil {
			return true
		}
	}
	return false
}
