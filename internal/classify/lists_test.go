package classify

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFirstIndexAgreesWithScan checks that the first-word index of the
// matcher lists picks the same matcher as trying each in list order, while
// matchers are added and removed in random order (the index is kept up to
// date by add and rebuilt by remove).
func TestFirstIndexAgreesWithScan(t *testing.T) {
	words := []string{"status", "log", "diff", "show", "branch", "-C", "--no-pager", "x", ""}
	argvs := [][]string{{"git"}}
	for _, a := range words {
		for _, b := range words {
			argv := []string{"git"}
			for _, w := range []string{a, b} {
				if w != "" {
					argv = append(argv, w)
				}
			}
			argvs = append(argvs, argv)
		}
	}
	scan := func(l *matcherList, args []string) *compiledMatcher {
		cms := l.byName["git"]
		for i := range cms {
			if matchArgs(&cms[i].m, cms[i].style, args) {
				return &cms[i]
			}
		}
		return nil
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 20 {
		s := &Commands{}
		s.AddDefaults()
		var added []Matcher
		for range 40 {
			if len(added) > 0 && rng.IntN(4) == 0 {
				i := rng.IntN(len(added))
				require.True(t, s.Remove(SafeList, added[i]))
				added = append(added[:i], added[i+1:]...)
				continue
			}
			var prefix []string
			for range rng.IntN(3) {
				prefix = append(prefix, words[rng.IntN(len(words)-1)])
			}
			m := Matcher{Command: "git", CommandArgsPrefix: prefix, Reason: "test " + strings.Join(prefix, " ")}
			if rng.IntN(3) == 0 {
				m.ExceptFlags = []string{"--output"}
			}
			before := len(s.Matchers(SafeList))
			s.Add(SafeList, m)
			if len(s.Matchers(SafeList)) > before {
				added = append(added, m)
			}
		}
		require.NotNil(t, s.safe.firsts["git"], "git has enough matchers to be indexed")
		for _, argv := range argvs {
			require.Same(t, scan(&s.safe, argv[1:]), s.safe.lookupName("git", argv[1:]), "round %d: %q", round, argv)
		}
	}
}
