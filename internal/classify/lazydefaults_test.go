package classify

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/internal/programs"
)

// eagerCommands is a Commands whose lists hold every default matcher
// themselves, added one by one: what AddDefaults did before the defaults
// were compiled per name.
func eagerCommands() *Commands {
	c := &Commands{}
	for _, l := range []List{BlockedList, DangerousList, SafeList} {
		c.list(l).addDefaults(l)
	}
	return c
}

// lazyProbes are argvs (normalised) that reach every default matcher: each
// spec's command and prefix, alone and with each of its unsafe options and
// an unknown one, each table entry's command and prefix with each of its
// flags, versioned and unknown names.
func lazyProbes() [][]string {
	var out [][]string
	add := func(cmd string, prefix []string, more ...string) {
		argv := append([]string{cmd}, prefix...)
		out = append(out, append(argv, more...))
	}
	for _, sp := range programs.All() {
		add(sp.Command, sp.Prefix)
		add(sp.Command, sp.Prefix, "--zz-unknown")
		add(sp.Command, sp.Prefix, "file.txt")
		for _, u := range sp.UnsafeNames() {
			add(sp.Command, sp.Prefix, u, "x")
		}
	}
	for _, table := range [][]programs.ListEntry{programs.BlockedTable(), programs.DangerousTable()} {
		for _, e := range table {
			add(e.Command, e.CommandArgsPrefix)
			add(e.Command, nil, e.CommandArgsPrefix...)
			for _, f := range append(e.Flags, e.ExceptFlags...) {
				add(e.Command, e.CommandArgsPrefix, f)
			}
		}
	}
	for _, n := range []string{"python3.12", "node18", "pip3", "no-such-program", "git", "npm"} {
		add(n, nil, "-c", "x")
		add(n, nil, "test")
		add(n, nil, "log", "-p")
	}
	return out
}

// sameLookups asserts that the lazy and the eager Commands answer every
// probe alike on every list: the same matcher (by its rule) and spec, the
// same spec-backed form, and the same guarded-out answer.
func sameLookups(t *testing.T, lazy, eager *Commands, probes [][]string, when string) {
	t.Helper()
	for _, l := range []List{BlockedList, DangerousList, SafeList} {
		require.Equal(t, eager.Matchers(l), lazy.Matchers(l), "%s: the %s list", when, l)
	}
	require.Equal(t, eager.BlockedNames(), lazy.BlockedNames(), when)
	rule := func(cm *compiledMatcher) string {
		if cm == nil {
			return "(none)"
		}
		return fmt.Sprintf("%s %p", cm.rule, cm.spec)
	}
	for _, argv := range probes {
		name := normalizeCommandName(argv[0])
		for _, l := range []List{BlockedList, DangerousList, SafeList} {
			assert.Equal(t, rule(eager.list(l).lookup(name, argv[1:])), rule(lazy.list(l).lookup(name, argv[1:])), "%s: %s %q", when, l, argv)
		}
		assert.Same(t, eager.safe.specOf(name, argv), lazy.safe.specOf(name, argv), "%s: specOf %q", when, argv)
		le, ll := cmdClassifier{s: eager}, cmdClassifier{s: lazy}
		assert.Equal(t, le.guardedOut(name, argv), ll.guardedOut(name, argv), "%s: guardedOut %q", when, argv)
	}
}

