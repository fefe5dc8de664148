package classify

import (
	"slices"
	"sync"

	"github.com/sandboxauth/sandboxauth/internal/programs"
)

// lazyDefaults is the default matchers of one list of one Commands,
// compiled on first use for the command name a lookup asks about (and,
// for the safe list, the first argument: git status compiles the forms of
// git that begin with status, and those without a prefix): a process that
// decides one command (a hook) compiles the matchers of the programs it
// names, not the whole list. The safe defaults come from the program
// specs (their families built on first use), the blocked and dangerous
// ones from the tables compiled into the program (programs.BlockedTable).
// They stand, in list order, before every matcher the list holds itself
// (AddDefaults uses them only on an empty list), so a lookup tries them
// first, exactly as if they had been added first.
//
// Its own lock guards what was compiled so far, so that lookups made under
// the Commands' read lock may compile more. A compiled entry never changes,
// and there is at most one per name and first word of a spec's prefix,
// and a bounded number for names on no list, however many commands are
// looked up.
type lazyDefaults struct {
	kind   List
	mu     sync.RWMutex
	byName map[string]*nameDefaults
	// unknown counts the names in byName that have no default: they are
	// kept only up to maxUnknownNames, so that a long-lived Commands asked
	// about ever new names does not grow without bound.
	unknown int
}

// maxUnknownNames bounds the names without defaults that a lazyDefaults
// remembers (see lazyDefaults.unknown).
const maxUnknownNames = 1024

// nameDefaults is what was compiled of one command name's defaults: those
// for argvs whose first argument begins no default's prefix (bare), and,
// for the safe list, those for each first word of a spec's prefix
// (byFirst, holding every such word from the start, nil until compiled).
type nameDefaults struct {
	bare    *defaultsOf
	byFirst map[string]*defaultsOf
}

// defaultsKey names the defaults compiled for one lookup: the command
// name and, for the safe list, the first word of the forms (those whose
// prefix begins with it, and those without a prefix), "" for the forms
// without a prefix only.
type defaultsKey struct{ name, first string }

// defaultsOf is the compiled default matchers of one defaultsKey, in list
// order, and their firstIndex when there are enough of them. A lookup of
// argv (name first ...) finds among them every default that can match.
type defaultsOf struct {
	cms   []compiledMatcher
	first *firstIndex
}

// of returns the default matchers that can match an argv of the normalised
// command name whose first argument is first ("" for none), compiling them
// on first use.
func (d *lazyDefaults) of(name, first string) *defaultsOf {
	d.mu.RLock()
	nd := d.byName[name]
	if nd != nil {
		e, known := nd.byFirst[first]
		if !known {
			e = nd.bare
		}
		if e != nil {
			d.mu.RUnlock()
			return e
		}
	}
	d.mu.RUnlock()
	d.mu.Lock()
	defer d.mu.Unlock()
	nd = d.byName[name]
	if nd == nil {
		nd = &nameDefaults{bare: compileDefaults(d.kind, defaultsKey{name: name})}
		if d.kind == SafeList {
			for _, w := range programs.FirstWords(name) {
				if nd.byFirst == nil {
					nd.byFirst = make(map[string]*defaultsOf)
				}
				nd.byFirst[w] = nil
			}
		}
		if len(nd.bare.cms) == 0 && nd.byFirst == nil && d.unknown >= maxUnknownNames {
			return nd.bare // a name on no list, past the bound: compiled again next time
		}
		if len(nd.bare.cms) == 0 && nd.byFirst == nil {
			d.unknown++
		}
		if d.byName == nil {
			d.byName = make(map[string]*nameDefaults)
		}
		d.byName[name] = nd
	}
	e, known := nd.byFirst[first]
	if !known {
		return nd.bare
	}
	if e == nil {
		e = compileDefaults(d.kind, defaultsKey{name: name, first: first})
		nd.byFirst[first] = e
	}
	return e
}

// compileDefaults compiles the default matchers of list l for k, in the
// order of the whole list, skipping duplicates as adding them one by one
// would.
func compileDefaults(l List, k defaultsKey) *defaultsOf {
	kind, name := l.String(), k.name
	var ms []Matcher
	var specs []*programs.Spec
	if l == SafeList {
		specs = programs.NamedFirst(name, k.first)
		// The longer prefixes first, as the whole list (specMatchers)
		// orders them.
		slices.SortStableFunc(specs, func(a, b *programs.Spec) int { return len(b.Prefix) - len(a.Prefix) })
		ms = make([]Matcher, len(specs))
		for i, sp := range specs {
			ms[i] = Matcher{Command: sp.Command, CommandArgsPrefix: sp.Prefix, ExceptFlags: sp.UnsafeNames(), Reason: sp.Reason}
		}
	} else {
		table := programs.BlockedTable()
		if l == DangerousList {
			table = programs.DangerousTable()
		}
	entries:
		for i := range table {
			m := Matcher(table[i])
			if m.Command == "" || normalizeCommandName(m.Command) != name {
				continue
			}
			for j := range ms {
				if sameMatcher(&ms[j], &m) {
					continue entries
				}
			}
			ms = append(ms, m)
		}
	}
	if len(ms) == 0 {
		return &defaultsOf{}
	}
	rules := rulesOf(kind, ms)
	e := &defaultsOf{cms: make([]compiledMatcher, len(ms))}
	for i := range ms {
		var sp *programs.Spec
		if specs != nil {
			sp = specs[i]
		}
		e.cms[i] = compileRule(kind, name, ms[i], sp, rules[i])
	}
	if len(e.cms) >= minIndexed {
		e.first = &firstIndex{byWord: make(map[string][]int32)}
		for i := range e.cms {
			e.first.add(int32(i), e.cms[i].m.CommandArgsPrefix)
		}
	}
	return e
}

// lookup returns the first of e's matchers that matches args, trying
// through the firstIndex only those that can.
func (e *defaultsOf) lookup(args []string) *compiledMatcher {
	return lookupIn(e.cms, e.first, args)
}

// has reports whether e holds a matcher equal to m (ignoring Reason).
func (e *defaultsOf) has(m *Matcher) bool {
	for i := range e.cms {
		if sameMatcher(&e.cms[i].m, m) {
			return true
		}
	}
	return false
}
