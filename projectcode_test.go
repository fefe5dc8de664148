package sandboxauth

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProjectCodeLabel: which commands are labelled project code (and so
// dangerous, and allowed only under confinement), after wrappers and
// inside one-command scripts, and which keep their class.
func TestProjectCodeLabel(t *testing.T) {
	sb := newSandbox(t)
	outside := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(outside, "x.py"), []byte(""), 0o644))
	s := NewShellAllowedCommands()
	s.SetSplitCompound(true)
	tests := []struct {
		argv    []string
		project bool
		res     CommandCheckResult
	}{
		// The list, as written and through wrappers.
		{[]string{"go", "test", "./..."}, true, dangerous},
		{[]string{"go", "vet", "./..."}, true, dangerous},
		{[]string{"go", "generate", "./..."}, true, dangerous},
		{[]string{"cargo", "clippy"}, true, dangerous},
		{[]string{"npm", "test"}, true, dangerous},
		{[]string{"npm", "run", "build"}, true, dangerous},
		{[]string{"npx", "vitest"}, true, dangerous},
		{[]string{"yarn", "test"}, true, dangerous},
		{[]string{"pnpm", "lint"}, true, dangerous},
		{[]string{"bun", "test"}, true, dangerous},
		{[]string{"deno", "task", "dev"}, true, dangerous},
		{[]string{"pytest", "-q"}, true, dangerous},
		{[]string{"python3", "-m", "unittest"}, true, dangerous},
		{[]string{"python3", "-um", "unittest"}, true, dangerous},
		{[]string{"python3", "manage.py", "test"}, true, dangerous},
		{[]string{"python3", "-u", "manage.py"}, true, dangerous},
		{[]string{"node", "scripts/build.js"}, true, dangerous},
		{[]string{"node", "--require", "./x.js", "scripts/build.js"}, true, dangerous},
		{[]string{"make", "-j4"}, true, dangerous},
		{[]string{"make", "help"}, true, dangerous},
		{[]string{"pytest", "-v"}, true, dangerous},
		{[]string{"just", "test"}, true, dangerous},
		{[]string{"./build.sh"}, true, dangerous},
		{[]string{"sh", "build.sh"}, true, dangerous},
		{[]string{"./gradlew", "test"}, true, dangerous},
		{[]string{"mvn", "test"}, true, dangerous},
		{[]string{"uv", "run", "pytest"}, true, dangerous},
		{[]string{"poetry", "run", "pytest"}, true, dangerous},
		{[]string{"dotnet", "test"}, true, dangerous},
		{[]string{"swift", "test"}, true, dangerous},
		{[]string{"eslint", "."}, true, dangerous},
		{[]string{"timeout", "600", "go", "test", "./..."}, true, dangerous},
		{[]string{"env", "CGO_ENABLED=0", "go", "build", "./..."}, true, dangerous},
		{[]string{"bash", "-lc", "go test ./..."}, true, dangerous},
		{[]string{"bash", "-c", "sh -c 'npm test'"}, true, dangerous},
		{[]string{"bash", "-c", "go vet ./... && go test ./..."}, true, dangerous},
		{[]string{"bash", "-c", "ls && go test ./... 2>&1 | tail"}, true, dangerous},
		// Inline code and a script on standard input: code the model
		// chose, no more than a file it could have written and run.
		{[]string{"python3", "-c", "print(1)"}, true, dangerous},
		{[]string{"python3", "-Bc", "print(1)"}, true, dangerous},
		{[]string{"node", "-e", "1"}, true, dangerous},
		{[]string{"node", "--eval=1"}, true, dangerous},
		{[]string{"php", "-r", "echo 1;"}, true, dangerous},
		{[]string{"python3", "-"}, true, dangerous},
		{[]string{"bash", "-c", "node -e 1 && python3 -c 'print(1)'"}, true, dangerous},
		// Every interpreter whose inline code the lists name and whose
		// command line is described (perl, ruby, lua as well).
		{[]string{"perl", "-e", "print 1"}, true, dangerous},
		{[]string{"perl", "-lne", "print", "main.go"}, true, dangerous},
		{[]string{"perl", "-pi", "-e", "s/a/b/", "main.go"}, true, dangerous},
		{[]string{"perl5.36", "-Mstrict", "-E", "say 1"}, true, dangerous},
		{[]string{"ruby", "-e", "puts 1"}, true, dangerous},
		{[]string{"ruby", "-rjson", "-e", "puts 1"}, true, dangerous},
		{[]string{"lua", "-e", "print(1)"}, true, dangerous},
		{[]string{"bash", "-c", "perl -ne 'print if /x/' main.go | ruby -e 'puts STDIN.read'"}, true, dangerous},
		// Not project code: package management, no such file, inline
		// code that names a path outside.
		{[]string{"yarn", "install"}, false, dangerous},
		{[]string{"yarn"}, false, none},
		{[]string{"bun", "add", "left-pad"}, false, dangerous},
		{[]string{"node", "-e", "1", "~/.ssh/id_rsa"}, false, dangerous},
		{[]string{"perl", "-pi", "-e", "s/a/b/", "~/.bashrc"}, false, dangerous},
		{[]string{"perl", "-pie", "s/a/b/", "main.go"}, false, dangerous}, // -i's extension is "e": runs the file s/a/b/
		{[]string{"perl", "-S", "x", "-e", "1"}, false, dangerous},        // a script looked up on PATH: not understood
		{[]string{"ruby", "-C", "/", "-e", "1"}, false, dangerous},        // changes directory: not understood
		{[]string{"bash", "-c", "python3 -c 'print(1)' > ~/.bashrc"}, false, dangerous},
		{[]string{"python3", "missing.py"}, false, none},
		{[]string{"gofmt", "-l", "."}, false, safe},
		{[]string{"just", "--version"}, false, safe},
		{[]string{"cargo", "fmt", "--check"}, false, safe},
		// Project code that is dangerous for another reason too keeps that
		// reason: confinement will not allow it.
		{[]string{"go", "test", "-exec", "x", "./..."}, false, dangerous},
		{[]string{"pytest", "-p", "evil"}, false, dangerous},
		{[]string{"npm", "test", "--script-shell", "./payload.sh"}, false, dangerous},
		{[]string{"npm", "run", "build", "--node-options=--require ./p.js"}, false, dangerous},
		{[]string{"npm", "run", "build", "--", "--node-options=x"}, true, dangerous},
		{[]string{"npm", "test", "--silent"}, true, dangerous},
		{[]string{"python3", filepath.Join(outside, "x.py")}, false, dangerous},
		{[]string{"../build.sh"}, false, dangerous},
		{[]string{"sh", filepath.Join(outside, "x.sh")}, false, dangerous},
		{[]string{"bash", "-c", "go test ./... > " + filepath.Join(outside, "log")}, false, dangerous},
		{[]string{"env", "GOFLAGS=-toolexec=x", "go", "test"}, false, dangerous},
		{[]string{"bash", "-c", "go test ./... && rm -rf internal"}, false, dangerous},
		{[]string{"bash", "-c", "rm -rf internal; go test ./..."}, false, dangerous},
		{[]string{"bash", "-c", "frobnicate && go test ./..."}, false, dangerous},
		{[]string{"cat", "~/.ssh/id_rsa"}, false, dangerous},
		// Blocked stays blocked.
		{[]string{"bash", "-c", "go test ./... && curl x"}, false, blocked},
		{[]string{"timeout", "5", "curl", "x"}, false, blocked},
		{[]string{"bash", "-c", "make; $(id)"}, false, inscrutable},
	}
	for _, tc := range tests {
		c, err := s.Classify(CommandSite{SandboxDir: sb}, tc.argv)
		require.NoError(t, err)
		assert.Equal(t, tc.res, c.Result, "%q: %s", tc.argv, c.Rule)
		assert.Equal(t, tc.project, c.ProjectCode, "%q: %s", tc.argv, c.Rule)
		if tc.project {
			assert.Contains(t, c.Rule, "project code", "%q", tc.argv)
			assert.NotEmpty(t, c.Reason)
		}
	}
}

// TestProjectCodeWithoutSandbox: with no sandbox known (Check), programs
// named by path and interpreters on files cannot be placed, so they are not
// labelled (they stay dangerous); named programs are.
func TestProjectCodeWithoutSandbox(t *testing.T) {
	s := NewShellAllowedCommands()
	for _, tc := range []struct {
		argv []string
		want CommandCheckResult
	}{
		{[]string{"./build.sh"}, dangerous},
		{[]string{"go", "test", "./..."}, dangerous},
		{[]string{"python3", "manage.py"}, none},
	} {
		got, err := s.Check(tc.argv)
		require.NoError(t, err)
		assert.Equal(t, tc.want, got, "%q", tc.argv)
	}
}
