package programs

import (
	"slices"
	"strings"
	"sync"
)

// family lists the specs of one family of programs; each lives in a file
// named after it.
var families = []func() []*Spec{
	builtins,
	coreutils,
	fileutils,
	search,
	finders,
	sed,
	awk,
	jq,
	yq,
	archives,
	git,
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

// registry maps a command and its prefix words to its spec. It is built on
// first use (a process that decides no shell command never pays for it),
// and never changed.
var registry = sync.OnceValue(func() map[string]*Spec {
	m := make(map[string]*Spec)
	for _, f := range families {
		for _, s := range f() {
			s.unsafeNames = s.unsafeSpellings()
			s.shorts = s.shortIndex()
			if s.MaxOperands == 0 {
				s.MaxOperands = -1
			}
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
// or nil. The spec is shared: callers must not change it.
func Lookup(command string, prefix []string) *Spec {
	return registry()[key(command, prefix)]
}

// Form returns the spec of command's most specific form that args (the
// words after the command) begin with, or nil.
func Form(command string, args []string) *Spec {
	reg := registry()
	for n := min(len(args), maxPrefix()); n >= 0; n-- {
		if s := reg[key(command, args[:n])]; s != nil {
			return s
		}
	}
	return nil
}

// maxPrefix is the longest Prefix of any spec.
var maxPrefix = sync.OnceValue(func() int {
	n := 0
	for _, s := range registry() {
		n = max(n, len(s.Prefix))
	}
	return n
})

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
