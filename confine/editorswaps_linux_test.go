package confine

import (
	"testing"
)

// TestKateSwapOfHiddenFileHidden: Kate and KWrite keep the edits not yet
// saved of a file in .NAME.kate-swp beside it; for a hidden file of the
// home (~/.netrc, ~/.pgpass) the swap file is hidden with it, as Vim's
// swap and undo files are.
func TestKateSwapOfHiddenFileHidden(t *testing.T) {
	requireConfinement(t)
	home := fakeHome(t)
	t.Setenv("GOCACHE", home+"/.cache/go-build")
	assertSecretsHiddenQuoted(t, home, map[string]string{
		".netrc":            "machine a.example password NETRCPLAIN",
		"..netrc.kate-swp":  "Kate Swap File 2.0 password NETRCKATESWAPSECRET",
		".pgpass":           "db:5432:*:u:PGPASSPLAIN",
		"..pgpass.kate-swp": "Kate Swap File 2.0 PGPASSKATESWAPSECRET",
	})
}
