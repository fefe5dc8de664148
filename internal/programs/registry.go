package programs

import (
	"slices"
	"strings"
	"sync"
)

// families lists the specs of each family of programs; each lives in the
// file of its programs (coreutils.go holds coreutils and pagers, git.go
// git's families, fileutils.go listings and trees).
var families = [...]func() []*Spec{
	builtins,
	coreutils,
	pagers,
	fileutils,
	listings,
	trees,
	search,
	finders,
	sed,
	awk,
	jq,
	yq,
	archives,
	git,
	gitStatus,
	gitLog,
	gitHistory,
	gitDiff,
	gitSearch,
	gitRefs,
	gitConfig,
	golang,
	rust,
	node,
	python,
	system,
	probes,
	sysinspect,
	streams,
	viewers,
}

// familyCells holds, per family (in the order of families), that family's
// specs, built on first use and ready for the parser (see familySpecs).
// Its zero value is ready, so that a process starts without building
// anything; a cell's specs are never changed once built.
var familyCells [len(families)]struct {
	once  sync.Once
	specs []*Spec
}

// familySpecs returns the specs of family i, building them on first use.
// A process that looks up a few commands builds only their families
// (commandFamilies says which).
func familySpecs(i int) []*Spec {
	c := &familyCells[i]
	c.once.Do(func() {
		specs := families[i]()
		for _, s := range specs {
			s.unsafeNames = s.unsafeSpellings()
			s.shorts = s.shortIndex()
			if s.MaxOperands == 0 {
				s.MaxOperands = -1
			}
		}
		c.specs = specs
	})
	return c.specs
}

// registry maps a command and its prefix words to its spec, over every
// family. It is built on first use by what needs every spec (All), and
// never changed.
var registry = sync.OnceValue(func() map[string]*Spec {
	m := make(map[string]*Spec)
	for i := range families {
		for _, s := range familySpecs(i) {
			k := key(s.Command, s.Prefix)
			if _, dup := m[k]; dup {
				panic("programs: two specs for " + s.Command + " " + strings.Join(s.Prefix, " "))
			}
			m[k] = s
		}
	}
	return m
})

func key(command string, prefix []string) string {
	if len(prefix) == 0 {
		return command
	}
	return command + "\x00" + strings.Join(prefix, "\x00")
}

// Lookup returns the spec of command with exactly the given prefix words,
// or nil. The spec is shared: callers must not change it. Only the
// families that define a form of command beginning with the prefix's first
// word are built.
func Lookup(command string, prefix []string) *Spec {
	first := ""
	if len(prefix) > 0 {
		first = prefix[0]
	}
	set, _ := familiesOf(command, first)
	for i := range families {
		if set&(1<<i) == 0 {
			continue
		}
		for _, s := range familySpecs(i) {
			if s.Command == command && slices.Equal(s.Prefix, prefix) {
				return s
			}
		}
	}
	return nil
}

// Named returns a fresh slice of the specs of command, ordered by prefix
// (as All orders them). Only the families that define command are built.
func Named(command string) []*Spec {
	var set uint32
	for _, e := range commandEntries(command) {
		set |= e.families
	}
	return collect(set, command, func(*Spec) bool { return true })
}

// NamedFirst returns a fresh slice of the specs of command whose prefix is
// empty or begins with first, ordered by prefix: the forms that an argv
// whose first argument is first can select. Only the families that define
// those forms are built.
func NamedFirst(command, first string) []*Spec {
	set, _ := familiesOf(command, "")
	if first != "" {
		more, _ := familiesOf(command, first)
		set |= more
	}
	return collect(set, command, func(s *Spec) bool { return len(s.Prefix) == 0 || s.Prefix[0] == first })
}

// FirstWords returns the first words of the prefixes of command's forms
// (git: status, log, ...), sorted, without building any spec.
func FirstWords(command string) []string {
	var out []string
	for _, e := range commandEntries(command) {
		if e.first != "" {
			out = append(out, e.first)
		}
	}
	return out
}

// collect returns the specs of command in the families of set that keep
// accepts, ordered by prefix.
func collect(set uint32, command string, keep func(*Spec) bool) []*Spec {
	var out []*Spec
	for i := range families {
		if set&(1<<i) == 0 {
			continue
		}
		for _, s := range familySpecs(i) {
			if s.Command == command && keep(s) {
				out = append(out, s)
			}
		}
	}
	slices.SortFunc(out, func(a, b *Spec) int { return slices.Compare(a.Prefix, b.Prefix) })
	return out
}

