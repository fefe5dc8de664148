package main

import (
	"debug/elf"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLinkedStatically checks that sandboxauth, as go build makes it with
// cgo enabled, is a static program: nothing it imports needs cgo
// (os/user, net and the like would), so it starts without the dynamic
// loader and the C library's start-up, which a hook started for every
// tool call would pay each time (BenchmarkHookLatency).
func TestLinkedStatically(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	require.NoError(t, err, "%s", out)
	deps := strings.Fields(string(out))
	assert.NotContains(t, deps, "runtime/cgo", "a package sandboxauth imports needs cgo")

	if raceEnabled || runtime.GOOS != "linux" {
		t.Skip("the binary is checked only on Linux and without -race (which needs cgo)")
	}
	f, err := elf.Open(bin)
	require.NoError(t, err)
	defer f.Close()
	for _, p := range f.Progs {
		assert.NotEqual(t, elf.PT_INTERP, p.Type, "the binary names a dynamic loader")
	}
}
