package confine

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBwrapMissing: without bubblewrap in any of the places looked at, the
// error says so, names them and says how to install it.
func TestBwrapMissing(t *testing.T) {
	dir := t.TempDir()
	_, err := findBwrapIn([]string{filepath.Join(dir, "bwrap")})
	require.ErrorIs(t, err, ErrUnavailable)
	assert.Contains(t, err.Error(), "apt-get install bubblewrap")
	assert.Contains(t, err.Error(), filepath.Join(dir, "bwrap"))

	// A file that is not executable is not a bubblewrap either.
	f := filepath.Join(dir, "bwrap")
	require.NoError(t, os.WriteFile(f, []byte("#!/bin/sh\n"), 0o644))
	_, err = findBwrapIn([]string{f})
	require.ErrorIs(t, err, ErrUnavailable)
	require.NoError(t, os.Chmod(f, 0o755))
	got, err := findBwrapIn([]string{filepath.Join(dir, "none"), f})
	require.NoError(t, err)
	assert.Equal(t, f, got)
}

// TestUserNamespaceAdvice: each system setting that forbids user
// namespaces is named with the way to change it.
func TestUserNamespaceAdvice(t *testing.T) {
	for _, tc := range []struct {
		name     string
		settings map[string]string
		want     string
	}{
		{"all allowed", map[string]string{"/proc/sys/user/max_user_namespaces": "15000", "/proc/self/ns/user": "x"}, ""},
		{"AppArmor", map[string]string{"/proc/sys/kernel/apparmor_restrict_unprivileged_userns": "1", "/proc/self/ns/user": "x"}, "kernel.apparmor_restrict_unprivileged_userns=0"},
		{"Debian's switch", map[string]string{"/proc/sys/kernel/unprivileged_userns_clone": "0", "/proc/self/ns/user": "x"}, "kernel.unprivileged_userns_clone=1"},
		{"no namespaces at all", map[string]string{"/proc/sys/user/max_user_namespaces": "0", "/proc/self/ns/user": "x"}, "user.max_user_namespaces"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := userNamespaceAdviceFrom(func(p string) string { return tc.settings[p] })
			if tc.want == "" {
				assert.Empty(t, got)
			} else {
				assert.Contains(t, got, tc.want)
			}
		})
	}
}

// TestAvailable: on this machine, Available and a start agree.
func TestAvailable(t *testing.T) {
	err := Available()
	if err != nil {
		require.True(t, errors.Is(err, ErrUnavailable), "%v", err)
		t.Skipf("this machine cannot confine: %v", err)
	}
	sb := t.TempDir()
	cmd := newTrue(sb)
	require.NoError(t, Run(cmd, Policy{Sandbox: sb}))
}
