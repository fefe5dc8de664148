package toolpolicy

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// refPolicy is an independent, naive statement of the semantics in the
// package documentation, used to check the indexed implementation.
type refPolicy struct {
	layers  []Layer // patterns already normalized
	groups  map[string][]string
	related map[string][]string // granted → granters
}

func (r *refPolicy) matches(p, name string) bool {
	switch {
	case p == "*":
		return true
	case strings.HasPrefix(p, "group:"):
		for _, m := range r.groups[p] {
			if m == name {
				return true
			}
		}
		return false
	default:
		return refMatch(p, name)
	}
}

func (r *refPolicy) any(ps []string, name string) bool {
	for _, p := range ps {
		if r.matches(p, name) {
			return true
		}
	}
	return false
}

func (r *refPolicy) deniedAnywhere(name string) bool {
	for _, l := range r.layers {
		if r.any(l.Deny, name) {
			return true
		}
	}
	return false
}

// allowed states the layer-by-layer semantics: no layer denies name, some
// layer has an allow list, and each allow list matches name itself or a
// tool that grants it and that no layer denies.
func (r *refPolicy) allowed(name string) bool {
	if r.deniedAnywhere(name) {
		return false
	}
	someAllow := false
	for _, l := range r.layers {
		if l.Allow == nil {
			continue
		}
		someAllow = true
		pass := r.any(l.Allow, name)
		for _, g := range r.related[name] {
			if !pass && !r.deniedAnywhere(g) && r.any(l.Allow, g) {
				pass = true
			}
		}
		if !pass {
			return false
		}
	}
	return someAllow
}

// TestIndexAgreesWithReference compiles many random policies (exact names,
// groups, "*", prefix, suffix and infix wildcards, several layers) and
// checks Allowed and Explain against the reference on every short name.
func TestIndexAgreesWithReference(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	alphabet := "ab_"
	var names []string
	var gen func(prefix string, n int)
	gen = func(prefix string, n int) {
		if prefix != "" {
			names = append(names, prefix)
		}
		if n == 0 {
			return
		}
		for i := 0; i < len(alphabet); i++ {
			gen(prefix+alphabet[i:i+1], n-1)
		}
	}
	gen("", 4)
	names = append(names, "exec", "apply_patch", "read")

	randPattern := func() string {
		switch rng.Intn(10) {
		case 0:
			return "*"
		case 1:
			return []string{"group:x", "group:y", "exec", "apply_patch"}[rng.Intn(4)]
		}
		for {
			n := 1 + rng.Intn(5)
			var b strings.Builder
			for i := 0; i < n; i++ {
				if rng.Intn(3) == 0 {
					b.WriteByte('*')
				} else {
					b.WriteByte(alphabet[rng.Intn(len(alphabet))])
				}
			}
			s := b.String()
			if !strings.Contains(s, "**") && s != "*" {
				return s
			}
		}
	}
	randList := func(max int) []string {
		out := []string{}
		for i := rng.Intn(max + 1); i > 0; i-- {
			out = append(out, randPattern())
		}
		return out
	}

	reg := NewRegistry()
	require.NoError(t, reg.AddGroup("x", "ab", "b_a", "a"))
	require.NoError(t, reg.AddGroup("y", "exec", "bb"))
	require.NoError(t, reg.AddRelated("ab", "ba"))
	ref := &refPolicy{
		groups:  map[string][]string{"group:x": {"ab", "b_a", "a"}, "group:y": {"exec", "bb"}},
		related: map[string][]string{"apply_patch": {"exec"}, "ba": {"ab"}},
	}

	countAllowed, total := 0, 0
	for iter := 0; iter < 1000; iter++ {
		total += len(names)
		nl := 1 + rng.Intn(4)
		layers := make([]Layer, nl)
		for i := range layers {
			if rng.Intn(3) > 0 {
				layers[i].Allow = randList(4)
			}
			layers[i].Deny = randList(2)
		}
		p, err := reg.Compile(layers...)
		require.NoError(t, err)
		ref.layers = layers
		for _, n := range names {
			want := ref.allowed(n)
			if want {
				countAllowed++
			}
			if got := p.Allowed(n); got != want {
				t.Fatalf("layers %+v, name %q: Allowed=%v, reference=%v", layers, n, got, want)
			}
			if d := p.Explain(n); d.Allowed != want {
				t.Fatalf("layers %+v, name %q: Explain=%+v, reference=%v", layers, n, d, want)
			}
		}
	}
	// Both verdicts must be well represented for the test to mean anything.
	require.Greater(t, countAllowed, total/20)
	require.Less(t, countAllowed, total-total/20)
	t.Logf("%d of %d decisions allowed", countAllowed, total)
}

// TestIndexAgreesWithReferenceLongLiterals exercises the gram tables and
// tries with longer literals over a three-letter alphabet, and checks
// WithCatalogue against the same reference.
func TestIndexAgreesWithReferenceLongLiterals(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	alphabet := "abc"
	randWord := func(min, max int, stars bool) string {
		for {
			n := min + rng.Intn(max-min+1)
			var b strings.Builder
			for i := 0; i < n; i++ {
				if stars && rng.Intn(4) == 0 {
					b.WriteByte('*')
				} else {
					b.WriteByte(alphabet[rng.Intn(len(alphabet))])
				}
			}
			s := b.String()
			if !strings.Contains(s, "**") && s != "*" {
				return s
			}
		}
	}
	reg := NewRegistry()
	ref := &refPolicy{related: map[string][]string{"apply_patch": {"exec"}}}
	for iter := 0; iter < 300; iter++ {
		layers := make([]Layer, 1+rng.Intn(3))
		for i := range layers {
			if rng.Intn(4) > 0 {
				layers[i].Allow = []string{}
				for j := rng.Intn(12); j > 0; j-- {
					layers[i].Allow = append(layers[i].Allow, randWord(1, 10, true))
				}
			}
			for j := rng.Intn(6); j > 0; j-- {
				layers[i].Deny = append(layers[i].Deny, randWord(1, 10, true))
			}
		}
		p, err := reg.Compile(layers...)
		require.NoError(t, err)
		ref.layers = layers
		var names []string
		for j := 0; j < 60; j++ {
			names = append(names, randWord(1, 12, false))
		}
		withCat := p.WithCatalogue(names[:30])
		for _, n := range names {
			want := ref.allowed(n)
			require.Equal(t, want, p.Allowed(n), "layers %+v name %q", layers, n)
			require.Equal(t, want, withCat.Allowed(n), "catalogue: layers %+v name %q", layers, n)
			require.Equal(t, want, p.Explain(n).Allowed, "explain: layers %+v name %q", layers, n)
		}
	}
}
