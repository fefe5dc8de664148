package sandboxauth

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/sandboxauth/sandboxauth/internal/pathres"
	"github.com/sandboxauth/sandboxauth/internal/repotrust"
)

// gitExcludeLimit bounds the repository's own info/exclude that
// gitExcludePlaceholders reads: a larger one is left as it is.
const gitExcludeLimit = 1 << 20

// gitExcludePlaceholders keeps git, inside the confinement, from seeing
// the placeholders of the sandbox's missing protected paths (see
// confine.Policy.ReadOnly): an empty .npmrc or .env that exists only while
// confined commands run would otherwise show as untracked, and `git add
// -A` would stage it, so that the commit records a file the user never
// made. The top repository's info/exclude is shown to confined commands
// (confine.Policy.Shown) with one more line for each missing read-only
// path of the work tree; the real file is not changed, and, missing, it
// is a placeholder itself for as long as the others. The file is
// read-only inside the confinement, with or without lines: a run that
// begins while another runs sees the other's placeholders (and, where the
// repository had none, its info/exclude) and must not be able to change
// them.
//
// Where the repository's common directory lies outside the sandbox (the
// sandbox is a linked worktree), its info/exclude is shown only when it
// exists: a missing one cannot be made there. Nothing is done where
// info/exclude is not a regular file, or too large to read.
func (c *confinePaths) gitExcludePlaceholders() {
	gitdir, ok := workTreeGitDir(c.sandbox)
	if !ok {
		return
	}
	// Named by its real path: a .git that is a link (to .realgit) is
	// refused on the way to a read-only path.
	common, err := pathres.Resolve(commonDir(gitdir))
	if err != nil {
		return
	}
	exclude := filepath.Join(common, "info", "exclude")
	// A linked worktree's lies in its repository's common directory,
	// outside the sandbox: shown all the same where it exists.
	inside := strings.HasPrefix(exclude, c.sandbox+"/")
	var lines []string
	for _, p := range c.policy.ReadOnly {
		rel, ok := strings.CutPrefix(p, c.sandbox+"/")
		if !ok || rel == ".git" || strings.HasPrefix(rel, ".git/") {
			continue
		}
		// Missing, or the placeholder of a run of the sandbox that is
		// still running.
		if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) && !isPlaceholder(p, c.policy) {
			continue
		}
		if pattern, ok := gitignoreLiteral(rel); ok {
			lines = append(lines, pattern)
		}
	}
	// A link on the way would make confinement refuse the whole run.
	if fi, err := os.Lstat(filepath.Dir(exclude)); err == nil && !fi.IsDir() || err != nil && !errors.Is(err, fs.ErrNotExist) {
		return
	}
	var own []byte
	fi, err := os.Lstat(exclude)
	switch {
	case err == nil && fi.Mode().IsRegular():
		if own, err = repotrust.ReadUntrusted(exclude, gitExcludeLimit); err != nil {
			return
		}
	case !errors.Is(err, fs.ErrNotExist) || !inside:
		return
	}
	var b strings.Builder
	b.Write(own)
	if len(own) > 0 && own[len(own)-1] != '\n' {
		b.WriteByte('\n')
	}
	b.WriteString("# Placeholders of missing protected paths, there while confined commands run (sandboxauth):\n")
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	content := b.String()
	c.readOnly(exclude)
	if c.policy.Shown == nil {
		c.policy.Shown = map[string]string{}
	}
	c.policy.Shown[exclude] = content
	if own == nil {
		// The judging after the run knows it for a placeholder.
		c.policy.Placeholders[exclude] = content
	}
}

// gitignoreLiteral returns the pattern of a gitignore file that matches
// exactly the path rel (slash-separated, relative to the work tree's
// top), and false where no pattern can (a name with a newline).
func gitignoreLiteral(rel string) (string, bool) {
	if strings.ContainsAny(rel, "\n\r") {
		return "", false
	}
	var b strings.Builder
	b.WriteByte('/')
	trailing := len(rel) - len(strings.TrimRight(rel, " "))
	for i, r := range rel {
		switch {
		case strings.ContainsRune(`*?[\`, r), i >= len(rel)-trailing:
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String(), true
}
