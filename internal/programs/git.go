package programs

import (
	"strings"
)

// git: the subcommands that only read the repository, or stage into its
// index. The repository's own configuration and hooks are judged apart
// (the engine's repository trust): a spec says what the words do, not what
// the repository makes of them. git's global options (-C, --no-pager, -c)
// are read by the engine before a spec sees the subcommand.
//
// git reads options with its parse-options library, which accepts a unique
// prefix of a long option, so the specs use GNU syntax: an abbreviation of
// an unsafe option is that option. Revisions and pathspecs are Text: git
// refuses paths outside its work tree, and a REV:PATH operand is checked by
// the engine against the protected paths (RevPaths).
// The git forms are several families, so that a lookup builds only the
// one its subcommand needs: gitHistory (the forms that read history,
// sharing its hundreds of options), gitDiff (the forms that compare
// trees), gitSearch, gitRefs, gitConfig and git (the working tree and
// small queries).

const (
	runsPrograms = "makes git run a program named by configuration (external diff, textconv, pager)"
	runsGPG      = "makes git run gpg to verify signatures, which may reach a key server"
	noIndex      = "compares files outside the repository"
	writesFile   = "writes the output to a file"
)

// gitDiffOptions returns the options of git's diff machinery: the safe
// ones and the unsafe ones.
func gitDiffOptions() (safe, unsafeOpts []Option) {
	safe = opts("-p -u --patch -s --no-patch -U,--unified= --output-indicator-new= --output-indicator-old= --output-indicator-context= --raw --patch-with-raw --patch-with-stat -t --indent-heuristic --no-indent-heuristic --minimal --patience --histogram --anchored= --diff-algorithm= --stat[=] --stat-width= --stat-name-width= --stat-graph-width= --stat-count= --compact-summary --numstat --shortstat -X,--dirstat[=] --cumulative --dirstat-by-file[=] --summary -z --name-only --name-status --submodule[=] --color[=] --no-color --color-moved[=] --no-color-moved --color-moved-ws= --no-color-moved-ws --word-diff[=] --word-diff-regex= --color-words[=] --no-renames --renames --rename-empty --no-rename-empty --check --ws-error-highlight= --full-index --binary --abbrev[=] --no-abbrev -B,--break-rewrites[=] -M,--find-renames[=] -C,--find-copies[=] --find-copies-harder -D,--irreversible-delete -l= --diff-filter= -S= -G= --find-object= --pickaxe-all --pickaxe-regex --skip-to= --rotate-to= -R --relative[=] --no-relative -a,--text --ignore-cr-at-eol --ignore-space-at-eol -b,--ignore-space-change -w,--ignore-all-space --ignore-blank-lines -I,--ignore-matching-lines= --inter-hunk-context= -W,--function-context --exit-code --quiet --ignore-submodules[=] --src-prefix= --dst-prefix= --no-prefix --default-prefix --line-prefix= --ita-invisible-in-index --ita-visible-in-index --no-ext-diff --no-textconv")
	unsafeOpts = join(
		opts("-O=R"),
		unsafe(runsPrograms, "--ext-diff --textconv --open-files-in-pager[=]"),
		unsafe(writesFile, "--output="),
		unsafe(noIndex, "--no-index"),
	)
	return safe, unsafeOpts
}

// gitLogOptions returns the safe options of git's revision walk.
func gitLogOptions() []Option {
	return opts("-n,--max-count= --skip= --since= --after= --until= --before= --since-as-filter= --author= --committer= --grep-reflog= --grep= --all-match --invert-grep -i,--regexp-ignore-case --basic-regexp -E,--extended-regexp -F,--fixed-strings -P,--perl-regexp --remove-empty --merges --no-merges --min-parents= --max-parents= --no-min-parents --no-max-parents --first-parent --exclude-first-parent-only --not --all --branches[=] --tags[=] --remotes[=] --glob= --exclude= --exclude-hidden= --reflog --alternate-refs --single-worktree --ignore-missing --bisect --cherry-mark --cherry-pick --left-only --right-only --cherry -g,--walk-reflogs --merge --boundary --simplify-by-decoration --show-pulls --full-history --dense --sparse --simplify-merges --ancestry-path[=] --date-order --author-date-order --topo-order --reverse --no-walk[=] --do-walk --pretty[=] --format= --abbrev-commit --no-abbrev-commit --oneline --encoding= --expand-tabs[=] --no-expand-tabs --notes[=] --no-notes --show-notes[=] --standard-notes --no-standard-notes --relative-date --date= --parents --children --left-right --graph --show-linear-break[=] -c --cc --dd -m --diff-merges= --no-diff-merges --combined-all-paths --follow --decorate[=] --no-decorate --decorate-refs= --decorate-refs-exclude= --clear-decorations --source --mailmap --no-mailmap --use-mailmap --no-use-mailmap --full-diff --log-size -L= --count --no-show-signature")
}

