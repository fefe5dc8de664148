package programs

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseGetopt(t *testing.T) {
	sortSpec := Lookup("sort", nil)
	rg := Lookup("rg", nil)
	grep := Lookup("grep", nil)
	require.NotNil(t, sortSpec)
	tests := []struct {
		name    string
		spec    *Spec
		args    []string
		unknown bool // a word not understood
		unsafe  bool // understood and unsafe
		files   []Arg
	}{
		{"plain", sortSpec, []string{"-rn", "a.txt"}, false, false, []Arg{{"a.txt", Read}}},
		{"unknown short", sortSpec, []string{"-Z"}, true, false, nil},
		{"unknown short in a bundle", sortSpec, []string{"-rZn"}, true, false, nil},
		{"unknown long", sortSpec, []string{"--zz-unknown"}, true, false, nil},
		{"abbreviation of a harmless long", sortSpec, []string{"--numeric", "a"}, false, false, []Arg{{"a", Read}}},
		{"abbreviation of an unsafe long", sortSpec, []string{"--out=x"}, false, true, nil},
		{"ambiguous abbreviation", sortSpec, []string{"--r"}, true, false, nil},
		{"unsafe short", sortSpec, []string{"-o", "x"}, false, true, nil},
		{"unsafe short bundled", sortSpec, []string{"-nox"}, false, true, nil},
		{"value swallows --", sortSpec, []string{"--random-source", "--", "-o", ".git/config"}, false, true, nil},
		{"value that is read", sortSpec, []string{"--random-source=/etc/passwd"}, false, false, []Arg{{"/etc/passwd", Read}}},
		{"flag with a value", sortSpec, []string{"--stable=yes"}, true, false, nil},
		{"missing value", sortSpec, []string{"-k"}, true, false, nil},
		{"options after operands", sortSpec, []string{"a", "-o", "b"}, false, true, nil},
		{"-- ends options", sortSpec, []string{"--", "-o"}, false, false, []Arg{{"-o", Read}}},
		{"rg value is not an option", rg, []string{"-e", "-z", "src"}, false, false, []Arg{{"src", ReadTree}}},
		{"rg glob value", rg, []string{"-g*.zip", "x"}, false, false, []Arg{{".", ReadTree}}},
		{"rg unknown", rg, []string{"--zz=zz", "x"}, true, false, nil},
		{"rg no abbreviations", rg, []string{"--hid", "x"}, true, false, nil},
		{"rg pre", rg, []string{"--pre", "sh", "x"}, false, true, nil},
		{"rg default tree", rg, []string{"KEY"}, false, false, []Arg{{".", ReadTree}}},
		{"grep pattern then file", grep, []string{"-n", "KEY", "a.go"}, false, false, []Arg{{"a.go", Read}}},
		{"grep -e gives the pattern", grep, []string{"-e", "KEY", "a.go", "b.go"}, false, false, []Arg{{"a.go", Read}, {"b.go", Read}}},
		{"grep -r reads trees", grep, []string{"-rn", "KEY", "sub"}, false, false, []Arg{{"sub", ReadTree}}},
		{"grep -r default tree", grep, []string{"-r", "KEY"}, false, false, []Arg{{".", ReadTree}}},
		{"grep -f reads a file", grep, []string{"-f", "pats", "x"}, false, false, []Arg{{"pats", Read}, {"x", Read}}},
		{"grep numeric context", grep, []string{"-5", "x", "y"}, false, false, []Arg{{"y", Read}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Parse(tt.spec, tt.args)
			switch {
			case tt.unknown:
				require.NotNil(t, p.Problem)
				assert.True(t, p.Problem.Unknown, p.Problem.Rule)
			case tt.unsafe:
				require.NotNil(t, p.Problem)
				assert.False(t, p.Problem.Unknown, p.Problem.Rule)
			default:
				require.Nil(t, p.Problem, "%+v", p.Problem)
				assert.Equal(t, tt.files, p.Files)
			}
		})
	}
}

func TestParseHidden(t *testing.T) {
	rg := Lookup("rg", nil)
	assert.False(t, Parse(rg, []string{"KEY"}).Hidden)
	assert.True(t, Parse(rg, []string{"--hidden", "KEY"}).Hidden)
	assert.True(t, Parse(rg, []string{"-uu", "KEY"}).Hidden)
	grep := Lookup("grep", nil)
	assert.True(t, Parse(grep, []string{"-r", "KEY"}).Hidden)
}

func TestParseOperandBounds(t *testing.T) {
	status := Lookup("git", []string{"status"})
	require.NotNil(t, status)
	assert.Nil(t, Parse(status, []string{"-s", "--", "a"}).Problem)
	pwd := Lookup("pwd", nil)
	assert.Nil(t, Parse(pwd, nil).Problem)
	p := Parse(pwd, []string{"x"})
	require.NotNil(t, p.Problem)
	assert.True(t, p.Problem.Unknown)
}

// TestEverySpecWellFormed builds every spec and checks the invariants the
// engine relies on.
func TestEverySpecWellFormed(t *testing.T) {
	for _, s := range All() {
		t.Run(key(s.Command, s.Prefix), func(t *testing.T) {
			assert.NotEmpty(t, s.Reason, "every safe form says what it does")
			seen := map[string]bool{}
			for _, o := range s.Options {
				require.NotEmpty(t, o.Names)
				for _, n := range o.Names {
					assert.False(t, seen[n], "spelling %s listed twice", n)
					seen[n] = true
				}
			}
		})
	}
}

// TestShortIndex checks the index of short options against the scan it
// replaces, for every spec in the registry and every byte.
func TestShortIndex(t *testing.T) {
	for _, s := range registry() {
		require.NotNil(t, s.shorts, "%s %v: no index", s.Command, s.Prefix)
		for c := 0; c < 256; c++ {
			require.Same(t, s.scanShort(byte(c)), s.short(byte(c)), "%s %v: -%c", s.Command, s.Prefix, c)
		}
	}
}
