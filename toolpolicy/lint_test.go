package toolpolicy

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestLint(t *testing.T) {
	c := mustParse(t, `{
		"tools": {
			"profile": "coding",
			"allow": ["read", "raed", "fs_*", "group:web", "read"],
			"deny": ["*_spawn", "gateway"],
			"byProvider": {"openai": {"deny": ["exce"]}},
			"subagents": {"tools": {"deny": ["wirte"]}}
		},
		"agents": [{"id": "a", "tools": {"allow": ["*"], "deny": ["zz*"]}}]
	}`)
	catalogue := []string{"read", "write", "exec", "sessions_spawn", "web_fetch", "BASH", "bad name"}
	got := c.Lint(catalogue)
	var paths []string
	for _, f := range got {
		paths = append(paths, f.Path)
		assert.NotEmpty(t, f.Message)
		assert.Equal(t, f.Path+": "+f.Message, f.String())
	}
	assert.Equal(t, []string{
		"catalogue[6]",
		"tools.allow[1]", // raed
		"tools.allow[2]", // fs_* matches nothing
		"tools.allow[4]", // duplicate read
		"tools.deny[1]",  // gateway
		`tools.byProvider["openai"].deny[0]`,
		"tools.subagents.tools.deny[0]",
		"agents[0].tools.deny[0]",
	}, paths)
	assert.Contains(t, got[1].Message, "allows nothing")
	assert.Contains(t, got[3].Message, "more than once")

	clean := mustParse(t, `{"tools":{"allow":["read","e*"]}}`)
	assert.Empty(t, clean.Lint([]string{"read", "exec"}))
}
