package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// venvProject returns a confined project with a virtual environment
// made by python3 -m venv (without pip), and the environment the agent
// and the user have with it activated, pathFirst after it.
func venvProject(t *testing.T, pathFirst ...string) (confinedProject, string, []string) {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skipf("python3 is not installed: %v", err)
	}
	c := newConfinedProject(t)
	venvBin := filepath.Join(c.project, ".venv", "bin")
	b, err := exec.Command(python, "-m", "venv", "--without-pip", filepath.Dir(venvBin)).CombinedOutput()
	require.NoError(t, err, "%s", b)
	path := strings.Join(append(append([]string{venvBin}, pathFirst...), os.Getenv("PATH")), string(os.PathListSeparator))
	return c, venvBin, c.env(t, "PATH="+path, "VIRTUAL_ENV="+filepath.Dir(venvBin))
}

// TestHookConfineVenvInterpreterLinkToAnotherProgram (round 25b, found
// attacking the fix): the environment's python3, relinked by the command
// to make, is not the environment's own: the user's next python3 with the
// environment active would run the Makefile's recipe unconfined.
// Verified with the hook's rewrite run by bash as root.
func TestHookConfineVenvInterpreterLinkToAnotherProgram(t *testing.T) {
	makePath, err := exec.LookPath("make")
	if err != nil {
		t.Skipf("make is not installed: %v", err)
	}
	makePath, err = filepath.EvalSymlinks(makePath)
	require.NoError(t, err)
	c, _, env := venvProject(t)
	mark := filepath.Join(c.outside, "PWNED")
	script := "#!/bin/sh\nln -sf " + makePath + " .venv/bin/python3 && printf 'all:\\n\\t@touch " + mark + "\\n' > Makefile\n"
	require.NoError(t, os.WriteFile(filepath.Join(c.project, "p.sh"), []byte(script), 0o755))

	out, rc := hookRunFrom(t, c, env, c.project, "./p.sh")
	require.Equal(t, 0, rc, "output: %s", out)

	later := exec.Command("sh", "-c", "python3 -c 1")
	later.Dir, later.Env = c.project, env
	_, _ = later.CombinedOutput()
	assert.NoFileExists(t, mark, "python3 relinked to make by the confined command ran the Makefile unconfined")
}

// TestHookConfineVenvPipKept (round 25b, a false positive the fix must
// not make): pip installed confined into the environment (python3 -m
// ensurepip, as python3 -m venv does) is the environment's own and stays,
// though the user's pip, a version manager's shim, is a shell script.
func TestHookConfineVenvPipKept(t *testing.T) {
	shims := filepath.Join(t.TempDir(), "shims")
	require.NoError(t, os.MkdirAll(shims, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(shims, "pip3"), []byte("#!/usr/bin/env bash\nexec false\n"), 0o755))
	c, venvBin, env := venvProject(t, shims)
	if err := exec.Command(filepath.Join(venvBin, "python3"), "-c", "import ensurepip").Run(); err != nil {
		t.Skipf("this python3 has no ensurepip: %v", err)
	}
	require.NoError(t, os.WriteFile(filepath.Join(c.project, "p.sh"), []byte("#!/bin/sh\n.venv/bin/python3 -m ensurepip --default-pip\n"), 0o755))
	out, rc := hookRunFrom(t, c, env, c.project, "./p.sh")
	require.Equal(t, 0, rc, "output: %s", out)
	assert.FileExists(t, filepath.Join(venvBin, "pip3"), "the environment's pip3 was moved aside")
	later := exec.Command("sh", "-c", "pip3 --version")
	later.Dir, later.Env = c.project, env
	b, err := later.CombinedOutput()
	require.NoError(t, err, "%s", b)
	assert.Contains(t, string(b), filepath.Dir(venvBin))
}
