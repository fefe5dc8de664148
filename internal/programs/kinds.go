package programs

import "sync"

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
func KindOf(name string) Kind {
	return kinds()[name]
}

var kinds = sync.OnceValue(func() map[string]Kind {
	m := map[string]Kind{}
	for n := range shellDialects() {
		m[n] = KindShell
	}
	for n := range foreignShells() {
		m[n] = KindForeignShell
	}
	for n := range transparentWrappers() {
		m[n] = KindWrapper
	}
	for _, ks := range []map[string]Kind{wrapperKinds(), gitKinds(), fileutilKinds()} {
		for n, k := range ks {
			m[n] = k
		}
	}
	return m
})