// gitHistoryOptions returns the options of the forms that show history:
// the revision walk's (logSafe, gitLogOptions) and the diff machinery's.
func gitHistoryOptions(logSafe []Option) []Option {
	diffSafe, diffUnsafe := gitDiffOptions()
	return join(logSafe, diffSafe, diffUnsafe, unsafe(runsGPG, "--show-signature"))
}

// gitLog: git log and git show, the history forms agents run most, in a
// family of their own so that judging one builds two specs, not eleven.
func gitLog() []*Spec {
	hist := gitHistoryOptions(gitLogOptions()) // shared, as in gitHistory
	return []*Spec{
		gitHistoryForm(hist, "log", "shows history; no external diff, textconv or output file"),
		gitHistoryForm(hist, "show", "shows objects; no external diff, textconv or output file"),
	}
}

// gitHistory: the other forms that show history.
func gitHistory() []*Spec {
	// hist is shared by the forms that show history (specs are never
	// changed, so one slice serves them all).
	logSafe := gitLogOptions()
	hist := gitHistoryOptions(logSafe)
	return []*Spec{
		gitHistoryForm(hist, "whatchanged", "shows history"),
		withContents(gitForm("range-diff", "compares commit ranges", "--creation-factor= --no-dual-color --remerge-diff", hist), gitAlwaysContents),
		gitForm("rev-list", "lists commits", "--timestamp --objects --objects-edge --objects-edge-aggressive --unpacked --object-names --no-object-names --filter= --no-filter --filter-print-omitted --missing= --exclude-promisor-objects --disk-usage[=] --header --bisect-vars --bisect-all --quiet", logSafe),
		withContents(gitForm("reflog show", "shows the reflog", "", hist), gitHistoryContents),
		{ReadOnly: true, Command: "git", Prefix: words("reflog"), Syntax: GNU, Numeric: true, Operands: Text, Check: gitReflogCheck, RevPaths: true,
			Options: hist, Reason: "shows the reflog", Contents: gitHistoryContents},
		withContents(gitForm("stash list", "lists stashes", "", hist), gitHistoryContents),
		withContents(gitForm("stash show", "shows a stash", "--include-untracked --only-untracked", hist), gitHistoryContents),
	}
}

// gitDiff: the forms that compare trees, the index and the working tree.
func gitDiff() []*Spec {
	diffSafe, diffUnsafe := gitDiffOptions()
	// diffOpts is shared by the diff forms, as hist is.
	diffOpts := join(diffSafe, diffUnsafe, opts("--cached --staged --merge-base -0 -1 -2 -3 --base --ours --theirs -r -m -c --cc --root --no-commit-id --stdin --always --pretty[=] --format= -v"))
	return []*Spec{
		gitDiffForm(diffOpts, "diff", "shows changes; no external diff, textconv or output file"),
		gitDiffForm(diffOpts, "diff-tree", "compares trees"),
		gitDiffForm(diffOpts, "diff-index", "compares the index"),
		gitDiffForm(diffOpts, "diff-files", "compares the working tree"),
	}
}

// gitHistoryForm is a form that shows history with the options hist.
func gitHistoryForm(hist []Option, sub, reason string) *Spec {
	contents := gitHistoryContents
	if sub == "show" {
		contents = gitShowContents
	}
	return &Spec{ReadOnly: true, Command: "git", Prefix: []string{sub}, Syntax: GNU, Numeric: true, Operands: Text, RevPaths: true,
		Options: hist, Check: gitFormatCheck, Reason: reason, Contents: contents}
}

// gitDiffForm is a diff form with the options diffOpts.
func gitDiffForm(diffOpts []Option, sub, reason string) *Spec {
	return &Spec{ReadOnly: true, Command: "git", Prefix: []string{sub}, Syntax: GNU, Operands: Text, RevPaths: true, NoIndexPair: sub == "diff",
		Options: diffOpts, Reason: reason, Contents: gitDiffContents}
}

