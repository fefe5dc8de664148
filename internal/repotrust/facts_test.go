package repotrust

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func needGit(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: the repository cases need real repositories")
	}
}

// realTemp returns a temporary directory with symbolic links resolved.
func realTemp(t testing.TB) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	return d
}

// runGit runs git in dir with a clean configuration environment (no
// user or system configuration), and returns its output.
func runGit(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@example.com")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %v: %s", args, out)
	return string(out)
}

func writeFile(t testing.TB, p, text string, mode os.FileMode) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(text), mode))
	require.NoError(t, os.Chmod(p, mode))
}

func appendFile(t testing.TB, p, text string) {
	t.Helper()
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString(text)
	require.NoError(t, err)
	require.NoError(t, f.Close())
}

// newRepo makes a sandbox holding a repository made by git init, with
// one commit.
func newRepo(t testing.TB) string {
	t.Helper()
	sb := realTemp(t)
	runGit(t, sb, "init", "-q", "-b", "main")
	writeFile(t, sb+"/a.txt", "a\n", 0o644)
	runGit(t, sb, "add", "a.txt")
	runGit(t, sb, "commit", "-q", "-m", "one")
	return sb
}

func decideIn(t testing.TB, sb, cwd string, env map[string]string, argv ...string) (bool, string) {
	t.Helper()
	var c Cache
	site := Site{Cwd: cwd, Sandbox: sb, Env: func(n string) (string, bool) { v, ok := env[n]; return v, ok }}
	f, _ := c.Facts(site)
	ok, _, reason := f.Decide(GitCommand(argv), nil)
	return ok, reason
}

