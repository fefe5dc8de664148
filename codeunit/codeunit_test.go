package codeunit_test

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/codeunit"
)

// tree makes repo/{a.go, pkg/{b.go, sub/c.go}, other/d.go}, a link
// repo/pkg/esc -> ../other, a link repo/pkg/up -> .. and a link
// alias -> repo, and returns the resolved temp dir.
func tree(t *testing.T) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	for _, d := range []string{"repo/pkg/sub", "repo/other"} {
		require.NoError(t, os.MkdirAll(filepath.Join(root, d), 0o755))
	}
	for _, f := range []string{"repo/a.go", "repo/pkg/b.go", "repo/pkg/sub/c.go", "repo/other/d.go"} {
		require.NoError(t, os.WriteFile(filepath.Join(root, f), nil, 0o644))
	}
	require.NoError(t, os.Symlink("../other", filepath.Join(root, "repo/pkg/esc")))
	require.NoError(t, os.Symlink("..", filepath.Join(root, "repo/pkg/up")))
	require.NoError(t, os.Symlink("repo", filepath.Join(root, "alias")))
	return root
}

func TestNewCodeUnit(t *testing.T) {
	root := tree(t)
	u, err := codeunit.NewCodeUnit("unit", filepath.Join(root, "repo")+"/")
	require.NoError(t, err)
	assert.Equal(t, "unit", u.Name())
	assert.Equal(t, filepath.Join(root, "repo"), u.BaseDir())
	for _, bad := range []string{"", "repo", "a\x00b"} {
		_, err := codeunit.NewCodeUnit("unit", bad)
		assert.Error(t, err, "%q", bad)
	}
}

func TestIncludes(t *testing.T) {
	root := tree(t)
	repo := filepath.Join(root, "repo")
	u, err := codeunit.NewCodeUnit("unit", repo)
	require.NoError(t, err)

	base := map[string]bool{
		repo:                   true,
		repo + "/a.go":         true,
		repo + "/new.go":       true,  // a file that does not exist yet
		repo + "/pkg":          false, // a subdirectory is not a file of the base
		repo + "/pkg/b.go":     false,
		root + "/alias/a.go":   true, // through a link, resolved
		repo + "/pkg/../a.go":  true,
		repo + "/pkg/up/a.go":  true, // pkg/up -> .. is the base again
		repo + "/../repo/a.go": true,
		root:                   false,
		"relative/a.go":        false,
		"":                     false,
	}
	for p, want := range base {
		assert.Equal(t, want, u.Includes(p), "base only: %q", p)
	}

	require.NoError(t, u.IncludeDir(repo+"/pkg", false))
	assert.True(t, u.Includes(repo+"/pkg/b.go"))
	assert.True(t, u.Includes(repo+"/pkg"))
	assert.False(t, u.Includes(repo+"/pkg/sub/c.go"), "a subdirectory's files need their own include")
	assert.False(t, u.Includes(repo+"/pkg/esc/d.go"), "a link out of the unit")
	assert.False(t, u.Includes(repo+"/pkg/esc"), "a link to a directory outside")

	err = u.IncludeDir(repo+"/pkg/sub/deeper", false)
	assert.ErrorIs(t, err, codeunit.ErrNotIncludable)
	require.NoError(t, u.IncludeDir(repo+"/pkg/sub", true))
	assert.True(t, u.Includes(repo+"/pkg/sub/c.go"))
	assert.True(t, u.Includes(repo+"/pkg/sub/x/y/z.go"))
	assert.False(t, u.Includes(repo+"/other/d.go"))

	require.NoError(t, u.IncludeEntireSubtree())
	assert.True(t, u.Includes(repo+"/other/d.go"))
	assert.True(t, u.Includes(repo+"/pkg/esc/d.go"), "the link leads into the unit once other/ is in it")
	assert.False(t, u.Includes(root+"/outside.go"))
	assert.False(t, u.Includes(repo+"/../x"))
}

func TestIncludeDirErrors(t *testing.T) {
	root := tree(t)
	repo := filepath.Join(root, "repo")
	u, err := codeunit.NewCodeUnit("unit", repo)
	require.NoError(t, err)
	assert.Error(t, u.IncludeDir("pkg", false), "relative")
	assert.Error(t, u.IncludeDir(repo+"/a.go", false), "a file")
	assert.ErrorIs(t, u.IncludeDir(root+"/elsewhere", false), codeunit.ErrNotIncludable)
	// A link is included as what it resolves to: pkg/esc is repo/other, whose
	// parent (the base) is included.
	require.NoError(t, u.IncludeDir(repo+"/pkg/esc", false))
	assert.True(t, u.Includes(repo+"/other/d.go"))
}

func TestConcurrentIncludes(t *testing.T) {
	root := tree(t)
	repo := filepath.Join(root, "repo")
	u, err := codeunit.NewCodeUnit("unit", repo)
	require.NoError(t, err)
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < 100; j++ {
				if i%2 == 0 {
					_ = u.IncludeDir(repo+"/pkg", j%3 == 0)
				} else {
					u.Includes(repo + "/pkg/b.go")
					u.Dirs()
				}
			}
		}(i)
	}
	wg.Wait()
	assert.True(t, u.Includes(repo+"/pkg/sub/c.go"), "includeSubtree only widens")
}
