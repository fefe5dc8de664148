package classify

import (
	"slices"
	"sync"

	"github.com/sandboxauth/sandboxauth/internal/programs"
)

// lazyDefaults is the default matchers of one list of one Commands,
// compiled per command name on the first lookup of that name: a process
// that decides one command (a hook) compiles the matchers of the programs
// it names, not the whole list. The safe defaults come from the program
// specs (built per family, on first use), the blocked and dangerous ones
// from the tables compiled into the program (programs.BlockedTable). They
// stand, in list order, before every matcher the list holds itself
// (AddDefaults uses them only on an empty list), so a lookup tries them
// first, exactly as if they had been added first.
//
// Its own lock guards the names compiled so far, so that lookups made under
// the Commands' read lock may compile a name. Each name's entry never
// changes once made.
type lazyDefaults struct {
	kind   List
	mu     sync.RWMutex
	byName map[string]*defaultsOf
}

// defaultsOf is the compiled default matchers of one command name, in list
// order, and their firstIndex when there are enough of them.
type defaultsOf struct {
	cms   []compiledMatcher
	first *firstIndex
}

// of returns the default matchers of the normalised command name,
// compiling them on first use.
func (d *lazyDefaults) of(name string) *defaultsOf {
	d.mu.RLock()
	e, ok := d.byName[name]
	d.mu.RUnlock()
	if ok {
		return e
	}
	e = compileDefaults(d.kind, name)
	d.mu.Lock()
	defer d.mu.Unlock()
	if prev, ok := d.byName[name]; ok {
		return prev // compiled meanwhile by another lookup
	}
	if d.byName == nil {
		d.byName = make(map[string]*defaultsOf)
	}
	d.byName[name] = e
	return e
}

// compileDefaults compiles the default matchers of list l for name, in
// the order of the whole list, skipping duplicates as adding them one by
// one would.
func compileDefaults(l List, name string) *defaultsOf {
	kind := l.String()
	var ms []Matcher
	var specs []*programs.Spec
	if l == SafeList {
		specs = programs.Named(name)
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
