package sandboxauth

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/sandboxauth/sandboxauth/internal/pathres"
	"github.com/sandboxauth/sandboxauth/internal/repotrust"
)

// maxGitlinkRepositories bounds the repositories whose index is read for
// gitlinks, since it happens before every confined command.
const maxGitlinkRepositories = 256

// gitDirs returns the git directory of the repository whose work tree is
// dir (its .git, or the directory a .git file names, for worktrees and
// submodules) and its common directory (where commondir points, for a
// worktree). ok is false when dir holds no repository understood.
func gitDirs(dir string) (gitdir, common string, ok bool) {
	dotgit := filepath.Join(dir, ".git")
	fi, err := os.Lstat(dotgit)
	switch {
	case err != nil:
		return "", "", false
	case fi.IsDir():
		gitdir = dotgit
	case fi.Mode().IsRegular():
		b, err := readSmallFile(dotgit)
		if err != nil {
			return "", "", false
		}
		line, _, _ := strings.Cut(string(b), "\n")
		target, found := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
		if !found {
			return "", "", false
		}
		target = strings.TrimSpace(target)
		if !filepath.IsAbs(target) {
			target = filepath.Join(dir, target)
		}
		gitdir = filepath.Clean(target)
	default:
		return "", "", false
	}
	common = gitdir
	if b, err := readSmallFile(filepath.Join(gitdir, "commondir")); err == nil {
		cd := strings.TrimSpace(string(b))
		if !filepath.IsAbs(cd) {
			cd = filepath.Join(gitdir, cd)
		}
		common = filepath.Clean(cd)
	}
	return gitdir, common, true
}

// knownRepositories returns the work trees of the repositories found so
// far: the top of the sandbox when it holds one, and every directory
// whose .git the walk (or a gitlink) counted as seen.
func (c *confinePaths) knownRepositories() []string {
	dirs := []string{c.sandbox}
	for p := range c.seen {
		if filepath.Base(p) == ".git" && filepath.Dir(p) != c.sandbox {
			dirs = append(dirs, filepath.Dir(p))
		}
	}
	return dirs
}

// followGitlinks keeps read-only the repositories behind the gitlinks of
// every known repository's index (the submodules git status enters, from
// the top or from a repository below it), however deep they lie, and
// counts them as seen; so are those behind their own gitlinks in turn,
// maxGitlinkRepositories indexes at most. An index that is not understood
// counts as none: the classifier asks about git commands then.
func (c *confinePaths) followGitlinks() {
	queue := c.knownRepositories()
	visited := make(map[string]bool, len(queue))
	for _, d := range queue {
		visited[d] = true
	}
	for read := 0; len(queue) > 0 && read < maxGitlinkRepositories; read++ {
		dir := queue[0]
		queue = queue[1:]
		gitdir, common, ok := gitDirs(dir)
		if !ok {
			continue
		}
		hashLen := 20
		if readGitConfigPaths(filepath.Join(common, "config")).sha256 {
			hashLen = 32
		}
		links, err := repotrust.IndexGitlinks(gitdir, hashLen)
		if err != nil {
			continue
		}
		for _, l := range links {
			sub := filepath.Join(dir, filepath.FromSlash(l))
			if !pathres.Within(c.sandbox, sub) || sub == c.sandbox || visited[sub] {
				continue
			}
			if _, err := os.Lstat(filepath.Join(sub, ".git")); err != nil {
				continue
			}
			visited[sub] = true
			c.repository(sub, false)
			c.seen[filepath.Join(sub, ".git")] = true
			queue = append(queue, sub)
		}
	}
}

// sequencerStates returns the existing directories of git's state of an
// operation stopped half-way (sequencerState) in the git directory of
// every known repository, the top's and those below it, that lie in the
// sandbox: the user's `git rebase --continue` in any of them runs their
// next steps.
func (c *confinePaths) sequencerStates() []string {
	var out []string
	for _, dir := range c.knownRepositories() {
		gitdir, _, ok := gitDirs(dir)
		if !ok || !pathres.Within(c.sandbox, gitdir) {
			continue
		}
		for _, d := range sequencerState {
			p := filepath.Join(gitdir, d)
			if _, err := os.Lstat(p); err == nil {
				out = append(out, p)
			}
		}
	}
	return out
}
