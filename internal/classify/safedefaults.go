package classify

import (
	"slices"
	"sync"

	"github.com/sandboxauth/sandboxauth/internal/programs"
)

// safeDefaults is the default safe list of one Commands, compiled per
// command name on the first lookup of that name: a process that decides one
// command (a hook) compiles the matchers of the programs it names, not one
// per spec. It stands, in list order, before every matcher the list holds
// itself (AddDefaults uses it only on an empty safe list), so a lookup
// tries its matchers first, exactly as if they had been added first.
//
// Its own lock guards the names compiled so far, so that lookups made under
// the Commands' read lock may compile a name. Each name's entry never
// changes once made.
type safeDefaults struct {
	mu     sync.RWMutex
	byName map[string]*safeDefaultsOf
}

// safeDefaultsOf is the compiled default safe matchers of one command name,
// in list order, and their firstIndex when there are enough of them.
type safeDefaultsOf struct {
	cms   []compiledMatcher
	first *firstIndex
}

// of returns the default safe matchers of the normalised command name,
// compiling them on first use. A name without a spec has none.
func (d *safeDefaults) of(name string) *safeDefaultsOf {
	d.mu.RLock()
	e, ok := d.byName[name]
	d.mu.RUnlock()
	if ok {
		return e
	}
	e = compileSafeDefaults(name)
	d.mu.Lock()
	defer d.mu.Unlock()
	if prev, ok := d.byName[name]; ok {
		return prev // compiled meanwhile by another lookup
	}
	if d.byName == nil {
		d.byName = make(map[string]*safeDefaultsOf)
	}
	d.byName[name] = e
	return e
}

// compileSafeDefaults compiles the default safe matchers of name: one per
// spec of that command, the longer prefixes first, as the whole list
// (specMatchers) orders them.
func compileSafeDefaults(name string) *safeDefaultsOf {
	specs := programs.Named(name)
	if len(specs) == 0 {
		return &safeDefaultsOf{}
	}
	slices.SortStableFunc(specs, func(a, b *programs.Spec) int { return len(b.Prefix) - len(a.Prefix) })
	ms := make([]Matcher, len(specs))
	for i, sp := range specs {
		ms[i] = Matcher{Command: sp.Command, CommandArgsPrefix: sp.Prefix, ExceptFlags: sp.UnsafeNames(), Reason: sp.Reason}
	}
	rules := rulesOf("safe", ms)
	e := &safeDefaultsOf{cms: make([]compiledMatcher, len(ms))}
	for i := range ms {
		e.cms[i] = compileRule("safe", name, ms[i], specs[i], rules[i])
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
func (e *safeDefaultsOf) lookup(args []string) *compiledMatcher {
	return lookupIn(e.cms, e.first, args)
}

// has reports whether e holds a matcher equal to m (ignoring Reason).
func (e *safeDefaultsOf) has(m *Matcher) bool {
	for i := range e.cms {
		if sameMatcher(&e.cms[i].m, m) {
			return true
		}
	}
	return false
}
