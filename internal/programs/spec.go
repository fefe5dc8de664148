package programs

// Syntax is the way a program reads its options. Each value names one real
// parser; a spec picks the one its program uses, so that the classifier
// sees the argv exactly as the program will. Where the grammars differ —
// abbreviations, "-f=V", a value that looks like an option, a bundle whose
// options take values — each reads as its program does, and what a
// program would read in a way the grammar cannot tell is unknown.
type Syntax uint8

const (
	// GNU is getopt_long with argument permutation: short options bundle
	// (-abc), a short option's value is the rest of its word or the next
	// word (-oFILE, -o FILE), long options take --name=value or
	// --name value, a long option may be abbreviated to any unique prefix,
	// options may follow operands, and "--" ends the options.
	GNU Syntax = iota
	// POSIX is getopt without permutation: like GNU, but options end at the
	// first operand, and long options are not abbreviated.
	POSIX
	// Exact reads options like GNU (bundles, values, permutation) but takes
	// long options only by their full names, as clap-based programs (rg,
	// fd, bat, eza), git and most others that do not use getopt_long do. An
	// abbreviation is an unknown option.
	Exact
	// GoFlag is Go's flag package: -name and --name are the same, -name=value
	// or (for options with a value) -name value, no bundling, no
	// abbreviation, and the options end at the first operand or "--".
	GoFlag
	// GoTool is the go command's own reading of build flags: like GoFlag,
	// but options may also follow the package operands (go test ./... -run
	// X).
	GoTool
	// Find is find's expression: global options (-H, -L, -P, -D, -O) first,
	// then starting points up to the first word that begins with "-", "("
	// or "!", then predicates written with one dash that never bundle.
	// "--" has no special meaning inside the expression.
	Find
	// Clap is the Rust argument parsers (clap, lexopt: rg, fd, bat, cargo,
	// ruff, uv, just): like Exact, but a short option's attached value may
	// be written with "=" (-f=PATH is -f PATH), and a value in the next
	// word that begins with "-" is not taken as the value unless the
	// option says HyphenValue: the program then reads that word as an
	// option of its own (rg --engine --pre=sh runs sh) or refuses, so such
	// a word is unknown here.
	Clap
	// Argparse is Python's argparse: long options abbreviate to a unique
	// prefix as in GNU, -fVALUE and -f=VALUE both give VALUE, and a next
	// word that begins with "-" is not taken as a value (unknown, as in
	// Clap).
	Argparse
	// Bundled is getopt-like but a bundle's options that take values take
	// them from the following words, in order, never from the rest of the
	// bundle (tree -Lo 2 out.txt is -L 2 -o out.txt); long options are
	// taken by their full names, with --name=value or --name value.
	Bundled
	// Single is one option per word, matched by its whole spelling: no
	// bundling, no abbreviation; an option with a value takes the next
	// word or, when the word is the option's one-letter spelling followed
	// by more, the rest of the word (xxd -c16). Programs of this kind
	// (xxd) often match an option by its first letters and ignore the rest
	// of the word (xxd -rc is -r), so any other word beginning with "-" is
	// unknown. Options end at the first operand.
	Single
)

// Role says what a word given to a program is to it.
type Role uint8

const (
	// Text is a word that names no file: a pattern, a format, a number,
	// a revision, a program text that a Check inspects.
	Text Role = iota + 1
	// Read names a file or directory the program reads.
	Read
	// ReadTree names a directory the program reads recursively: every
	// file beneath it, hidden ones included unless the spec says Hidden.
	ReadTree
	// Write names a file the program creates, changes or removes.
	Write
	// ReadPaths is a list of files the program reads, separated by colons
	// (file -m A:B); each one is checked as Read.
	ReadPaths
	// ReadList names a file holding more names, and possibly more options,
	// that the program reads as if they were arguments (tar -T, whose list
	// may say -T again; --files0-from). The names are never seen here, so
	// an option with this value is never safe.
	ReadList
	// Whitelist is a glob, or a file type that stands for globs, that
	// selects the files a tree walk searches; unless negated ("!x"), files
	// it matches are searched even when hidden or ignored (rg -g .env reads
	// .env, rg -t go reads .env.go).
	Whitelist
	// IgnoreRules names a file of ignore rules (rg --ignore-file), read as
	// Read; a "!" rule in it whitelists files the walk would skip, hidden
	// ones included, so the walk is then checked as one that sees hidden
	// files.
	IgnoreRules
	// FileType names one of the program's file types (rg -t go), which
	// stands for its globs (the spec's FileTypes) and whitelists like them;
	// a type the spec does not describe stands for every file.
	FileType
)

