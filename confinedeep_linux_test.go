package sandboxauth

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/confine"
)

// TestQuarantineDeepRepositories: the quarantine's scan of the whole
// sandbox after the run moves aside what git would obey in a repository
// deeper than the walk when it changed while the command ran, whether
// the command made the repository or found it there, and leaves a
// repository the command only used. Each case runs git in the deep
// directory afterwards, as the user's terminal or editor would.
func TestQuarantineDeepRepositories(t *testing.T) {
	deep := filepath.Join("a", "b", "c", "d", "e")
	fsmonitor := func(marker string) string {
		return `printf '[core]\n\tfsmonitor = "touch ` + marker + `; false"\n' >> .git/config`
	}
	for _, tc := range []struct {
		name    string
		before  bool // the deep repository exists before the run
		script  func(marker string) string
		escaped string // what the user's git in the deep directory must not do
	}{
		{"a new nested repository", false, func(m string) string {
			return "cd " + deep + " && git init -q && " + fsmonitor(m)
		}, "ran the fsmonitor of a repository the command made five levels down"},
		{"the user's repository, its configuration changed", true, func(m string) string {
			return "cd " + deep + " && " + fsmonitor(m)
		}, "ran the fsmonitor the command added to the user's repository five levels down"},
		{"the user's repository, a hook added", true, func(m string) string {
			return "cd " + deep + ` && printf '#!/bin/sh\ntouch ` + m + `\n' > .git/hooks/post-checkout && chmod +x .git/hooks/post-checkout`
		}, "ran the hook the command added to the user's repository five levels down"},
		{"a configuration included from elsewhere, changed", true, func(m string) string {
			return `printf '[core]\n\tfsmonitor = "touch ` + m + `; false"\n' > inc.cfg`
		}, "ran the fsmonitor of a file that the user's deep repository includes"},
		{"a legacy remote added", true, func(m string) string {
			return "git init -q --bare .git/x && printf '#!/bin/sh\\ntouch " + m + "\\n' > .git/x/hooks/pre-receive && chmod +x .git/x/hooks/pre-receive && " +
				"cd " + deep + ` && mkdir -p .git/remotes && printf 'URL: %s\nPush: HEAD:refs/heads/x\n' "$OLDPWD/.git/x" > .git/remotes/origin`
		}, "pushed to a remote the command defined in the user's deep repository and ran its hook"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sb := escapeSandbox(t)
			dir := filepath.Join(sb, deep)
			require.NoError(t, os.MkdirAll(dir, 0o755))
			if tc.before {
				userGit(t, dir, "init", "-q")
				userGit(t, dir, "commit", "-q", "--allow-empty", "-m", "x")
				userGit(t, dir, "config", "include.path", filepath.Join(sb, "inc.cfg"))
				// What changed in the second before the policy was made
				// counts as the command's.
				time.Sleep(1100 * time.Millisecond)
			}
			marker := homeMarker(t)
			p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
			require.NoError(t, err)
			cmd := exec.Command("/bin/sh", "-c", "set -e; "+tc.script(marker))
			cmd.Dir = sb
			cmd.Env = append(os.Environ(), gitEnv...)
			out, err := runConfined(cmd, p)
			require.NoError(t, err, out)

			t.Logf("git status: %s", userGit(t, dir, "status", "--short"))
			t.Logf("git checkout: %s", userGit(t, dir, "checkout", "-q", "-b", "y"))
			t.Logf("git push: %s", userGit(t, dir, "push", "-q"))
			assert.NoFileExists(t, marker, "git in the deep directory %s", tc.escaped)
		})
	}
}

