package programs

import "strings"

// GitSource says where a git command takes the file contents it prints
// from: the index (tracked and staged files), the object store (history,
// and any object named by its id), or both.
type GitSource uint8

const (
	// GitIndex: the index's files (git diff, git diff --cached, git grep
	// --cached).
	GitIndex GitSource = 1 << iota
	// GitStore: any object in the store (git log -p, git show, git diff
	// REV, git cat-file -p).
	GitStore
	// GitSubmodules: the stores of the repository's submodules as well
	// (--submodule=diff, --recurse-submodules).
	GitSubmodules
	// GitWorkTree: without revisions, the form compares the index with
	// the work tree (git diff, git diff-files), and prints a tracked file
	// only where they differ. The engine takes the operands as paths when
	// each names an existing file (git refuses a word that is both a
	// revision and a file), and else as possible revisions (GitStore).
	GitWorkTree
	// GitHeadIndex: without revisions, the form compares HEAD's tree with
	// the index (git diff --cached), and prints a file only where they
	// differ; the engine takes the operands as for GitWorkTree.
	GitHeadIndex
)

// gitSubmodules adds GitSubmodules to src when an option makes git
// print contents from inside submodules.
func gitSubmodules(p *Parsed, src GitSource) GitSource {
	if src == 0 {
		return 0
	}
	for _, v := range p.Values("--submodule") {
		if v == "diff" {
			return src | GitSubmodules
		}
	}
	if p.Has("--recurse-submodules") {
		return src | GitSubmodules
	}
	return src
}

// gitPatchOptions make a history or diff command print file contents, or
// search them (the pickaxe options answer whether a string is in a file,
// which is enough to learn a secret a guess at a time).
var gitPatchOptions = []string{"-p", "-u", "--patch", "-U", "--patch-with-raw", "--patch-with-stat",
	"-c", "--cc", "--dd", "-m", "--diff-merges", "--remerge-diff", "--word-diff", "--color-words", "--word-diff-regex",
	"-L", "-W", "--function-context", "--binary", "--check", "-S", "-G", "--pickaxe-regex", "--pickaxe-all", "--find-object"}

// gitNamesOnly are the options with which a diff prints names, counts or
// object ids instead of a patch.
var gitNamesOnly = []string{"--stat", "--numstat", "--shortstat", "--name-only", "--name-status", "--raw",
	"-s", "--no-patch", "--summary", "-X", "--dirstat", "--dirstat-by-file", "--compact-summary", "--quiet"}

// gitHistoryContents: git log and its relatives print commits, and file
// contents only with a patch (or pickaxe) option. They read history, and
// the index (--cached is not theirs, but a stash's index commit is).
func gitHistoryContents(p *Parsed) GitSource {
	if p.Has(gitPatchOptions...) {
		return gitSubmodules(p, GitStore|GitIndex)
	}
	return 0
}

// gitShowContents: git show prints a commit's patch, and a blob's or a
// tag's contents, whatever the options: any object may be named.
func gitShowContents(p *Parsed) GitSource { return gitSubmodules(p, GitStore|GitIndex) }

// gitDiffContents: a diff prints a patch unless it is asked for names or
// counts only, and a pickaxe option searches contents either way. It
// reads the index and, with a revision or --cached (HEAD), the store; both
// are held against the protected paths.
func gitDiffContents(p *Parsed) GitSource {
	if !p.Has(gitPatchOptions...) && p.Has(gitNamesOnly...) {
		return 0
	}
	src := GitStore | GitIndex
	// Copy detection that takes unchanged files as sources (-C -C,
	// --find-copies-harder) prints lines of an unchanged protected file in
	// the diff of a new file copied from it: then every tracked file
	// counts, changed or not.
	copies := 0
	for _, u := range p.Options {
		for _, n := range u.Option.Names {
			if n == "-C" {
				copies++
			}
		}
	}
	if copies > 1 || p.Has("--find-copies-harder") {
		return gitSubmodules(p, src)
	}
	switch {
	case (p.Spec.Prefix[0] == "diff" || p.Spec.Prefix[0] == "diff-files") && !p.Has("--cached", "--staged", "--merge-base"):
		src |= GitWorkTree
	case p.Spec.Prefix[0] == "diff" && p.Has("--cached", "--staged") && !p.Has("--merge-base"):
		src |= GitHeadIndex
	}
	return gitSubmodules(p, src)
}

// gitCatFileContents: git cat-file prints an object unless it is asked
// for its type, size or existence only.
func gitCatFileContents(p *Parsed) GitSource {
	if p.Has("-p", "--batch", "--batch-command", "--textconv", "--filters") || !p.Has("-t", "-s", "-e", "--batch-check") {
		return GitStore | GitIndex
	}
	return 0
}

// gitGrepContents: git grep --cached searches the index's files (the
// working tree's are walked by the engine; a revision operand is refused
// there).
func gitGrepContents(p *Parsed) GitSource {
	if p.Has("--cached") {
		return gitSubmodules(p, GitIndex)
	}
	return 0
}

// gitAlwaysContents: the form prints patches or file contents whatever
// its options (git range-diff).
func gitAlwaysContents(*Parsed) GitSource { return GitStore | GitIndex }

// withContents sets a spec's Contents and returns the spec.
func withContents(sp *Spec, f func(*Parsed) GitSource) *Spec {
	sp.Contents = f
	return sp
}

// gitRefFormatContents: the ref-listing forms print an object's bytes
// with the %(raw) atom of --format, a blob's too (a tag may point at one).
func gitRefFormatContents(p *Parsed) GitSource {
	for _, v := range p.Values("--format") {
		if strings.Contains(v, "%(raw") {
			return GitStore
		}
	}
	return 0
}
