package programs

// gitProjectCode: git's everyday work inside the sandbox. Committing,
// checking out, stashing and cherry-picking run the repository's hooks
// (pre-commit, post-checkout, ...) and its configured filters, which the
// project may have written: they are project code; so is git mv, which
// renames within the work tree and runs its filters. Confined, with .git's
// configuration and hooks read-only, they run without asking; without
// confinement a person decides, as before. The forms that discard work or
// rewrite what exists (stash drop and clear, commit --amend, a forced
// checkout or switch, a reset branch, a checkout of paths spelled with --
// or .) are spared the label: the lists
// decide, and a person is asked. So are git stash list and show, which
// only read: their specs decide.
func gitProjectCode() []ProjectCodeEntry {
	return []ProjectCodeEntry{{
		Command:     "git",
		Subcommands: words("commit checkout switch stash cherry-pick mv"),
		Spared: map[string][]string{
			"commit":      words("--amend"),
			"checkout":    words("-f --force -B --overwrite-ignore --discard-changes -- . -p --patch"),
			"switch":      words("-f --force -C --force-create --discard-changes"),
			"stash":       words("drop clear list show"),
			"cherry-pick": words("--skip"),
			"mv":          words("-f --force"),
		},
	}}
}
