package sandboxauth

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/confine"
)

// TestFPGoBuildInGitRepository (round 22a): go build of a main package,
// confined in a git repository, failed with "multiple VCS detected: hg
// and git": the placeholder that keeps .hg/hgrc from being made was a
// directory .hg, which the Go command takes for a Mercurial repository
// beside git's. It is now a file .hg, which Go and Mercurial pass over,
// and hg init still cannot make a repository there.
func TestFPGoBuildInGitRepository(t *testing.T) {
	for _, prog := range []string{"go", "git"} {
		if _, err := exec.LookPath(prog); err != nil {
			t.Skipf("%s is not installed", prog)
		}
	}
	sb := escapeSandbox(t)
	gitIn(t, sb, "init", "-q")
	require.NoError(t, os.WriteFile(filepath.Join(sb, "go.mod"), []byte("module example.com/app\n\ngo 1.21\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(sb, "main.go"), []byte("package main\n\nfunc main() { println(\"built\") }\n"), 0o644))
	gitIn(t, sb, "add", "-A")
	gitIn(t, sb, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "x")

	cmd := shIn(sb, "go build -o app . && ./app && { mkdir .hg 2>/dev/null && echo made .hg || echo no .hg; }")
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off")
	out := &strings.Builder{}
	cmd.Stdout, cmd.Stderr = out, out
	require.NoError(t, confine.Run(cmd, protectedPolicy(t, sb)), "%s", out)
	assert.Contains(t, out.String(), "built")
	assert.Contains(t, out.String(), "no .hg", "the command made a Mercurial directory, whose hgrc would run later")
	_, err := os.Lstat(filepath.Join(sb, ".hg"))
	assert.True(t, os.IsNotExist(err), "the placeholder outlived the run")
}

// TestRefusedRunLeavesNoBaseline: a run that confinement refuses (here a
// .yarnrc.yml it cannot read makes the whole sandbox read-only) began its
// sandbox's group of runs and left the group's baseline behind; the next
// run judged against it and moved aside the .yarnrc.yml the user had
// rewritten meanwhile.
func TestRefusedRunLeavesNoBaseline(t *testing.T) {
	sb := escapeSandbox(t)
	yarnrc := filepath.Join(sb, ".yarnrc.yml")
	require.NoError(t, os.WriteFile(yarnrc, []byte("{yarnPath: .yarn/releases/yarn.cjs}\n"), 0o644))
	err := confine.Run(shIn(sb, "true"), protectedPolicy(t, sb))
	require.ErrorIs(t, err, confine.ErrUnsafePolicy, "a .yarnrc.yml in flow style is not read, and the sandbox is kept read-only whole")

	const fixed = "yarnPath: .yarn/releases/yarn.cjs\n"
	require.NoError(t, os.WriteFile(yarnrc, []byte(fixed), 0o644)) // the user's own edit
	time.Sleep(200 * time.Millisecond)                             // well after the refused run
	out := &strings.Builder{}
	cmd := shIn(sb, "true")
	cmd.Stdout, cmd.Stderr = out, out
	require.NoError(t, confine.Run(cmd, protectedPolicy(t, sb)), "%s", out)
	b, err := os.ReadFile(yarnrc)
	require.NoError(t, err, "the user's .yarnrc.yml was moved aside: %v", quarantined(t, sb))
	assert.Equal(t, fixed, string(b))
}

// TestOverlappingRunsShareTheHgPlaceholder: while one run of a sandbox
// holds the file .hg (its placeholder), a run beginning beside it keeps
// .hg itself, as its own placeholder, instead of taking it for a
// repository and keeping .hg/hgrc through it, which a file cannot hold:
// when the first run ended meanwhile, the second failed to start ("was
// renamed or removed outside while the sandbox was being made"), one
// time in fifteen of TestRunGroupManyAtOnce under -race. Here the two
// overlap without that timing: the second runs, cannot make .hg, and
// the placeholder is gone after both.
func TestOverlappingRunsShareTheHgPlaceholder(t *testing.T) {
	sb := escapeSandbox(t)
	first := shIn(sb, "touch started; while [ ! -e stop ]; do sleep 0.05; done")
	require.NoError(t, confine.Start(first, protectedPolicy(t, sb)))
	done := make(chan error, 1)
	go func() { done <- first.Wait() }()
	require.Eventually(t, func() bool {
		_, err := os.Stat(filepath.Join(sb, "started"))
		return err == nil
	}, time.Minute, 10*time.Millisecond)
	fi, err := os.Lstat(filepath.Join(sb, ".hg"))
	require.NoError(t, err, "the first run's placeholder")
	require.True(t, fi.Mode().IsRegular(), "the placeholder is a file")

	out, err := runConfined(shIn(sb, "mkdir .hg 2>/dev/null && echo made .hg || echo no .hg"), protectedPolicy(t, sb))
	assert.NoError(t, err, "%s", out)
	assert.Contains(t, out, "no .hg")
	require.NoError(t, os.WriteFile(filepath.Join(sb, "stop"), nil, 0o644))
	require.NoError(t, <-done)
	assert.NoFileExists(t, filepath.Join(sb, ".hg"), "the placeholder outlived the runs")
}