// TestLazyDefaultsAsEager: the default lists compiled per name on first
// lookup answer every lookup, copy and name list exactly as the lists
// built whole did, fresh, after additions (one of them equal to a
// default), and after a removal that compiles them whole.
func TestLazyDefaultsAsEager(t *testing.T) {
	probes := lazyProbes()
	lazy, eager := &Commands{}, eagerCommands()
	lazy.AddDefaults()
	for _, l := range []List{BlockedList, DangerousList, SafeList} {
		require.NotNil(t, lazy.list(l).defaults, "AddDefaults on empty lists compiles them lazily")
		require.Nil(t, eager.list(l).defaults)
	}
	sameLookups(t, lazy, eager, probes, "fresh")

	gitLog := programs.Lookup("git", []string{"log"})
	require.NotNil(t, gitLog)
	adds := []struct {
		l List
		m Matcher
	}{
		{SafeList, Matcher{Command: "git", CommandArgsPrefix: []string{"log"}, Reason: "mine: every git log"}},
		{SafeList, Matcher{Command: "git", CommandArgsPrefix: []string{"log"}, ExceptFlags: gitLog.UnsafeNames(), Reason: "equal to the default"}},
		{SafeList, Matcher{Command: "mytool", Reason: "mine"}},
		{DangerousList, Matcher{Command: "LS", Flags: []string{"-R"}, Reason: "mine"}},
		{BlockedList, Matcher{Command: "curl", Reason: "equal to the default"}},
		{BlockedList, Matcher{Command: "zap", Reason: "mine"}},
	}
	for _, a := range adds {
		lazy.Add(a.l, a.m)
		eager.Add(a.l, a.m)
		probes = append(probes, append([]string{a.m.Command}, a.m.CommandArgsPrefix...))
	}
	require.NotNil(t, lazy.safe.defaults, "additions keep the defaults lazy")
	sameLookups(t, lazy, eager, probes, "after additions")

	for _, l := range []List{BlockedList, DangerousList, SafeList} {
		m := eager.Matchers(l)[0]
		require.True(t, eager.Remove(l, m))
		require.True(t, lazy.Remove(l, m), "%s: a default is removed", l)
		require.Nil(t, lazy.list(l).defaults, "a removal compiles the defaults whole")
	}
	sameLookups(t, lazy, eager, probes, "after removals")
}

// TestLazyDefaultsAddDefaultsTwice: AddDefaults on lists that hold
// matchers already (or its own lazy defaults) adds the defaults one by
// one after them, equal ones skipped, as it always did.
func TestLazyDefaultsAddDefaultsTwice(t *testing.T) {
	lazy, eager := &Commands{}, &Commands{}
	for _, c := range []*Commands{lazy, eager} {
		c.Add(SafeList, Matcher{Command: "git", CommandArgsPrefix: []string{"status"}, Reason: "first"})
	}
	lazy.AddDefaults()
	lazy.AddDefaults()
	for _, l := range []List{BlockedList, DangerousList, SafeList} {
		eager.list(l).addDefaults(l)
	}
	assert.Nil(t, lazy.safe.defaults, "a list with matchers gets the defaults one by one")
	sameLookups(t, lazy, eager, lazyProbes(), "defaults added twice")
}

// TestLazyDefaultsConcurrent: lookups made at once, under the read lock,
// compile names concurrently without a race (run with -race) and all
// agree with the eager lists.
func TestLazyDefaultsConcurrent(t *testing.T) {
	lazy, eager := &Commands{}, eagerCommands()
	lazy.AddDefaults()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "f.txt"), []byte("x\n"), 0o644))
	argvs := [][]string{{"git", "status"}, {"ls", "-la"}, {"curl", "x"}, {"rm", "-rf", "f.txt"}, {"git", "push"}, {"cat", "f.txt"}, {"npm", "test"}, {"python3", "-c", "x"}}
	site := Site{SandboxDir: dir, Cwd: dir}
	want := make([]Verdict, len(argvs))
	for i, a := range argvs {
		want[i] = eager.Classify(site, nil, nil, a, nil)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range argvs {
				i := (k + g) % len(argvs)
				v := lazy.Classify(site, nil, nil, argvs[i], nil)
				assert.Equal(t, want[i].Result(), v.Result(), "%q", argvs[i])
				assert.Equal(t, want[i].Rule(), v.Rule(), "%q", argvs[i])
			}
		}()
	}
	wg.Wait()
}

// TestLazyDefaultsBounded: a Commands asked about ever new command names
// remembers at most maxUnknownNames of those on no list, and still
// answers them (and the names with defaults) as the lists built whole do.
func TestLazyDefaultsBounded(t *testing.T) {
	lazy, eager := &Commands{}, eagerCommands()
	lazy.AddDefaults()
	for i := range 3 * maxUnknownNames {
		name := fmt.Sprintf("tool%d", i)
		for _, l := range []List{BlockedList, DangerousList, SafeList} {
			require.Nil(t, lazy.list(l).lookup(name, []string{"x"}), "%s %s", l, name)
		}
	}
	for _, l := range []List{BlockedList, DangerousList, SafeList} {
		d := lazy.list(l).defaults
		assert.LessOrEqual(t, len(d.byName), maxUnknownNames, "%s", l)
		assert.Equal(t, maxUnknownNames, d.unknown, "%s", l)
	}
	sameLookups(t, lazy, eager, lazyProbes(), "after many unknown names")
}