// gitForm is a read-only form selected by the words sub, with the options
// list (and -h) and more.
func gitForm(sub, reason, list string, more ...[]Option) *Spec {
	prefix := strings.Fields(sub)
	return &Spec{ReadOnly: true, Command: "git", Prefix: prefix, Syntax: GNU, Operands: Text, RevPaths: true,
		Options: join(append([][]Option{opts(list + " -h")}, more...)...), Check: gitFormatCheck, Reason: reason}
}

// gitConfigForm is a form of git config that reads.
func gitConfigForm(sub []string, reason string) *Spec {
	return &Spec{ReadOnly: true, Command: "git", Prefix: sub, Syntax: GNU, Operands: Text, Reason: reason, Check: gitConfigCheck,
		Options: join(
			opts("--get --get-all --get-regexp -l,--list --local --worktree -t,--type= --bool --int --bool-or-int --path --expiry-date --no-type -z,--null --name-only --show-names --default= --fixed-value --all --regexp --value= --url="),
			unsafe("reads configuration beyond the repository (the user's or system's files, or any file)", "--global --system -f,--file= --blob= --show-origin --show-scope --includes"),
			unsafe("changes configuration that later git commands execute", "--add --unset --unset-all --replace-all --rename-section --remove-section -e,--edit --comment="),
		)}
}

// gitStatus: git status, the form agents run most, in a family of its own
// so that judging it builds no other form.
func gitStatus() []*Spec {
	return []*Spec{{
		ReadOnly: true, Command: "git", Prefix: words("status"), Syntax: GNU, Operands: Text,
		Reason:  "shows the working tree status",
		Options: opts("-s,--short -b,--branch --show-stash --porcelain[=] --long -v,--verbose -u,--untracked-files[=] --ignore-submodules[=] --ignored[=] -z --column[=] --no-column --ahead-behind --no-ahead-behind --renames --no-renames --find-renames[=] --no-optional-locks"),
	}}
}

// git: the forms that read the working tree and small queries.
func git() []*Spec {
	return []*Spec{
		gitForm("count-objects", "counts objects", "-v,--verbose -H,--human-readable"),
		gitForm("check-ignore", "checks ignore rules", "-q,--quiet -v,--verbose --stdin -z -n,--non-matching --no-index"),
		gitForm("check-attr", "checks attributes", "-a,--all --cached --stdin -z --source="),
		{
			// The pathspecs name what git copies into the index and the
			// object store, where git diff --cached and git log -p print it
			// from: a protected file among them is asked about.
			Command: "git", Prefix: words("add"), Syntax: GNU, Operands: ReadTree, Recursive: true, Hidden: true, Pathspecs: true, NoRevisions: true,
			WorkTreeWith: []string{"-A", "-u"}, Reason: "stages changes in the index; nothing interactive",
			Options: join(
				opts("-n,--dry-run -v,--verbose -f,--force --sparse -u,--update -A,--all --no-ignore-removal --no-all --ignore-removal -N,--intent-to-add --refresh --ignore-errors --ignore-missing --no-warn-embedded-repo --renormalize --chmod= --pathspec-file-nul"),
				unsafe("asks on the terminal or opens an editor", "-i,--interactive -p,--patch -e,--edit"),
				unsafe("reads a list of paths from a file, which are never checked", "--pathspec-from-file="),
			),
		},
		{ReadOnly: true, Command: "git", Prefix: words("version"), Syntax: GNU, MaxOperands: NoOperands, Options: opts("--build-options"), Reason: "prints the version"},
		{ReadOnly: true, Command: "git", Prefix: words("--version"), Syntax: GNU, MaxOperands: NoOperands, Options: opts("--build-options"), Reason: "prints the version"},
		{ReadOnly: true, Command: "git", Prefix: words("help"), Syntax: GNU, Operands: Text, Reason: "prints help text",
			Options: join(opts("-a,--all -g,--guides -c,--config --user-interfaces --developer-interfaces --no-external-commands --no-aliases --verbose"),
				unsafe("opens a web browser, man or info program named by configuration", "-w,--web -i,--info -m,--man"))},
		{ReadOnly: true, Command: "git", Prefix: words("remote"), Syntax: GNU, MaxOperands: NoOperands, Options: opts("-v,--verbose"), Reason: "lists remotes"},
		{ReadOnly: true, Command: "git", Prefix: words("remote -v"), Syntax: GNU, MaxOperands: NoOperands, Options: opts("-v,--verbose"), Reason: "lists remotes"},
		{ReadOnly: true, Command: "git", Prefix: words("remote get-url"), Syntax: GNU, Operands: Text, MaxOperands: 1, Options: opts("--push --all"), Reason: "prints a remote's URL"},
		gitForm("worktree list", "lists worktrees", "--porcelain -v,--verbose --expire= -z"),
		gitForm("submodule status", "shows submodule status", "--cached --recursive -q,--quiet"),
		{ReadOnly: true, Command: "git", Prefix: words("var"), Syntax: GNU, Operands: Text, MaxOperands: 1, Options: unsafe("lists the whole configuration", "-l"), Reason: "prints a git variable"},
	}
}

