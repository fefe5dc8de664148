package confine

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// renameOver writes text beside path and renames it over path, as git
// writes its config and editors save a file.
func renameOver(t *testing.T, path, text string) {
	t.Helper()
	require.NoError(t, os.WriteFile(path+".new", []byte(text), 0o600))
	require.NoError(t, os.Rename(path+".new", path))
}

// whileRunning runs script confined by p in dir; once the script has made
// dir/started, outside() acts as the user would meanwhile, then the script
// is let go on (dir/go). It returns the script's output and error.
func whileRunning(t *testing.T, p Policy, dir, script string, outside func()) (string, error) {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", "touch started; i=0; while [ ! -e go ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done; "+script)
	cmd.Dir = dir
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, Start(cmd, p))
	require.Eventually(t, func() bool { _, err := os.Stat(filepath.Join(dir, "started")); return err == nil }, 10*time.Second, 10*time.Millisecond)
	outside()
	// The script goes on only a while after: the watch stops the command
	// within a fraction of a millisecond of a rename, but a test binary
	// built with -race (the sandbox's first process is this binary) is
	// slower, and the script must not win that race here.
	time.Sleep(time.Second)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go"), nil, 0o644))
	err := cmd.Wait()
	return out.String(), err
}

// TestMountLostStopsTheCommand: a read-only path of the sandbox that the
// user's program renames a new file over while the command runs (git
// config rewrites .git/config so) loses its mount in the command's view;
// the command is stopped before it can write the new file, and says why.
// A hidden file of the sandbox likewise.
func TestMountLostStopsTheCommand(t *testing.T) {
	for _, tc := range []struct{ name, file, script string }{
		{"read-only", "config", "echo evil >> config && echo WROTE"},
		{"hidden", "secret", "cat secret"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sb, _, p := dirs(t)
			path := filepath.Join(sb, tc.file)
			require.NoError(t, os.WriteFile(path, []byte("old\n"), 0o644))
			if tc.name == "read-only" {
				p.ReadOnly = []string{path}
			} else {
				p.Hidden = []string{path}
			}
			out, err := whileRunning(t, p, sb, tc.script, func() { renameOver(t, path, "NEW\n") })
			require.Error(t, err, out)
			assert.Contains(t, out, path+" was renamed or removed outside while the command ran")
			assert.NotContains(t, out, "WROTE")
			assert.NotContains(t, out, "NEW")
			b, rerr := os.ReadFile(path)
			require.NoError(t, rerr)
			assert.Equal(t, "NEW\n", string(b), "the user's file is the user's")
		})
	}
}

// TestMountWatchQuietAfterTheEnd: a rename after the command has ended
// (the caller's AfterExit still running) stops nothing and says nothing.
func TestMountWatchQuietAfterTheEnd(t *testing.T) {
	sb, _, p := dirs(t)
	path := filepath.Join(sb, "config")
	require.NoError(t, os.WriteFile(path, []byte("old\n"), 0o644))
	p.ReadOnly = []string{path}
	p.AfterExit = func() {
		renameOver(t, path, "NEW\n")
		time.Sleep(100 * time.Millisecond)
	}
	out, err := sh(t, p, sb, "cat config")
	require.NoError(t, err, out)
	assert.Equal(t, "old\n", out)
}

// TestHiddenCredentialReplacedOutside: a hidden file outside the writable
// places that the user's program replaces by rename while the command
// runs (git credential-store, an agent refreshing its token) stays
// unreadable: Landlock grants reading of no new file in its directory.
// What the command is shown in its place reads as empty, and the rest of
// the home reads as before.
func TestHiddenCredentialReplacedOutside(t *testing.T) {
	sb, outside, p := dirs(t)
	creds := filepath.Join(outside, ".git-credentials")
	other := filepath.Join(outside, "notes")
	require.NoError(t, os.WriteFile(creds, []byte("https://u:OLD@h\n"), 0o600))
	require.NoError(t, os.WriteFile(other, []byte("notes\n"), 0o644))
	p.Hidden = []string{creds}
	out, err := whileRunning(t, p, sb, `echo "[$(cat `+creds+` 2>&1)]"; cat `+other+`; ls `+outside, func() { renameOver(t, creds, "https://u:NEW@h\n") })
	require.NoError(t, err, out)
	assert.NotContains(t, out, "NEW")
	assert.NotContains(t, out, "OLD")
	assert.Contains(t, out, "notes\n")
	assert.Contains(t, out, ".git-credentials")

	// Before any rename, it reads as empty.
	out, err = sh(t, p, sb, "cat "+creds+"; echo end")
	require.NoError(t, err, out)
	assert.Equal(t, "end\n", out)
}

