package sandboxauth

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/confine"
)

// TestEscapeDeepScanDigestSwapAcrossRuns: the deep scan judges a known
// git directory by digests of what git obeys, taken when each run's
// policy is made and after its command ends; each run compares only its
// own two. Two runs of the same sandbox pass a changed configuration
// between them. The project holds a repository deeper than the walk
// (a/b/c/d/e/f, the user's). Run A appends a core.fsmonitor to its
// config, then run B's policy is made (its digest "before" is the
// changed config). A writes the original config back and ends: A's
// digests before and after agree. B writes the fsmonitor config again
// and ends: B's digests before and after agree. Nothing is moved aside;
// the user's git status there runs the fsmonitor unconfined.
//
//	a.sh: cp $g/config /tmp/orig; printf '\tfsmonitor = "touch $HOME/pwned; false"\n' >> $g/config
//	      (B's policy is made) ; cat /tmp/orig > $g/config
//	b.sh: wait for A's end; printf '\tfsmonitor = ...' >> $g/config   (the same bytes as A's)
func TestEscapeDeepScanDigestSwapAcrossRuns(t *testing.T) {
	sb := escapeSandbox(t)
	marker := homeMarker(t)
	repo := filepath.Join(sb, "a/b/c/d/e/f")
	require.NoError(t, os.MkdirAll(repo, 0o755))
	out, err := exec.Command("git", "init", "-q", repo).CombinedOutput()
	require.NoError(t, err, "%s", out)
	g := "a/b/c/d/e/f/.git"
	line := `printf '\tfsmonitor = "touch ` + marker + `; false"\n' >> ` + g + `/config`

	a := shIn(sb, `set -e
cp `+g+`/config /tmp/orig
`+line+`
touch ready-a
while [ ! -e go-a ]; do sleep 0.05; done
cat /tmp/orig > `+g+`/config`)
	require.NoError(t, confine.Start(a, protectedPolicy(t, sb)))
	waitFile(t, filepath.Join(sb, "ready-a"))

	b := shIn(sb, `set -e
touch ready-b
while [ ! -e a-ended ]; do sleep 0.05; done
`+line)
	require.NoError(t, confine.Start(b, protectedPolicy(t, sb)))
	waitFile(t, filepath.Join(sb, "ready-b"))
	require.NoError(t, os.WriteFile(filepath.Join(sb, "go-a"), nil, 0o644))
	require.NoError(t, a.Wait())
	require.NoError(t, os.WriteFile(filepath.Join(sb, "a-ended"), nil, 0o644))
	require.NoError(t, b.Wait())

	cfg, _ := os.ReadFile(filepath.Join(repo, ".git/config"))
	t.Logf("config after both runs:\n%s", cfg)
	t.Logf("git status in a/b/c/d/e/f: %s", userGit(t, repo, "status", "--short"))
	assert.NoFileExists(t, marker, "git status in a deep repository ran an fsmonitor that two runs passed between them")
}

