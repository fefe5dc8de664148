package repotrust

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gitNames returns the entry names git itself lists for every object in
// the store (git cat-file --batch-all-objects, then ls-tree of each tree).
func gitNames(t *testing.T, dir string) []string {
	t.Helper()
	set := map[string]bool{}
	for _, l := range strings.Split(runGit(t, dir, "cat-file", "--batch-all-objects", "--batch-check=%(objectname) %(objecttype)"), "\n") {
		id, typ, ok := strings.Cut(l, " ")
		if !ok || typ != "tree" {
			continue
		}
		for _, e := range strings.Split(runGit(t, dir, "ls-tree", "--name-only", "-z", id), "\x00") {
			if e != "" {
				set[e] = true
			}
		}
	}
	var out []string
	for n := range set {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func sortedNames(m map[string]struct{}) []string {
	var out []string
	for n := range m {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// TestStoreNames: the names read from loose objects and from packs (with
// delta chains, after git gc) are exactly those git lists, a secret that
// was committed and removed included.
func TestStoreNames(t *testing.T) {
	needGit(t)
	sb := newRepo(t)
	writeFile(t, sb+"/.env", "SECRET=1\n", 0o644)
	runGit(t, sb, "add", "-f", ".env")
	runGit(t, sb, "commit", "-q", "-m", "secret")
	runGit(t, sb, "rm", "-q", "--cached", ".env")
	runGit(t, sb, "commit", "-q", "-m", "forget")
	// Enough similar trees for the packer to store deltas.
	for i := 0; i < 30; i++ {
		writeFile(t, sb+"/dir/f"+strings.Repeat("x", i%7)+".txt", strings.Repeat("y", i)+"\n", 0o644)
		runGit(t, sb, "add", "dir")
		runGit(t, sb, "commit", "-q", "-m", "more")
	}
	var c Cache
	f, _ := c.Facts(Site{Cwd: sb, Sandbox: sb})
	names, err := c.StoreNames(f)
	require.NoError(t, err)
	assert.Equal(t, gitNames(t, sb), sortedNames(names), "loose objects")
	assert.Contains(t, names, ".env")

	runGit(t, sb, "gc", "-q", "--aggressive")
	require.Contains(t, runGit(t, sb, "verify-pack", "-v", mustGlob(t, sb+"/.git/objects/pack/*.idx")), "chain length", "the pack holds deltas")
	names, err = c.StoreNames(f)
	require.NoError(t, err)
	assert.Equal(t, gitNames(t, sb), sortedNames(names), "packed objects")
	assert.Contains(t, names, ".env")

	// A new loose object beside the remembered pack: both are seen.
	writeFile(t, sb+"/later.txt", "x\n", 0o644)
	runGit(t, sb, "add", "later.txt")
	runGit(t, sb, "commit", "-q", "-m", "later")
	names, err = c.StoreNames(f)
	require.NoError(t, err)
	assert.Equal(t, gitNames(t, sb), sortedNames(names), "packed and loose objects")
	assert.Contains(t, names, ".env")
	assert.Contains(t, names, "later.txt")

	// A pack that cannot be read leaves the names unknown.
	idx := mustGlob(t, sb+"/.git/objects/pack/*.idx")
	require.NoError(t, os.Chmod(idx, 0o644))
	require.NoError(t, os.WriteFile(idx, []byte("garbage"), 0o644))
	_, err = c.StoreNames(f)
	require.Error(t, err)
}

func mustGlob(t *testing.T, pattern string) string {
	t.Helper()
	m, err := filepath.Glob(pattern)
	require.NoError(t, err)
	require.Len(t, m, 1, pattern)
	return m[0]
}

// TestParseIndex: the paths read from real indexes of each version are
// those git ls-files lists, gitlinks marked; a split index is refused.
func TestParseIndex(t *testing.T) {
	needGit(t)
	sb := newRepo(t)
	writeFile(t, sb+"/dir/deep/name with space.txt", "x\n", 0o644)
	writeFile(t, sb+"/dir/deeper.txt", "x\n", 0o644)
	writeFile(t, sb+"/.env.local", "x\n", 0o644)
	runGit(t, sb, "add", "dir")
	runGit(t, sb, "add", "-N", "-f", ".env.local") // intent to add: an extended entry (version 3)
	sub := sb + "/m"
	require.NoError(t, os.MkdirAll(sub, 0o755))
	runGit(t, sub, "init", "-q")
	writeFile(t, sub+"/b", "b\n", 0o644)
	runGit(t, sub, "add", "b")
	runGit(t, sub, "commit", "-q", "-m", "b")
	runGit(t, sb, "add", "m")
	want := strings.Split(strings.TrimSuffix(runGit(t, sb, "ls-files", "-z"), "\x00"), "\x00")
	// The intent-to-add entry's extended flags make git write version 3.
	for _, v := range []string{"3", "4"} {
		if v == "4" {
			runGit(t, sb, "update-index", "--index-version", v)
		}
		b, err := os.ReadFile(sb + "/.git/index")
		require.NoError(t, err)
		entries, err := parseIndex(b, 20)
		require.NoError(t, err, "version %s", v)
		var got []string
		links := 0
		for _, e := range entries {
			got = append(got, e.Path)
			if e.Gitlink() {
				links++
				assert.Equal(t, "m", e.Path)
			}
		}
		assert.Equal(t, want, got, "version %s", v)
		assert.Equal(t, 1, links)
	}
	runGit(t, sb, "rm", "-q", "--cached", ".env.local")
	runGit(t, sb, "update-index", "--index-version", "2")
	b, err := os.ReadFile(sb + "/.git/index")
	require.NoError(t, err)
	_, err = parseIndex(b, 20)
	require.NoError(t, err, "version 2")

	runGit(t, sb, "update-index", "--split-index")
	b, err = os.ReadFile(sb + "/.git/index")
	require.NoError(t, err)
	_, err = parseIndex(b, 20)
	require.Error(t, err, "a split index is not understood")

	for _, bad := range []string{"", "DIRC", "DIRC\x00\x00\x00\x02\x00\x00\x00\x01", "XXXX\x00\x00\x00\x02\x00\x00\x00\x00"} {
		_, err := parseIndex([]byte(bad), 20)
		assert.Error(t, err, "%q", bad)
	}
}

// TestGitlinkWithoutGitmodules: git status enters a populated gitlink of
// the index that .gitmodules does not name, and runs what its
// configuration says (verified: a core.fsmonitor there runs).
func TestGitlinkWithoutGitmodules(t *testing.T) {
	needGit(t)
	sb := newRepo(t)
	sub := sb + "/m"
	require.NoError(t, os.MkdirAll(sub, 0o755))
	runGit(t, sub, "init", "-q")
	writeFile(t, sub+"/b", "b\n", 0o644)
	runGit(t, sub, "add", "b")
	runGit(t, sub, "commit", "-q", "-m", "b")
	runGit(t, sb, "add", "m")
	ok, reason := decideIn(t, sb, sb, nil, "status")
	require.True(t, ok, reason)
	appendFile(t, sub+"/.git/config", "[core]\n\tfsmonitor = ./m.sh\n")
	ok, reason = decideIn(t, sb, sb, nil, "status")
	assert.False(t, ok)
	assert.Contains(t, reason, "core.fsmonitor")
}

// TestStoreNamesConcurrent: one cache read from many goroutines (run with
// -race) gives every caller the same names.
func TestStoreNamesConcurrent(t *testing.T) {
	needGit(t)
	sb := newRepo(t)
	runGit(t, sb, "gc", "-q")
	writeFile(t, sb+"/b.txt", "b\n", 0o644)
	runGit(t, sb, "add", "b.txt")
	runGit(t, sb, "commit", "-q", "-m", "two")
	var c Cache
	f, _ := c.Facts(Site{Cwd: sb, Sandbox: sb})
	want := gitNames(t, sb)
	done := make(chan []string)
	for i := 0; i < 8; i++ {
		go func() {
			names, err := c.StoreNames(f)
			if err != nil {
				done <- nil
				return
			}
			done <- sortedNames(names)
		}()
	}
	for i := 0; i < 8; i++ {
		assert.Equal(t, want, <-done)
	}
}

// TestHeadFiles: HEAD's files, with loose and packed objects and refs, a
// detached HEAD and an unborn branch, are those git ls-tree lists.
func TestHeadFiles(t *testing.T) {
	needGit(t)
	sb := newRepo(t)
	writeFile(t, sb+"/d/e/.env", "K=1\n", 0o644)
	runGit(t, sb, "add", "-f", "d/e/.env")
	runGit(t, sb, "commit", "-q", "-m", "two")
	all := func(string) bool { return true }
	want := func() map[string]string {
		m := map[string]string{}
		for _, l := range strings.Split(strings.TrimSpace(runGit(t, sb, "ls-tree", "-r", "HEAD")), "\n") {
			meta, p, _ := strings.Cut(l, "\t")
			f := strings.Fields(meta)
			m[p] = f[2]
		}
		return m
	}
	got := func() map[string]string {
		var c Cache
		f, _ := c.Facts(Site{Cwd: sb, Sandbox: sb})
		files, err := HeadFiles(f, all)
		require.NoError(t, err)
		m := map[string]string{}
		for p, id := range files {
			m[p] = hex.EncodeToString(id)
		}
		return m
	}
	assert.Equal(t, want(), got(), "loose objects and refs")
	runGit(t, sb, "gc", "-q")
	runGit(t, sb, "pack-refs", "--all")
	_, err := os.Stat(sb + "/.git/refs/heads/main")
	require.True(t, os.IsNotExist(err), "the branch is packed")
	assert.Equal(t, want(), got(), "packed objects and refs")
	runGit(t, sb, "checkout", "-q", "--detach", "HEAD~1")
	assert.Equal(t, want(), got(), "a detached HEAD")
	runGit(t, sb, "checkout", "-q", "--orphan", "fresh")
	assert.Empty(t, got(), "an unborn branch")
	writeFile(t, sb+"/.git/HEAD", "ref: refs/heads/../../x\n", 0o644)
	var c Cache
	f, _ := c.Facts(Site{Cwd: sb, Sandbox: sb})
	_, err = HeadFiles(f, all)
	assert.Error(t, err)
}
