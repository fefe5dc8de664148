package programs

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestKindsDisjoint checks that no name belongs to two families' tables,
// so that KindOf, which asks them in turn, gives each name the kind of
// the one family that declares it, and that every declared name gets its
// family's kind.
func TestKindsDisjoint(t *testing.T) {
	families := []struct {
		kind  Kind
		names []string
	}{
		{KindShell, Shells()},
		{KindForeignShell, ForeignShells()},
		{KindWrapper, Wrappers()},
		{KindXargs, []string{"xargs"}},
		{KindGit, []string{"git"}},
		{KindRemoteCopy, []string{"rsync"}},
	}
	owner := map[string]Kind{}
	for _, f := range families {
		assert.NotEmpty(t, f.names)
		for _, n := range f.names {
			if k, dup := owner[n]; dup {
				t.Errorf("%q is declared with kind %d and %d", n, k, f.kind)
			}
			owner[n] = f.kind
			assert.Equal(t, f.kind, KindOf(n), n)
		}
	}
	for _, n := range []string{"ls", "cat", "", "gitk", "bash5", "python3", "Git"} {
		assert.Equal(t, KindPlain, KindOf(n), n)
	}
}