// TestReadRulesFor: the grants are the entries of every directory holding
// a hidden path outside the writable places, but the hidden paths, the
// directories holding them and symbolic links; nothing where reading is
// restricted otherwise (Readable) or nothing is hidden outside.
func TestReadRulesFor(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	home := filepath.Join(root, "home")
	for _, d := range []string{"home/.ssh", "home/.config/gh", "home/.config/nvim", "home/src/proj"} {
		require.NoError(t, os.MkdirAll(filepath.Join(root, d), 0o755))
	}
	require.NoError(t, os.WriteFile(filepath.Join(home, ".netrc"), nil, 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(home, ".bashrc"), nil, 0o644))
	require.NoError(t, os.Symlink(".ssh", filepath.Join(home, "keys")))
	v := &view{
		writable:   []bind{{filepath.Join(home, "src/proj"), filepath.Join(home, "src/proj")}},
		hiddenDirs: []string{filepath.Join(home, ".ssh"), filepath.Join(home, ".config/gh"), filepath.Join(home, "src/proj/.secrets")},
		hiddenFile: []string{filepath.Join(home, ".netrc"), filepath.Join(home, ".ssh/id_ed25519")},
	}
	r := readRulesFor(v)
	require.NotNil(t, r)
	var grants []string
	for _, g := range r.Grants {
		for _, name := range g.Dirs {
			grants = append(grants, filepath.Join(g.Dir, name))
		}
		for _, name := range g.Files {
			grants = append(grants, filepath.Join(g.Dir, name))
		}
	}
	assert.Equal(t, len(grants), r.count())
	assert.Equal(t, []string{filepath.Join(home, ".config/gh"), filepath.Join(home, ".netrc"), filepath.Join(home, ".ssh")}, r.Masks)
	assert.Contains(t, grants, filepath.Join(home, ".bashrc"))
	assert.Contains(t, grants, filepath.Join(home, ".config/nvim"))
	assert.Contains(t, grants, filepath.Join(home, "src"))
	for _, no := range []string{home, filepath.Join(home, ".config"), filepath.Join(home, ".ssh"), filepath.Join(home, ".netrc"), filepath.Join(home, "keys"), root, "/"} {
		assert.NotContains(t, grants, no)
	}
	assert.Contains(t, grants, "/usr")

	// A hidden path missing at the start makes the directories that would
	// hold it holders too: what is made there later gets no rule.
	require.NoError(t, os.MkdirAll(filepath.Join(home, ".cargo/bin"), 0o755))
	v.hiddenMissing = []string{filepath.Join(home, ".cargo/credentials.toml"), filepath.Join(home, ".nothere/x")}
	r = readRulesFor(v)
	grants = nil
	for _, g := range r.Grants {
		for _, name := range append(g.Dirs, g.Files...) {
			grants = append(grants, filepath.Join(g.Dir, name))
		}
	}
	assert.Contains(t, grants, filepath.Join(home, ".cargo/bin"))
	assert.NotContains(t, grants, filepath.Join(home, ".cargo"))
	assert.NotContains(t, r.Masks, filepath.Join(home, ".cargo/credentials.toml"), "nothing covers a missing path")

	v.readable = []string{"/usr"}
	assert.Nil(t, readRulesFor(v))
	assert.Nil(t, readRulesFor(&view{hiddenDirs: []string{filepath.Join(home, "src/proj/.secrets")}, writable: v.writable}))
}

// TestUnescapeMountPoint: the mount table's octal escapes.
func TestUnescapeMountPoint(t *testing.T) {
	for in, want := range map[string]string{
		`/a/b`:           "/a/b",
		`/a\040b`:        "/a b",
		`/tab\011x\012y`: "/tab\tx\ny",
		`/back\134slash`: `/back\slash`,
		`/short\04`:      `/short\04`,
		`/not\999octal`:  `/not\999octal`,
		`/end\`:          `/end\`,
	} {
		assert.Equal(t, want, unescapeMountPoint(in), in)
	}
}

// TestManyReadRules: a directory holding a hidden path with thousands of
// entries (a home full of files) made the helper's spec too large for
// an argument ("argument list too long": the reading rules name every
// entry); the rules now go through a descriptor.
func TestManyReadRules(t *testing.T) {
	sb, outside, p := dirs(t)
	for i := 0; i < 6000; i++ {
		require.NoError(t, os.WriteFile(filepath.Join(outside, fmt.Sprintf("file-with-a-longish-name-%05d", i)), nil, 0o644))
	}
	require.NoError(t, os.WriteFile(filepath.Join(outside, "notes"), []byte("notes\n"), 0o644))
	secret := filepath.Join(outside, ".netrc")
	require.NoError(t, os.WriteFile(secret, []byte("SECRET\n"), 0o600))
	p.Hidden = []string{secret}
	out, err := sh(t, p, sb, "cat "+filepath.Join(outside, "notes")+" "+secret)
	require.NoError(t, err, out)
	assert.Equal(t, "notes\n", out)
}

// TestHomeLinkToTheSandboxRuns: a link in the home to the sandbox itself
// (~/current -> the project) made every run fail ("Policy.ReadOnly ... is
// a whole writable place"); the project stays writable.
func TestHomeLinkToTheSandboxRuns(t *testing.T) {
	requireConfinement(t)
	home, err := os.UserHomeDir()
	require.NoError(t, err)
	sb := victimDir(t)
	link := filepath.Join(home, fmt.Sprintf("confine-current-%d", os.Getpid()))
	require.NoError(t, os.Symlink(sb, link))
	t.Cleanup(func() { os.Remove(link) })
	out, err := sh(t, Policy{Sandbox: sb}, sb, "echo x > made && cat made")
	require.NoError(t, err, out)
	assert.Equal(t, "x\n", out)
}
