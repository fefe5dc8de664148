package classify

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestVersionless(t *testing.T) {
	for in, want := range map[string]string{
		"python3.12": "python", "pip3": "pip", "node18": "node", "ls": "ls", "7": "7", "x-1.2": "x",
	} {
		assert.Equal(t, want, versionless(in), in)
	}
}

func TestFoldLookAlikes(t *testing.T) {
	assert.Equal(t, "sudo", foldLookAlikes("ѕudo"))
	assert.Equal(t, "curl", foldLookAlikes("сurl"))
	assert.Equal(t, "curl", foldLookAlikes("ｃｕｒｌ"))
	assert.Equal(t, "curl", foldLookAlikes("cu\u200brl"))
}
