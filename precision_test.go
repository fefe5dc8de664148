package sandboxauth

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPrecisionFamilies: the probes, system views and archive forms of
// issue 24 run without asking in a plain sandbox, their other forms do
// not, and the project code they are is labelled.
func TestPrecisionFamilies(t *testing.T) {
	sb := newSandbox(t)
	s := NewShellAllowedCommands()
	tests := []struct {
		argv    []string
		res     CommandCheckResult
		project bool
	}{
		{[]string{"gh", "--version"}, safe, false},
		{[]string{"gh", "version"}, safe, false},
		{[]string{"gh", "pr", "list"}, dangerous, false},
		{[]string{"R", "--version"}, safe, false},
		{[]string{"Rscript", "--version"}, safe, false},
		{[]string{"RSCRIPT", "--version"}, CommandCheckResultNone, false},
		{[]string{"Rscript", "-e", "1"}, dangerous, false},
		{[]string{"quarto", "--version"}, safe, false},
		{[]string{"swift", "--version"}, safe, false},
		{[]string{"dotnet", "--list-sdks"}, safe, false},
		{[]string{"dotnet", "--info"}, safe, false},
		{[]string{"sw_vers"}, safe, false},
		{[]string{"rustup", "show"}, safe, false},
		{[]string{"rustup", "--version"}, safe, false},
		{[]string{"rustup", "update"}, dangerous, false},
		{[]string{"netstat", "-tlnp"}, safe, false},
		{[]string{"ss", "-tlnp"}, safe, false},
		{[]string{"ss", "-tn", "dst", "evil.example.com"}, dangerous, false},
		{[]string{"journalctl", "-u", "nginx", "-n", "50", "--no-pager"}, safe, false},
		{[]string{"journalctl", "-n", "--vacuum-size=1G"}, dangerous, false},
		{[]string{"dmesg", "-T"}, safe, false},
		{[]string{"dmesg", "-c"}, dangerous, false},
		{[]string{"kill", "-0", "1234"}, safe, false},
		{[]string{"kill", "-9", "1234"}, dangerous, false},
		{[]string{"bash", "-c", "kill -0 1234"}, safe, false},
		{[]string{"tmux", "ls"}, safe, false},
		{[]string{"tmux", "ls", "-F", "#(touch x)"}, dangerous, false},
		{[]string{"tmux", "-L", "x", "ls"}, dangerous, false},
		{[]string{"tmux", "-S", "./sock", "ls"}, dangerous, false},
		{[]string{"bash", "-c", "TMUX_TMPDIR=. tmux ls"}, CommandCheckResultNone, false}, // an unknown variable
		{[]string{"ldconfig", "-p"}, safe, false},
		{[]string{"ldconfig"}, dangerous, false},
		{[]string{"rpm", "-qa"}, safe, false},
		{[]string{"rpm", "-q", "--pipe", "sh", "bash"}, CommandCheckResultBlocked, false},
		{[]string{"rpm", "-i", "x.rpm"}, CommandCheckResultBlocked, false},
		{[]string{"docker", "version"}, safe, false},
		{[]string{"docker", "network", "ls"}, safe, false},
		{[]string{"docker", "image", "ls"}, safe, false},
		{[]string{"docker", "-H", "tcp://evil:2375", "ps"}, dangerous, false},
		{[]string{"docker", "--context", "prod", "ps"}, dangerous, false},
		{[]string{"bash", "-c", "DOCKER_HOST=tcp://evil:2375 docker ps"}, dangerous, false},
		{[]string{"docker", "compose", "ps"}, dangerous, true},
		{[]string{"docker", "compose", "logs", "-f"}, dangerous, false},
		// Project code not labelled before.
		{[]string{"cmake", "-S", ".", "-B", "build"}, dangerous, true},
		{[]string{"cmake", "--version"}, safe, false},
		{[]string{"gcc", "-c", "main.go"}, dangerous, true},
		{[]string{"gcc", "@/etc/passwd"}, dangerous, false}, // an argument file outside: gcc prints it in errors
		{[]string{"gcc", "@a.txt", "main.go"}, dangerous, true},
		{[]string{"gcc", "-o", "/tmp/x", "main.go"}, dangerous, false},
		{[]string{"cmake", "-E", "rm", "-rf", ".."}, dangerous, false},
		{[]string{"npx", "--package=evil", "jest"}, dangerous, false},
		{[]string{"npx", "create-next-app@latest", "web"}, dangerous, false},
		{[]string{"tar", "-czf", "/tmp/x.tgz", "internal"}, dangerous, false},
		{[]string{"tar", "-czf", "x.tgz", "internal"}, safe, false},
		{[]string{"tar", "-czf", "x.tgz", "../"}, dangerous, false},
		{[]string{"zip", "-r", "-y", "out.zip", "internal"}, safe, false},
		{[]string{"zip", "-r", "out.zip", "internal"}, safe, false},                // no link in the tree
		{[]string{"zip", "-r", "out.zip", "."}, dangerous, false},                  // passwd-link and root-link lead out
		{[]string{"zip", "-r", "-y", "passwd-link", "internal"}, dangerous, false}, // the archive is a link out
		{[]string{"gzip", "-k", "a.txt"}, safe, false},
		{[]string{"gzip", "-k", "passwd-link"}, dangerous, false},
		{[]string{"dd", "if=a.txt", "bs=1", "count=4"}, safe, false},
		{[]string{"dd", "if=/etc/shadow"}, dangerous, false},
		{[]string{"dd", "if=a.txt", "of=b.txt"}, dangerous, false},
		{[]string{"yq", ".a", "/etc/passwd"}, dangerous, false},
		{[]string{"yq", "-r", ".name", "a.txt"}, safe, false},
		{[]string{"7z", "l", "a.txt"}, safe, false},
		{[]string{"jar", "tf", "a.txt"}, safe, false},
		{[]string{"shuf", "-n", "1", "a.txt"}, safe, false},
		{[]string{"eza", "-la"}, safe, false},
		{[]string{"less", "README.md"}, CommandCheckResultNone, false},
		{[]string{"node", "--check", "scripts/build.js"}, safe, false},
		{[]string{"php", "artisan", "test"}, CommandCheckResultNone, false}, // no artisan file here
		{[]string{"apt", "list", "--installed"}, safe, false},
		{[]string{"top", "-b", "-n", "1"}, safe, false},
		{[]string{"top"}, dangerous, false},
		{[]string{"ip", "addr"}, safe, false},
		{[]string{"ip", "-b", "cmds.txt"}, dangerous, false},
		{[]string{"ip", "addr", "add", "10.0.0.1/24", "dev", "eth0"}, dangerous, false},
		{[]string{"xcrun", "simctl", "list", "devices"}, safe, false},
		{[]string{"xcrun", "simctl", "boot", "x"}, CommandCheckResultNone, false},
		{[]string{"docker", "stats", "--no-stream"}, safe, false},
		{[]string{"apt", "install", "x"}, CommandCheckResultBlocked, false},
		{[]string{"xcodebuild", "-scheme", "App", "build"}, dangerous, true},
		{[]string{"sbt", "test"}, dangerous, true},
		{[]string{"cargo", "nextest", "run"}, dangerous, true},
		{[]string{"cargo", "make", "ci"}, dangerous, true},
		{[]string{"cargo", "fmt"}, dangerous, true},
		{[]string{"cargo", "fmt", "--check"}, safe, false},
		{[]string{"cargo", "install", "x"}, dangerous, false},
		{[]string{"cargo", "publish"}, dangerous, false},
		{[]string{"ruff", "format", "."}, dangerous, true},
		{[]string{"ruff", "check", "--fix", "."}, dangerous, true},
		{[]string{"go", "fmt", "./..."}, dangerous, true},
		{[]string{"go", "mod", "tidy"}, dangerous, true},
		{[]string{"go", "mod", "download"}, dangerous, false},
		{[]string{"swiftlint", "--fix"}, dangerous, true},
		{[]string{"uv", "tree"}, dangerous, true},
		{[]string{"npm", "pack", "--dry-run"}, dangerous, true},
		{[]string{"git", "commit", "-m", "x"}, dangerous, true},
		{[]string{"git", "checkout", "main"}, dangerous, true},
		{[]string{"git", "checkout", "-b", "topic"}, dangerous, true},
		{[]string{"git", "stash"}, dangerous, true},
		{[]string{"git", "stash", "pop"}, dangerous, true},
		{[]string{"git", "cherry-pick", "abc123"}, dangerous, true},
		{[]string{"git", "commit", "--amend", "-m", "x"}, dangerous, false},
		{[]string{"git", "stash", "drop"}, dangerous, false},
		{[]string{"git", "checkout", "-f", "main"}, dangerous, false},
		{[]string{"git", "-c", "core.hooksPath=/tmp", "commit", "-m", "x"}, dangerous, false},
		{[]string{"git", "stash", "list"}, safe, false},
	}
	for _, tt := range tests {
		c, err := s.Classify(CommandSite{SandboxDir: sb}, tt.argv)
		require.NoError(t, err)
		assert.Equal(t, tt.res, c.Result, "%q: %s", tt.argv, c.Rule)
		assert.Equal(t, tt.project, c.ProjectCode, "%q: %s", tt.argv, c.Rule)
	}
}

