package sandboxauth

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sandboxauth/sandboxauth/internal/pathres"
)

// The bounded walk before the run sees three levels of the sandbox, but
// git is started anywhere in a project: a terminal opened in a package's
// directory, an editor that looks for the repository of an opened file
// from the file's directory. There git obeys the first repository it
// finds upward. So the quarantine also scans every directory of the
// sandbox (skipped ones and git's object stores included, without
// following links, at any depth: paths longer than PATH_MAX are reached
// from their parents' descriptors), before the run and after it, for
// what git takes for a repository: directories with HEAD, objects and
// refs (or commondir), and .git files and links. After the run it moves
// aside:
//
//   - a .git directory that was not one before (a repository the command
//     made, or a directory it turned into one), whole; for another
//     directory that became a git directory, its HEAD (without which git
//     takes it for a plain directory again) and what git would obey in
//     it;
//   - a .git file or link that is new or changed: it names a git
//     directory that may lie anywhere (through a link, in a private
//     cache of the command's), which the scan need not follow;
//   - in the git directories that were there before, what git obeys
//     (configuration, hooks, redirections, legacy remotes, a stopped
//     rebase's steps, the files the configuration includes) that is new
//     or whose content changed during the run, by a digest of each taken
//     before and after (not by change times, which a change of the
//     user's just before the run would share);
//   - a directory the scan cannot read even after giving its owner the
//     permission back, unless it was unreadable before.
//
// What the quarantine moves aside is recorded by identity in a ledger
// (confineledger.go), and so is a directory that is a git directory but
// for an entry (put to sleep, its HEAD, objects or refs moved away, for a
// run that began before this one ended to wake, which saw it whole before
// its command started): brought back by a later or a concurrent run (a
// rename keeps identities and change times), it is new again. A branch
// switch (a new HEAD) in a repository that stayed whole is not a wake. A git directory moved aside whole has
// its HEAD moved aside too, so that it is not one any more under its new
// name, which is known in advance. After each run the private copies of
// the policy's Private places (caches outside the sandbox that outlive
// the run) are cleared of whatever git takes for a repository, their top
// included (quarantinePrivate), and a link in the sandbox that leads into
// a private copy or into what the quarantine moved aside is moved aside:
// the user's programs would follow it into what a confined command made.
//
// What git only records (objects, refs, the index) is left, and so is all
// that did not change: a repository of the user's that the command merely
// used (git status, git commit) keeps its files. The scan reads every
// directory twice, at about 10 µs a directory (BenchmarkDeepScan).

// gitObeyedNames are the entries of a git directory that make git run
// programs or go elsewhere; directories among them are looked into, one
// level down.
func gitObeyedNames() []string {
	return []string{"config", "config.worktree", "commondir", "objects/info/alternates", "hooks", "remotes", "branches", "rebase-merge", "rebase-apply", "sequencer"}
}

// scanMode says what a scan is for.
type scanMode int

const (
	// scanBefore records the git directories and .git files and links
	// before the run, less what the quarantine moved aside.
	scanBefore scanMode = iota
	// scanAfter records them after the run, with what git obeys in each
	// git directory, the directories that are git directories but for
	// one entry, and the links.
	scanAfter
	// scanPrivate records them in a private copy, its top included.
	scanPrivate
)

// newDeepScan returns an empty scan.
func newDeepScan() *deepScan {
	return &deepScan{gitDirs: map[fileID]string{}, pointers: map[fileID]pointer{}, obeyed: map[string][]obeyedEntry{}, protected: map[string]protectedMatch{}}
}

// deepScan is what a scan of every directory of the sandbox found.
type deepScan struct {
	// gitDirs are the directories git would take for git directories,
	// by identity.
	gitDirs map[fileID]string
	// pointers are the .git files and links, by identity, with their
	// change times.
	pointers map[fileID]pointer
	// obeyed are, in each git directory, what git obeys, with its change
	// time: a path to move aside (a link, for what lies behind it).
	obeyed map[string][]obeyedEntry
	// partial are the directories that hold a config and some, not all,
	// of what makes a git directory (HEAD, objects, refs, commondir): a
	// git directory put to sleep, which a run beside this one could wake
	// (see quarantineLedger).
	partial []fileID
	// links are the symbolic links, with their targets as written.
	links []link
	// unreadable are the directories that could not be read.
	unreadable []string
	// protected are the matches of write-protected patterns, at every
	// depth, by path (outside git directories and the directories the
	// walk skips; see protectedChanged).
	protected map[string]protectedMatch
}

// protectedMatch is a match of a write-protected pattern found by the
// scan: its identity and a digest of what it holds (a directory's whole
// tree), whole when the digest covers all of it (see stateDigest).
type protectedMatch struct {
	id     fileID
	digest string
	whole  bool
}

