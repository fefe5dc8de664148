package classify

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// engineSandbox makes a sandbox with a git repository, a few project
// files, a .env, a subdirectory and symlinks leading out. It returns the
// sandbox's real path.
func engineSandbox(t *testing.T) string {
	t.Helper()
	sb, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	for _, d := range []string{".git/objects", ".git/refs/heads", "sub/deep", "bin"} {
		require.NoError(t, os.MkdirAll(filepath.Join(sb, d), 0o755))
	}
	files := map[string]string{
		".git/HEAD": "ref: refs/heads/main\n", "go.mod": "module x\n", "main.go": "package main\n",
		"README.md": "x\n", ".env": "KEY=secret\n", "sub/a.go": "package sub\n", "build.sh": "#!/bin/sh\n",
	}
	for name, body := range files {
		require.NoError(t, os.WriteFile(filepath.Join(sb, name), []byte(body), 0o644))
	}
	require.NoError(t, os.Symlink("/etc/passwd", filepath.Join(sb, "passwd-link")))
	require.NoError(t, os.Symlink("/", filepath.Join(sb, "root-link")))
	return sb
}

// TestCommandsClassify is the engine's contract, table by table: what the
// lists decide, and how the command's surroundings can only make that
// worse. The same rules are exercised through the public API by the root
// package's tests and corpora.
func TestCommandsClassify(t *testing.T) {
	sb := engineSandbox(t)
	protected := []Protected{}
	for _, p := range []struct {
		pat         string
		read, write bool
	}{{".env", true, true}, {".git/", false, true}} {
		r, err := CompileProtected(p.pat, p.read, p.write)
		require.NoError(t, err)
		protected = append(protected, r)
	}
	c := &Commands{}
	c.AddDefaults()
	split := &Commands{}
	split.AddDefaults()
	split.SetSplitCompound(true)

	tests := []struct {
		name string
		c    *Commands
		cwd  string // relative to the sandbox; "-" for no sandbox known
		argv []string
		want Result
		rule string // a substring of the deciding rule, when it matters
		proj bool
	}{
		// The lists.
		{"safe by its spec", c, "", []string{"ls", "-la"}, Safe, "safe: ls", false},
		{"unknown option", c, "", []string{"ls", "--zz-unknown"}, Dangerous, "", false},
		{"blocked", c, "", []string{"curl", "https://example.com"}, Blocked, "blocked: curl", false},
		{"dangerous", c, "", []string{"git", "push"}, Dangerous, "dangerous: git push", false},
		{"on no list", c, "", []string{"zzprogram"}, None, "on no list", false},
		{"look-alike of a blocked name", c, "", []string{"ѕudo", "ls"}, Blocked, "", false},
		{"case variant never safe", c, "", []string{"LS"}, None, "", false},
		// Paths.
		{"path inside", c, "", []string{"cat", "sub/a.go"}, Safe, "", false},
		{"path outside", c, "", []string{"cat", "/etc/passwd"}, Dangerous, "outside", false},
		{"symlink leading out", c, "", []string{"cat", "passwd-link"}, Dangerous, "outside", false},
		{"protected file read", c, "", []string{"cat", ".env"}, Dangerous, "protected path .env", false},
		{"recursive read over a protected file", c, "", []string{"grep", "-r", "KEY", "."}, Dangerous, "protected", false},
		{"recursive read beside it", c, "", []string{"grep", "-r", "KEY", "sub"}, Safe, "", false},
		{"write into .git", c, "", []string{"touch", ".git/hooks/pre-commit"}, Dangerous, "", false},
		{"no sandbox known: absolute path", c, "-", []string{"cat", "/tmp/x"}, Dangerous, "path outside sandbox", false},
		{"working directory below", c, "sub", []string{"cat", "a.go"}, Safe, "", false},
		{"working directory below, .. out", c, "sub", []string{"cat", "../../x"}, Dangerous, "", false},
		// Wrappers and shells.
		{"wrapper looked through", c, "", []string{"timeout", "5", "curl", "x"}, Blocked, "blocked: curl", false},
		{"command -v looks a name up", c, "", []string{"command", "-v", "curl"}, Safe, "", false},
		{"env -S", c, "", []string{"env", "-S", "ls -la"}, Inscrutable, "wrapper env", false},
		{"xargs", c, "", []string{"xargs", "rm"}, Inscrutable, "xargs", false},
		{"shell script of one command", c, "", []string{"bash", "-c", "ls -la"}, Safe, "", false},
		{"shell script with substitution", c, "", []string{"bash", "-c", "ls $(curl x)"}, Inscrutable, "", false},
		{"foreign shell", c, "", []string{"fish", "-c", "ls"}, Inscrutable, "not parsed", false},
		{"operator given as argv", c, "", []string{"ls", "|", "sh"}, Inscrutable, "", false},
		{"find -exec terminator is find's", c, "", []string{"find", ".", "-exec", "cat", "{}", ";"}, Dangerous, "", false},
		{"environment assignment steering a program", c, "", []string{"env", "LD_PRELOAD=x.so", "ls"}, Dangerous, "", false},
		// Compound scripts.
		{"compound, split off", c, "", []string{"bash", "-c", "ls && cat README.md"}, Inscrutable, "", false},
		{"compound, split on", split, "", []string{"bash", "-c", "ls && cat README.md"}, Safe, "", false},
		{"cd inside, then a path", split, "", []string{"bash", "-c", "cd sub && cat a.go"}, Safe, "", false},
		{"cd out", split, "", []string{"bash", "-c", "cd /etc && cat passwd"}, Dangerous, "cd outside", false},
		{"popd with arguments", split, "", []string{"bash", "-c", "popd +1 && ls"}, Inscrutable, "popd with arguments", false},
		// after a write, paths are not trusted: asked without confinement,
		// run confined with it (project code after a write).
		{"after a write, paths are not trusted", split, "", []string{"bash", "-c", "touch a && cat sub/a.go"}, Dangerous, "after a write into the project", true},
		// Project code and git.
		{"project code", c, "", []string{"go", "test", "./..."}, Dangerous, ProjectRule, true},
		{"script in the project", c, "", []string{"./build.sh"}, Dangerous, ProjectRule, true},
		{"git status in a plain repository", c, "", []string{"git", "status"}, Safe, "", false},
		{"git -c", c, "", []string{"git", "-c", "core.pager=x", "log"}, Dangerous, "git global option", false},
		{"go build runs git status", c, "", []string{"go", "build", "-buildvcs=false", "."}, Dangerous, "", true},
		// git's operands: pathspecs, revisions, REV:PATH from the top.
		{"git grep in a plain path", c, "", []string{"git", "grep", "KEY", "sub"}, Safe, "", false},
		{"git grep, a glob pathspec", c, "", []string{"git", "grep", "KEY", "--", ".e*"}, Dangerous, "pathspec", false},
		{"git grep, the top of the repository", c, "", []string{"git", "grep", "KEY", "--", ":/"}, Dangerous, "pathspec", false},
		{"git grep, all but one file", c, "", []string{"git", "grep", "KEY", "--", ":!x"}, Dangerous, "pathspec", false},
		{"git grep, a revision's whole tree", c, "", []string{"git", "grep", "-h", "KEY", "HEAD"}, Dangerous, "revision", false},
		{"git grep, an escaped glob", c, "", []string{"git", "grep", "KEY", "--", `\.env`}, Dangerous, "pathspec", false},
		{"REV:PATH after a colon in braces", c, "", []string{"git", "show", "HEAD^{/[:]*}:.env"}, Dangerous, "protected path .env", false},
		{"REV:PATH after a reflog time", c, "", []string{"git", "show", "HEAD@{1:00}:.env"}, Dangerous, "protected path .env", false},
		{"REV:PATH is read from the top", c, "sub", []string{"git", "show", "HEAD:.env"}, Dangerous, "protected path .env", false},
		{"REV:./PATH from the working directory", c, "sub", []string{"git", "show", "HEAD:./a.go"}, Safe, "", false},
		{"an index stage", c, "sub", []string{"git", "show", ":2:.env"}, Dangerous, "protected path .env", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			site := Site{SandboxDir: sb, Cwd: filepath.Join(sb, tt.cwd)}
			if tt.cwd == "-" {
				site = Site{}
			}
			v := tt.c.Classify(site, protected, nil, tt.argv, nil)
			assert.Equal(t, tt.want, v.Result(), "%q: %s (%s)", tt.argv, v.Rule(), v.Reason())
			assert.Contains(t, v.Rule(), tt.rule)
			assert.Equal(t, tt.proj, v.ProjectCode(), "%q: %s", tt.argv, v.Rule())
			assert.NotEmpty(t, v.Reason()+v.Rule())
		})
	}
}