// TestProbesJudgeToolchainPins: a file in the project that chooses the
// toolchain a probe runs makes the probe not safe: rust-toolchain for
// rustup, .swift-version for swift, global.json for dotnet, in the working
// directory or above it up to the sandbox.
func TestProbesJudgeToolchainPins(t *testing.T) {
	tests := []struct {
		file string
		argv []string
	}{
		{"rust-toolchain.toml", []string{"rustup", "show"}},
		{"rust-toolchain", []string{"rustup", "--version"}},
		{".swift-version", []string{"swift", "--version"}},
		{"global.json", []string{"dotnet", "--version"}},
		{"global.json", []string{"dotnet", "--info"}},
		{"global.json", []string{"dotnet", "--list-sdks"}},
	}
	s := NewShellAllowedCommands()
	for _, tt := range tests {
		t.Run(tt.file+" "+tt.argv[0], func(t *testing.T) {
			sb := newSandbox(t)
			sub := filepath.Join(sb, "sub")
			c, err := s.Classify(CommandSite{SandboxDir: sb, Cwd: sub}, tt.argv)
			require.NoError(t, err)
			require.Equal(t, safe, c.Result, "without %s: %s", tt.file, c.Rule)
			require.NoError(t, os.WriteFile(filepath.Join(sb, tt.file), []byte(`{"sdk": {"paths": ["./sdk"]}}`+"\n"), 0o644))
			c, err = s.Classify(CommandSite{SandboxDir: sb, Cwd: sub}, tt.argv)
			require.NoError(t, err)
			assert.Equal(t, dangerous, c.Result, "with %s: %s", tt.file, c.Rule)
			assert.Contains(t, c.Reason, tt.file)
		})
	}
}