// TestEscapeDeepScanDigestSwapNewRepository: the same swap with no
// repository of the user's: run A makes a new repository deep in the
// project (a/b/c/d/e/f/.git, core.fsmonitor), run B's policy is made
// (to B it is a known git directory, its config's digest taken), and A
// removes HEAD and config before it ends: to A's scan after the run the
// directory is no git directory, and not one "but for an entry" either
// (that needs a config), so nothing is moved aside or put in the ledger.
// B writes HEAD and config back, byte for byte, and ends: a known git
// directory whose config did not change. The user's git status there
// runs the fsmonitor unconfined.
//
//	a.sh: git init -q $d; printf '\tfsmonitor = "touch $HOME/pwned; false"\n' >> $d/.git/config; cp $d/.git/config $d/.git/HEAD /tmp/
//	      (B's policy is made); rm $d/.git/HEAD $d/.git/config; cp /tmp/config /tmp/HEAD $d/   # kept for B
//	b.sh: wait for A's end; mv $d/config $d/HEAD $d/.git/
func TestEscapeDeepScanDigestSwapNewRepository(t *testing.T) {
	sb := escapeSandbox(t)
	marker := homeMarker(t)
	d := "a/b/c/d/e/f"
	a := shIn(sb, `set -e
d=`+d+`
mkdir -p $d/.git/objects $d/.git/refs/heads
echo 'ref: refs/heads/main' > $d/.git/HEAD
printf '[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tfsmonitor = "touch `+marker+`; false"\n' > $d/.git/config
touch ready-a
while [ ! -e go-a ]; do sleep 0.05; done
cp $d/.git/config $d/.git/HEAD $d/
rm $d/.git/HEAD $d/.git/config`)
	require.NoError(t, confine.Start(a, protectedPolicy(t, sb)))
	waitFile(t, filepath.Join(sb, "ready-a"))

	b := shIn(sb, `set -e
d=`+d+`
touch ready-b
while [ ! -e a-ended ]; do sleep 0.05; done
cat $d/config > $d/.git/config
cat $d/HEAD > $d/.git/HEAD
rm $d/config $d/HEAD`)
	require.NoError(t, confine.Start(b, protectedPolicy(t, sb)))
	waitFile(t, filepath.Join(sb, "ready-b"))
	require.NoError(t, os.WriteFile(filepath.Join(sb, "go-a"), nil, 0o644))
	require.NoError(t, a.Wait())
	require.NoError(t, os.WriteFile(filepath.Join(sb, "a-ended"), nil, 0o644))
	require.NoError(t, b.Wait())

	repo := filepath.Join(sb, d)
	out, _ := exec.Command("ls", "-la", filepath.Join(repo, ".git")).CombinedOutput()
	t.Logf("%s", out)
	t.Logf("git status in %s: %s", d, userGit(t, repo, "status", "--short"))
	assert.NoFileExists(t, marker, "git status in a directory of the project ran the fsmonitor of a repository two runs made between them")
}

// TestRunGroupJudgesEveryEnd: a run in the background (a dev server)
// does not keep the quarantine from a run beside it: the foreground run,
// begun while the background one runs, makes a repository deep in the
// project with a core.fsmonitor, and it is moved aside as soon as the
// foreground run ends, with the background one still running (it used
// to wait for the background one: `sandboxauth run` ran one command of a
// sandbox at a time).
func TestRunGroupJudgesEveryEnd(t *testing.T) {
	sb := escapeSandbox(t)
	marker := homeMarker(t)
	bg := shIn(sb, `touch bg-ready; while [ ! -e bg-stop ]; do sleep 0.05; done`)
	require.NoError(t, confine.Start(bg, protectedPolicy(t, sb)))
	defer func() {
		_ = os.WriteFile(filepath.Join(sb, "bg-stop"), nil, 0o644)
		_ = bg.Wait()
	}()
	waitFile(t, filepath.Join(sb, "bg-ready"))

	d := "a/b/c/d/e/f"
	out, err := runConfined(shIn(sb, `set -e
d=`+d+`
mkdir -p $d/.git/objects $d/.git/refs/heads
echo 'ref: refs/heads/main' > $d/.git/HEAD
printf '[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tfsmonitor = "touch `+marker+`; false"\n' > $d/.git/config`), protectedPolicy(t, sb))
	require.NoError(t, err, out)
	assert.NoFileExists(t, filepath.Join(sb, d, ".git", "HEAD"), "the new repository's HEAD was not moved aside while the background run went on")
	t.Logf("git status: %s", userGit(t, filepath.Join(sb, d), "status", "--short"))
	assert.NoFileExists(t, marker, "git status ran the fsmonitor of a repository a run beside a background run made")
}

