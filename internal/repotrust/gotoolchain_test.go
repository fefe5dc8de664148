package repotrust

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGoToolchainTrusted: go.mod and go.work lines asking for a Go newer
// than the installed one (a fake GOROOT at go1.22.5) make every go
// command not safe, unless GOTOOLCHAIN=local.
func TestGoToolchainTrusted(t *testing.T) {
	goroot := realTemp(t)
	writeFile(t, goroot+"/bin/go", "#!/bin/sh\n", 0o755)
	writeFile(t, goroot+"/VERSION", "go1.22.5\ntime 2024-01-01T00:00:00Z\n", 0o644)
	bin := realTemp(t)
	require.NoError(t, os.Symlink(goroot+"/bin/go", bin+"/go"))
	env := func(extra map[string]string) Env {
		return func(n string) (string, bool) {
			if v, ok := extra[n]; ok {
				return v, true
			}
			if n == "PATH" {
				return "/nonexistent:" + bin, true
			}
			return "", false
		}
	}
	for _, c := range []struct {
		name, file, text, cwd string
		env                   map[string]string
		safe                  bool
		reason                string
	}{
		{"no go.mod", "", "", "", nil, true, ""},
		{"older go line", "go.mod", "module m\n\ngo 1.21\n", "", nil, true, ""},
		{"same release", "go.mod", "module m\ngo 1.22.5\ntoolchain go1.22.5\n", "", nil, true, ""},
		{"language version of the installed release", "go.mod", "module m\ngo 1.22\n", "", nil, true, ""},
		{"rc of the installed minor", "go.mod", "module m\ngo 1.22rc1\n", "", nil, true, ""},
		{"toolchain default", "go.mod", "module m\ngo 1.21\ntoolchain default\n", "", nil, true, ""},
		{"newer toolchain line", "go.mod", "module m\n\ngo 1.21\ntoolchain go1.99.0\n", "", nil, false, "go.mod:4:1: toolchain go1.99.0 asks for a newer Go"},
		{"newer patch", "go.mod", "module m\ngo 1.22.6\n", "", nil, false, "go 1.22.6 asks for a newer Go"},
		{"newer go line", "go.mod", "module m\ngo 1.23\n", "", nil, false, "go 1.23"},
		{"newer rc", "go.mod", "module m\ngo 1.23rc1\n", "", nil, false, "go 1.23rc1"},
		{"quoted toolchain", "go.mod", "module m\ntoolchain \"go1.99.0\"\n", "", nil, false, "toolchain"},
		{"custom suffix", "go.mod", "module m\ntoolchain go1.99.0-custom\n", "", nil, false, "toolchain"},
		{"toolchain with a comment", "go.mod", "module m\ntoolchain go1.99.0 // pinned\n", "", nil, false, "toolchain"},
		{"go.work in a parent", "go.work", "go 1.21\ntoolchain go1.30.1\nuse ./a\n", "a/b", nil, false, "go.work:2:1"},
		{"block form", "go.mod", "module m\ntoolchain (\n\tgo1.99.0\n)\n", "", nil, false, "form not read here"},
		{"not a version", "go.mod", "module m\ngo latest\n", "", nil, false, "not a Go version"},
		{"not a release name", "go.mod", "module m\ntoolchain path\n", "", nil, false, "not a Go release name"},
		{"GOTOOLCHAIN=local", "go.mod", "module m\ntoolchain go1.99.0\n", "", map[string]string{"GOTOOLCHAIN": "local"}, true, ""},
		{"GOTOOLCHAIN=auto", "go.mod", "module m\ntoolchain go1.99.0\n", "", map[string]string{"GOTOOLCHAIN": "auto"}, false, "toolchain"},
		{"installed version unknown", "go.mod", "module m\ngo 1.21\n", "", map[string]string{"PATH": "/nonexistent"}, false, "cannot be learnt"},
		{"lone CR hides a line", "go.mod", "module m\rtoolchain go1.99.0\n", "", nil, false, "a line break"},
	} {
		t.Run(c.name, func(t *testing.T) {
			sb := realTemp(t)
			if c.file != "" {
				writeFile(t, filepath.Join(sb, c.file), c.text, 0o644)
			}
			dir := filepath.Join(sb, c.cwd)
			require.NoError(t, os.MkdirAll(dir, 0o755))
			ok, reason := GoToolchainTrusted(dir, sb, env(c.env))
			assert.Equal(t, c.safe, ok, reason)
			if !c.safe {
				assert.Contains(t, reason, c.reason)
			}
		})
	}
}

// TestGoVersionOrder: the go command's order of versions.
func TestGoVersionOrder(t *testing.T) {
	order := []string{"1", "1.20", "1.21", "1.21beta1", "1.21rc1", "1.21rc2", "1.21.0", "1.21.1", "1.21.10", "1.22"}
	for i := range order {
		for j := range order {
			a, okA := parseGoVersion(order[i])
			b, okB := parseGoVersion(order[j])
			require.True(t, okA && okB, "%s %s", order[i], order[j])
			assert.Equal(t, i < j, a.less(b), "%s < %s", order[i], order[j])
		}
	}
	for _, bad := range []string{"", "1.", "x", "1.x", "1.21.", "1.21rc", "-1.2", "1.+2", "1.21.0.1"} {
		_, ok := parseGoVersion(bad)
		assert.False(t, ok, "%q", bad)
	}
}

// FuzzParseGoVersion: the version reader never panics, and the order it
// gives is strict: never both a < b and b < a.
func FuzzParseGoVersion(f *testing.F) {
	for _, s := range []string{"1.21", "1.21.0", "1.21rc1", "1.21beta2", "1", "1.x", "go1.2", "1.2.3.4", "99999999999.1"} {
		f.Add(s, "1.22.5")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		va, okA := parseGoVersion(a)
		vb, okB := parseGoVersion(b)
		if okA && okB && va.less(vb) && vb.less(va) {
			t.Fatalf("%q and %q are each less than the other", a, b)
		}
	})
}