// Form returns the spec of command's most specific form that args (the
// words after the command) begin with, or nil.
func Form(command string, args []string) *Spec {
	longest := 0
	for _, e := range commandEntries(command) {
		longest = max(longest, int(e.longest))
	}
	for n := min(len(args), longest); n >= 0; n-- {
		if s := Lookup(command, args[:n]); s != nil {
			return s
		}
	}
	return nil
}

// familiesOf returns the set of families (bit i for families[i]) that
// define a spec of command whose prefix begins with first ("": a spec
// without a prefix), and the longest such prefix, from the table
// commandFamilies (generated from the families, and checked against them
// by the tests).
func familiesOf(command, first string) (set uint32, longest int) {
	i, ok := slices.BinarySearchFunc(commandFamilies[:], commandFamily{command: command, first: first}, compareEntries)
	if !ok {
		return 0, 0
	}
	return commandFamilies[i].families, int(commandFamilies[i].longest)
}

// commandEntries returns the entries of commandFamilies for command.
func commandEntries(command string) []commandFamily {
	i, _ := slices.BinarySearchFunc(commandFamilies[:], commandFamily{command: command}, compareEntries)
	j := i
	for j < len(commandFamilies) && commandFamilies[j].command == command {
		j++
	}
	return commandFamilies[i:j]
}

// compareEntries orders commandFamilies by command, then first word.
func compareEntries(a, b commandFamily) int {
	if c := strings.Compare(a.command, b.command); c != 0 {
		return c
	}
	return strings.Compare(a.first, b.first)
}

// commandFamily is one entry of commandFamilies.
type commandFamily struct {
	command  string
	first    string // the first word of the prefixes ("": no prefix)
	families uint32 // bit i: families[i] defines such a spec
	longest  uint8  // the longest of their prefixes
}

// ReadOnlyArgv reports whether args (the words after command) select a
// ReadOnly form that reads them without a problem, names only files it
// reads, and runs no project code. git is read after its global options (GitGlobals); one that
// points it elsewhere or sets configuration is not read-only.
func ReadOnlyArgv(command string, args []string) bool {
	if len(args) > 0 && strings.HasPrefix(args[0], "-") && KindOf(command) == KindGit {
		norm, _, problem := GitGlobals(append([]string{command}, args...))
		if problem != "" {
			return false
		}
		args = norm[1:]
	}
	s := Form(command, args)
	if s == nil || !s.ReadOnly {
		return false
	}
	if what, _ := RunsProjectCode(command, args); what != "" {
		// Project code writes what it likes (cargo fmt rewrites sources).
		return false
	}
	p := Acquire(s, args[len(s.Prefix):])
	defer Release(p)
	if p.Problem != nil {
		return false
	}
	for _, f := range p.Files {
		switch f.Role {
		case Read, ReadTree, ReadPaths, IgnoreRules:
		default:
			return false // a file written, or a role not known to only read
		}
	}
	return true
}

// All returns every spec, ordered by command and prefix. The specs are
// shared: callers must not change them.
func All() []*Spec {
	return slices.Clone(sortedSpecs())
}

// sortedSpecs is every spec ordered by command and prefix (the order of
// their registry keys), sorted once.
var sortedSpecs = sync.OnceValue(func() []*Spec {
	reg := registry()
	out := make([]*Spec, 0, len(reg))
	for _, s := range reg {
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b *Spec) int {
		if c := strings.Compare(a.Command, b.Command); c != 0 {
			return c
		}
		return slices.Compare(a.Prefix, b.Prefix)
	})
	return out
})

// UnsafeNames returns every spelling of s's unsafe options, for a
// CommandMatcher's ExceptFlags. The slice is shared: callers must not
// change it.
func (s *Spec) UnsafeNames() []string { return s.unsafeNames }

// unsafeSpellings lists every spelling of s's unsafe options.
func (s *Spec) unsafeSpellings() []string {
	var out []string
	for _, o := range s.Options {
		if o.Unsafe != "" {
			out = append(out, o.Names...)
		}
	}
	return out
}
