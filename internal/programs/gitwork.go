package programs

import "strings"

// gitProjectCode: git's everyday work inside the sandbox. Committing,
// checking out, restoring, stashing, cherry-picking, reverting and
// fast-forwarding (merge --ff-only) run the repository's
// hooks (pre-commit, post-checkout, post-merge, reference-transaction,
// ...) and its configured filters, which the project may have written:
// they are project code; so are git mv and git rm, which rename or remove
// within the work tree (git rm removes only what a commit or the index
// holds, unless forced), and git reset of the index (git reset FILE,
// git reset -- FILE, git reset with no operand), which unstages. Confined, with .git's configuration and hooks read-only,
// they run without asking, as git add and git commit do; without
// confinement a person decides, as before. The forms that discard work or
// rewrite what exists are spared the label: the lists decide, and a person
// is asked. They are stash drop and clear, commit --amend, a forced
// checkout, switch, mv or rm, a recursive rm (as rm -r is asked), a reset
// branch (checkout -B, switch -C), a checkout or restore of the whole tree
// (.), the interactive forms (-p), reset --soft, --hard, --keep and
// --merge, a reset that may move the branch (see gitResetRevision), a
// merge other than a fast-forward (--ff or --no-ff after --ff-only, which
// the later one overrides; a merge that makes a merge commit joins
// histories and may leave conflicts) and the --skip of cherry-pick and
// revert. So are git stash list and show, which only read:
// their specs decide.
func gitProjectCode() []ProjectCodeEntry {
	return []ProjectCodeEntry{{
		Command:     "git",
		Subcommands: []string{"commit", "checkout", "switch", "stash", "cherry-pick", "mv", "restore", "reset", "revert", "rm", "merge"},
		Requires:    map[string]string{"merge": "--ff-only"},
		Spared: map[string][]string{
			"commit":      words("--amend"),
			"checkout":    words("-f --force -B --overwrite-ignore --discard-changes . -p --patch"),
			"switch":      words("-f --force -C --force-create --discard-changes"),
			"stash":       words("drop clear list show"),
			"cherry-pick": words("--skip"),
			"revert":      words("--skip"),
			"mv":          words("-f --force"),
			"rm":          words("-f --force -r"),
			"restore":     words(". -p --patch"),
			"reset":       words("--soft --hard --keep --merge -p --patch"),
			"merge":       words("--ff --no-ff"),
		},
		Revision: map[string]func([]string) string{"reset": gitResetRevision},
	}}
}

// gitResetRevision returns the operand of git reset (rest: the words after
// it) that git reads as a commit to move the branch to unless it names a
// file: the lone operand, given without -- or --pathspec-from-file, other
// than HEAD or @ (which move nothing). With no operand, two or more, or
// --, git reset only resets the index (of the paths named); with one that
// names a file or directory of the work tree, it unstages that path (git
// refuses a name that is both a file and a revision). "" when there is no
// such operand.
func gitResetRevision(rest []string) string {
	var operands []string
	for _, a := range rest {
		switch {
		case a == "--" || a == "--pathspec-from-file" || strings.HasPrefix(a, "--pathspec-from-file="):
			return ""
		case strings.HasPrefix(a, "-") && a != "-":
		default:
			operands = append(operands, a)
		}
	}
	if len(operands) != 1 || operands[0] == "HEAD" || operands[0] == "@" {
		return ""
	}
	return operands[0]
}
