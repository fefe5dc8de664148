package confine

// Escapes found by red-teaming confine: each test asserts that the escape
// does NOT happen, and fails while it does. See the report in the commit
// message for the payloads as run through `sandboxauth run`.

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// init lets the test binary double as the escape helpers (before TestMain,
// so that helpers_linux_test.go's switch needs no change).
func init() {
	how := os.Getenv("CONFINE_ESCAPE_HELPER")
	if how == "" {
		return
	}
	err := escapeHelper(how, os.Args[1:])
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", how, err)
		os.Exit(3)
	}
	fmt.Fprintf(os.Stderr, "%s: ok\n", how)
	os.Exit(0)
}

func escapeHelper(how string, args []string) error {
	switch how {
	case "exchange":
		// Swap two names (a real directory and a symbolic link) as fast
		// as possible for the given time.
		d, err := time.ParseDuration(args[2])
		if err != nil {
			return err
		}
		end := time.Now().Add(d)
		for time.Now().Before(end) {
			_ = unix.Renameat2(unix.AT_FDCWD, args[0], unix.AT_FDCWD, args[1], unix.RENAME_EXCHANGE)
		}
		return nil
	case "run-confined":
		// Run a shell script confined to the sandbox args[0], in it.
		cmd := exec.Command("/bin/sh", "-c", args[1])
		cmd.Dir = args[0]
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		return Run(cmd, Policy{Sandbox: args[0]})
	}
	return fmt.Errorf("unknown escape helper %q", how)
}

