package userdb

import (
	"os"
	"os/user"
	"strconv"
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
		"rel2:x:5:5::/home/rel2:/bin/sh\n" +
		"ann:x:1000:1000:Ann,,,:/home/ann:/bin/zsh\n" +
		"ann:x:1001:1001::/home/ann2:/bin/zsh\n" +
		"annex:x:1002:1002::/home/annex:/bin/sh\n"
	cases := []struct {
		field     int
		key, home string
		ok        bool
	}{
		{fieldName, "root", "/root", true},
		{fieldName, "ann", "/home/ann", true}, // the first entry wins, as getpwnam's
		{fieldName, "annex", "/home/annex", true},
		{fieldName, "an", "", false},
		{fieldName, "short", "", false},
		{fieldName, "rel", "", false}, // a relative home: git cannot expand it either
		{fieldName, "nobody-here", "", false},
		{fieldUID, "0", "/root", true},
		{fieldUID, "1001", "/home/ann2", true},
		{fieldUID, "5", "/home/rel2", true}, // the first absolute home of the id
		{fieldUID, "7", "", false},
	}
	for _, c := range cases {
		home, ok := passwdHome(strings.NewReader(passwd), c.field, c.key)
		assert.Equal(t, c.ok, ok, "%d %s", c.field, c.key)
		assert.Equal(t, c.home, home, "%d %s", c.field, c.key)
	}
}

// TestHomesAgreeWithTheSystem compares HomeOfName and HomeOfUID with the C
// library's getpwnam and getpwuid (os/user, which links cgo in this test
// binary only) for the users the system knows and for names it does not.
func TestHomesAgreeWithTheSystem(t *testing.T) {
	me, err := user.Current()
	require.NoError(t, err)
	for _, name := range []string{me.Username, "root", "nobody", "sandboxauth-no-such-user"} {
		home, ok := HomeOfName(name)
		u, err := user.Lookup(name)
		if err != nil {
			assert.False(t, ok, "HomeOfName(%q) = %q for an unknown user", name, home)
			continue
		}
		assert.True(t, ok, name)
		assert.Equal(t, u.HomeDir, home, name)
	}
	home, ok := HomeOfUID(os.Geteuid())
	require.True(t, ok)
	assert.Equal(t, me.HomeDir, home)
	u, err := user.LookupId(strconv.Itoa(os.Geteuid()))
	require.NoError(t, err)
	assert.Equal(t, u.HomeDir, home)
}

func TestHomeOfNameRefusesMalformedNames(t *testing.T) {
	for _, name := range []string{"", "-s", "--help", "a:b", "a\nroot", "a\x00b"} {
		home, ok := HomeOfName(name)
		assert.False(t, ok, "%q", name)
		assert.Empty(t, home)
	}
}