// TestQuarantineDeepRepositoryUsed: a repository of the user's deeper than
// the walk, which the command used as git does (status, add, commit),
// keeps its configuration and hooks: only what changed is moved aside.
func TestQuarantineDeepRepositoryUsed(t *testing.T) {
	sb := escapeSandbox(t)
	dir := filepath.Join(sb, "a", "b", "c", "d", "e")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	userGit(t, dir, "init", "-q")
	userGit(t, dir, "config", "user.name", "u")
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".git", "hooks", "pre-commit"), []byte("#!/bin/sh\nexit 0\n"), 0o755))
	// What changed in the second before the policy was made counts as the
	// command's (file systems stamp change times from a coarse clock).
	time.Sleep(1100 * time.Millisecond)
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	cmd := exec.Command("/bin/sh", "-c", "set -e; cd a/b/c/d/e && echo x > f && git status -s && git add f && git commit -q -m f")
	cmd.Dir = sb
	cmd.Env = append(os.Environ(), gitEnv...)
	out, err := runConfined(cmd, p)
	require.NoError(t, err, out)
	assert.FileExists(t, filepath.Join(dir, ".git", "config"))
	assert.FileExists(t, filepath.Join(dir, ".git", "hooks", "pre-commit"))
	assert.Contains(t, userGit(t, dir, "log", "--oneline"), "f")
}

// BenchmarkDeepScan: the quarantine's scan of every directory of the
// sandbox (it runs before and after each confined command), on a project
// of 7,381 directories (a node_modules-sized tree, four levels of
// fan-out), beside filepath.WalkDir of the same tree (the least any scan
// of every directory costs).
func BenchmarkDeepScan(b *testing.B) {
	sb := b.TempDir()
	var mk func(dir string, depth int)
	mk = func(dir string, depth int) {
		if depth == 0 {
			require.NoError(b, os.WriteFile(filepath.Join(dir, "index.js"), nil, 0o644))
			return
		}
		for i := 0; i < 9; i++ {
			d := filepath.Join(dir, string(rune('a'+i)))
			require.NoError(b, os.MkdirAll(d, 0o755))
			mk(d, depth-1)
		}
	}
	mk(filepath.Join(sb, "node_modules"), 4) // 9+81+729+6561 directories
	b.Run("WalkDir", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			n := 0
			_ = filepath.WalkDir(sb, func(_ string, d os.DirEntry, _ error) error {
				if d.IsDir() {
					n++
				}
				return nil
			})
		}
	})
	b.Run("scanDeep", func(b *testing.B) {
		c := newConfinePaths(sb, nil, &confine.Policy{Placeholders: map[string]string{}})
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if s := c.scanDeep(scanAfter); len(s.gitDirs) != 0 || len(s.unreadable) != 0 {
				b.Fatal(s)
			}
		}
	})
}

// TestQuarantineRestoredByALaterRun: a repository the quarantine moved
// aside after one run, renamed back by the next (a rename keeps its
// identity and its files' change times, and the next run's scan sees it
// before its command starts), is moved aside again: the ledger of what
// was moved aside marks it new wherever it lies.
func TestQuarantineRestoredByALaterRun(t *testing.T) {
	sb := committedSandbox(t)
	marker := homeMarker(t)
	d := filepath.Join("a", "b", "c", "d", "e")
	run := func(script string) {
		p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
		require.NoError(t, err)
		cmd := exec.Command("/bin/sh", "-c", "set -e; "+script)
		cmd.Dir = sb
		cmd.Env = append(os.Environ(), gitEnv...)
		out, err := runConfined(cmd, p)
		require.NoError(t, err, out)
	}
	run("mkdir -p " + d + " && git init -q " + d + ` && printf '[core]\n\tfsmonitor = "touch ` + marker + `; false"\n' >> ` + d + "/.git/config")
	_, err := os.Stat(filepath.Join(sb, d, ".git"))
	require.True(t, os.IsNotExist(err), "the first run's repository is moved aside")
	time.Sleep(1100 * time.Millisecond) // the next policy is newer than every change
	run("mv " + d + "/.git.sandboxauth-quarantine* " + d + "/.git")
	t.Logf("git status: %s", userGit(t, filepath.Join(sb, d), "status", "--short"))
	assert.NoFileExists(t, marker, "the repository brought back by the second run ran its fsmonitor")
}
