package repotrust

import "strings"

// Command is what a git subcommand does to a repository, as far as trust
// goes: the hooks it may run and whether it writes refs, the index or
// objects.
type Command struct {
	// Name is the subcommand ("status", "add").
	Name string
	// Hooks are the hook names the subcommand may run; nil for none.
	Hooks []string
	// AnyHook is set for a subcommand not known here: every hook counts.
	AnyHook bool
	// Writes is set when the subcommand writes refs, the index or objects
	// (a refresh of the index's cached file times does not count).
	Writes bool
}

// allHooks are the hooks git runs from the hooks directory (githooks(5)).
func allHooks() []string {
	return []string{
		"applypatch-msg", "pre-applypatch", "post-applypatch", "pre-commit", "pre-merge-commit",
		"prepare-commit-msg", "commit-msg", "post-commit", "pre-rebase", "post-checkout",
		"post-merge", "pre-push", "pre-receive", "update", "proc-receive", "post-receive",
		"post-update", "reference-transaction", "push-to-checkout", "pre-auto-gc",
		"post-rewrite", "sendemail-validate", "fsmonitor-watchman", "p4-changelist",
		"p4-prepare-changelist", "p4-post-changelist", "p4-pre-submit", "post-index-change",
	}
}

// GitCommand maps a git command line (the words after "git" and its
// global options: "status", "add", "x") to what it does. Any write of
// the index runs post-index-change, and git status, git diff and git
// describe rewrite the index when a refresh changed it; any ref update
// runs reference-transaction. The hooks of the subcommands that make
// commits, merge, rebase, apply patches or check out are those githooks(5)
// names for them, with the hooks of the commands they run themselves
// (git stash --keep-index checks out paths, which runs post-checkout; a
// sequencer commit runs the commit hooks): a superset, so that a hook
// named is one the subcommand may run, and no hook it runs goes unnamed
// (TestGitCommandHooksAgainstGit runs real git with every hook present).
// A subcommand, or a form of one, not listed here may run any hook and
// write.
func GitCommand(args []string) Command {
	if len(args) == 0 {
		return Command{}
	}
	sub := args[0]
	c := Command{Name: sub}
	const (
		indexHook = "post-index-change"
		refHook   = "reference-transaction"
	)
	switch sub {
	case "version", "--version", "help", "log", "show", "whatchanged", "shortlog", "diff-tree",
		"diff-index", "diff-files", "range-diff", "blame", "annotate", "grep", "rev-parse",
		"rev-list", "ls-files", "ls-tree", "cat-file", "name-rev", "merge-base", "show-ref",
		"for-each-ref", "count-objects", "check-ignore", "check-attr", "var", "fsck":
		// Read only.
	case "remote", "config", "reflog", "worktree", "submodule":
		// Read only in their listing forms; any other form may do
		// anything.
		if !listingForm(sub, args[1:]) {
			c.AnyHook, c.Writes = true, true
		}
	case "stash":
		c.Hooks, c.AnyHook, c.Writes = stashHooks(args[1:])
	case "status", "diff", "describe":
		c.Hooks = []string{indexHook}
	case "add", "rm", "mv", "update-index", "read-tree":
		c.Hooks, c.Writes = []string{indexHook}, true
	case "restore":
		// Restoring the work tree checks out paths: post-checkout.
		c.Hooks, c.Writes = []string{"post-checkout", indexHook}, true
	case "reset":
		c.Hooks, c.Writes = []string{refHook, indexHook, "post-checkout"}, true
	case "branch", "tag":
		if createsRef(args[1:]) {
			c.Hooks, c.Writes = []string{refHook}, true
		}
	case "update-ref", "symbolic-ref":
		c.Hooks, c.Writes = []string{refHook}, true
	case "commit":
		c.Hooks = []string{"pre-commit", "prepare-commit-msg", "commit-msg", "post-commit",
			"post-rewrite", refHook, indexHook, "pre-auto-gc"}
		c.Writes = true
	case "checkout", "switch":
		c.Hooks, c.Writes = []string{"post-checkout", refHook, indexHook}, true
	case "merge":
		c.Hooks, c.Writes = []string{"pre-merge-commit", "prepare-commit-msg", "commit-msg", "post-merge",
			refHook, indexHook, "pre-auto-gc"}, true
	case "cherry-pick", "revert":
		c.Hooks, c.Writes = append(commitHooks(), "post-rewrite", refHook, indexHook, "pre-auto-gc"), true
	case "rebase":
		c.Hooks, c.Writes = append(commitHooks(), "pre-rebase", "post-checkout", "post-rewrite", "post-merge",
			refHook, indexHook, "pre-auto-gc"), true
	case "am":
		c.Hooks, c.Writes = []string{"applypatch-msg", "pre-applypatch", "post-applypatch", "post-rewrite",
			"post-checkout", refHook, indexHook, "pre-auto-gc"}, true
	default:
		c.AnyHook, c.Writes = true, true
	}
	return c
}

