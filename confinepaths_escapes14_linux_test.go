package sandboxauth

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/confine"
)

// TestEscape14RecordsOfAnotherCacheHome: bookkeepingHidden hides the
// record places the current environment names (os.UserCacheDir, that is
// XDG_CACHE_HOME or ~/.cache; XDG_RUNTIME_DIR; /tmp/sandboxauth-UID), not
// the places earlier runs used. A project run with XDG_CACHE_HOME set
// (an IDE's terminal, a direnv .envrc, a CI-like shell: records in
// $XDG_CACHE_HOME/sandboxauth, under the home, in the command's read-only
// view) and another run without it: the second one's command reads the
// first's records and flocks them. Round 13's placeholder lock comes
// back: the other project's run ends without removing its placeholders,
// some fifty files and directories it never had.
//
//	ls $HOME/alt/sandboxauth; exec flock -s $HOME/alt/sandboxauth/placeholders/<S2's digest> sleep 600
func TestEscape14RecordsOfAnotherCacheHome(t *testing.T) {
	s2 := escapeSandbox(t)
	alt := filepath.Join(homeVictimDir(t), "cache")
	require.NoError(t, os.MkdirAll(alt, 0o700))
	t.Setenv("XDG_CACHE_HOME", alt)
	runs, err := confine.SandboxRecord(confine.DefaultPolicy(s2), "runs")
	require.NoError(t, err)
	records := filepath.Join(filepath.Dir(runs), "placeholders")
	// S2 was used before (with XDG_CACHE_HOME set): its record exists.
	out, err := runConfined(shIn(s2, `true`), protectedPolicy(t, s2))
	require.NoError(t, err, out)
	before, err := os.ReadDir(s2)
	require.NoError(t, err)

	// The attacker's project, run without XDG_CACHE_HOME.
	require.NoError(t, os.Unsetenv("XDG_CACHE_HOME"))
	sb := escapeSandbox(t)
	hold := shIn(sb, `ls `+filepath.Dir(runs)+` && exec flock -s `+records+`/* -c 'touch held; while [ ! -e stop ]; do sleep 0.05; done'`)
	var hout strings.Builder
	hold.Stdout, hold.Stderr = &hout, &hout
	require.NoError(t, confine.Start(hold, protectedPolicy(t, sb)))
	waitHeld(t, filepath.Join(sb, "held"), &hout)

	t.Setenv("XDG_CACHE_HOME", alt)
	out, err = runConfined(shIn(s2, `true`), protectedPolicy(t, s2))
	require.NoError(t, err, out)
	require.NoError(t, os.WriteFile(filepath.Join(sb, "stop"), nil, 0o644))
	_ = hold.Wait()
	t.Logf("attacker: %s", hout.String())

	after, err := os.ReadDir(s2)
	require.NoError(t, err)
	var names []string
	for _, e := range after {
		names = append(names, e.Name())
	}
	assert.Len(t, after, len(before), "a command of another project left the placeholders of this one's run in it: %v", names)
	assert.NoFileExists(t, filepath.Join(s2, ".mcp.json"))
}
