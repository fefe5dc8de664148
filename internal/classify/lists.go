package classify

import (
	"slices"

	"github.com/sandboxauth/sandboxauth/internal/programs"
)

// matcherList is one list, kept in insertion order and indexed by
// normalised command name.
type matcherList struct {
	list   []Matcher
	byName map[string][]compiledMatcher
	// firsts indexes, for a name with many matchers (git's), which of
	// them can match given the first argument: only those whose prefix
	// begins with it, or that have no prefix. Rebuilt with the name.
	firsts map[string]*firstIndex
	// defaults, when set, is the list's default matchers, compiled per
	// name on first use, standing before every matcher of list (see
	// lazyDefaults). A removal compiles them whole into list first
	// (materialize).
	defaults *lazyDefaults
}

// firstIndex lists, in order, the positions in byName[name] of the
// matchers whose CommandArgsPrefix begins with a word (byWord) and of those
// without a prefix (bare).
type firstIndex struct {
	byWord map[string][]int32
	bare   []int32
}

// add records that the matcher at position i (after every position
// recorded so far) has the given prefix.
func (fi *firstIndex) add(i int32, prefix []string) {
	if len(prefix) > 0 {
		fi.byWord[prefix[0]] = append(fi.byWord[prefix[0]], i)
	} else {
		fi.bare = append(fi.bare, i)
	}
}

// minIndexed is how many matchers a name needs before lookups use a
// firstIndex rather than trying each matcher.
const minIndexed = 8

// indexFirst rebuilds the firstIndex of name.
func (l *matcherList) indexFirst(name string) {
	cms := l.byName[name]
	if len(cms) < minIndexed {
		delete(l.firsts, name)
		return
	}
	fi := &firstIndex{byWord: make(map[string][]int32)}
	for i := range cms {
		fi.add(int32(i), cms[i].m.CommandArgsPrefix)
	}
	if l.firsts == nil {
		l.firsts = make(map[string]*firstIndex)
	}
	l.firsts[name] = fi
}

type compiledMatcher struct {
	m     Matcher
	style flagStyle
	rule  string         // "safe: git log (except --output, ...)"
	spec  *programs.Spec // the spec a default safe matcher was derived from
}

// compile compiles m of list kind under its normalised name. sp is the
// spec a default safe matcher was derived from, when the caller knows it;
// otherwise a safe matcher's spec is looked up.
func compile(kind, name string, m Matcher, sp *programs.Spec) compiledMatcher {
	return compileRule(kind, name, m, sp, kind+": "+m.String())
}

// compileRule is compile with m's rule already written.
func compileRule(kind, name string, m Matcher, sp *programs.Spec, rule string) compiledMatcher {
	cm := compiledMatcher{m: m, style: flagStyleOf(name), rule: rule, spec: sp}
	if kind == "safe" && sp == nil {
		cm.spec = specFor(&m)
	}
	return cm
}

func (l *matcherList) add(kind string, m Matcher) {
	if m.Command == "" {
		return
	}
	l.addOwned(kind, m.Clone(), nil, "")
}

// addOwned is add for a matcher the list may keep as it is (its slices
// belong to nobody else, or to nobody that changes them), with the spec it
// was derived from (nil when not known) and its rule ("" to write it).
func (l *matcherList) addOwned(kind string, m Matcher, sp *programs.Spec, rule string) {
	// A duplicate has the same normalised name, so only that name's
	// matchers are compared (the default lists are built in linear time).
	name := normalizeCommandName(m.Command)
	for i := range l.byName[name] {
		if sameMatcher(&l.byName[name][i].m, &m) {
			return
		}
	}
	if l.defaults != nil && l.defaults.of(name, firstWord(m.CommandArgsPrefix)).has(&m) {
		return
	}
	l.list = append(l.list, m)
	if l.byName == nil {
		l.byName = make(map[string][]compiledMatcher)
	}
	if rule == "" {
		rule = kind + ": " + m.String()
	}
	l.byName[name] = append(l.byName[name], compileRule(kind, name, m, sp, rule))
	if fi := l.firsts[name]; fi != nil {
		fi.add(int32(len(l.byName[name])-1), m.CommandArgsPrefix)
	} else {
		l.indexFirst(name)
	}
}

// remove removes the matcher equal to m (ignoring Reason), reporting
// whether there was one.
func (l *matcherList) remove(kind string, m Matcher) bool {
	l.materialize(kind)
	for i := range l.list {
		if sameMatcher(&l.list[i], &m) {
			l.list = slices.Delete(l.list, i, i+1)
			l.reindex(kind, normalizeCommandName(m.Command))
			return true
		}
	}
	return false
}

// reindex rebuilds the index entry of one command name.
func (l *matcherList) reindex(kind, name string) {
	if l.byName == nil {
		l.byName = make(map[string][]compiledMatcher)
	}
	var cms []compiledMatcher
	for _, m := range l.list {
		if normalizeCommandName(m.Command) == name {
			cms = append(cms, compile(kind, name, m, nil))
		}
	}
	if len(cms) == 0 {
		delete(l.byName, name)
	} else {
		l.byName[name] = cms
	}
	l.indexFirst(name)
}

