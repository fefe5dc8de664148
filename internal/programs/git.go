package programs

// git: the subcommands that only read the repository, or stage into its
// index. The repository's own configuration and hooks are judged apart
// (internal/repotrust): a spec says what the words do, not what the
// repository makes of them.
func git() []*Spec {
	return []*Spec{
		{
			Command: "git", Prefix: words("status"), Syntax: Exact, Operands: Text,
			Reason:  "shows the working tree status",
			Options: opts("-s,--short -b,--branch --show-stash --porcelain[=] --long -v,--verbose -u,--untracked-files[=] --ignore-submodules[=] --ignored[=] -z --column[=] --no-column --ahead-behind --no-ahead-behind --renames --no-renames --find-renames[=] --no-optional-locks"),
		},
	}
}
