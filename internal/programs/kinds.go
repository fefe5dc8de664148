package programs

// Kind is how the engine handles a program before its spec and the lists
// are consulted. Each kind is declared in the file of its family.
type Kind uint8

const (
	// KindPlain: judged by its spec and the lists alone.
	KindPlain Kind = iota
	// KindShell: runs a -c script in a language the engine parses
	// (shells.go).
	KindShell
	// KindForeignShell: a shell whose language is not parsed (shells.go).
	KindForeignShell
	// KindWrapper: runs its operand command, which is judged in its place
	// (wrappers.go).
	KindWrapper
	// KindXargs: runs commands built from its input, which cannot be seen
	// (wrappers.go).
	KindXargs
	// KindGit: git, read after its global options and judged with its
	// repository's configuration (git.go).
	KindGit
	// KindRemoteCopy: rsync, which reaches another host when an operand
	// names one (fileutils.go).
	KindRemoteCopy
)

// KindOf returns the kind of the program name (a base name, normalised).
// It asks each family's table in turn, without merging them into one map:
// a process that decides one command (a hook) would otherwise build every
// family's names to look up two or three (the families' names are
// disjoint: TestKindsDisjoint).
func KindOf(name string) Kind {
	if _, ok := shellDialects()[name]; ok {
		return KindShell
	}
	if isForeignShell(name) {
		return KindForeignShell
	}
	if _, ok := transparentWrappers()[name]; ok {
		return KindWrapper
	}
	for _, kind := range [...]func(string) Kind{wrapperKind, gitKind, fileutilKind} {
		if k := kind(name); k != KindPlain {
			return k
		}
	}
	return KindPlain
}