// TestCommandsLists: adding, removing and copying matchers, and a user's
// project-code matcher.
func TestCommandsLists(t *testing.T) {
	c := &Commands{}
	v := c.Classify(Site{}, nil, nil, []string{"ls"}, nil)
	assert.Equal(t, None, v.Result(), "the zero value has empty lists")
	m := Matcher{Command: "mytool", CommandArgsPrefix: []string{"check"}, Reason: "mine"}
	c.Add(SafeList, m)
	c.Add(SafeList, Matcher{Command: "MYTOOL", CommandArgsPrefix: []string{"check"}, Reason: "a duplicate"})
	require.Len(t, c.Matchers(SafeList), 1, "a duplicate ignoring Reason and case is not added")
	v = c.Classify(Site{}, nil, nil, []string{"mytool", "check"}, nil)
	assert.Equal(t, Safe, v.Result())
	got := c.Matchers(SafeList)
	got[0].CommandArgsPrefix[0] = "changed"
	assert.Equal(t, "check", c.Matchers(SafeList)[0].CommandArgsPrefix[0], "Matchers returns a deep copy")
	assert.True(t, c.Remove(SafeList, m))
	assert.False(t, c.Remove(SafeList, m), "already removed")
	c.Add(BlockedList, Matcher{Command: "zap"})
	c.Add(BlockedList, Matcher{Command: "zap", Flags: []string{"-f"}})
	assert.Equal(t, []string{"zap"}, c.BlockedNames(), "only matchers regardless of arguments")
	assert.Equal(t, "safe", SafeList.String())
	assert.Equal(t, "List(9)", List(9).String())
	assert.Panics(t, func() { c.Add(List(9), m) })

	sb := engineSandbox(t)
	d := &Commands{}
	d.AddDefaults()
	v = d.Classify(Site{SandboxDir: sb}, nil, nil, []string{"rake", "test"}, []Matcher{{Command: "rake"}})
	assert.True(t, v.ProjectCode(), "%s", v.Rule())
	assert.True(t, strings.HasPrefix(v.Rule(), ProjectRule), v.Rule())
}

