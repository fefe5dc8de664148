package sandboxauth

import (
	"os/user"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestExpandGitPathOtherUsersHome(t *testing.T) {
	u, err := user.Lookup("root")
	if err != nil {
		t.Skip("no user called root on this system")
	}
	assert.Equal(t, []string{u.HomeDir + "/hooks"}, expandGitPath("~root/hooks", "/work", "/home/me"))
	assert.Empty(t, expandGitPath("~sandboxauth-no-such-user/hooks", "/work", "/home/me"))
}