// gitSearch: the forms that search or annotate files.
func gitSearch() []*Spec {
	return []*Spec{
		gitForm("blame", "annotates lines", "-b --root --show-stats --score-debug -f,--show-name -n,--show-number -p,--porcelain --line-porcelain --incremental -L= -l -t -s -e,--show-email -w --abbrev= -M[=] -C[=] --date= --progress --no-progress --reverse= --first-parent --encoding= --since= --ignore-rev= -c --color-lines --color-by-age",
			unsafe(runsPrograms, "--textconv"),
			unsafe("reads revisions or contents from any file", "-S= --contents= --ignore-revs-file=")),
		gitForm("annotate", "annotates lines", "-b --root --show-stats -L= -l -t -s -e,--show-email -w --abbrev= -M[=] -C[=] --date= --encoding= -c",
			unsafe(runsPrograms, "--textconv"),
			unsafe("reads revisions or contents from any file", "-S= --contents= --ignore-revs-file=")),
		{
			ReadOnly: true, Command: "git", Prefix: words("grep"), Syntax: GNU, Numeric: true, First: Text, FirstGiven: []string{"-e", "-f"},
			Recursive: true, Hidden: true, DefaultTree: ".", Pathspecs: true, Reason: "searches tracked files; no pager program", Contents: gitGrepContents,
			Options: join(
				opts("--cached --untracked --no-exclude-standard --exclude-standard --recurse-submodules -a,--text --no-textconv -i,--ignore-case -I --max-depth= -r,--recursive --no-recursive -w,--word-regexp -v,--invert-match -h -H --full-name -E,--extended-regexp -G,--basic-regexp -P,--perl-regexp -F,--fixed-strings -n,--line-number --column -l,--files-with-matches,--name-only -L,--files-without-match -z,--null -o,--only-matching -c,--count --color[=] --no-color --break --heading -p,--show-function -C,--context= -A,--after-context= -B,--before-context= -W,--function-context -m,--max-count= --threads= -e= --and --or --not --all-match -q,--quiet"),
				opts("-f=R"),
				unsafe(runsPrograms, "-O,--open-files-in-pager[=] --textconv --ext-grep"),
				unsafe(noIndex, "--no-index"),
			),
		},
	}
}

