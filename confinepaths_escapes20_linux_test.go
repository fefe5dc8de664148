package sandboxauth

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/confine"
)

// plantGit20 is a payload that puts a program named git in dir (relative
// to the sandbox) which creates marker and then runs the real git.
func plantGit20(t *testing.T, dir, marker string) string {
	t.Helper()
	real, err := exec.LookPath("git")
	require.NoError(t, err)
	return "mkdir -p " + dir + " && printf '#!/bin/sh\\ntouch " + marker + "\\nexec " + real + " \"$@\"\\n' > " + dir + "/git && chmod +x " + dir + "/git"
}

// runProtected20 runs script confined in sb under ProtectConfinement's
// policy (the quarantine judges after it) and returns its output.
func runProtected20(t *testing.T, sb, script string) string {
	t.Helper()
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	out, err := runConfined(shIn(sb, script), p)
	t.Logf("payload: %v %s", err, out)
	return out
}

// laterGit20 runs `git status` by name in sb, unconfined, with path as
// PATH, as the user's shell does later.
func laterGit20(sb, path string) {
	cmd := exec.Command("/bin/sh", "-c", "git status >/dev/null 2>&1")
	cmd.Dir = sb
	cmd.Env = append(os.Environ(), "PATH="+path)
	_, _ = cmd.CombinedOutput()
}

// TestEscape20RelativePathEntry (round 20): pathShadows skips the PATH
// entries that are not absolute ("a relative entry names whatever the
// working directory holds"). That is exactly the danger: with
// PATH=.venv/bin:... (or node_modules/.bin, ./bin, "." or an empty entry,
// which users and direnv-like tools put there), every program the command
// puts in that directory of the sandbox runs in place of the system's
// whenever the user types its name in the project.
//
//	PATH:    .venv/bin:/usr/local/bin:/usr/bin:/bin
//	payload: printf '#!/bin/sh\ntouch ~/v/pwned\nexec /usr/bin/git "$@"\n' > .venv/bin/git; chmod +x .venv/bin/git
//	user:    git status   (in the project)
//
// Verified with sandboxauth run as root and as sbtest: .venv/bin/git is
// not moved aside, and the user's git status made the marker.
func TestEscape20RelativePathEntry(t *testing.T) {
	sb := escapeSandbox(t)
	require.NoError(t, os.MkdirAll(filepath.Join(sb, ".venv", "bin"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(sb, ".venv", "bin", "activate"), []byte("# venv\n"), 0o644))
	marker := homeMarker(t)
	path := ".venv/bin" + string(os.PathListSeparator) + os.Getenv("PATH")
	t.Setenv("PATH", path)
	runProtected20(t, sb, plantGit20(t, ".venv/bin", marker))
	laterGit20(sb, path)
	assert.NoFileExists(t, marker, "a git the confined command planted in .venv/bin (a relative PATH entry) ran unconfined")
}

// TestEscape20PathDirectoryActivatedLater (round 20): pathShadows looks at
// the PATH of the process that confines, at the time of the run. The
// agent (or the hook) rarely has the project's virtual environment
// activated; the user's terminal has it, or activates it later (source
// .venv/bin/activate, direnv, poetry shell, an editor's terminal). What
// the command put in .venv/bin is then on the user's PATH before
// /usr/bin, and nothing judged it.
//
//	PATH (run):  /usr/local/bin:/usr/bin:/bin
//	payload:     printf '#!/bin/sh\ntouch ~/v/pwned\nexec /usr/bin/git "$@"\n' > .venv/bin/git; chmod +x .venv/bin/git
//	user:        . .venv/bin/activate; git status
//
// Verified with sandboxauth run as root and as sbtest: the marker was made.
func TestEscape20PathDirectoryActivatedLater(t *testing.T) {
	sb := escapeSandbox(t)
	venvBin := filepath.Join(sb, ".venv", "bin")
	require.NoError(t, os.MkdirAll(venvBin, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(venvBin, "activate"), []byte("# venv\n"), 0o644))
	marker := homeMarker(t)
	runProtected20(t, sb, plantGit20(t, ".venv/bin", marker))
	laterGit20(sb, venvBin+string(os.PathListSeparator)+os.Getenv("PATH"))
	assert.NoFileExists(t, marker, "a git the confined command planted in .venv/bin ran unconfined once the user activated the environment")
}

var _ = strings.Contains