// roleCount bounds the roles this package defines: a role at or beyond it
// is one the engine does not know, and never safe.
const roleCount = FileType + 1

// Known reports whether r is a role that this package defines.
func (r Role) Known() bool { return r >= Text && r < roleCount }

// Arity says whether an option takes a value.
type Arity uint8

const (
	// NoValue: a flag. A value attached with "=" makes the option unknown
	// (the program would refuse it).
	NoValue Arity = iota
	// Value: the value is attached (-oFILE, --out=FILE) or the next word.
	Value
	// Attached: the value is optional and only ever attached (--color[=WHEN],
	// -n[NUM] in some programs).
	Attached
	// Pair: the option takes the next two words (jq --arg NAME VALUE); the
	// second one has the option's Value role.
	Pair
)

// Option is one option of a program, under every spelling it has.
type Option struct {
	// Names are the spellings: "-n", "--number". For Find and GoFlag
	// programs a name has one dash ("-name", "-run").
	Names []string
	// Arity says whether and how the option takes a value.
	Arity Arity
	// Value is the role of the option's value (Text when unset).
	Value Role
	// Unsafe, when not empty, says what the option does that makes the
	// command not safe (runs a program, writes a file, reaches the network,
	// changes state). An unsafe option is known, not allowed.
	Unsafe string
	// Recursive makes the program read its Read operands as trees.
	Recursive bool
	// Hidden makes a recursive walk include hidden and ignored files (rg
	// --hidden, -uu).
	Hidden bool
	// Ends makes every later word an operand (sed's -e is not this; rg's
	// --files is not either; this is for options like "--" spelled
	// differently).
	Ends bool
	// HyphenValue: in the Clap and Argparse syntaxes, the option takes a
	// next word that begins with "-" as its value (rg -e -foo).
	HyphenValue bool
	// NamesOnly makes the program list the files of the trees it walks
	// instead of reading them (rg --files): its trees are Read (their
	// names are checked), not ReadTree.
	NamesOnly bool
	// RecursiveIf lists the values that make the program read its Read
	// operands as trees (grep -d recurse). The program matches a value by a
	// unique prefix (grep -d rec), and so does the parser.
	RecursiveIf []string
}

