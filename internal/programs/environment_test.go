package programs

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestEnvEffect(t *testing.T) {
	tests := []struct {
		name, value string
		want        Env
	}{
		{"LANG", "C.UTF-8", EnvHarmless},
		{"LC_ALL", "C", EnvHarmless},
		{"CGO_ENABLED", "0", EnvHarmless},
		{"CI", "true", EnvHarmless},
		{"LANG", "$(id)", EnvUnknown},
		{"LANG", "a b", EnvUnknown},
		{"FOO", "1", EnvUnknown},
		{"PATH", "/tmp", EnvDangerous},
		{"LD_PRELOAD", "x.so", EnvDangerous},
		{"DYLD_INSERT_LIBRARIES", "x", EnvDangerous},
		{"GIT_SSH_COMMAND", "sh", EnvDangerous},
		{"GOFLAGS", "-toolexec=x", EnvDangerous},
		{"NODE_OPTIONS", "--require=x", EnvDangerous},
		{"PYTHONSTARTUP", "x.py", EnvDangerous},
		{"npm_config_script_shell", "x", EnvDangerous},
		{"MY_TOOL_PAGER", "x", EnvDangerous},
		{"SOMETHING_FLAGS", "x", EnvDangerous},
		{"CUSTOM_PATH", "x", EnvDangerous},
	}
	for _, tt := range tests {
		got, why := EnvEffect(tt.name, tt.value)
		assert.Equal(t, tt.want, got, "%s=%s", tt.name, tt.value)
		if tt.want == EnvHarmless {
			assert.Empty(t, why)
		} else {
			assert.Contains(t, why, tt.name)
		}
	}
}