// TestGitWorkNeedsATrustedRepository: git's work is project code only in
// a repository the sandbox holds and whose configuration runs nothing of
// its own: a store outside the sandbox, core.fsmonitor or core.hooksPath
// keep it asked about, confinement or not.
func TestGitWorkNeedsATrustedRepository(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	run := func(t *testing.T, dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	s := NewShellAllowedCommands()
	commit := []string{"git", "commit", "-m", "x"}

	t.Run("a repository of its own", func(t *testing.T) {
		sb, err := filepath.EvalSymlinks(t.TempDir())
		require.NoError(t, err)
		run(t, sb, "init", "-q", ".")
		c, err := s.Classify(CommandSite{SandboxDir: sb}, commit)
		require.NoError(t, err)
		assert.True(t, c.ProjectCode, c.Rule)
	})
	t.Run("a store outside the sandbox", func(t *testing.T) {
		top, err := filepath.EvalSymlinks(t.TempDir())
		require.NoError(t, err)
		run(t, top, "init", "-q", ".")
		sb := filepath.Join(top, "sb")
		require.NoError(t, os.MkdirAll(sb, 0o755))
		c, err := s.Classify(CommandSite{SandboxDir: sb}, commit)
		require.NoError(t, err)
		assert.False(t, c.ProjectCode, c.Rule)
		assert.Equal(t, dangerous, c.Result)
	})
	for _, key := range []string{"core.fsmonitor", "core.hooksPath"} {
		t.Run(key, func(t *testing.T) {
			sb, err := filepath.EvalSymlinks(t.TempDir())
			require.NoError(t, err)
			run(t, sb, "init", "-q", ".")
			run(t, sb, "config", key, "/tmp/elsewhere")
			for _, argv := range [][]string{commit, {"git", "checkout", "main"}, {"git", "stash"}} {
				c, err := s.Classify(CommandSite{SandboxDir: sb}, argv)
				require.NoError(t, err)
				assert.False(t, c.ProjectCode, "%q: %s", argv, c.Rule)
				assert.Equal(t, dangerous, c.Result, "%q", argv)
			}
		})
	}
}

// TestZipFollowsOnlyLinksInside: zip -r without -y reads what each link
// in its trees points at; a link that leads out of the sandbox, or to a
// protected file, makes it ask; links inside, to directories too, do not.
func TestZipFollowsOnlyLinksInside(t *testing.T) {
	zipR := []string{"zip", "-r", "out.zip", "src"}
	tests := []struct {
		name  string
		setup func(t *testing.T, sb string)
		res   CommandCheckResult
	}{
		{"no link", func(t *testing.T, sb string) {}, safe},
		{"a link to a file inside", func(t *testing.T, sb string) {
			require.NoError(t, os.Symlink("../a.txt", filepath.Join(sb, "src", "a-link")))
		}, safe},
		{"a link to a directory inside", func(t *testing.T, sb string) {
			require.NoError(t, os.Symlink("../internal", filepath.Join(sb, "src", "dir-link")))
		}, safe},
		{"a link to a file outside", func(t *testing.T, sb string) {
			require.NoError(t, os.Symlink("/etc/passwd", filepath.Join(sb, "src", "out")))
		}, dangerous},
		{"a link to a directory outside", func(t *testing.T, sb string) {
			require.NoError(t, os.Symlink("/etc", filepath.Join(sb, "src", "etc")))
		}, dangerous},
		{"a link to a directory inside that holds a link out", func(t *testing.T, sb string) {
			require.NoError(t, os.MkdirAll(filepath.Join(sb, "other"), 0o755))
			require.NoError(t, os.Symlink("/etc/passwd", filepath.Join(sb, "other", "out")))
			require.NoError(t, os.Symlink("../other", filepath.Join(sb, "src", "other")))
		}, dangerous},
		{"a cycle of links", func(t *testing.T, sb string) {
			require.NoError(t, os.Symlink("..", filepath.Join(sb, "src", "up")))
			require.NoError(t, os.Symlink("../src", filepath.Join(sb, "src", "self")))
		}, dangerous}, // up leads to the sandbox, whose passwd-link leads out
		{"a hidden link out", func(t *testing.T, sb string) {
			require.NoError(t, os.Symlink("/etc/passwd", filepath.Join(sb, "src", ".out")))
		}, dangerous}, // zip takes dot files too
	}
	s := NewShellAllowedCommands()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sb := newSandbox(t)
			require.NoError(t, os.MkdirAll(filepath.Join(sb, "src"), 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(sb, "src", "x.txt"), []byte("x\n"), 0o644))
			tt.setup(t, sb)
			c, err := s.Classify(CommandSite{SandboxDir: sb}, zipR)
			require.NoError(t, err)
			assert.Equal(t, tt.res, c.Result, c.Rule)
			y, err := s.Classify(CommandSite{SandboxDir: sb}, []string{"zip", "-r", "-y", "out.zip", "src"})
			require.NoError(t, err)
			assert.Equal(t, safe, y.Result, "with -y links are stored as links: %s", y.Rule)
		})
	}

	t.Run("a link to a protected file", func(t *testing.T) {
		sb := newSandbox(t)
		require.NoError(t, os.MkdirAll(filepath.Join(sb, "src"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(sb, ".env"), []byte("SECRET=1\n"), 0o600))
		require.NoError(t, os.Symlink("../.env", filepath.Join(sb, "src", "settings")))
		a, ch, err := NewSandboxAuthorizer(NewShellAllowedCommands())
		require.NoError(t, err)
		defer a.Close()
		seen, err := answering(t, ch, false, func() error { return a.IsShellAuthorized(false, "", sb, sb, zipR) })
		require.ErrorIs(t, err, ErrAuthorizationDenied)
		require.Len(t, seen, 1, "asked about")
		seen, err = answering(t, ch, false, func() error {
			return a.IsShellAuthorized(false, "", sb, sb, []string{"zip", "-r", "-y", "out.zip", "src"})
		})
		require.NoError(t, err, "with -y the link is stored, not read")
		require.Empty(t, seen)
	})
}

// TestArgumentFilesAreRead: gcc reads @FILE as more arguments and prints
// what it could not use, so an argument file outside the sandbox is a read
// outside, checked like any path: gcc @/outside/file is not project code.
func TestArgumentFilesAreRead(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.txt")
	require.NoError(t, os.WriteFile(secret, []byte("SECRET-LINE-1\n"), 0o644))
	if _, err := exec.LookPath("gcc"); err == nil {
		out, _ := exec.Command("gcc", "@"+secret).CombinedOutput()
		assert.Contains(t, string(out), "SECRET-LINE-1", "gcc printed the argument file's words")
	} else {
		t.Log("gcc is not installed: its reading of @FILE is not shown")
	}
	sb := newSandbox(t)
	c, err := NewShellAllowedCommands().Classify(CommandSite{SandboxDir: sb}, []string{"gcc", "@" + secret})
	require.NoError(t, err)
	assert.Equal(t, dangerous, c.Result)
	assert.False(t, c.ProjectCode, c.Rule)
	assert.Contains(t, c.Rule, "outside")
}
