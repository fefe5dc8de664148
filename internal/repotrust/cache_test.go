package repotrust

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// laterClock makes every file look old enough for its facts to be kept.
func laterClock() time.Time { return time.Now().Add(time.Hour) }

// TestCacheInvalidation: cached facts are used again while nothing
// consulted changed, and gathered again after each change a model could
// make, whether it changes a file's size, inode, mode, times, or the
// existence of a path.
func TestCacheInvalidation(t *testing.T) {
	needGit(t)
	cases := []struct {
		name   string
		change func(t *testing.T, sb string)
		safe   bool // git status after the change
	}{
		{"config grows", func(t *testing.T, sb string) {
			appendFile(t, sb+"/.git/config", "[core]\n\tfsmonitor = ./m.sh\n")
		}, false},
		{"config replaced by rename", func(t *testing.T, sb string) {
			b, err := os.ReadFile(sb + "/.git/config")
			require.NoError(t, err)
			writeFile(t, sb+"/.git/config.new", string(b), 0o644)
			require.NoError(t, os.Rename(sb+"/.git/config.new", sb+"/.git/config"))
		}, true},
		{"config rewritten in place, same size, other time", func(t *testing.T, sb string) {
			b, err := os.ReadFile(sb + "/.git/config")
			require.NoError(t, err)
			f, err := os.OpenFile(sb+"/.git/config", os.O_WRONLY, 0)
			require.NoError(t, err)
			_, err = f.Write(b)
			require.NoError(t, err)
			require.NoError(t, f.Close())
			later := time.Now().Add(time.Minute)
			require.NoError(t, os.Chtimes(sb+"/.git/config", later, later))
		}, true},
		{"hook created", func(t *testing.T, sb string) {
			writeFile(t, sb+"/.git/hooks/post-index-change", "#!/bin/sh\n", 0o755)
		}, false},
		{"hooks directory removed", func(t *testing.T, sb string) {
			require.NoError(t, os.RemoveAll(sb+"/.git/hooks"))
		}, true},
		{"alternates created", func(t *testing.T, sb string) {
			writeFile(t, sb+"/.git/objects/info/alternates", "/elsewhere/objects\n", 0o644)
		}, false},
		{"commondir created", func(t *testing.T, sb string) {
			writeFile(t, sb+"/.git/commondir", "/nonexistent\n", 0o644)
		}, true}, // git no longer finds a repository there
		{"included file changed", func(t *testing.T, sb string) {
			writeFile(t, sb+"/inc.cfg", "[core]\n\tpager = ./p.sh\n", 0o644)
		}, false},
		{"config.worktree created", func(t *testing.T, sb string) {
			writeFile(t, sb+"/.git/config.worktree", "[core]\n\tfsmonitor = ./m.sh\n", 0o644)
		}, false},
		{".gitmodules created", func(t *testing.T, sb string) {
			require.NoError(t, os.MkdirAll(sb+"/lib/.git", 0o755))
			writeFile(t, sb+"/lib/.git/config", "[diff]\n\texternal = ./d.sh\n", 0o644)
			writeFile(t, sb+"/.gitmodules", "[submodule \"lib\"]\n\tpath = lib\n", 0o644)
		}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sb := newRepo(t)
			appendFile(t, sb+"/.git/config", "[include]\n\tpath = ../inc.cfg\n")
			writeFile(t, sb+"/.git/hooks/post-index-change", "#!/bin/sh\n", 0o644) // not executable
			var cache Cache
			cache.SetClock(laterClock)
			site := Site{Cwd: sb, Sandbox: sb}
			f1, fresh := cache.Facts(site)
			require.True(t, fresh)
			ok, _, reason := f1.Decide(GitCommand([]string{"status"}), nil)
			require.True(t, ok, reason)
			f2, fresh := cache.Facts(site)
			require.False(t, fresh, "nothing changed: the facts come from the cache")
			require.Same(t, f1, f2)

			c.change(t, sb)
			f3, fresh := cache.Facts(site)
			assert.True(t, fresh, "the change invalidates the cached facts")
			ok, _, reason = f3.Decide(GitCommand([]string{"status"}), nil)
			assert.Equal(t, c.safe, ok, reason)
			_, fresh = cache.Facts(site)
			assert.False(t, fresh, "the new facts are cached in turn")
		})
	}

	t.Run("hook made executable", func(t *testing.T) {
		sb := newRepo(t)
		writeFile(t, sb+"/.git/hooks/post-index-change", "#!/bin/sh\n", 0o644)
		var cache Cache
		cache.SetClock(laterClock)
		site := Site{Cwd: sb, Sandbox: sb}
		f, _ := cache.Facts(site)
		ok, _, _ := f.Decide(GitCommand([]string{"add", "."}), nil)
		require.True(t, ok)
		require.NoError(t, os.Chmod(sb+"/.git/hooks/post-index-change", 0o755))
		f, fresh := cache.Facts(site)
		assert.True(t, fresh)
		ok, _, _ = f.Decide(GitCommand([]string{"add", "."}), nil)
		assert.False(t, ok)
	})
}

