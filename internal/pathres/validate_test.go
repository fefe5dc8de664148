package pathres

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		p       string
		wantErr error
	}{
		{"/", nil},
		{"/a/b", nil},
		{"/a/../b/./c//", nil},
		{"", ErrEmpty},
		{"a/b", ErrNotAbsolute},
		{".", ErrNotAbsolute},
		{"../etc", ErrNotAbsolute},
		{"~/x", ErrNotAbsolute},
		{"/a\x00b", ErrNUL},
		{"\x00", ErrNUL},
		{"rel\x00", ErrNUL},
	}
	for _, tt := range tests {
		err := Validate(tt.p)
		if tt.wantErr == nil {
			assert.NoError(t, err, "Validate(%q)", tt.p)
			continue
		}
		require.ErrorIs(t, err, tt.wantErr, "Validate(%q)", tt.p)
		assert.Contains(t, err.Error(), strconv.Quote(tt.p), "error names the path")
	}
}