// commitHooks are the hooks of making a commit (git commit, and the
// sequencer's commits of cherry-pick, revert and rebase).
func commitHooks() []string {
	return []string{"pre-commit", "prepare-commit-msg", "commit-msg", "post-commit"}
}

// stashHooks returns the hooks of git stash with these arguments (the
// words after "stash"), whether it may run any hook (a form not known
// here), and whether it writes. git stash makes its commits without the
// commit hooks: saving writes the index and refs/stash and, with
// --keep-index, checks the index's paths out again (post-checkout);
// applying writes the index and the work tree; branch checks a branch
// out; drop, clear and store update refs/stash; create writes objects.
func stashHooks(args []string) (hooks []string, anyHook, writes bool) {
	const (
		indexHook = "post-index-change"
		refHook   = "reference-transaction"
	)
	sub := ""
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		sub = args[0]
	}
	switch sub {
	case "list", "show":
		return nil, false, false
	case "", "push", "save", "apply", "pop", "branch":
		return []string{"post-checkout", refHook, indexHook}, false, true
	case "drop", "clear", "store":
		return []string{refHook}, false, true
	case "create":
		return []string{indexHook}, false, true
	}
	return nil, true, true
}

// createsRef reports whether git branch or git tag with these arguments
// may create a ref: any operand, unless --list (-l) makes them patterns.
// An option's separate value counts as an operand, the worse case.
func createsRef(args []string) bool {
	operand := false
	for i, a := range args {
		switch {
		case a == "--":
			return len(args) > i+1 && !hasList(args[:i])
		case a == "-l" || a == "--list":
		case strings.HasPrefix(a, "-") && a != "-":
		default:
			operand = true
		}
	}
	return operand && !hasList(args)
}

func hasList(args []string) bool {
	for _, a := range args {
		if a == "-l" || a == "--list" {
			return true
		}
	}
	return false
}

func (c Command) runs(hook string) bool {
	if c.AnyHook {
		return true
	}
	for _, h := range c.Hooks {
		if h == hook {
			return true
		}
	}
	return false
}

// listingForm reports whether the words after git remote, config, reflog,
// worktree or submodule select a form that only lists.
func listingForm(sub string, rest []string) bool {
	first := ""
	if len(rest) > 0 {
		first = rest[0]
	}
	switch sub {
	case "remote":
		return first == "" || first == "-v" || first == "--verbose" || first == "get-url"
	case "config":
		switch first {
		case "--get", "--get-all", "--get-regexp", "--list", "-l", "get", "list", "--local":
			return first != "--local" || len(rest) > 1 && listingForm("config", rest[1:])
		}
		return false
	case "reflog":
		return first == "" || first == "show" || strings.HasPrefix(first, "-")
	case "worktree":
		return first == "list"
	case "submodule":
		return first == "" || first == "status"
	}
	return false
}