// protectedChanged returns the write-protected matches of now that are
// new since was, or another file, or hold something else: a pattern
// protects what makes programs run code (.cargo/config.toml,
// rust-toolchain.toml, .npmrc, .vscode/, mise.toml, ...), and the
// programs that read them look in the directory they run in, at any
// depth, while the walk keeps them read-only only three levels deep. A
// match too large to digest whole counts as changed.
func protectedChanged(was, now *deepScan) []string {
	var out []string
	for path, m := range now.protected {
		b, ok := was.protected[path]
		if !ok || b.id != m.id || !m.whole || b.digest != m.digest {
			out = append(out, path)
		}
	}
	return out
}

// pointer is a .git file or link found by the scan.
type pointer struct {
	path  string
	ctime int64
}

// link is a symbolic link found by the scan, with its change time.
type link struct {
	path, target string
	ctime        int64
}

// strayLinks returns the links of s that lead into one of the private
// copies (caches outside the sandbox that confined commands write) or
// into something the quarantine moved aside, by their targets as written
// or as resolved: the user's programs would follow them into what a
// confined command made. It also returns the links made or changed since
// (their change time) inside a git directory: git writes through them (a
// reflog, COMMIT_EDITMSG) wherever they lead, and never makes one there
// itself.
func strayLinks(s *deepScan, private []string, since int64) []string {
	var out []string
	into := func(p string) bool {
		if strings.Contains(p, quarantineSuffix) {
			return true
		}
		return slices.ContainsFunc(private, func(d string) bool { return pathres.Within(d, p) })
	}
	inGitDir := func(p string) bool {
		for _, d := range s.gitDirs {
			if pathres.Within(d, p) && p != d {
				return true
			}
		}
		return false
	}
	for _, l := range s.links {
		if l.ctime >= since && inGitDir(l.path) {
			out = append(out, l.path)
			continue
		}
		written := l.target
		if !filepath.IsAbs(written) {
			written = filepath.Join(filepath.Dir(l.path), written)
		}
		resolved, err := filepath.EvalSymlinks(l.path)
		if into(filepath.Clean(written)) || err == nil && into(resolved) {
			out = append(out, l.path)
		}
	}
	return out
}

// partialGitDirectory reports whether a directory whose entries are given
// holds a config and some of HEAD, objects, refs and commondir.
func partialGitDirectory(entries []os.DirEntry) bool {
	var config, some bool
	for _, e := range entries {
		switch e.Name() {
		case "config":
			config = true
		case "HEAD", "objects", "refs", "commondir":
			some = true
		}
	}
	return config && some
}

// obeyedEntry is one thing git obeys in a git directory: its key (its
// path in the git directory, or its absolute path for what the
// configuration names), the path to move aside, and a digest of its
// content.
type obeyedEntry struct {
	key, path, digest string
}

// deepQuarantine returns what the command left, by the scans before
// (was) and after it (now), the policy's time since (see above) and the
// identities the quarantine moved aside before (aside: brought back,
// they are new whatever the scan before saw), sorted; and the identities
// of the git directories and .git files and links among them, for the
// record of what was moved aside.
func deepQuarantine(was, now *deepScan, since int64, aside map[fileID]bool) ([]string, map[string]fileID) {
	var out []string
	ids := map[string]fileID{}
	for id, dir := range now.gitDirs {
		if _, known := was.gitDirs[id]; !known || aside[id] {
			if filepath.Base(dir) == ".git" {
				out = append(out, dir)
				ids[dir] = id
				continue
			}
			head := filepath.Join(dir, "HEAD")
			out = append(out, head)
			ids[head] = id
			for _, e := range now.obeyed[dir] {
				out = append(out, e.path)
			}
			continue
		}
		// Known: what git obeys there that is new or whose content
		// changed (not its change time, which a user's change just before
		// the run would share).
		before := map[string]string{}
		for _, e := range was.obeyed[was.gitDirs[id]] {
			before[e.key] = e.digest
		}
		for _, e := range now.obeyed[dir] {
			if d, ok := before[e.key]; !ok || d != e.digest {
				out = append(out, e.path)
			}
		}
	}
	for id, ptr := range now.pointers {
		if _, known := was.pointers[id]; !known || aside[id] || ptr.ctime >= since {
			out = append(out, ptr.path)
			ids[ptr.path] = id
		}
	}
	for _, dir := range now.unreadable {
		if !slices.Contains(was.unreadable, dir) {
			out = append(out, dir)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), ids
}

// isGitDirectory reports whether a directory whose entries are given may
// be a git directory to git's discovery (is_git_directory): a HEAD, and
// objects and refs or a commondir file naming where they are. The test is
// by names alone, a superset of what git accepts.
func isGitDirectory(entries []os.DirEntry) bool {
	var head, objects, refs, commondir bool
	for _, e := range entries {
		switch e.Name() {
		case "HEAD":
			head = true
		case "objects":
			objects = true
		case "refs":
			refs = true
		case "commondir":
			commondir = true
		}
	}
	return head && (commondir || objects && refs)
}