// Spec is everything the classifier knows about one safe form of a program:
// a command name and the leading words that select the form (a subcommand
// such as "git log"), its options, the roles of its operands, and the
// checks that its arguments must pass. A command matched by a spec is safe
// only when every word is understood: an option absent from Options, an
// operand beyond MaxOperands or a failed Check makes it not safe.
type Spec struct {
	// Command is the program name ("git"); Prefix the words that select
	// this form (["log"]), matched exactly after the program's global
	// options.
	Command string
	Prefix  []string
	// Syntax is how the program reads options.
	Syntax Syntax
	// Options are the options this form accepts. Unsafe ones are listed
	// too, so that their names are recognised (and abbreviations of them
	// are never mistaken for a harmless option).
	Options []Option
	// TextOnly marks programs whose arguments are all text (echo, true,
	// expr): no option parsing, no paths.
	TextOnly bool
	// Numeric accepts -NUM as an option (head -5, tail -20).
	Numeric bool
	// OldStyle reads a first word without a dash as a bundle of short
	// options whose values are the following words, in order (tar tvf
	// a.tar).
	OldStyle bool
	// First is the role of the first operand when it differs from Operands
	// (grep's pattern, sed's script); FirstGiven lists the options that,
	// when present, supply it instead (grep -e, sed -e/-f).
	First      Role
	FirstGiven []string
	// Operands is the role of the operands (Read when unset). A program
	// that reads its operands as trees says ReadTree.
	Operands Role
	// MaxOperands bounds the operands; -1 means no bound. The zero value
	// means no bound too, so NoOperands is spelled out.
	MaxOperands int
	// Recursive: the program always reads its Read operands as trees (rg,
	// fd, git grep). Hidden: its walk includes hidden and ignored files
	// (grep -r does; rg does not unless told).
	Recursive bool
	Hidden    bool
	// IgnoreFiles names the files whose rules a recursive walk honours
	// (.gitignore, .ignore, .rgignore): a "!" rule in one of them, in the
	// tree or above it, whitelists files the walk would skip, hidden ones
	// included. The engine reads them, and treats a walk that one of them
	// whitelists into as a walk of hidden files.
	IgnoreFiles []string
	// FileTypes maps the program's file types to their globs, separated by
	// commas, as the program defines them (rg's built-in types); see the
	// FileType role.
	FileTypes map[string]string
	// DefaultTree is the tree a recursive reader walks with no operand
	// ("." for rg and grep -r).
	DefaultTree string
	// Pathspecs: the operands are git pathspecs and, before "--",
	// possibly revisions (git grep KEY HEAD searches HEAD's whole tree).
	// The engine takes only plain paths that exist as the trees they
	// name; a glob (*.env), a magic pathspec (:/, :(top), :!x) or a word
	// that names no file reaches further, and is asked about.
	Pathspecs bool
	// NoRevisions: the form reads no revision among its pathspecs (git
	// add), so a plain path that names nothing on disk matches only index
	// entries and reads no file.
	NoRevisions bool
	// RevPaths: an operand REV:PATH (git show HEAD:.env) prints PATH as
	// it was in history; the engine checks PATH against the protected
	// paths.
	RevPaths bool
	// Contents says which git forms may print the contents of files from
	// the repository's index or object store (git diff, git log -p, git
	// show, git cat-file -p), or tell something of them (the -S and -G
	// searches): GitIndex, GitStore, or both. The engine holds the
	// repository's tracked paths and the names in its history against the
	// protected paths. nil: the form prints names, counts and messages
	// only.
	Contents func(p *Parsed) GitSource
	// RustModules: the program follows the out-of-line modules and path
	// attributes of the Rust files it reads (rustfmt); RustCrate: it
	// formats every target of the packages its manifests name (cargo fmt).
	// The engine walks the trees they start in (see internal/repotrust).
	RustModules, RustCrate bool
	// NoIndexPair: the form compares two files of the file system instead
	// of the repository's (git diff: no repository found, or exactly two
	// words after the options, one of them outside the work tree); the
	// engine then walks a directory operand, hidden files included.
	NoIndexPair bool
	// WorkTreeWith: with one of these options and no operand, the form
	// reads the whole work tree from its top (git add -A, git add -u),
	// which the engine walks for protected files.
	WorkTreeWith []string
	// ReadOnly: the form changes no file, not even a cache or an index:
	// it reads and prints. A script's later segments are judged against
	// the file system as it is only while every earlier one is read-only
	// (split mode); a form without ReadOnly counts as a writer.
	ReadOnly bool
	// Copies: the last operand (or the -t value) is a destination; when it
	// is an existing directory, each source lands at DIR/BASE, which is
	// checked as a write too (cp, mv).
	Copies bool
	// Moves: a source that is a directory carries a whole tree to its new
	// place (mv), which is asked about.
	Moves bool
	// ComparesTrees: an operand that is a directory makes the program open
	// every entry in it (diff), so a directory operand is asked about.
	ComparesTrees bool
	// Check inspects what generic parsing cannot (a sed script, an awk
	// program, an operand that sets the clock). It returns a Problem, or
	// nil when the arguments are harmless.
	Check func(p *Parsed) *Problem
	// Env lists the environment variables that change what the program
	// runs or reads; a command that sets one of them is not safe.
	Env []string
	// Reason is the one-line description of what the safe form does.
	Reason string

	unsafeNames []string // set when the registry is built
	// shorts maps an ASCII short option letter to 1 + the index of its
	// option in Options (0: none); set when the registry is built, so
	// that reading a cluster does not scan every option.
	shorts *[128]uint16
}

// NoOperands is the MaxOperands of a form that takes no operand.
const NoOperands = -2

// Problem is why a command matched by a spec is not safe.
type Problem struct {
	// Unknown is true when the problem is a word the spec does not know
	// (an option, an extra operand): the command is asked about. Otherwise
	// the arguments are understood and do something unsafe.
	Unknown bool
	// Rule names the problem briefly ("unknown option --zz", "sort -o");
	// Reason explains it for people and the model.
	Rule, Reason string
}