func (l *matcherList) copies() []Matcher {
	all := l.all()
	out := make([]Matcher, len(all))
	for i, m := range all {
		out[i] = m.Clone()
	}
	return out
}

// all returns every matcher of the list, in order: the lazy defaults
// (compiled apart, without changing the list) and the list's own. The
// slice and the matchers' slices are shared: callers must not change
// them.
func (l *matcherList) all() []Matcher {
	if l.defaults == nil {
		return l.list
	}
	var whole matcherList
	whole.addDefaults(l.defaults.kind)
	return append(whole.list, l.list...)
}

// materialize compiles the lazy defaults whole into the list, before the
// matchers added since, so that the list holds every matcher itself.
// Callers hold the Commands' write lock.
func (l *matcherList) materialize(kind string) {
	if l.defaults == nil {
		return
	}
	own, lk := l.list, l.defaults.kind
	*l = matcherList{}
	l.addDefaults(lk)
	for _, m := range own {
		l.addOwned(kind, m, nil, "")
	}
}

// addDefaults adds the default matchers of list lk (DefaultMatchers) to l,
// one by one, every safe one compiled with the spec it comes from.
func (l *matcherList) addDefaults(lk List) {
	kind := lk.String()
	if lk != SafeList {
		ms := DefaultMatchers(lk)
		rules := rulesOf(kind, ms)
		for i, m := range ms {
			if m.Command != "" {
				l.addOwned(kind, m, nil, rules[i])
			}
		}
		return
	}
	// A safe default shares its spec's prefix and unsafe option names,
	// which nobody changes: the lists never change a matcher's slices,
	// and hand out copies.
	specs := specsByPrefixLength()
	ms := make([]Matcher, len(specs))
	for i, sp := range specs {
		ms[i] = Matcher{Command: sp.Command, CommandArgsPrefix: sp.Prefix, ExceptFlags: sp.UnsafeNames(), Reason: sp.Reason}
	}
	rules := rulesOf(kind, ms)
	for i, sp := range specs {
		l.addOwned(kind, ms[i], sp, rules[i])
	}
}

// named returns the matchers of the normalised name that can match an argv
// whose first argument is first ("" for none), in list order: the defaults
// compiled for it (when the list has lazy defaults), then the list's own
// (all of them).
func (l *matcherList) named(name, first string) (defaults, own []compiledMatcher) {
	if l.defaults != nil {
		defaults = l.defaults.of(name, first).cms
	}
	return defaults, l.byName[name]
}

// firstWord returns words[0], or "" when there is none.
func firstWord(words []string) string {
	if len(words) == 0 {
		return ""
	}
	return words[0]
}

// lookup returns the first matcher of the list that matches args (argv
// with argv[0] already normalised to name).
func (l *matcherList) lookup(name string, args []string) *compiledMatcher {
	if (l.byName == nil && l.defaults == nil) || name == "" {
		return nil
	}
	if cm := l.lookupName(name, args); cm != nil {
		return cm
	}
	if last := name[len(name)-1]; last >= '0' && last <= '9' || last == '.' {
		if vl := versionless(name); vl != name {
			return l.lookupName(vl, args)
		}
	}
	return nil
}

// ownLookup is lookup restricted to the matchers that no program spec
// backs: the caller's own (AddSafe, the policy file), whose safe entries
// are final even where a default entry matched first.
func (l *matcherList) ownLookup(name string, args []string) *compiledMatcher {
	if cm := l.ownLookupName(name, args); cm != nil {
		return cm
	}
	if vl := versionless(name); vl != name {
		return l.ownLookupName(vl, args)
	}
	return nil
}

func (l *matcherList) ownLookupName(name string, args []string) *compiledMatcher {
	cms := l.byName[name]
	for i := range cms {
		if cms[i].spec == nil && matchArgs(&cms[i].m, cms[i].style, args) {
			return &cms[i]
		}
	}
	return nil
}

// lookupName returns the first of name's matchers, in list order, that
// matches args, trying through the firstIndex only those that can.
func (l *matcherList) lookupName(name string, args []string) *compiledMatcher {
	if l.defaults != nil {
		if cm := l.defaults.of(name, firstWord(args)).lookup(args); cm != nil {
			return cm
		}
	}
	return lookupIn(l.byName[name], l.firsts[name], args)
}

// lookupIn returns the first of cms that matches args, trying through fi
// (cms's firstIndex, or nil) only those that can.
func lookupIn(cms []compiledMatcher, fi *firstIndex, args []string) *compiledMatcher {
	if fi == nil {
		for i := range cms {
			if matchArgs(&cms[i].m, cms[i].style, args) {
				return &cms[i]
			}
		}
		return nil
	}
	var a []int32
	if len(args) > 0 {
		a = fi.byWord[args[0]]
	}
	b := fi.bare
	for len(a) > 0 || len(b) > 0 {
		var i int32
		if len(b) == 0 || len(a) > 0 && a[0] < b[0] {
			i, a = a[0], a[1:]
		} else {
			i, b = b[0], b[1:]
		}
		if matchArgs(&cms[i].m, cms[i].style, args) {
			return &cms[i]
		}
	}
	return nil
}