// gitRefs: the forms that read refs, objects and the index.
func gitRefs() []*Spec {
	return []*Spec{
		gitForm("shortlog", "summarises history", "-n,--numbered -s,--summary -e,--email -c,--committer --format= --group= -w[=] --date= --since= --after= --until= --before= --all --branches[=] --tags[=] --remotes[=] --no-merges --merges --author= --grep= -i,--regexp-ignore-case --first-parent --max-count= --skip= --reverse --mailmap --no-mailmap"),
		gitForm("rev-parse", "resolves revisions", "--parseopt --sq-quote --keep-dashdash --stop-at-non-option --stuck-long --revs-only --no-revs --flags --no-flags --default= --prefix= --verify -q,--quiet --sq --short[=] --not --abbrev-ref[=] --symbolic --symbolic-full-name --output-object-format= --all --branches[=] --tags[=] --remotes[=] --glob= --exclude= --exclude-hidden= --disambiguate= --local-env-vars --path-format= --git-dir --git-common-dir --resolve-git-dir= --git-path= --show-toplevel --show-superproject-working-tree --shared-index-path --absolute-git-dir --is-inside-git-dir --is-inside-work-tree --is-bare-repository --is-shallow-repository --show-cdup --show-prefix --show-object-format[=] --show-ref-format --since= --after= --until= --before="),
		gitForm("ls-files", "lists tracked files", "-c,--cached -d,--deleted -m,--modified -o,--others -i,--ignored -s,--stage --directory --no-empty-directory -u,--unmerged -k,--killed --resolve-undo -z --deduplicate -x,--exclude= --exclude-standard --error-unmatch --with-tree= -t -v -f --full-name --recurse-submodules --abbrev[=] --debug --eol --sparse --format=", opts("-X,--exclude-from=R --exclude-per-directory=")),
		gitForm("ls-tree", "lists a tree", "-d -r -t -l,--long -z --name-only,--name-status --object-only --full-name --full-tree --abbrev[=] --format="),
		withContents(gitForm("cat-file", "prints objects; no textconv or filters", "-t -s -e -p --allow-unknown-type --batch[=] --batch-check[=] --batch-command[=] --batch-all-objects --buffer --unordered --follow-symlinks -Z -z --use-mailmap --no-use-mailmap --mailmap --no-mailmap",
			unsafe(runsPrograms, "--textconv --filters --path=")), gitCatFileContents),
		gitForm("describe", "describes a commit", "--dirty[=] --broken[=] --all --tags --contains --abbrev= --candidates= --exact-match --debug --long --match= --exclude= --always --first-parent"),
		gitForm("name-rev", "names a revision", "--tags --refs= --exclude= --all --annotate-stdin --name-only --no-undefined --always"),
		gitForm("merge-base", "finds a common ancestor", "-a,--all --octopus --independent --is-ancestor --fork-point"),
		gitForm("show-ref", "lists refs", "--head --branches --tags --heads -d,--dereference -s,--hash[=] --verify --abbrev[=] -q,--quiet --exclude-existing[=] --exists"),
		withContents(gitForm("for-each-ref", "lists refs", "--count= --sort= --format= --color[=] --shell -p,--perl --python --tcl --points-at= --merged[=] --no-merged[=] --contains[=] --no-contains[=] --ignore-case --omit-empty --exclude= --include-root-refs"), gitRefFormatContents),
		{ReadOnly: true, Command: "git", Prefix: words("branch"), Syntax: GNU, Operands: Text, Check: gitListCheck, Contents: gitRefFormatContents,
			Reason: "lists branches; no creation, deletion, rename, copy or upstream change",
			Options: join(opts("-a,--all -r,--remotes -l,--list -v,-vv,--verbose -q,--quiet --color[=] --no-color --column[=] --no-column --sort= --merged[=] --no-merged[=] --contains[=] --no-contains[=] --points-at= --format= --show-current -i,--ignore-case --abbrev[=] --no-abbrev --omit-empty"),
				unsafe("changes branches", "-d,--delete -D -m,--move -M -c,--copy -C -f,--force -u,--set-upstream-to= --set-upstream --unset-upstream --edit-description -t,--track[=] --no-track --create-reflog --recurse-submodules"))},
		{ReadOnly: true, Command: "git", Prefix: words("tag"), Syntax: GNU, Operands: Text, Check: gitListCheck, Numeric: true, Contents: gitRefFormatContents,
			Reason: "lists tags",
			Options: join(opts("-l,--list -n[=] --sort= --contains[=] --no-contains[=] --merged[=] --no-merged[=] --points-at= --format= --color[=] --column[=] --no-column -i,--ignore-case --omit-empty"),
				unsafe(runsGPG, "-v,--verify"),
				unsafe("creates, signs or deletes tags", "-d,--delete -a,--annotate -s,--sign -u,--local-user= -f,--force -m,--message= -F,--file= -e,--edit --create-reflog --cleanup= --trailer="))},
		gitForm("fsck", "checks the object database", "--unreachable --dangling --no-dangling --root --tags --cache --no-reflogs --full --no-full --connectivity-only --strict --verbose --progress --no-progress --name-objects --no-name-objects --references --no-references",
			unsafe("writes dangling objects into the repository", "--lost-found")),
	}
}