// TestRepositoryFamilies: each case is a setup a model could have made
// (or found in a project it was given), then git commands and whether
// each is safe; reason must name the culprit.
func TestRepositoryFamilies(t *testing.T) {
	needGit(t)
	type check struct {
		argv   []string
		safe   bool
		reason string // a substring of the reason when not safe
	}
	cases := []struct {
		name  string
		setup func(t *testing.T, sb string) (cwd string, env map[string]string)
		check []check
	}{
		{"fresh repository", nil, []check{
			{[]string{"status"}, true, ""}, {[]string{"add", "a.txt"}, true, ""}, {[]string{"branch", "x"}, true, ""},
			{[]string{"tag", "v1"}, true, ""}, {[]string{"help", "log"}, true, ""}, {[]string{"blame", "a.txt"}, true, ""},
		}},
		{"byte order mark hides core.fsmonitor", func(t *testing.T, sb string) (string, map[string]string) {
			b, err := os.ReadFile(sb + "/.git/config")
			require.NoError(t, err)
			writeFile(t, sb+"/.git/config", "\xef\xbb\xbf"+string(b)+"\tfsmonitor = ./m.sh\n", 0o644)
			assert.Equal(t, "./m.sh\n", runGit(t, sb, "config", "core.fsmonitor"), "git reads the key")
			return sb, nil
		}, []check{{[]string{"status"}, false, "core.fsmonitor"}, {[]string{"log"}, false, "core.fsmonitor"}}},
		{"commondir in a .git directory", func(t *testing.T, sb string) (string, map[string]string) {
			other := sb + "/vendor/store"
			require.NoError(t, os.MkdirAll(other, 0o755))
			runGit(t, other, "init", "-q", "--bare")
			appendFile(t, other+"/config", "[core]\n\tfsmonitor = ./m.sh\n")
			writeFile(t, sb+"/.git/commondir", "../vendor/store\n", 0o644)
			assert.Equal(t, "./m.sh\n", runGit(t, sb, "config", "core.fsmonitor"), "git reads the common directory's config")
			return sb, nil
		}, []check{{[]string{"status"}, false, "core.fsmonitor"}}},
		{"commondir outside the sandbox", func(t *testing.T, sb string) (string, map[string]string) {
			other := realTemp(t)
			runGit(t, other, "init", "-q", "--bare")
			writeFile(t, sb+"/.git/commondir", other+"\n", 0o644)
			return sb, nil
		}, []check{{[]string{"status"}, false, "outside it"}, {[]string{"log", "-p"}, false, "outside it"}, {[]string{"add", "a.txt"}, false, "outside"},
			{[]string{"tag", "v1"}, false, "outside"}}},
		{"stub: HEAD and commondir naming a repository outside", func(t *testing.T, sb string) (string, map[string]string) {
			other := newRepo(t)
			stub := sb + "/stub"
			writeFile(t, stub+"/HEAD", "ref: refs/heads/main\n", 0o644)
			writeFile(t, stub+"/commondir", other+"/.git\n", 0o644)
			assert.Contains(t, runGit(t, stub, "log", "-p"), "+a", "git reads the other repository's history")
			return stub, nil
		}, []check{{[]string{"log", "-p"}, false, "outside it"}, {[]string{"status"}, false, "outside it"}, {[]string{"show", "HEAD"}, false, "outside it"}}},
		{"stub: a relative commondir climbing out", func(t *testing.T, sb string) (string, map[string]string) {
			other := newRepo(t)
			stub := sb + "/deep/stub"
			rel, err := filepath.Rel(stub, other+"/.git")
			require.NoError(t, err)
			writeFile(t, stub+"/HEAD", "ref: refs/heads/main\n", 0o644)
			writeFile(t, stub+"/commondir", rel+"\n", 0o644)
			assert.Contains(t, runGit(t, stub, "log", "-p"), "+a", "git reads the other repository's history")
			return sb + "/deep/stub", nil
		}, []check{{[]string{"log"}, false, "outside it"}}},
		{"stub: objects a link to a store outside", func(t *testing.T, sb string) (string, map[string]string) {
			other := newRepo(t)
			stub := sb + "/stub"
			writeFile(t, stub+"/HEAD", "ref: refs/heads/main\n", 0o644)
			writeFile(t, stub+"/refs/heads/main", runGit(t, other, "rev-parse", "HEAD"), 0o644)
			require.NoError(t, os.Symlink(other+"/.git/objects", stub+"/objects"))
			assert.Contains(t, runGit(t, stub, "log", "--oneline"), "one", "git reads the other repository's history")
			return stub, nil
		}, []check{{[]string{"log", "--oneline"}, false, "symbolic link out of the sandbox"}}},
		{"stub: a pack linked from a store outside", func(t *testing.T, sb string) (string, map[string]string) {
			other := newRepo(t)
			runGit(t, other, "gc", "-q")
			stub := sb + "/stub"
			writeFile(t, stub+"/HEAD", "ref: refs/heads/main\n", 0o644)
			writeFile(t, stub+"/refs/heads/main", runGit(t, other, "rev-parse", "HEAD"), 0o644)
			require.NoError(t, os.MkdirAll(stub+"/objects/pack", 0o755))
			packs, err := filepath.Glob(other + "/.git/objects/pack/pack-*")
			require.NoError(t, err)
			for _, p := range packs {
				require.NoError(t, os.Symlink(p, stub+"/objects/pack/"+filepath.Base(p)))
			}
			assert.Contains(t, runGit(t, stub, "log", "--oneline"), "one", "git reads the other repository's history")
			return stub, nil
		}, []check{{[]string{"log", "--oneline"}, false, "symbolic link out of the sandbox"}}},
		{"stub: alternates naming a store outside", func(t *testing.T, sb string) (string, map[string]string) {
			other := newRepo(t)
			stub := sb + "/stub"
			writeFile(t, stub+"/HEAD", "ref: refs/heads/main\n", 0o644)
			require.NoError(t, os.MkdirAll(stub+"/refs", 0o755))
			writeFile(t, stub+"/objects/info/alternates", other+"/.git/objects\n", 0o644)
			head := strings.TrimSpace(runGit(t, other, "rev-parse", "HEAD"))
			assert.Contains(t, runGit(t, stub, "show", head), "+a", "git reads the other store's objects")
			return stub, nil
		}, []check{{[]string{"show"}, false, "alternates"}}},
		{"alternates", func(t *testing.T, sb string) (string, map[string]string) {
			writeFile(t, sb+"/.git/objects/info/alternates", "/home/someone/.git/objects\n", 0o644)
			return sb, nil
		}, []check{{[]string{"log"}, false, "alternates"}}},
		{"partial clone promisor", func(t *testing.T, sb string) (string, map[string]string) {
			appendFile(t, sb+"/.git/config", "[remote \"origin\"]\n\turl = https://example.com/x.git\n\tpromisor = true\n[extensions]\n\tpartialClone = origin\n")
			return sb, nil
		}, []check{{[]string{"log", "-p"}, false, "remote.origin.promisor"}}},
		{"remote and branch as data", func(t *testing.T, sb string) (string, map[string]string) {
			appendFile(t, sb+"/.git/config", "[remote \"origin\"]\n\turl = https://example.com/x.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[branch \"main\"]\n\tremote = origin\n\tmerge = refs/heads/main\n\tvscode-merge-base = origin/main\n[lfs \"https://example.com/x.git/info/lfs\"]\n\taccess = basic\n[user]\n\tname = A\n\temail = a@example.com\n")
			return sb, nil
		}, []check{{[]string{"status"}, true, ""}, {[]string{"add", "."}, true, ""}}},
		{"submodule config with fsmonitor", func(t *testing.T, sb string) (string, map[string]string) {
			sub := sb + "/.git/modules/lib"
			require.NoError(t, os.MkdirAll(sub, 0o755))
			runGit(t, sub, "init", "-q", "--bare")
			appendFile(t, sub+"/config", "[core]\n\tworktree = ../../../lib\n\tfsmonitor = ./m.sh\n")
			return sb, nil
		}, []check{{[]string{"status"}, false, "core.fsmonitor"}}},
		{"submodule config with its work tree only", func(t *testing.T, sb string) (string, map[string]string) {
			sub := sb + "/.git/modules/lib"
			require.NoError(t, os.MkdirAll(sub, 0o755))
			runGit(t, sub, "init", "-q", "--bare")
			appendFile(t, sub+"/config", "[core]\n\tworktree = ../../../lib\n")
			return sb, nil
		}, []check{{[]string{"status"}, true, ""}}},
		{"submodule placed by .gitmodules with its own .git", func(t *testing.T, sb string) (string, map[string]string) {
			lib := sb + "/third_party/lib"
			require.NoError(t, os.MkdirAll(lib, 0o755))
			runGit(t, lib, "init", "-q")
			appendFile(t, lib+"/.git/config", "[diff]\n\texternal = ./d.sh\n")
			writeFile(t, sb+"/.gitmodules", "[submodule \"lib\"]\n\tpath = third_party/lib\n\turl = https://example.com/lib.git\n", 0o644)
			return sb, nil
		}, []check{{[]string{"status"}, false, "diff.external"}}},
		{"man.viewer", func(t *testing.T, sb string) (string, map[string]string) {
			appendFile(t, sb+"/.git/config", "[man]\n\tviewer = x\n[man \"x\"]\n\tcmd = ./v.sh\n")
			return sb, nil
		}, []check{{[]string{"help", "log"}, false, "man.viewer"}}},
		{"browser command", func(t *testing.T, sb string) (string, map[string]string) {
			appendFile(t, sb+"/.git/config", "[browser \"b\"]\n\tcmd = ./v.sh\n")
			return sb, nil
		}, []check{{[]string{"help", "log"}, false, "browser.b.cmd"}}},
		{"blame.ignoreRevsFile", func(t *testing.T, sb string) (string, map[string]string) {
			appendFile(t, sb+"/.git/config", "[blame]\n\tignoreRevsFile = /home/someone/.ssh/id_ed25519\n")
			return sb, nil
		}, []check{{[]string{"blame", "a.txt"}, false, "blame.ignorerevsfile"}}},
		{"executable post-index-change hook", func(t *testing.T, sb string) (string, map[string]string) {
			writeFile(t, sb+"/.git/hooks/post-index-change", "#!/bin/sh\ntouch \"ran-post-index-change\"\n", 0o755)
			writeFile(t, sb+"/b.txt", "b\n", 0o644)
			runGit(t, sb, "add", "b.txt")
			_, err := os.Stat(sb + "/ran-post-index-change")
			require.NoError(t, err, "git add ran the hook")
			// git status rewrites the index after a refresh, and runs
			// the hook then too.
			require.NoError(t, os.Remove(sb+"/ran-post-index-change"))
			past := time.Now().Add(-time.Hour)
			require.NoError(t, os.Chtimes(sb+"/a.txt", past, past))
			runGit(t, sb, "status")
			_, err = os.Stat(sb + "/ran-post-index-change")
			require.NoError(t, err, "git status ran the hook")
			return sb, nil
		}, []check{{[]string{"add", "b.txt"}, false, "post-index-change"}, {[]string{"status"}, false, "post-index-change"},
			{[]string{"log"}, true, ""}, {[]string{"branch", "x"}, true, ""}}},
		{"post-index-change hook not executable", func(t *testing.T, sb string) (string, map[string]string) {
			writeFile(t, sb+"/.git/hooks/post-index-change", "#!/bin/sh\nexit 0\n", 0o644)
			return sb, nil
		}, []check{{[]string{"add", "a.txt"}, true, ""}}},
		{"reference-transaction hook", func(t *testing.T, sb string) (string, map[string]string) {
			writeFile(t, sb+"/.git/hooks/reference-transaction", "#!/bin/sh\ntouch \"ran-reference-transaction\"\n", 0o755)
			runGit(t, sb, "branch", "y")
			_, err := os.Stat(sb + "/ran-reference-transaction")
			require.NoError(t, err, "git branch y ran the hook")
			return sb, nil
		}, []check{{[]string{"branch", "x"}, false, "reference-transaction"}, {[]string{"tag", "v1"}, false, "reference-transaction"},
			{[]string{"branch", "-a"}, true, ""}, {[]string{"tag", "-l", "v*"}, true, ""}, {[]string{"add", "a.txt"}, true, ""}}},
		{"core.hooksPath", func(t *testing.T, sb string) (string, map[string]string) {
			appendFile(t, sb+"/.git/config", "[core]\n\thooksPath = .githooks\n")
			return sb, nil
		}, []check{{[]string{"status"}, false, "core.hookspath"}}},
		{"include.path", func(t *testing.T, sb string) (string, map[string]string) {
			writeFile(t, sb+"/cfg/extra", "[core]\n\tpager = ./p.sh\n", 0o644)
			appendFile(t, sb+"/.git/config", "[include]\n\tpath = ../cfg/extra\n")
			assert.Equal(t, "./p.sh\n", runGit(t, sb, "config", "core.pager"))
			return sb, nil
		}, []check{{[]string{"log"}, false, "core.pager"}}},
		{"includeIf whose condition does not hold", func(t *testing.T, sb string) (string, map[string]string) {
			writeFile(t, sb+"/cfg/extra", "[core]\n\tpager = ./p.sh\n", 0o644)
			appendFile(t, sb+"/.git/config", "[includeIf \"onbranch:release\"]\n\tpath = ../cfg/extra\n")
			return sb, nil
		}, []check{{[]string{"log"}, false, "core.pager"}}},
		{"include of a missing file", func(t *testing.T, sb string) (string, map[string]string) {
			appendFile(t, sb+"/.git/config", "[include]\n\tpath = ../cfg/none\n")
			return sb, nil
		}, []check{{[]string{"log"}, true, ""}}},
		{"config.worktree", func(t *testing.T, sb string) (string, map[string]string) {
			writeFile(t, sb+"/.git/config.worktree", "[core]\n\tfsmonitor = ./m.sh\n", 0o644)
			return sb, nil
		}, []check{{[]string{"status"}, false, "core.fsmonitor"}}},
		{"unparsable configuration", func(t *testing.T, sb string) (string, map[string]string) {
			appendFile(t, sb+"/.git/config", "[core\n")
			return sb, nil
		}, []check{{[]string{"status"}, false, "config:"}}},
		{"invalid .git in a subdirectory is passed over", func(t *testing.T, sb string) (string, map[string]string) {
			require.NoError(t, os.MkdirAll(sb+"/sub/.git", 0o755))
			appendFile(t, sb+"/.git/config", "[core]\n\teditor = ./e.sh\n")
			return sb + "/sub", nil
		}, []check{{[]string{"status"}, false, "core.editor"}}},
		{"nested repository", func(t *testing.T, sb string) (string, map[string]string) {
			require.NoError(t, os.MkdirAll(sb+"/sub", 0o755))
			runGit(t, sb+"/sub", "init", "-q")
			appendFile(t, sb+"/sub/.git/config", "[core]\n\tfsmonitor = ./m.sh\n")
			return sb + "/sub", nil
		}, []check{{[]string{"status"}, false, "core.fsmonitor"}}},
		{"GIT_DIR", func(t *testing.T, sb string) (string, map[string]string) {
			other := sb + "/other.git"
			require.NoError(t, os.MkdirAll(other, 0o755))
			runGit(t, other, "init", "-q", "--bare")
			appendFile(t, other+"/config", "[diff]\n\texternal = ./d.sh\n")
			return sb, map[string]string{"GIT_DIR": "other.git"}
		}, []check{{[]string{"diff"}, false, "diff.external"}}},
		{"GIT_CONFIG_COUNT", func(t *testing.T, sb string) (string, map[string]string) {
			return sb, map[string]string{"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "core.fsmonitor", "GIT_CONFIG_VALUE_0": "./m.sh"}
		}, []check{{[]string{"status"}, false, "core.fsmonitor"}}},
		{"HOME inside the sandbox", func(t *testing.T, sb string) (string, map[string]string) {
			writeFile(t, sb+"/home/.gitconfig", "[core]\n\tfsmonitor = ./m.sh\n", 0o644)
			return sb, map[string]string{"HOME": sb + "/home"}
		}, []check{{[]string{"status"}, false, "core.fsmonitor"}}},
		{"HOME outside the sandbox is the user's", func(t *testing.T, sb string) (string, map[string]string) {
			home := realTemp(t)
			writeFile(t, home+"/.gitconfig", "[core]\n\tpager = less\n", 0o644)
			return sb, map[string]string{"HOME": home}
		}, []check{{[]string{"log"}, true, ""}}},
		{"bare repository at the sandbox root", func(t *testing.T, sb string) (string, map[string]string) {
			require.NoError(t, os.RemoveAll(sb+"/.git"))
			runGit(t, sb, "init", "-q", "--bare")
			appendFile(t, sb+"/config", "[core]\n\tfsmonitor = ./m.sh\n")
			return sb, nil
		}, []check{{[]string{"log"}, false, "core.fsmonitor"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sb := newRepo(t)
			cwd, env := sb, map[string]string(nil)
			if c.setup != nil {
				cwd, env = c.setup(t, sb)
			}
			for _, ch := range c.check {
				ok, reason := decideIn(t, sb, cwd, env, ch.argv...)
				assert.Equal(t, ch.safe, ok, "git %v: %s", ch.argv, reason)
				if !ch.safe {
					assert.Contains(t, strings.ToLower(reason), strings.ToLower(ch.reason), "git %v", ch.argv)
				}
			}
		})
	}
}

// TestSandboxInsideRepository: the sandbox is a subdirectory of someone's
// repository, whose index, refs and objects lie outside it.
func TestSandboxInsideRepository(t *testing.T) {
	needGit(t)
	outer := newRepo(t)
	sb := outer + "/project"
	writeFile(t, sb+"/main.go", "package main\n", 0o644)
	for _, c := range []struct {
		argv []string
		safe bool
	}{
		{[]string{"status"}, true}, {[]string{"log"}, true}, {[]string{"diff"}, true},
		{[]string{"add", "main.go"}, false}, {[]string{"tag", "v1"}, false}, {[]string{"branch", "x"}, false},
		{[]string{"branch"}, true},
	} {
		ok, reason := decideIn(t, sb, sb, nil, c.argv...)
		assert.Equal(t, c.safe, ok, "git %v: %s", c.argv, reason)
		if !c.safe {
			assert.Contains(t, reason, "outside the sandbox")
		}
	}
}

// TestLinkedWorktreeOutside: the sandbox is a linked worktree of a
// repository elsewhere; its store (refs, objects, the worktree's index)
// lies outside.
func TestLinkedWorktreeOutside(t *testing.T) {
	needGit(t)
	main := newRepo(t)
	sb := filepath.Join(realTemp(t), "wt")
	runGit(t, main, "worktree", "add", "-q", sb)
	ok, _ := decideIn(t, sb, sb, nil, "status")
	assert.True(t, ok)
	ok, reason := decideIn(t, sb, sb, nil, "add", "a.txt")
	assert.False(t, ok)
	assert.Contains(t, reason, "outside the sandbox")
	// The shared configuration counts.
	appendFile(t, main+"/.git/config", "[core]\n\tfsmonitor = ./m.sh\n")
	ok, reason = decideIn(t, sb, sb, nil, "status")
	assert.False(t, ok)
	assert.Contains(t, reason, "core.fsmonitor")
}

// TestHooksPathAccepted: a core.hooksPath the caller accepts passes, and
// the repository's own hooks directory is then not used.
func TestHooksPathAccepted(t *testing.T) {
	needGit(t)
	sb := newRepo(t)
	appendFile(t, sb+"/.git/config", "[core]\n\thooksPath = .husky/_\n")
	writeFile(t, sb+"/.git/hooks/post-index-change", "#!/bin/sh\n", 0o755)
	var c Cache
	f, _ := c.Facts(Site{Cwd: sb, Sandbox: sb})
	ok, _, _ := f.Decide(GitCommand([]string{"add", "a.txt"}), nil)
	assert.False(t, ok)
	ok, _, reason := f.Decide(GitCommand([]string{"add", "a.txt"}), func(p Problem) bool {
		return p.Setting == "core.hookspath" && p.Value == ".husky/_"
	})
	assert.True(t, ok, reason)
	assert.Equal(t, ".husky/_", f.HooksPath)
}
