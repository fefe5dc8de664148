package sandboxauth

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/confine"
)

// runWhileUser runs script confined in sb (ProtectConfinement's policy) in
// the background, waits until it has written "started", does the user's
// step, lets the command go on a second (its script may wait for
// "userdone", written then) and returns the command's output.
func runWhileUser(t *testing.T, sb, script string, user func()) string {
	t.Helper()
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	done := make(chan string, 1)
	go func() {
		out, err := runConfined(shIn(sb, "touch started; "+script), p)
		t.Logf("payload: %v %s", err, out)
		done <- out
	}()
	waitForFile(t, filepath.Join(sb, "started"))
	user()
	time.Sleep(time.Second)
	require.NoError(t, os.WriteFile(filepath.Join(sb, "userdone"), nil, 0o644))
	return <-done
}

// waitForFile waits up to ten seconds for path to exist.
func waitForFile(t *testing.T, path string) {
	t.Helper()
	for i := 0; i < 200; i++ {
		if _, err := os.Stat(path); err == nil {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%s did not appear", path)
}

// untilUser is a script's wait for the user's step.
const untilUser = `i=0; while [ ! -e userdone ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done; `

// commandWritesIntoPlaceholder are the ways a command could try to put a
// file into the placeholder of the missing .vscode/ (a mount point in its
// view, read-only), before and after the user saved into it.
var commandWritesIntoPlaceholder = []struct{ name, script string }{
	{"write", `echo CMDSECRET > .vscode/tasks.json`},
	{"rename a file into it", `echo CMDSECRET > t; mv t .vscode/tasks.json`},
	{"hard link into it", `echo CMDSECRET > t; ln t .vscode/tasks.json`},
	{"symbolic link into it", `ln -s ../evil.json .vscode/tasks.json; echo CMDSECRET > evil.json`},
	{"make a directory in it", `mkdir .vscode/sub && echo CMDSECRET > .vscode/sub/tasks.json`},
	{"rename a directory over it", `mkdir d; echo CMDSECRET > d/tasks.json; mv -T d .vscode`},
	{"remove it and make another", `rmdir .vscode; mkdir .vscode; echo CMDSECRET > .vscode/tasks.json`},
	{"rename it away and make another", `mv .vscode v2; mkdir .vscode; echo CMDSECRET > .vscode/tasks.json; echo CMDSECRET > v2/tasks.json`},
	{"through a link to it", `ln -s .vscode l; echo CMDSECRET > l/tasks.json`},
	{"copy into it", `echo CMDSECRET > t; cp t .vscode/tasks.json`},
	{"through /proc", `echo CMDSECRET > /proc/self/cwd/.vscode/tasks.json`},
}

// TestUserSavedIntoPlaceholderStaysCommandsDoNot: what the user saves into
// the placeholder of a missing protected directory while a command runs
// stays where it was saved (TestEscape25aUserSettingsSavedDuringRunMovedAside),
// and nothing the command tries to put there, before or after the user's
// save, is kept: no way of writing passes the placeholder's mount.
// Each attempt was run for real; none put a file in .vscode.
func TestUserSavedIntoPlaceholderStaysCommandsDoNot(t *testing.T) {
	for _, c := range commandWritesIntoPlaceholder {
		t.Run(c.name, func(t *testing.T) {
			sb := escapeSandbox(t)
			settings := filepath.Join(sb, ".vscode", "settings.json")
			runWhileUser(t, sb, "("+c.script+") 2>&1; "+untilUser+"("+c.script+") 2>&1", func() {
				require.NoError(t, os.MkdirAll(filepath.Dir(settings), 0o755))
				require.NoError(t, os.WriteFile(settings, []byte(`{"editor.tabSize": 2}`), 0o644))
			})
			b, err := os.ReadFile(settings)
			assert.NoError(t, err, "the user's settings are no longer where they were saved")
			assert.Equal(t, `{"editor.tabSize": 2}`, string(b))
			assertNoCommandFileIn(t, filepath.Join(sb, ".vscode"))
		})
	}
}

// TestPlaceholderOfAnotherRunNotWritable: a second confined run of the
// same sandbox, begun while the first holds the placeholder of .vscode/,
// keeps it read-only too: neither run's command puts anything in it,
// and the user's save during both stays.
func TestPlaceholderOfAnotherRunNotWritable(t *testing.T) {
	sb := escapeSandbox(t)
	settings := filepath.Join(sb, ".vscode", "settings.json")
	second := make(chan string, 1)
	runWhileUser(t, sb, untilUser, func() {
		p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
		require.NoError(t, err)
		go func() {
			var script strings.Builder
			for _, c := range commandWritesIntoPlaceholder {
				script.WriteString("(" + c.script + ") 2>&1; ")
			}
			out, err := runConfined(shIn(sb, "touch started2; "+untilUser+script.String()), p)
			second <- err2str(err) + out
		}()
		waitForFile(t, filepath.Join(sb, "started2"))
		require.NoError(t, os.MkdirAll(filepath.Dir(settings), 0o755))
		require.NoError(t, os.WriteFile(settings, []byte(`{"editor.tabSize": 2}`), 0o644))
	})
	t.Logf("second run: %s", <-second)
	b, err := os.ReadFile(settings)
	assert.NoError(t, err, "the user's settings are no longer where they were saved")
	assert.Equal(t, `{"editor.tabSize": 2}`, string(b))
	assertNoCommandFileIn(t, filepath.Join(sb, ".vscode"))
}

// TestUserRemovingPlaceholderStillJudged: the kernel refuses to rename a
// directory over the placeholder (it is not empty to the rename), but
// removing it from outside and making a new directory there detaches its
// mount in the command's view, and a command polling for that writes
// into the new directory before the watch stops it (or ends first). The
// run's mounts did not hold, so what is there is judged as the
// command's: moved aside, not left where the user's tools read it. The
// command wins the race now and then: the test tries until it has won
// once, and is skipped if it never does.
func TestUserRemovingPlaceholderStillJudged(t *testing.T) {
	poll := `i=0; while [ ! -e userdone ]; do { echo CMDSECRET > .vscode/tasks.json; } 2>/dev/null && break; i=$((i+1)); done; `
	for try := 0; try < 8; try++ {
		sb := escapeSandbox(t)
		runWhileUser(t, sb, poll, func() {
			dir := filepath.Join(sb, ".vscode")
			require.NoError(t, os.Remove(dir))
			require.NoError(t, os.Mkdir(dir, 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(dir, "settings.json"), []byte(`{}`), 0o644))
		})
		assertNoCommandFileIn(t, filepath.Join(sb, ".vscode"))
		if _, err := os.Stat(filepath.Join(sb, ".vscode"+quarantineSuffix, "tasks.json")); err == nil {
			return // the command won, and what it wrote was moved aside
		}
	}
	t.Skip("the command never wrote into the new directory before the watch stopped it")
}

// assertNoCommandFileIn fails if any file below dir holds the commands'
// CMDSECRET.
func assertNoCommandFileIn(t *testing.T, dir string) {
	t.Helper()
	_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if b, err := os.ReadFile(path); err == nil && strings.Contains(string(b), "CMDSECRET") {
			t.Errorf("%s, the command's, is kept in %s", path, dir)
		}
		return nil
	})
}

func err2str(err error) string {
	if err == nil {
		return ""
	}
	return err.Error() + ": "
}