// TestCacheRecentChange: facts gathered from a file changed within the
// racy window are not kept, since a second change in the same clock tick
// would leave every stamp as it was; past the window they are.
func TestCacheRecentChange(t *testing.T) {
	needGit(t)
	sb := newRepo(t)
	fi, err := os.Stat(sb + "/.git/config")
	require.NoError(t, err)
	var cache Cache
	cache.SetClock(func() time.Time { return fi.ModTime() })
	site := Site{Cwd: sb, Sandbox: sb}
	for i := 0; i < 3; i++ {
		_, fresh := cache.Facts(site)
		assert.True(t, fresh, "gathered again each time")
	}
	cache.SetClock(func() time.Time { return fi.ModTime().Add(RacyWindow / 2) })
	cache.Facts(site)
	_, fresh := cache.Facts(site)
	assert.True(t, fresh, "still within the window")
	cache.SetClock(laterClock)
	cache.Facts(site)
	_, fresh = cache.Facts(site)
	assert.False(t, fresh)
}

// TestCacheConcurrent: lookups and changes from several goroutines (run
// under -race).
func TestCacheConcurrent(t *testing.T) {
	needGit(t)
	sb := newRepo(t)
	var cache Cache
	cache.SetClock(laterClock)
	site := Site{Cwd: sb, Sandbox: sb}
	done := make(chan struct{})
	for g := 0; g < 4; g++ {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := 0; i < 50; i++ {
				f, _ := cache.Facts(site)
				f.Decide(GitCommand([]string{"status"}), nil)
			}
		}()
	}
	for i := 0; i < 10; i++ {
		writeFile(t, sb+"/.git/hooks/post-index-change", "#!/bin/sh\n", os.FileMode(0o644|(i%2)*0o111))
	}
	for g := 0; g < 4; g++ {
		<-done
	}
	writeFile(t, sb+"/.git/hooks/post-index-change", "#!/bin/sh\n", 0o755)
	f, _ := cache.Facts(site)
	ok, _, _ := f.Decide(GitCommand([]string{"status"}), nil)
	assert.False(t, ok)
}

// BenchmarkFactsCached: the git status decision from cached facts (each
// lookup re-stats every consulted path).
func BenchmarkFactsCached(b *testing.B) {
	needGit(b)
	sb := newRepo(b)
	var cache Cache
	cache.SetClock(laterClock)
	site := Site{Cwd: sb, Sandbox: sb, Env: os.LookupEnv}
	cmd := GitCommand([]string{"status"})
	if _, fresh := cache.Facts(site); !fresh {
		b.Fatal("first lookup not fresh")
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f, fresh := cache.Facts(site)
		if ok, _, reason := f.Decide(cmd, nil); fresh || !ok {
			b.Fatal(fresh, reason)
		}
	}
}

// BenchmarkFactsGathered: the same decision with nothing cached.
func BenchmarkFactsGathered(b *testing.B) {
	needGit(b)
	sb := newRepo(b)
	site := Site{Cwd: sb, Sandbox: sb, Env: os.LookupEnv}
	cmd := GitCommand([]string{"status"})
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var cache Cache
		f, _ := cache.Facts(site)
		if ok, _, reason := f.Decide(cmd, nil); !ok {
			b.Fatal(reason)
		}
	}
}

// TestCacheNoRepositoryInvalidation: facts that found no repository (each
// directory up to the root stamped once, though discovery looks for both
// .git and a bare repository's HEAD in it) are gathered again when a
// repository appears in the working directory or an ancestor.
func TestCacheNoRepositoryInvalidation(t *testing.T) {
	bare := func(dir string) func(t *testing.T) {
		return func(t *testing.T) {
			writeFile(t, dir+"/HEAD", "ref: refs/heads/main\n", 0o644)
			require.NoError(t, os.MkdirAll(dir+"/objects", 0o755))
			require.NoError(t, os.MkdirAll(dir+"/refs", 0o755))
		}
	}
	cases := []struct {
		name   string
		change func(root, cwd string) func(t *testing.T)
	}{
		{".git in the working directory", func(_, cwd string) func(t *testing.T) { return bare(cwd + "/.git") }},
		{".git in an ancestor", func(root, _ string) func(t *testing.T) { return bare(root + "/a/.git") }},
		{"bare repository in an ancestor", func(root, _ string) func(t *testing.T) { return bare(root + "/a") }},
		{"bare repository in the working directory", func(_, cwd string) func(t *testing.T) { return bare(cwd) }},
		{"HEAD a symbolic link into refs", func(root, _ string) func(t *testing.T) {
			return func(t *testing.T) {
				require.NoError(t, os.MkdirAll(root+"/a/objects", 0o755))
				require.NoError(t, os.MkdirAll(root+"/a/refs/heads", 0o755))
				require.NoError(t, os.Symlink("refs/heads/main", root+"/a/HEAD"))
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root, err := filepath.EvalSymlinks(t.TempDir())
			require.NoError(t, err)
			cwd := root + "/a/b/c"
			require.NoError(t, os.MkdirAll(cwd, 0o755))
			var cache Cache
			cache.SetClock(laterClock)
			site := Site{Cwd: cwd, Sandbox: root}
			f, fresh := cache.Facts(site)
			require.True(t, fresh)
			require.False(t, f.Found)
			_, fresh = cache.Facts(site)
			require.False(t, fresh, "nothing changed: the facts come from the cache")

			c.change(root, cwd)(t)
			f, fresh = cache.Facts(site)
			assert.True(t, fresh, "the new repository invalidates the cached facts")
			assert.True(t, f.Found)
		})
	}
}