// gitConfig: the forms of git config that read.
func gitConfig() []*Spec {
	return []*Spec{
		gitConfigForm(words("config"), "reads the repository's configuration"),
		gitConfigForm(words("config get"), "reads one configuration value"),
		gitConfigForm(words("config list"), "lists the repository's configuration"),
	}
}

// gitFormatCheck refuses format strings that ask for signature data: the
// %G placeholders of --format and --pretty and for-each-ref's
// %(signature) make git run gpg.
func gitFormatCheck(p *Parsed) *Problem {
	gpg := func(s string) bool { return strings.Contains(s, "%G") || strings.Contains(s, "%(signature") }
	for _, u := range p.Options {
		if gpg(u.Value) {
			return &Problem{Rule: "git signature placeholders", Reason: "%G placeholders and %(signature) make git run gpg, which may reach a key server"}
		}
	}
	for _, o := range p.Operands {
		if gpg(o) {
			return &Problem{Rule: "git signature placeholders", Reason: "%G placeholders and %(signature) make git run gpg, which may reach a key server"}
		}
	}
	return nil
}

// gitListCheck accepts git branch and git tag only as listings: without a
// listing option, an operand names a branch or tag to create.
func gitListCheck(p *Parsed) *Problem {
	if pr := gitFormatCheck(p); pr != nil {
		return pr
	}
	if len(p.Operands) == 0 || p.Has("-l", "-a", "-r", "--contains", "--no-contains", "--merged", "--no-merged", "--points-at", "--show-current") {
		return nil
	}
	return &Problem{Rule: "git " + p.Spec.Prefix[0] + " creates a ref",
		Reason: "with an operand and no --list, git " + p.Spec.Prefix[0] + " creates " + p.Operands[0] + "; a person decides"}
}

// gitReflogCheck accepts `git reflog [REV]` (show), not its subcommands
// that expire, delete or write entries.
func gitReflogCheck(p *Parsed) *Problem {
	if len(p.Operands) > 0 {
		switch p.Operands[0] {
		case "expire", "delete", "drop", "exists", "write", "list":
			return &Problem{Rule: "git reflog " + p.Operands[0], Reason: "git reflog " + p.Operands[0] + " changes or inspects reflogs beyond showing one"}
		}
	}
	return gitFormatCheck(p)
}

// gitConfigCheck accepts reads of the repository's own configuration: one
// key (git config KEY, --get, --get-all, get), or a listing narrowed to the
// repository with --local or --worktree. Keys in sections that hold
// credentials or point at other files are refused.
func gitConfigCheck(p *Parsed) *Problem {
	sub := ""
	if len(p.Spec.Prefix) > 1 {
		sub = p.Spec.Prefix[1]
	}
	list := sub == "list" || p.Has("-l", "--get-regexp")
	single := sub == "get" || p.Has("--get", "--get-all")
	switch {
	case list:
		if !p.Has("--local", "--worktree") {
			return &Problem{Rule: "git config read beyond the repository",
				Reason: "listing configuration without --local shows the user's global settings, and http, url and credential keys hold secrets; add --local"}
		}
	case single:
		if len(p.Operands) == 0 {
			return &Problem{Unknown: true, Rule: "git config without a key", Reason: "git config needs a key to read"}
		}
	default:
		// The old spelling: git config KEY reads, git config KEY VALUE writes.
		if len(p.Operands) != 1 || !configKey(p.Operands[0]) {
			return &Problem{Rule: "git config write", Reason: "git config with a value (or without a read option) changes configuration that later git commands execute"}
		}
	}
	if !list && len(p.Operands) > 0 {
		section, _, _ := strings.Cut(strings.ToLower(p.Operands[0]), ".")
		switch section {
		case "http", "url", "credential", "sendemail", "include", "includeif":
			return &Problem{Rule: "git config read of " + section + " settings",
				Reason: "the " + section + " section holds credentials or names other files"}
		}
	}
	return nil
}

