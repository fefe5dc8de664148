package sandboxauth

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func TestQuarantineNames(t *testing.T) {
	for _, c := range []struct {
		name, base, first string
	}{
		{"short", "evil.code-workspace", "evil.code-workspace" + quarantineSuffix},
		{"fits exactly", strings.Repeat("a", nameMax-len(quarantineSuffix)), strings.Repeat("a", nameMax-len(quarantineSuffix)) + quarantineSuffix},
		{"too long", strings.Repeat("w", 225) + ".code-workspace", strings.Repeat("w", 225) + ".code-~" + quarantineSuffix},
		{"too long, multibyte cut", strings.Repeat("é", 127), strings.Repeat("é", 115) + "~" + quarantineSuffix},
		{"longest", strings.Repeat("x", nameMax), strings.Repeat("x", nameMax-len(quarantineSuffix)-1) + "~" + quarantineSuffix},
	} {
		t.Run(c.name, func(t *testing.T) {
			names := quarantineNames(c.base, "0123456789abcdef")
			assert.Len(t, names, 11)
			assert.Equal(t, c.first, names[0])
			seen := map[string]bool{}
			for _, n := range names {
				assert.LessOrEqual(t, len(n), nameMax, n)
				assert.True(t, utf8.ValidString(n), n)
				assert.Contains(t, n, quarantineSuffix)
				assert.False(t, seen[n], "%s twice", n)
				seen[n] = true
				assert.True(t, strings.HasPrefix(c.base, strings.TrimSuffix(n[:strings.Index(n, quarantineSuffix)], "~")), n)
			}
			assert.Equal(t, quarantineName(c.base, quarantineSuffix+".0123456789abcdef"), names[10])
		})
	}
}
