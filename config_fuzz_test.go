package sandboxauth

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzParseConfig: any input is either a configuration that builds an
// authorizer, or an error matching ErrInvalidConfig whose every part names
// a line and column.
func FuzzParseConfig(f *testing.F) {
	files, _ := filepath.Glob("testdata/config/*.json")
	for _, p := range files {
		data, err := os.ReadFile(p)
		require.NoError(f, err)
		f.Add(data)
	}
	f.Add([]byte(`{"commands":{"safe":{"add":[{"command":"curl"}]}}}`))
	f.Add([]byte(`{"tools":{"allow":["group:fz"]},"agents":[{"id":"a"},{"id":"a"}],"policy":"x"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ParseConfig(data)
		if err != nil {
			require.ErrorIs(t, err, ErrInvalidConfig)
			parts := []error{err}
			if j, ok := err.(interface{ Unwrap() []error }); ok {
				if _, single := err.(*ConfigError); !single {
					parts = j.Unwrap()
				}
			}
			for _, e := range parts {
				var ce *ConfigError
				require.True(t, errors.As(e, &ce), "%v", e)
				require.GreaterOrEqual(t, ce.Line, 1)
				require.GreaterOrEqual(t, ce.Column, 1)
			}
			return
		}
		a, _, err := c.NewAuthorizer()
		require.NoError(t, err)
		a.Close()
	})
}
