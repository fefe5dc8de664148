package sandboxauth

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEnvironmentsOwn: a virtual environment's program is kept only when
// it runs Python in the place of Python; a script or link under another
// program's name is never the environment's (round 25b).
func TestEnvironmentsOwn(t *testing.T) {
	outside, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	write := func(p, content string) string {
		require.NoError(t, os.WriteFile(p, []byte(content), 0o755))
		return p
	}
	interp := write(filepath.Join(outside, "python3.12"), "\x7fELF")
	native := write(filepath.Join(outside, "ls"), "\x7fELF")
	pyTool := write(filepath.Join(outside, "pytest"), "#!/usr/bin/python3 -s\nimport pytest\n")
	envTool := write(filepath.Join(outside, "pip"), "#!/usr/bin/env -S python3\nimport pip\n")
	shTool := write(filepath.Join(outside, "tool"), "#!/bin/sh\nexit 0\n")
	for _, tc := range []struct {
		name  string
		make  func(bin string) string // returns the program's path
		other string
		own   bool
	}{
		{"python link to the interpreter", func(bin string) string {
			require.NoError(t, os.Symlink(interp, filepath.Join(bin, "python")))
			return filepath.Join(bin, "python")
		}, interp, true},
		{"python3 link through python", func(bin string) string {
			require.NoError(t, os.Symlink(interp, filepath.Join(bin, "python")))
			require.NoError(t, os.Symlink("python", filepath.Join(bin, "python3")))
			return filepath.Join(bin, "python3")
		}, interp, true},
		{"ls link to an outside program", func(bin string) string {
			require.NoError(t, os.Symlink(native, filepath.Join(bin, "ls")))
			return filepath.Join(bin, "ls")
		}, native, false},
		{"python link to another program", func(bin string) string {
			require.NoError(t, os.Symlink(native, filepath.Join(bin, "python3")))
			return filepath.Join(bin, "python3")
		}, interp, false},
		{"console script for a Python tool", func(bin string) string {
			return write(filepath.Join(bin, "pytest"), "#!"+bin+"/python\nfrom pytest import console_main\n")
		}, pyTool, true},
		{"console script for a tool env runs", func(bin string) string {
			return write(filepath.Join(bin, "pip"), "#!"+bin+"/python3\nfrom pip import main\n")
		}, envTool, true},
		{"venv's own pip for a shim", func(bin string) string {
			return write(filepath.Join(bin, "pip3.12"), "#!"+bin+"/python\nfrom pip._internal.cli.main import main\n")
		}, shTool, true},
		{"pip-like name that is not venv's", func(bin string) string {
			return write(filepath.Join(bin, "pipx"), "#!"+bin+"/python\nimport os\n")
		}, shTool, false},
		{"Python script for a native program", func(bin string) string {
			return write(filepath.Join(bin, "ls"), "#!"+bin+"/python3\nimport os\n")
		}, native, false},
		{"Python script for a shell script", func(bin string) string {
			return write(filepath.Join(bin, "tool"), "#!"+bin+"/python3\nimport os\n")
		}, shTool, false},
		{"script of another interpreter for a Python tool", func(bin string) string {
			return write(filepath.Join(bin, "pytest"), "#!/bin/sh\ntouch x\n")
		}, pyTool, false},
		{"script naming another directory's python", func(bin string) string {
			return write(filepath.Join(bin, "pytest"), "#!"+outside+"/python3.12\nimport os\n")
		}, pyTool, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sb, err := filepath.EvalSymlinks(t.TempDir())
			require.NoError(t, err)
			bin := filepath.Join(sb, ".venv", "bin")
			require.NoError(t, os.MkdirAll(bin, 0o755))
			p := tc.make(bin)
			assert.Equal(t, tc.own, environmentsOwn(sb, bin, p, tc.other))
		})
	}
}

// TestPythonName: the names of Python interpreters.
func TestPythonName(t *testing.T) {
	for name, want := range map[string]bool{
		"python": true, "python3": true, "python3.12": true, "python3.13t": true, "pypy3.10": true,
		"python3-config": false, "pythonista": false, "ls": false, "py": false, "python3.12-gdb.py": false,
	} {
		assert.Equal(t, want, pythonName(name), name)
	}
}
