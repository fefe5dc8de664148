package repotrust

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestRiskySettingsDigest: harmless changes (identity, remotes' URLs,
// layout facts) keep the digest; a setting that makes git run something,
// an include, or a change git reads otherwise changes it.
func TestRiskySettingsDigest(t *testing.T) {
	base := "[core]\n\trepositoryformatversion = 0\n\tbare = false\n"
	d := RiskySettingsDigest([]byte(base))
	for name, same := range map[string]string{
		"user name":  base + "[user]\n\tname = someone\n",
		"remote add": base + "[remote \"origin\"]\n\turl = https://example.invalid/r.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n",
		"comment":    "# mine\n" + base,
	} {
		assert.Equal(t, d, RiskySettingsDigest([]byte(same)), name)
	}
	for name, other := range map[string]string{
		"fsmonitor":      base + "[core]\n\tfsmonitor = \"touch x\"\n",
		"appended twice": base + "\n[core]\n\tfsmonitor = \"touch x; false\"\n\n[core]\n\tfsmonitor = \"touch x; false\"\n",
		"include":        base + "[include]\n\tpath = /tmp/x\n",
		"pager":          base + "[core]\n\tpager = less\n",
		"hooks path":     base + "[core]\n\thooksPath = h\n",
		"not understood": base + "[core\n",
		"alias":          base + "[alias]\n\tst = !sh\n",
	} {
		assert.NotEqual(t, d, RiskySettingsDigest([]byte(other)), name)
	}
}
