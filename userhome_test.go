package sandboxauth

import (
	"os/user"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPasswdHome(t *testing.T) {
	const passwd = "root:x:0:0:root:/root:/bin/bash\n" +
		"# a comment line\n" +
		"short:x:1\n" +
		"rel:x:5:5::home/rel:/bin/sh\n" +
		"ann:x:1000:1000:Ann,,,:/home/ann:/bin/zsh\n" +
		"ann:x:1001:1001::/home/ann2:/bin/zsh\n" +
		"annex:x:1002:1002::/home/annex:/bin/sh\n"
	cases := []struct {
		name, home string
		ok         bool
	}{
		{"root", "/root", true},
		{"ann", "/home/ann", true}, // the first entry wins, as getpwnam's
		{"annex", "/home/annex", true},
		{"an", "", false},
		{"short", "", false},
		{"rel", "", false}, // a relative home: git cannot expand it either
		{"nobody-here", "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			home, ok := passwdHome(strings.NewReader(passwd), c.name)
			assert.Equal(t, c.ok, ok)
			assert.Equal(t, c.home, home)
		})
	}
}

// TestUserHomeAgreesWithTheSystem compares userHome with the C library's
// getpwnam (os/user, which links cgo in this test binary only) for the
// users the system knows and for names it does not.
func TestUserHomeAgreesWithTheSystem(t *testing.T) {
	me, err := user.Current()
	require.NoError(t, err)
	for _, name := range []string{me.Username, "root", "nobody", "sandboxauth-no-such-user"} {
		t.Run(name, func(t *testing.T) {
			home, ok := userHome(name)
			u, err := user.Lookup(name)
			if err != nil {
				assert.False(t, ok, "userHome(%q) = %q for an unknown user", name, home)
				return
			}
			assert.True(t, ok)
			assert.Equal(t, u.HomeDir, home)
		})
	}
}

func TestUserHomeRefusesMalformedNames(t *testing.T) {
	for _, name := range []string{"", "-s", "--help", "a:b", "a\nroot", "a\x00b"} {
		home, ok := userHome(name)
		assert.False(t, ok, "%q", name)
		assert.Empty(t, home)
	}
}

func TestExpandGitPathOtherUsersHome(t *testing.T) {
	u, err := user.Lookup("root")
	if err != nil {
		t.Skip("no user called root on this system")
	}
	assert.Equal(t, []string{u.HomeDir + "/hooks"}, expandGitPath("~root/hooks", "/work", "/home/me"))
	assert.Empty(t, expandGitPath("~sandboxauth-no-such-user/hooks", "/work", "/home/me"))
}
