package programs

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestUnwrap(t *testing.T) {
	tests := []struct {
		line    string
		inner   string // "" for none
		assigns []EnvSetting
		problem bool
	}{
		{"env FOO=1 ls -la", "ls -la", []EnvSetting{{Name: "FOO", Value: "1"}}, false},
		{"env -i ls", "ls", []EnvSetting{{Unset: true}}, false},
		{"env -u PATH ls", "ls", []EnvSetting{{Name: "PATH", Unset: true}}, false},
		{"env --unset=HOME ls", "ls", []EnvSetting{{Name: "HOME", Unset: true}}, false},
		{"env A=1", "", []EnvSetting{{Name: "A", Value: "1"}}, false},
		{"env -S 'ls -la'", "", nil, true},
		{"timeout 5 git status", "git status", nil, false},
		{"timeout -s KILL 1m make", "make", nil, false},
		{"timeout --zz 5 ls", "", nil, true},
		{"nice -n 10 ls", "ls", nil, false},
		{"nohup ls", "ls", nil, false},
		{"time ls", "ls", nil, false},
		{"command ls", "ls", nil, false},
		{"stdbuf -oL ls", "ls", nil, false},
		{"exec -c ls", "ls", []EnvSetting{{Unset: true}}, false},
		{"exec", "", nil, true},
		{"busybox wget x", "wget x", nil, false},
		{"busybox --install", "", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			w := strings.Fields(strings.ReplaceAll(tt.line, "'ls -la'", "ls-la"))
			u, ok := Unwrap(w[0], w[1:])
			require.True(t, ok)
			if tt.problem {
				assert.NotEmpty(t, u.Problem)
				assert.Nil(t, u.Inner)
				return
			}
			assert.Empty(t, u.Problem)
			assert.Equal(t, tt.inner, strings.Join(u.Inner, " "))
			assert.Equal(t, tt.assigns, u.Assigns)
		})
	}
	_, ok := Unwrap("ls", []string{"-la"})
	assert.False(t, ok, "ls is no wrapper")
	for _, opt := range []string{"-v", "-V"} {
		_, ok = Unwrap("command", []string{opt, "ls"})
		assert.False(t, ok, "command %s looks a name up and runs nothing", opt)
	}
	u, _ := Unwrap("exec", []string{"ls"})
	assert.True(t, u.ShellExec, "exec is the shell's")
	u, _ = Unwrap("env", []string{"ls"})
	assert.False(t, u.ShellExec)
	assert.Equal(t, KindWrapper, KindOf("env"))
	assert.Equal(t, KindXargs, KindOf("xargs"))
	assert.Equal(t, KindGit, KindOf("git"))
	assert.Equal(t, KindRemoteCopy, KindOf("rsync"))
	assert.Equal(t, KindShell, KindOf("bash"))
	assert.Equal(t, KindForeignShell, KindOf("fish"))
	assert.Equal(t, KindPlain, KindOf("ls"))
	assert.Contains(t, Wrappers(), "env")
	assert.True(t, ClearsPath([]EnvSetting{{Name: "PATH", Unset: true}}))
	assert.True(t, ClearsPath([]EnvSetting{{Unset: true}}))
	assert.False(t, ClearsPath([]EnvSetting{{Name: "PATH", Value: ""}, {Name: "HOME", Unset: true}}))
}
