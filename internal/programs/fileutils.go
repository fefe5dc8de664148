package programs

import (
	"strings"
)

// fileutils: programs that list, compare, create, copy, move and remove
// files. Listing reads names and metadata, never contents; the ones that
// write name every file they change as a Write operand, so each one is
// checked as a write (inside the sandbox, not protected, not in .git, not
// on PATH).
func fileutils() []*Spec {
	return []*Spec{
		{Command: "touch", Syntax: GNU, Operands: Write, Reason: "creates files or updates their times",
			Options: join(opts("-a -c,--no-create -d,--date= -f -h,--no-dereference -m -t= --time= --help --version"), opts("-r,--reference=R"))},
		{Command: "mkdir", Syntax: GNU, Operands: Write, Reason: "creates directories",
			Options: opts("-m,--mode= -p,--parents -v,--verbose -Z --context[=] --help --version")},
		{Command: "tee", Syntax: GNU, Operands: Write, Reason: "copies standard input to files",
			Options: opts("-a,--append -i,--ignore-interrupts -p --output-error[=] --help --version")},
		{Command: "rm", Syntax: GNU, Operands: Write, Reason: "removes single files inside the sandbox",
			Options: join(opts("-v,--verbose --help --version"),
				unsafe(wholeTrees, "-r,-R,--recursive -d,--dir"),
				unsafe("removes without asking, whatever the file's permissions", "-f,--force"),
				unsafe("asks on the terminal", "-i -I --interactive[=]"),
				unsafe("changes how the root directory is treated", "--no-preserve-root --preserve-root[=] --one-file-system"))},
		{Command: "rmdir", Syntax: GNU, Operands: Write, Reason: "removes empty directories inside the sandbox",
			Options: join(opts("--ignore-fail-on-non-empty -v,--verbose --help --version"),
				unsafe("removes parent directories as well", "-p,--parents"))},
		{Command: "cp", Syntax: GNU, Operands: Write, Copies: true, Reason: "copies files inside the sandbox; no links followed or made",
			Options: join(opts("-n,--no-clobber -p --preserve[=] --no-preserve= -P,--no-dereference --parents -t,--target-directory=W -T,--no-target-directory -u --update[=] -v,--verbose -f,--force --attributes-only --sparse= --strip-trailing-slashes --reflink[=] -x,--one-file-system -Z --context[=] --debug --keep-directory-symlink --help --version"),
				unsafe(followsLinks, "-L,--dereference -H --copy-contents"),
				unsafe(wholeTrees, "-r,-R,--recursive -a,--archive"),
				unsafe("makes links instead of copies, which may point out of the sandbox", "-s,--symbolic-link -l,--link"),
				unsafe("asks on the terminal", "-i,--interactive"),
				unsafe("writes backup files beside the targets", "-b --backup[=] -S,--suffix="))},
		{Command: "mv", Syntax: GNU, Operands: Write, Copies: true, Moves: true, Reason: "moves or renames files inside the sandbox",
			Options: join(opts("-n,--no-clobber -f,--force -t,--target-directory=W -T,--no-target-directory -u --update[=] -v,--verbose --strip-trailing-slashes --exchange --no-copy -Z,--context --debug --help --version"),
				unsafe("asks on the terminal", "-i,--interactive"),
				unsafe("writes backup files beside the targets", "-b --backup[=] -S,--suffix="))},
		{ReadOnly: true, Command: "diff", Syntax: GNU, ComparesTrees: true, Reason: "compares files",
			Options: join(opts("--normal -q,--brief -s,--report-identical-files -c -C,--context[=] -u -U,--unified[=] -e,--ed -n,--rcs -y,--side-by-side -W,--width= --left-column --suppress-common-lines -p,--show-c-function -F,--show-function-line= --label= -t,--expand-tabs -T,--initial-tab --tabsize= --suppress-blank-empty -N,--new-file --unidirectional-new-file --ignore-file-name-case --no-ignore-file-name-case -x,--exclude= -S,--starting-file= -i,--ignore-case -E,--ignore-tab-expansion -Z,--ignore-trailing-space -b,--ignore-space-change -w,--ignore-all-space -B,--ignore-blank-lines -I,--ignore-matching-lines= -a,--text --strip-trailing-cr -D,--ifdef= --GTYPE-group-format= --line-format= --LTYPE-line-format= --old-group-format= --new-group-format= --changed-group-format= --unchanged-group-format= --old-line-format= --new-line-format= --unchanged-line-format= -d,--minimal --horizon-lines= --speed-large-files --color[=] --palette= --no-dereference --help -v,--version"),
				opts("-X,--exclude-from=R --from-file=R --to-file=R"),
				unsafe("compares whole trees, following links out of the sandbox", "-r,--recursive"),
				unsafe("runs pr on the output", "-l,--paginate"))},
		{ReadOnly: true, Command: "bat", Syntax: Clap, Reason: "prints files with highlighting",
			Options: join(opts("-A,--show-all -p,--plain -l,--language= -H,--highlight-line= --file-name= -d,--diff --diff-context= --tabs= --wrap= -S,--chop-long-lines -n,--number --color= --italic-text= --decorations= -f,--force-colorization -m,--map-syntax= --ignored-suffix= --theme= --list-themes --list-languages --style= -r,--line-range= -u,--unbuffered --squeeze-blank --squeeze-limit= --strip-ansi= --nonprintable-notation= --binary= -h,--help -V,--version -P"),
				unsafe("runs a pager program", "--pager= --paging="),
				unsafe("reads its configuration from a file", "--config-file= --config-dir --cache-dir"))},
	}
}

