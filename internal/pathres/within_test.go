package pathres

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestWithin(t *testing.T) {
	tests := []struct {
		root, p string
		want    bool
	}{
		{"/x/sb", "/x/sb", true},
		{"/x/sb", "/x/sb/a", true},
		{"/x/sb", "/x/sb/a/b/c", true},
		{"/x/sb", "/x/sb-evil", false},
		{"/x/sb", "/x/sb-evil/a", false},
		{"/x/sb", "/x/sbx", false},
		{"/x/sb", "/x", false},
		{"/x/sb", "/", false},
		{"/x/sb", "/y/sb", false},
		{"/x/sb", "/x/s", false},
		{"/", "/", true},
		{"/", "/etc/passwd", true},
		{"/", "/x/sb-evil", true},
		{"", "/x", false},
		{"/x", "", false},
		{"x", "x/y", false},
		{"/x", "x/y", false},
		{"/", "x", false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Within(tt.root, tt.p), "Within(%q, %q)", tt.root, tt.p)
	}
}
