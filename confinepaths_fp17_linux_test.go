package sandboxauth

import (
	"io"
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

// Round 17's false positives: what the placeholders of missing protected
// paths did to everyday work inside the confinement.

// TestFPGitAddAllStagesPlaceholders: `git add -A` inside the confinement
// staged the placeholders of the missing protected files (.npmrc, .yarnrc,
// bunfig.toml, .env, ...), and the commit recorded them; outside, once
// they were removed, the user saw them deleted. git is now shown an
// info/exclude naming them, the real one unchanged, with the user's own
// patterns kept, and made as a placeholder where missing.
func TestFPGitAddAllStagesPlaceholders(t *testing.T) {
	ownExclude := "# user's\n*.log"
	for _, tc := range []struct {
		name string
		own  *string // the repository's info/exclude; nil: no info directory
	}{
		{"own exclude", &ownExclude},
		{"no info directory", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sb := escapeSandbox(t)
			fpRepo(t, sb)
			info := filepath.Join(sb, ".git", "info")
			require.NoError(t, os.RemoveAll(info))
			if tc.own != nil {
				require.NoError(t, os.Mkdir(info, 0o755))
				require.NoError(t, os.WriteFile(filepath.Join(info, "exclude"), []byte(*tc.own), 0o644))
				require.NoError(t, os.WriteFile(filepath.Join(sb, "x.log"), []byte("log\n"), 0o644))
			}
			time.Sleep(1100 * time.Millisecond)

			cmd := shIn(sb, `set -e
echo y > g
git status --porcelain --untracked-files=all
git add -A
git commit -qm y
git show --name-only --format= HEAD`)
			out := &strings.Builder{}
			cmd.Stdout, cmd.Stderr = out, out
			require.NoError(t, confine.Run(cmd, protectedPolicy(t, sb)), "%s", out)
			assert.Equal(t, "?? g\ng\n", out.String(), "git saw placeholders (or the user's own excluded file)")
			assert.Empty(t, quarantined(t, sb))
			if tc.own != nil {
				b, err := os.ReadFile(filepath.Join(info, "exclude"))
				require.NoError(t, err)
				assert.Equal(t, *tc.own, string(b), "the real info/exclude changed")
			} else {
				assert.NoDirExists(t, info, "the placeholder info/exclude is left behind")
			}
			for _, name := range []string{".npmrc", ".yarnrc", "bunfig.toml", ".env", ".cargo"} {
				assert.NoFileExists(t, filepath.Join(sb, name), "placeholder left behind")
				assert.NoDirExists(t, filepath.Join(sb, name), "placeholder left behind")
			}
		})
	}
}

// TestFPMissingEnvReadsAsNothing: a confined program reading a missing
// .env got "Is a directory" (its placeholder was an empty directory), and
// dotenv loaders stopped. It now reads as an empty file (yarn reads a
// missing .npmrc so), a copy: what the user writes into the placeholder
// while the command runs stays out of its sight. What the user writes into the placeholder while the command runs
// (as root, the placeholder's mode does not stop the write) stays hidden
// from the command, and is kept after the run.
func TestFPMissingEnvReadsAsNothing(t *testing.T) {
	sb := escapeSandbox(t)
	fpRepo(t, sb)
	time.Sleep(1100 * time.Millisecond)

	cmd := shIn(sb, `if [ -f .env ]; then echo "a file"; fi
cat .env; echo "read"
read -r _
cat .env; cat .npmrc; echo "end"`)
	in, err := cmd.StdinPipe()
	require.NoError(t, err)
	out := &lockedOutput{}
	cmd.Stdout, cmd.Stderr = out, out
	require.NoError(t, confine.Start(cmd, protectedPolicy(t, sb)))
	require.Eventually(t, func() bool { return strings.Contains(out.String(), "read\n") }, 10*time.Second, 10*time.Millisecond, "%s", out)
	env := filepath.Join(sb, ".env")
	if f, err := os.OpenFile(env, os.O_WRONLY|os.O_TRUNC, 0); err == nil {
		_, _ = io.WriteString(f, "SECRET=1\n")
		require.NoError(t, f.Close())
	}
	require.NoError(t, os.WriteFile(filepath.Join(sb, ".npmrc"), []byte("//registry/:_authToken=SECRET\n"), 0o600), "the user saves .npmrc by rename or in place")
	in.Close()
	require.NoError(t, cmd.Wait(), "%s", out)
	assert.Equal(t, "a file\nread\nend\n", out.String())
	// Kept: in place, or moved aside by the quarantine, which takes a
	// protected file changed while the command ran for the command's.
	kept := quarantined(t, sb)
	if _, err := os.Stat(filepath.Join(sb, ".npmrc")); err == nil {
		kept = append(kept, filepath.Join(sb, ".npmrc"))
	}
	found := false
	for _, k := range kept {
		b, err := os.ReadFile(k)
		require.NoError(t, err)
		found = found || strings.Contains(string(b), "_authToken=SECRET")
	}
	assert.True(t, found, "the user's .npmrc was removed with the placeholders: %v", kept)
}

