package toolpolicy

import (
	"path"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCompilePattern(t *testing.T) {
	r := NewRegistry()
	tests := []struct {
		in      string
		kind    patternKind
		names   []string
		wantErr error
	}{
		{in: "*", kind: patAll},
		{in: " * ", kind: patAll},
		{in: "exec", kind: patExact, names: []string{"exec"}},
		{in: "BASH", kind: patExact, names: []string{"exec"}},
		{in: "apply-patch", kind: patExact, names: []string{"apply_patch"}},
		{in: "fs_*", kind: patWildcard},
		{in: "*test*", kind: patWildcard},
		{in: "a*b*c", kind: patWildcard},
		{in: "*_read", kind: patWildcard},
		{in: "fs:*", kind: patWildcard},
		{in: "group:fs", kind: patGroup, names: []string{"read", "write", "edit", "apply_patch", "notebook_edit", "glob", "grep", "ls"}},
		{in: "Group:Runtime", kind: patGroup, names: []string{"exec", "process"}},
		{in: "", wantErr: ErrBlankEntry},
		{in: "  ", wantErr: ErrBlankEntry},
		{in: "**", wantErr: ErrMalformedPattern},
		{in: "fs_**", wantErr: ErrMalformedPattern},
		{in: "a**b", wantErr: ErrMalformedPattern},
		{in: "web fetch", wantErr: ErrMalformedPattern},
		{in: "exec!", wantErr: ErrMalformedPattern},
		{in: "fs/read", wantErr: ErrMalformedPattern},
		{in: "fs?", wantErr: ErrMalformedPattern},
		{in: "[ab]", wantErr: ErrMalformedPattern},
		{in: "ëxec", wantErr: ErrMalformedPattern},
		{in: strings.Repeat("a", MaxNameLen+1), wantErr: ErrMalformedPattern},
		{in: "group:fz", wantErr: ErrUnknownGroup},
		{in: "group:", wantErr: ErrUnknownGroup},
		{in: "group:fs*", wantErr: ErrMalformedPattern},
		{in: "group:*", wantErr: ErrMalformedPattern},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			p, err := r.compilePattern(tt.in, "test")
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.kind, p.kind)
			if tt.names != nil {
				assert.Equal(t, tt.names, p.names)
			}
		})
	}
}

func TestWildcardMatch(t *testing.T) {
	tests := []struct {
		pattern string
		yes     []string
		no      []string
	}{
		{"fs_*", []string{"fs_", "fs_read", "fs_write_all"}, []string{"fs", "xfs_read", "f_read"}},
		{"*_read", []string{"_read", "fs_read", "a_b_read"}, []string{"read", "fs_reader"}},
		{"*test*", []string{"test", "unit_test_runner", "tests", "attest"}, []string{"tes", "tset"}},
		{"a*b*c", []string{"abc", "axbxc", "abbc", "abcbc", "a_b_c"}, []string{"ab", "acb", "abcd", "xabc"}},
		{"a*a", []string{"aa", "aba", "aaa"}, []string{"a"}},
		{"ab*ba", []string{"abba", "abxba", "ababa"}, []string{"aba", "abab"}},
		{"*a*", []string{"a", "ba", "ab", "bab"}, []string{"b", "bcd"}},
		{"*a*b*", []string{"ab", "xaxbx", "aab"}, []string{"ba", "bbbba"}},
		{"fs:*", []string{"fs:read"}, []string{"fs_read"}},
	}
	r := NewRegistry()
	for _, tt := range tests {
		p, err := r.compilePattern(tt.pattern, "t")
		require.NoError(t, err)
		for _, n := range tt.yes {
			assert.True(t, p.matches(n), "%q should match %q", tt.pattern, n)
			assert.True(t, refMatch(tt.pattern, n), "reference: %q should match %q", tt.pattern, n)
		}
		for _, n := range tt.no {
			assert.False(t, p.matches(n), "%q should not match %q", tt.pattern, n)
			assert.False(t, refMatch(tt.pattern, n), "reference: %q should not match %q", tt.pattern, n)
		}
	}
}

// TestWildcardAgreesWithPathMatch cross-checks against the standard
// library's glob on an exhaustive small alphabet.
func TestWildcardAgreesWithPathMatch(t *testing.T) {
	pats := []string{"a*", "*a", "*a*", "a*b", "a*b*a", "*ab*ba*", "b*", "*b*b*", "ab*", "*aa"}
	var names []string
	var gen func(prefix string, n int)
	gen = func(prefix string, n int) {
		names = append(names, prefix)
		if n == 0 {
			return
		}
		gen(prefix+"a", n-1)
		gen(prefix+"b", n-1)
	}
	gen("", 6)
	for _, pt := range pats {
		w := compileWildcard(pt)
		for _, n := range names {
			want, err := path.Match(pt, n)
			require.NoError(t, err)
			require.Equal(t, want, w.match(n), "pattern %q name %q", pt, n)
		}
	}
}