// configKey reports a plain SECTION.NAME key.
func configKey(key string) bool {
	dot := strings.IndexByte(key, '.')
	if dot <= 0 || dot == len(key)-1 {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// GitGlobals looks through git's global options (those before the
// subcommand) in argv (argv[0] is git). Harmless ones are dropped; -C DIR is dropped after its
// directory is returned for the path checks. Options that point git at
// another repository, or set configuration (which can name programs to
// run), make the command dangerous: problem says which. norm is argv
// without the dropped options (argv itself when none was dropped); an
// unknown global option is left in place for the spec of the subcommand
// to refuse.
func GitGlobals(argv []string) (norm []string, dirs []string, problem string) {
	i := 1
	for ; i < len(argv); i++ {
		a := argv[i]
		if !strings.HasPrefix(a, "-") {
			break
		}
		switch {
		case a == "--no-pager" || a == "-P" || a == "--no-optional-locks" || a == "--literal-pathspecs" ||
			a == "--glob-pathspecs" || a == "--noglob-pathspecs" || a == "--icase-pathspecs" ||
			a == "--no-replace-objects" || a == "--no-lazy-fetch" || a == "--no-advice":
		case a == "-p" || a == "--paginate":
			return nil, nil, "git " + a + " starts a pager (a program named by configuration or PAGER) at a terminal"
		case a == "-C":
			if i+1 >= len(argv) {
				return argv, nil, ""
			}
			i++
			dirs = append(dirs, argv[i])
		case a == "-c" || strings.HasPrefix(a, "-c") && len(a) > 2 && !strings.HasPrefix(a, "--"):
			return nil, nil, "git -c sets configuration that can run programs"
		case hasLongPrefix(a, "--config-env"):
			return nil, nil, "git --config-env sets configuration that can run programs"
		case hasLongPrefix(a, "--git-dir") || hasLongPrefix(a, "--work-tree") || hasLongPrefix(a, "--namespace") ||
			hasLongPrefix(a, "--super-prefix") || hasLongPrefix(a, "--attr-source") || a == "--bare":
			return nil, nil, "git " + a + " points git at another repository or tree"
		case hasLongPrefix(a, "--exec-path"):
			return nil, nil, "git --exec-path changes where git finds its programs"
		default:
			// --version, --help and unknown options: leave as is.
			if i == 1 {
				return argv, dirs, ""
			}
			norm = append([]string{"git"}, argv[i:]...)
			return norm, dirs, ""
		}
	}
	if i == 1 {
		return argv, nil, ""
	}
	norm = append([]string{"git"}, argv[i:]...)
	return norm, dirs, ""
}

func hasLongPrefix(a, name string) bool {
	return a == name || strings.HasPrefix(a, name+"=")
}

// gitKind: git is read after its global options (GitGlobals), and its
// repository's configuration is judged before its spec.
func gitKind(name string) Kind {
	if name == "git" {
		return KindGit
	}
	return KindPlain
}

// gitBlocked is git's part of the default blocked list.
func gitBlocked() []ListEntry {
	return matcherList1(flagMatcher("git", []string{"daemon"}, nil, "serves the repository on the network"))
}

// gitDangerous is git's part of the default dangerous list: subcommands
// that talk to a remote, change history, refs or the working tree, or
// change configuration that later git commands execute.
func gitDangerous() []ListEntry {
	sub := func(reason string, subs ...string) []ListEntry {
		ms := make([]ListEntry, len(subs))
		for i, s := range subs {
			ms[i] = ListEntry{Command: "git", CommandArgsPrefix: []string{s}, Reason: reason}
		}
		return ms
	}
	return concatMatchers(
		sub("talks to a remote", "push", "pull", "fetch", "clone", "ls-remote", "remote",
			"submodule", "send-email", "request-pull", "svn", "p4"),
		sub("changes history, refs or the working tree", "commit", "reset", "checkout", "switch",
			"restore", "rebase", "merge", "cherry-pick", "revert", "clean", "rm", "mv", "stash",
			"filter-branch", "filter-repo", "update-ref", "symbolic-ref", "reflog", "gc", "prune",
			"replace", "am", "apply", "bisect", "worktree", "notes", "tag", "branch", "update-index",
			"read-tree", "commit-tree", "pack-refs", "repack", "maintenance", "lfs", "sparse-checkout"),
		sub("changes configuration that later git commands execute", "config", "hook",
			"credential", "credential-store", "credential-cache", "difftool", "mergetool",
			"instaweb", "web--browse", "upload-pack", "receive-pack", "fsmonitor--daemon"),
	)
}

// gitWirePrograms are the programs of git's wire protocol, part of the
// default dangerous list's network group.
func gitWirePrograms() []ListEntry {
	return namesMatchers("network access", "git-upload-pack", "git-receive-pack", "git-shell")
}