// TestCommandsConcurrent classifies from many goroutines while the lists
// change (run with -race).
func TestCommandsConcurrent(t *testing.T) {
	sb := engineSandbox(t)
	c := &Commands{}
	c.AddDefaults()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				switch (g + i) % 4 {
				case 0:
					c.Add(SafeList, Matcher{Command: "tool" + string(rune('a'+g))})
				case 1:
					c.Remove(SafeList, Matcher{Command: "tool" + string(rune('a'+g))})
				case 2:
					c.SetSplitCompound(i%2 == 0)
				default:
					v := c.Classify(Site{SandboxDir: sb}, nil, nil, []string{"git", "status"}, nil)
					assert.Equal(t, Safe, v.Result(), v.Rule())
				}
			}
		}()
	}
	wg.Wait()
}

// TestRevPathFromTheTop: with the sandbox a directory inside a larger
// repository, git reads the PATH of REV:PATH from the repository's top,
// outside the sandbox, unless it begins with ./ or ../.
func TestRevPathFromTheTop(t *testing.T) {
	top := engineSandbox(t)
	sb := filepath.Join(top, "sub")
	c := &Commands{}
	c.AddDefaults()
	for _, tt := range []struct {
		argv []string
		want Result
	}{
		{[]string{"git", "show", "HEAD:README.md"}, Dangerous},        // top/README.md
		{[]string{"git", "cat-file", "-p", "HEAD:go.mod"}, Dangerous}, // top/go.mod
		{[]string{"git", "show", "HEAD:"}, Dangerous},                 // the top's whole tree
		{[]string{"git", "show", "HEAD:sub/a.go"}, Safe},              // top/sub/a.go, in the sandbox
		{[]string{"git", "show", "HEAD:./a.go"}, Safe},                // from the working directory
		{[]string{"git", "show", "HEAD:../README.md"}, Dangerous},
	} {
		v := c.Classify(Site{SandboxDir: sb, Cwd: sb}, nil, nil, tt.argv, nil)
		assert.Equal(t, tt.want, v.Result(), "%q: %s", tt.argv, v.Rule())
	}
}