// TestRunGroupLeftBehind: a group whose runs all ended without the last
// one's judging (its host was killed) leaves its baseline on record; the
// next run judges against it first, before it takes its own, so that
// what the killed run's command left is moved aside.
func TestRunGroupLeftBehind(t *testing.T) {
	sb := escapeSandbox(t)
	marker := homeMarker(t)
	repo := filepath.Join(sb, "a/b/c/d/e/f")
	require.NoError(t, os.MkdirAll(repo, 0o755))
	out, err := exec.Command("git", "init", "-q", repo).CombinedOutput()
	require.NoError(t, err, "%s", out)
	// The killed run's group: its baseline recorded, its membership gone
	// with its process.
	g, err := enterRunGroup(confine.DefaultPolicy(sb), sb)
	require.NoError(t, err)
	require.True(t, g.alone())
	rules, err := compileProtected(DefaultProtectedPaths())
	require.NoError(t, err)
	c := newConfinePaths(sb, rules, &confine.Policy{Sandbox: sb, Placeholders: map[string]string{}})
	c.top()
	c.walk()
	require.NoError(t, g.save(c.baseline(time.Now().UnixNano())))
	g.unlock()
	// What its command did before the kill.
	f, err := os.OpenFile(filepath.Join(repo, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString("\tfsmonitor = \"touch " + marker + "; false\"\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())

	out2, err := runConfined(shIn(sb, `true`), protectedPolicy(t, sb))
	require.NoError(t, err, out2)
	t.Logf("git status: %s", userGit(t, repo, "status", "--short"))
	assert.NoFileExists(t, marker, "git status ran an fsmonitor a killed run left, which the next run did not judge")
}

// TestBaselineRecordRoundTrip: a baseline read back from the group's
// record is the one written.
func TestBaselineRecordRoundTrip(t *testing.T) {
	id := func(n uint64) fileID {
		return fileID{dev: 1, ino: n, birth: birthTime{sec: int64(n) * 10, nsec: uint32(n)}}
	}
	s := newDeepScan()
	s.gitDirs[id(1)] = "/p/.git"
	s.pointers[id(2)] = pointer{path: "/p/sub/.git", ctime: 42}
	s.obeyed["/p/.git"] = []obeyedEntry{{key: "config", path: "/p/.git/config", digest: "abc"}, {key: "hooks/pre-commit", path: "/p/.git/hooks/pre-commit", digest: "def"}}
	s.partial = []fileID{id(3)}
	s.links = []link{{path: "/p/l", target: "../x", ctime: 7}}
	s.unreadable = []string{"/p/locked"}
	s.protected["/p/a/b/c/d/.cargo/config.toml"] = protectedMatch{id: id(7), digest: "e3b0", whole: true}
	s.protected["/p/a/b/c/d/.idea"] = protectedMatch{id: id(8)}
	was := &beforeRun{ids: map[fileID]bool{id(4): true, id(5): true}, gitDirs: map[fileID]bool{id(6): true}, watch: []string{"/p/.git/config.worktree"}, states: map[string]string{"/p/.git/rebase-merge": "d1"}, deep: s, since: 1234, readOnly: []string{"/p/.git/config"}}
	b, err := json.Marshal(recordOf(was))
	require.NoError(t, err)
	var r baselineRecord
	require.NoError(t, json.NewDecoder(bytes.NewReader(b)).Decode(&r))
	assert.Equal(t, was, r.beforeRun())
}

// TestRunGroupManyAtOnce: runs of one sandbox begun and ended from many
// goroutines at once (under -race in CI) all end, none waits for
// another's command, and what one of them plants is moved aside.
func TestRunGroupManyAtOnce(t *testing.T) {
	sb := escapeSandbox(t)
	marker := homeMarker(t)
	const runs = 6
	errs := make(chan error, runs)
	for i := 0; i < runs; i++ {
		go func() {
			script := `sleep 0.2`
			if i == runs/2 {
				script = `set -e
d=deep/x/y/z/w/v
mkdir -p $d/.git/objects $d/.git/refs/heads
echo 'ref: refs/heads/main' > $d/.git/HEAD
printf '[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tfsmonitor = "touch ` + marker + `; false"\n' > $d/.git/config`
			}
			p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
			if err == nil {
				var out string
				if out, err = runConfined(shIn(sb, script), p); err != nil {
					err = fmt.Errorf("%w: %s", err, out)
				}
			}
			errs <- err
		}()
	}
	for i := 0; i < runs; i++ {
		select {
		case err := <-errs:
			assert.NoError(t, err)
		case <-time.After(2 * time.Minute):
			t.Fatal("runs of one sandbox begun at once did not all end")
		}
	}
	t.Logf("git status: %s", userGit(t, filepath.Join(sb, "deep/x/y/z/w/v"), "status", "--short"))
	assert.NoFileExists(t, marker, "git status ran the fsmonitor one of many runs at once planted")
	g, err := enterRunGroup(confine.DefaultPolicy(sb), sb)
	require.NoError(t, err)
	defer g.unlock()
	assert.True(t, g.alone(), "a run is still a member of the group")
	assert.NoFileExists(t, g.baseline, "the last run did not remove the group's baseline")
}
