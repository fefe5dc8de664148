package confine

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestClosedToUser: a hidden path is left unmounted only when the user is
// not root, does not own it, and can neither read nor (a directory)
// search it. Paths of the machine stand for other owners: which of them
// are closed depends on the user the test runs as (CI runs it as root and
// as an unprivileged user).
func TestClosedToUser(t *testing.T) {
	dir := t.TempDir()
	own := filepath.Join(dir, "own")
	require.NoError(t, os.WriteFile(own, []byte("s3cret"), 0o000))
	ownDir := filepath.Join(dir, "ownDir")
	require.NoError(t, os.Mkdir(ownDir, 0o000))
	t.Cleanup(func() { _ = os.Chmod(ownDir, 0o700) })

	root := os.Geteuid() == 0
	cases := []struct {
		path string
		want bool
	}{
		// The user's own files: it could chmod them back.
		{own, false},
		{ownDir, false},
		// Readable by everyone.
		{"/etc/passwd", false},
		{"/etc", false},
		// Root's, closed to others (where the machine has them so).
		{"/etc/shadow", !root && !readable("/etc/shadow")},
		{"/root", !root && !readable("/root") && !searchable("/root")},
		{"/etc/ssl/private", !root && !readable("/etc/ssl/private") && !searchable("/etc/ssl/private")},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			fi, err := os.Lstat(c.path)
			if err != nil {
				t.Skipf("%s: %v", c.path, err)
			}
			assert.Equal(t, c.want, closedToUser(c.path, fi))
		})
	}
}

// TestClosedHiddenPathsStayClosed: the hidden paths of DefaultPolicy
// that the view leaves unmounted because the user cannot open them
// (closedToUser) cannot be read, listed or searched by the confined
// command either, and are not mounted. As root nothing is left
// unmounted; run unprivileged, /etc/shadow and /etc/gshadow (root:shadow
// 0640 on Debian) are.
func TestClosedHiddenPathsStayClosed(t *testing.T) {
	sb, _, _ := dirs(t)
	p := DefaultPolicy(sb)
	v, err := resolveView(newTrue(sb), &p)
	require.NoError(t, err)
	src, err := openSources(v, 3)
	require.NoError(t, err)
	defer src.close()
	args := bwrapArgs(v, false, 3, src, "{}", []string{"/bin/true"})
	if os.Geteuid() == 0 {
		assert.Empty(t, v.closed, "root's hidden paths must all be mounted over")
		t.Skip("run as root: every hidden path is mounted over (CI runs this test as an unprivileged user too)")
	}
	t.Logf("left unmounted: %q", v.closed)
	if _, err := os.Lstat("/etc/shadow"); err == nil && !readable("/etc/shadow") {
		assert.Contains(t, v.closed, "/etc/shadow")
	}
	for _, c := range v.closed {
		assert.False(t, slices.Contains(args, c), "%s is closed to the user, yet mounted over", c)
		script := "cat '" + c + "'"
		if slices.Contains(v.hiddenDirs, c) {
			script = "ls -A '" + c + "' || ls -d '" + c + "/.'"
		}
		out, err := sh(t, p, sb, script)
		assert.Error(t, err, "%s: %s", c, out)
		assert.Contains(t, out, "ermission denied", "%s", c)
	}
}

// readable and searchable report whether the calling user may read or
// search path p.
func readable(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	f.Close()
	return true
}

func searchable(p string) bool {
	_, err := os.Stat(p + "/.") // not filepath.Join, which drops the "."
	return err == nil
}