// TestEscapePinSymlinkRace: two confined runs of one sandbox at once. The
// first swaps, with renameat2(RENAME_EXCHANGE) in a loop, a real directory
// "a" (holding a nested repository's .git/config, which the second run's
// policy keeps read-only, pinning "a" and "a/.git" with read-WRITE bind
// mounts) with a relative symbolic link "b" to a repository of the user's
// outside the sandbox. The second run checks that "a" is no link
// (addReadOnly), then bubblewrap mounts "--bind a a" following the link
// that is now there: the outside repository is bind-mounted writable onto
// itself in the second run's view. Its command writes there: a file, and
// .git/hooks/pre-commit, which runs unconfined at the user's next commit
// in that repository. Verified with `sandboxauth run` (the walk of
// ProtectConfinement finds a/.git and adds a/.git/config): 5 escapes in
// 40 runs, 3 of which planted the hook. Bind sources are now descriptors
// opened with no symbolic link on the way, so the mount is what was
// checked or the start is refused.
func TestEscapePinSymlinkRace(t *testing.T) {
	sb, _, _ := dirs(t)
	victim := victimDir(t)
	require.NoError(t, os.MkdirAll(filepath.Join(victim, ".git", "hooks"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(victim, ".git", "config"), []byte("[core]\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(sb, "a", ".git"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(sb, "a", ".git", "config"), []byte("[core]\n"), 0o644))
	rel, err := filepath.Rel(sb, victim)
	require.NoError(t, err)
	require.NoError(t, os.Symlink(rel, filepath.Join(sb, "b")))

	swapper := exec.Command(testBinary(t), "a", "b", "60s")
	swapper.Env = append(os.Environ(), "CONFINE_ESCAPE_HELPER=exchange")
	swapper.Dir = sb
	ended := make(chan struct{})
	require.NoError(t, Start(swapper, Policy{Sandbox: sb, AfterExit: func() { close(ended) }}))
	defer func() {
		// The signal ends the sandbox; AfterExit tells when it is gone.
		_ = swapper.Process.Signal(unix.SIGTERM)
		_ = swapper.Wait()
		<-ended
	}()
	time.Sleep(200 * time.Millisecond)

	// The second run's policy, as ProtectConfinement's walk makes it
	// when it finds the nested repository "a".
	p := Policy{Sandbox: sb, ReadOnly: []string{filepath.Join(sb, "a", ".git", "config")}}
	marker := filepath.Join(victim, "PWNED")
	script := "touch " + marker + " && printf '#!/bin/sh\\necho hook\\n' > " + filepath.Join(victim, ".git", "hooks", "pre-commit")
	escaped := 0
	deadline := time.Now().Add(5 * time.Second)
	for i := 0; escaped == 0 && time.Now().Before(deadline); i++ {
		cmd := exec.Command("/bin/sh", "-c", script)
		cmd.Dir = sb
		err := Run(cmd, p)
		if errors.Is(err, ErrUnavailable) {
			t.Fatal(err)
		}
		if _, err := os.Stat(marker); err == nil {
			escaped = i + 1
		}
	}
	assert.Zero(t, escaped, "run %d of the second command wrote outside the sandbox, into %s", escaped, victim)
	assert.NoFileExists(t, marker)
}

// TestEscapeCredentialsNotHidden: DefaultPolicy hides a list of known
// credential places; these well-known ones are not on it and are read.
func TestEscapeCredentialsNotHidden(t *testing.T) {
	requireConfinement(t)
	home := fakeHome(t)
	t.Setenv("GOCACHE", filepath.Join(home, ".cache", "go-build"))
	secrets := map[string]string{
		".pgpass":                      "db:5432:*:user:PGSECRET",
		".my.cnf":                      "[client]\npassword=MYSQLSECRET",
		".terraformrc":                 `credentials "app.terraform.io" { token = "TFSECRET" }`,
		".config/containers/auth.json": `{"auths":{"r":{"auth":"PODMANSECRET"}}}`,
		".cache/huggingface/token":     "hf_SECRET",
		".yarnrc.yml":                  "npmAuthToken: YARNSECRET",
		".config/composer/auth.json":   `{"github-oauth":{"github.com":"COMPOSERSECRET"}}`,
	}
	assertSecretsHidden(t, home, secrets)
}

// TestEscapeOutsideFIFO: a read-only mount stops writes to regular files,
// not to FIFOs: the command writes into a named pipe outside the sandbox,
// which an outside program reads (a player's or an editor's command FIFO,
// a shell tool's control pipe: `mpv --input-file`, `kak -p`, nnn's
// NNN_FIFO). Only UNIX sockets are masked.
//
// Payload: echo "run evil-command" > ~/victim/ctl.fifo
//
// The helper's Landlock domain refuses opening it for writing.
func TestEscapeOutsideFIFO(t *testing.T) {
	sb, outside, p := dirs(t)
	fifo := filepath.Join(outside, "ctl.fifo")
	require.NoError(t, unix.Mkfifo(fifo, 0o600))
	got := make(chan string, 1)
	go func() {
		f, err := os.OpenFile(fifo, os.O_RDONLY, 0)
		if err != nil {
			return
		}
		defer f.Close()
		b := make([]byte, 64)
		n, _ := f.Read(b)
		got <- string(b[:n])
	}()
	out, _ := sh(t, p, sb, "echo 'run evil-command' > "+fifo)
	t.Log(out)
	select {
	case s := <-got:
		assert.Empty(t, s, "an outside reader of a FIFO got %q from the confined command", s)
	case <-time.After(2 * time.Second):
		// Unblock the reader.
		if f, err := os.OpenFile(fifo, os.O_WRONLY|unix.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	}
}

// TestEscapeSandboxThroughPlantedSymlink: one confined run replaces a
// subdirectory of its sandbox with a symbolic link to a directory outside
// (ln -s ../../victim pkg). The next run whose sandbox is that
// subdirectory (the agent cds into pkg and runs `sandboxauth run -- ...`,
// whose default sandbox is the current directory, logical path) has its
// Sandbox resolved through the link: the outside directory is the
// writable sandbox. Verified with the CLI:
//
//	cd SB && sandboxauth run -- ./plant.sh    # ln -s ../victim pkg
//	cd SB/pkg && sandboxauth run -- sh -c 'echo pwned > PWNED'   # allowed, writes ~/victim/PWNED
//
// A sandbox reached through a symbolic link below the top level is now
// refused.
func TestEscapeSandboxThroughPlantedSymlink(t *testing.T) {
	_, outside, _ := dirs(t)
	sb := victimDir(t) // the project, under the home directory (visible, read-only, to run 2)
	p := Policy{Sandbox: sb}
	rel, err := filepath.Rel(sb, outside)
	require.NoError(t, err)
	out, err := sh(t, p, sb, "ln -s "+rel+" pkg")
	require.NoError(t, err, out)

	sub := filepath.Join(sb, "pkg")
	cmd := exec.Command("/bin/sh", "-c", "echo pwned > PWNED")
	cmd.Dir = sub
	out, err = runCmd(t, cmd, Policy{Sandbox: sub})
	t.Log(out, err)
	assert.NoFileExists(t, filepath.Join(outside, "PWNED"), "a sandbox reached through a link the previous run planted was outside")
}

// TestEscapeMountPropagation: bubblewrap makes the view's mounts slaves of
// the system's, so a file system mounted after the command started (a USB
// drive automounted under /media/$USER, sshfs or rclone under $HOME, an
// autofs/NFS home) appears in the view with its own flags: read-write,
// not read-only like the rest of "/". On systemd machines "/" is a shared
// mount, so this is the default. (This test makes "/" shared in a mount
// namespace of its own, as systemd does for the whole system, and needs
// root for that.)
//
// Payload: while :; do echo pwned > ~/mnt/PWNED && break; sleep 0.1; done
//
// The helper's Landlock domain, which allows writes only beneath the
// writable places by path, stops it.
func TestEscapeMountPropagation(t *testing.T) {
	sb, _, _ := dirs(t)
	if os.Geteuid() != 0 {
		t.Skip("making / a shared mount in a mount namespace of its own needs root")
	}
	mnt := victimDir(t)
	payload := "for i in $(seq 1 40); do echo pwned > " + mnt + "/PWNED 2>/dev/null && exit 0; sleep 0.1; done; exit 1"
	script := `set -e
mount --make-rshared /
CONFINE_ESCAPE_HELPER=run-confined "$0" "$1" "$2" &
sleep 1
mount -t tmpfs -o size=1m confine-escape "$3"
wait $! || true
cat "$3/PWNED" 2>/dev/null || true
umount "$3"`
	cmd := exec.Command("unshare", "-m", "--propagation", "unchanged", "sh", "-c", script, testBinary(t), sb, payload, mnt)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.NotContains(t, string(out), "pwned", "the confined command wrote into a file system mounted after it started")
}