// TestFPCargoConfigToml: with a project's .cargo/config.toml and no
// .cargo/config, the placeholder of the missing .cargo/config (an empty
// file) was read by cargo in its place: cargo warned that both exist and
// ignored the project's configuration. .cargo is now kept read-only
// whole.
func TestFPCargoConfigToml(t *testing.T) {
	if _, err := exec.LookPath("cargo"); err != nil {
		t.Fatal("cargo is needed for this test")
	}
	sb := escapeSandbox(t)
	require.NoError(t, os.MkdirAll(filepath.Join(sb, ".cargo"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(sb, ".cargo", "config.toml"), []byte("[alias]\nsbxx = \"version\"\n"), 0o644))
	time.Sleep(1100 * time.Millisecond)

	cmd := shIn(sb, "cargo sbxx; touch .cargo/config 2>/dev/null && echo created; true")
	out := &strings.Builder{}
	cmd.Stdout, cmd.Stderr = out, out
	require.NoError(t, confine.Run(cmd, protectedPolicy(t, sb)), "%s", out)
	assert.True(t, strings.HasPrefix(out.String(), "cargo "), "the project's alias was not read: %s", out)
	assert.NotContains(t, out.String(), "warning")
	assert.NotContains(t, out.String(), "created")
	assert.NoFileExists(t, filepath.Join(sb, ".cargo", "config"))
}

// TestFPTrackedEnvCommitAll: a .env the repository tracks was hidden (a
// device in its place), and `git commit -am` stopped on it ("can only add
// regular files"). One that holds what the repository stores is readable
// anyway (git show :.env) and is no longer hidden; one with local changes
// stays hidden, and its local content is neither read nor committed.
func TestFPTrackedEnvCommitAll(t *testing.T) {
	sb := escapeSandbox(t)
	fpRepo(t, sb)
	require.NoError(t, os.WriteFile(filepath.Join(sb, ".env"), []byte("PORT=1\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(sb, ".env.local"), []byte("KEY=template\n"), 0o644))
	fpGit(t, sb, "add", "-f", ".env", ".env.local")
	fpGit(t, sb, "commit", "-qm", "env")
	time.Sleep(1100 * time.Millisecond)

	run := func(script string) string {
		cmd := shIn(sb, script)
		out := &strings.Builder{}
		cmd.Stdout, cmd.Stderr = out, out
		require.NoError(t, confine.Run(cmd, protectedPolicy(t, sb)), "%s", out)
		return out.String()
	}
	out := run("echo y >> f; cat .env .env.local; git commit -qam y && echo committed")
	assert.Equal(t, "PORT=1\nKEY=template\ncommitted\n", out)

	require.NoError(t, os.WriteFile(filepath.Join(sb, ".env.local"), []byte("KEY=SECRET\n"), 0o644))
	time.Sleep(1100 * time.Millisecond)
	out = run("cat .env.local; git add .env.local; git commit -qam z; git show HEAD:.env.local")
	assert.NotContains(t, out, "SECRET")
	assert.Contains(t, out, "KEY=template\n")
	assert.Empty(t, quarantined(t, sb))
}

// TestGitExcludeLinkedRunsStill: where git's info directory or its
// exclude is a link, the confinement does not show an exclude (a link on
// the way to a read-only path is refused), and commands still run.
func TestGitExcludeLinkedRunsStill(t *testing.T) {
	for name, layout := range map[string]string{
		"info is a link":    "mv .git/info .git/info-real && ln -s info-real .git/info",
		"exclude is a link": "mv .git/info/exclude .git/info/ex && ln -s ex .git/info/exclude",
	} {
		t.Run(name, func(t *testing.T) {
			sb := escapeSandbox(t)
			fpRepo(t, sb)
			c := exec.Command("/bin/sh", "-c", layout)
			c.Dir = sb
			out, err := c.CombinedOutput()
			require.NoError(t, err, "%s", out)
			p := protectedPolicy(t, sb)
			assert.Empty(t, p.Shown)
			require.NoError(t, confine.Run(shIn(sb, "git status --short"), p))
		})
	}
}

// TestFPPackageManagersRun: in a project with none of their settings
// files, yarn stopped on the hidden placeholder of .npmrc ("EACCES:
// permission denied, open .npmrc") and pnpm on the directory placeholder
// of pnpm-workspace.yaml ("Is a directory"); both now read empty files.
func TestFPPackageManagersRun(t *testing.T) {
	for _, pm := range []string{"npm", "yarn", "pnpm"} {
		t.Run(pm, func(t *testing.T) {
			if _, err := exec.LookPath(pm); err != nil {
				t.Skipf("%s is not installed", pm)
			}
			sb := escapeSandbox(t)
			require.NoError(t, os.WriteFile(filepath.Join(sb, "package.json"), []byte(`{"name":"fp","version":"1.0.0","license":"MIT","scripts":{"test":"echo tests-ran"}}`), 0o644))
			cmd := shIn(sb, pm+" test")
			out := &strings.Builder{}
			cmd.Stdout, cmd.Stderr = out, out
			require.NoError(t, confine.Run(cmd, protectedPolicy(t, sb)), "%s", out)
			assert.Contains(t, out.String(), "tests-ran")
		})
	}
}

// TestUserGitConfigDuringRunKept: the user's own git config while a
// confined command runs replaces .git/config, which stops the command
// (its read-only mount is gone); the judging after it keeps the user's
// configuration, whose obeyed settings did not change.
func TestUserGitConfigDuringRunKept(t *testing.T) {
	sb := escapeSandbox(t)
	fpRepo(t, sb)
	time.Sleep(1100 * time.Millisecond)
	cmd := shIn(sb, "touch started; i=0; while [ ! -e go ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done")
	out := &lockedOutput{}
	cmd.Stdout, cmd.Stderr = out, out
	require.NoError(t, confine.Start(cmd, protectedPolicy(t, sb)))
	require.Eventually(t, func() bool { _, err := os.Stat(filepath.Join(sb, "started")); return err == nil }, 10*time.Second, 10*time.Millisecond)
	fpGit(t, sb, "config", "user.name", "someone")
	fpGit(t, sb, "remote", "add", "origin", "https://example.invalid/r.git")
	time.Sleep(time.Second) // the watch's kill first (the helper is this binary, slower under -race)
	require.NoError(t, os.WriteFile(filepath.Join(sb, "go"), nil, 0o644))
	require.Error(t, cmd.Wait(), "the command goes on with .git/config writable: %s", out)
	assert.Contains(t, out.String(), "was renamed or removed outside while the command ran")
	assert.Empty(t, quarantined(t, sb))
	assert.Equal(t, "someone\n", fpGit(t, sb, "config", "user.name"))
}

// TestFPLinkedWorktreePlaceholdersUnseen: in a sandbox that is a linked
// worktree, git status listed the placeholders: the repository's
// info/exclude lies in its common directory, outside the sandbox, and was
// not shown. It is now (read-only, outside), and the real one unchanged.
func TestFPLinkedWorktreePlaceholdersUnseen(t *testing.T) {
	requireConfinement(t)
	// Under the home: the command's own /tmp would hide the main
	// checkout.
	home, err := os.UserHomeDir()
	require.NoError(t, err)
	root, err := os.MkdirTemp(home, "fp-worktree-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(root) })
	root, err = filepath.EvalSymlinks(root)
	require.NoError(t, err)
	main := filepath.Join(root, "main")
	fpRepo(t, main)
	wt := filepath.Join(root, "wt")
	fpGit(t, main, "worktree", "add", "-q", wt, "-b", "side")
	exclude := filepath.Join(main, ".git", "info", "exclude")
	own, err := os.ReadFile(exclude)
	require.NoError(t, err)
	time.Sleep(1100 * time.Millisecond)

	cmd := shIn(wt, "echo y > g && git status --porcelain --untracked-files=all")
	out := &strings.Builder{}
	cmd.Stdout, cmd.Stderr = out, out
	require.NoError(t, confine.Run(cmd, protectedPolicy(t, wt)), "%s", out)
	assert.Equal(t, "?? g\n", out.String(), "git in the linked worktree saw placeholders")
	b, err := os.ReadFile(exclude)
	require.NoError(t, err)
	assert.Equal(t, string(own), string(b))
}

// TestFPVenvMadeConfinedKept: a virtual environment made confined lost its
// python links to the quarantine (they shadow the python on PATH, and
// .venv/bin is looked at for planted programs): it is the environment's
// own, kept (round 21).
func TestFPVenvMadeConfinedKept(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	sb := escapeSandbox(t)
	cmd := shIn(sb, "python3 -m venv --without-pip .venv && .venv/bin/python -c 'print(1)'")
	out := &strings.Builder{}
	cmd.Stdout, cmd.Stderr = out, out
	require.NoError(t, confine.Run(cmd, protectedPolicy(t, sb)), "%s", out)
	assert.Empty(t, quarantined(t, sb))
	run := exec.Command(filepath.Join(sb, ".venv", "bin", "python"), "-c", "print(2)")
	b, err := run.CombinedOutput()
	require.NoError(t, err, "%s", b)
	assert.Equal(t, "2\n", string(b))
}
