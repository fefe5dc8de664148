package sandboxauth

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Red-team round 25a: files the user writes in the project while a
// confined command runs, and what the quarantine then does with them.
// Each payload was run with `sandboxauth run --sandbox SB -- ./p.sh`, as
// root and as the unprivileged sbtest, with the user's step done by hand
// in SB from another shell while it ran.

// TestEscape25aQuarantinedNpmrcReadable: a missing project .npmrc gets an
// empty read-only placeholder while a command runs. When the user saves
// a real .npmrc meanwhile (npm config set --location=project, npm login
// --scope with a project location, an editor: by rename, which detaches
// the placeholder and stops the run, or in place, root's editor or vim's
// :w! on the read-only file), the quarantine moves the user's file aside
// as .npmrc.sandboxauth-quarantine when the run ends. .npmrc is
// read-protected, but that new name matches no read-protected pattern
// (.env's copy, .env.sandboxauth-quarantine, is still hidden by .env.*):
// the next confined run reads the user's registry token.
//
//	run 1:   sleep 3                       (the user saves .npmrc meanwhile)
//	user:    printf '//registry.npmjs.org/:_authToken=npm_SECRET\n' > .npmrc.tmp && mv .npmrc.tmp .npmrc
//	run 2:   cat .npmrc.sandboxauth-quarantine
//
// Verified with sandboxauth run as root (in place and by rename) and as
// sbtest (by rename): run 2 printed the token.
func TestEscape25aQuarantinedNpmrcReadable(t *testing.T) {
	const token = "//registry.npmjs.org/:_authToken=npm_SECRET25A"
	for _, c := range []struct {
		name string
		save func(t *testing.T, path string)
	}{
		{"by rename", func(t *testing.T, path string) { renameOver17(t, path, token+"\n") }},
		{"in place", func(t *testing.T, path string) {
			require.NoError(t, os.Chmod(path, 0o600)) // vim's :w! on a read-only file
			require.NoError(t, os.WriteFile(path, []byte(token+"\n"), 0o600))
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			sb := escapeSandbox(t)
			npmrc := filepath.Join(sb, ".npmrc")
			while17(t, sb, func() { c.save(t, npmrc) })
			entries, _ := os.ReadDir(sb)
			for _, e := range entries {
				t.Logf("after run 1: %s", e.Name())
			}
			out := runProtected20(t, sb, `for f in .npmrc*; do echo "== $f"; cat "$f"; done`)
			assert.NotContains(t, out, "npm_SECRET25A", "the next confined run read the .npmrc the user saved during the previous one, moved aside by the quarantine")
		})
	}
}

// TestEscape25aQuarantinedRenvironReadable: the same with an existing
// .Renviron (read- and write-protected: R's per-project environment,
// where API keys go). The user saves it by rename while a command runs
// (RStudio, usethis::edit_r_environ("project"), an editor); the watch
// stops the run and the quarantine moves the user's new file aside as
// .Renviron.sandboxauth-quarantine, which no read-protected pattern
// covers: the next confined run reads the key.
//
//	before:  echo OPENAI_API_KEY=old > .Renviron
//	run 1:   sleep 3
//	user:    echo OPENAI_API_KEY=NEW > .Renviron.tmp && mv .Renviron.tmp .Renviron
//	run 2:   cat .Renviron.sandboxauth-quarantine
//
// Verified with sandboxauth run as root: run 2 printed the new key.
func TestEscape25aQuarantinedRenvironReadable(t *testing.T) {
	sb := escapeSandbox(t)
	renviron := filepath.Join(sb, ".Renviron")
	require.NoError(t, os.WriteFile(renviron, []byte("OPENAI_API_KEY=old\n"), 0o600))
	while17(t, sb, func() { renameOver17(t, renviron, "OPENAI_API_KEY=SECRET25A\n") })
	out := runProtected20(t, sb, `for f in .Renviron*; do echo "== $f"; cat "$f"; done`)
	assert.NotContains(t, out, "SECRET25A", "the next confined run read the .Renviron the user saved during the previous one, moved aside by the quarantine")
}