// CopyDestination reads where a Copies spec (cp, mv) puts its sources,
// from their parsed argv: into the -t directory, or the last operand.
// noDir reports -T (the destination is never taken as a directory); ok is
// false when, without -t, fewer than two operands are given (the program
// refuses to run).
func CopyDestination(p *Parsed) (dest string, sources []string, noDir, ok bool) {
	sources = p.Operands
	if t := p.Values("-t"); len(t) > 0 {
		dest = t[len(t)-1]
	} else {
		if len(sources) < 2 {
			return "", nil, false, false
		}
		dest, sources = sources[len(sources)-1], sources[:len(sources)-1]
	}
	return dest, sources, p.Has("-T"), true
}

// fileutilKind: rsync reaches another host when an operand names one
// (RsyncRemoteOperand).
func fileutilKind(name string) Kind {
	if name == "rsync" {
		return KindRemoteCopy
	}
	return KindPlain
}

// RsyncRemoteOperand reports an rsync operand naming another host: host:path,
// user@host:path, host::module or rsync://host/.
func RsyncRemoteOperand(a string) bool {
	if strings.HasPrefix(a, "-") {
		return false
	}
	if strings.HasPrefix(a, "rsync://") {
		return true
	}
	i := strings.IndexByte(a, ':')
	return i > 0 && !strings.Contains(a[:i], "/")
}

// followsLinks and wholeTrees are the unsafe options of the file programs
// that walk trees.
const (
	followsLinks = "follows symbolic links while walking a tree, which may lead out of the sandbox"
	wholeTrees   = "works on whole trees, which a person should see first"
)

// listings: ls, a family of its own (the commonest command builds only
// its spec).
func listings() []*Spec {
	return []*Spec{
		{ReadOnly: true, Command: "ls", Syntax: GNU, Reason: "lists files; links are not followed",
			Options: join(opts("-a,--all -A,--almost-all --author -b,--escape --block-size= -B,--ignore-backups -c -C --color[=] -d,--directory -D,--dired -f -F,--classify[=] --file-type --format= --full-time -g --group-directories-first -G,--no-group -h,--human-readable --si -H,--dereference-command-line --dereference-command-line-symlink-to-dir --hide= --hyperlink[=] --indicator-style= -i,--inode -I,--ignore= -k,--kibibytes -l -m -n,--numeric-uid-gid -N,--literal -o -p -q,--hide-control-chars --show-control-chars -Q,--quote-name --quoting-style= -r,--reverse -R,--recursive -s,--size -S --sort= --time= --time-style= -t -T,--tabsize= -u -U -v -w,--width= -x -X -Z,--context --zero -1 --help --version"),
				unsafe(followsLinks, "-L,--dereference"))},
	}
}

// trees: tree, apart from ls so that a listing builds one of them.
func trees() []*Spec {
	return []*Spec{
		{ReadOnly: true, Command: "tree", Syntax: Bundled, Reason: "lists a directory tree; links are not followed",
			Options: join(opts("-a -d -f -x -L= -P= -I= --gitignore --gitfile=R --ignore-case --matchdirs --metafirst --prune --info --infofile=R --noreport --charset= --filelimit= --dirsfirst --filesfirst -q -N -Q -p -u -g -s -h --si --du -D --timefmt= -F --inodes --device -v -t -c -U -r --sort= -i -A -S -n -C -X -J -H= -T= --nolinks --hintro=R --houtro=R --help --version"),
				unsafe(followsLinks, "-l -R"),
				unsafe("writes the listing to a file", "-o=W"),
				unsafe("reads a list of file names from a file, which are never checked", "--fromfile"))},
	}
}
