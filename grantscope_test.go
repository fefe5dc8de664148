package sandboxauth

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// grantThenTry asks about first, grants it for the session with the offered
// scope, and then reports, for each later command, whether it ran without a
// person being asked.
func grantThenTry(t *testing.T, sb string, first []string, later [][]string, laterCwd string) (scope string, ran []bool) {
	t.Helper()
	a, ch, err := NewSandboxAuthorizer(nil, WithGrants(NewGrants()))
	require.NoError(t, err)
	defer a.Close()
	errc := make(chan error, 1)
	go func() { errc <- a.IsShellAuthorized(false, "", sb, sb, first) }()
	req := <-ch
	require.NotNil(t, req.AllowForSession, "a grant is offered for %q", first)
	scope = req.SessionScope
	req.AllowForSession()
	require.NoError(t, <-errc)
	for _, argv := range later {
		seen, err := answering(t, ch, false, func() error { return a.IsShellAuthorized(false, "", sb, laterCwd, argv) })
		if len(seen) == 0 {
			require.NoError(t, err, "%q", argv)
		}
		ran = append(ran, len(seen) == 0 && err == nil)
	}
	return scope, ran
}

func TestCommandGrantScopes(t *testing.T) {
	sb := hitlFixture(t)
	require.NoError(t, os.WriteFile(filepath.Join(sb, "config/.env.prod"), []byte("x"), 0o644))
	type try struct {
		argv []string
		ran  bool
	}
	tests := []struct {
		name  string
		first []string
		cwd   string // of the later calls; "" means the sandbox
		scope string
		later []try
	}{
		{"a one-command bash -c script is the same argv", []string{"bash", "-c", "npm run build"}, "",
			"run `npm run build` with any further operands (no options)", []try{
				{[]string{"npm", "run", "build"}, true},
				{[]string{"bash", "-c", "npm run build"}, true},
				{[]string{"sh", "-c", "npm  run   'build'"}, true},
				{[]string{"bash", "-c", "npm run build && curl x"}, false},
				{[]string{"bash", "-c", "npm run build > /tmp/x"}, false},
				{[]string{"npm", "run", "lint"}, false},
			}},
		{"an argv grant covers the script", []string{"npm", "run", "build"}, "",
			"run `npm run build` with any further operands (no options)", []try{
				{[]string{"bash", "-lc", "npm run build"}, true},
				{[]string{"zsh", "-c", "npm run build web"}, true},
			}},
		{"a grant for cat .env is that command only", []string{"cat", ".env"}, "",
			"run exactly `cat .env` in " + sb, []try{
				{[]string{"cat", ".env"}, true},
				{[]string{"bash", "-c", "cat .env"}, true},
				{[]string{"cat", ".env.local"}, false},
				{[]string{"cat", "config/.env"}, false},
				{[]string{"cat", ".env", "config/.env.prod"}, false},
				{[]string{"head", ".env"}, false},
			}},
		{"an exact grant is bound to its directory", []string{"cat", ".env"}, filepath.Join(sb, "config"),
			"run exactly `cat .env` in " + sb, []try{
				{[]string{"cat", ".env"}, false},
			}},
		{"a grant on .git does not reach .git/hooks", []string{"rm", ".git/config"}, "",
			"run exactly `rm .git/config` in " + sb, []try{
				{[]string{"rm", ".git/hooks/pre-commit"}, false},
				{[]string{"rm", ".git/config", ".git/hooks/pre-commit"}, false},
				{[]string{"cp", "src/main.go", ".git/hooks/pre-commit"}, false},
			}},
		{"a git push origin grant is no broader than its words", []string{"git", "push", "origin"}, "",
			"run `git push origin` with any further operands (no options)", []try{
				{[]string{"git", "push", "origin", "main"}, true},
				{[]string{"git", "push", "origin", "--force"}, false},
				{[]string{"git", "push", "origin", "-f", "main"}, false},
				{[]string{"git", "push", "origin", "+main"}, false},
				{[]string{"git", "push", "origin", ":main"}, false},
				{[]string{"git", "push", "origin", "main:release"}, false},
				{[]string{"git", "push", "origin", "--delete", "main"}, false},
				{[]string{"git", "push", "origin", "--mirror"}, false},
				{[]string{"git", "push", "upstream"}, false},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cwd := tt.cwd
			if cwd == "" {
				cwd = sb
			}
			var later [][]string
			for _, l := range tt.later {
				later = append(later, l.argv)
			}
			scope, ran := grantThenTry(t, sb, tt.first, later, cwd)
			assert.Equal(t, tt.scope, scope)
			for i, l := range tt.later {
				assert.Equal(t, l.ran, ran[i], "%q", l.argv)
			}
		})
	}
}

func TestPathGrantsKeepProtections(t *testing.T) {
	sb := hitlFixture(t)
	tests := []struct {
		name   string
		grants []Grant
		op     Operation
		path   string
		ran    bool
	}{
		{"a subtree grant on .git does not cover its hooks", []Grant{{Operation: OpWrite, Path: sb + "/.git", Subtree: true}}, OpWrite, sb + "/.git/hooks/pre-commit", false},
		{"nor .git/config itself", []Grant{{Operation: OpWrite, Path: sb + "/.git", Subtree: true}}, OpWrite, sb + "/.git/config", false},
		{"a subtree grant on the sandbox does not cover .env", []Grant{{Operation: OpRead, Path: sb, Subtree: true}}, OpRead, sb + "/.env", false},
		{"nor a link to .env", []Grant{{Operation: OpRead, Path: sb, Subtree: true}}, OpRead, sb + "/innocent", false},
		{"an exact grant of .git/config covers it", []Grant{{Operation: OpWrite, Path: sb + "/.git/config"}}, OpWrite, sb + "/.git/config", true},
		{"an exact grant of .git/config does not cover hooks", []Grant{{Operation: OpWrite, Path: sb + "/.git/config"}}, OpWrite, sb + "/.git/hooks/pre-commit", false},
		{"an exact grant of .env covers it", []Grant{{Operation: OpRead, Path: sb + "/.env"}}, OpRead, sb + "/.env", true},
		{"a subtree grant covers ordinary files", []Grant{{Operation: OpWrite, Path: sb + "/src", Subtree: true}}, OpWrite, sb + "/src/pkg/a.go", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := NewGrants()
			for _, gr := range tt.grants {
				require.NoError(t, g.Add(gr))
			}
			a, ch, err := NewPermissiveSandboxAuthorizer(nil, WithGrants(g))
			require.NoError(t, err)
			defer a.Close()
			seen, err := answering(t, ch, false, func() error {
				if tt.op == OpRead {
					return a.IsAuthorizedForRead(true, "needed", "read_file", sb, tt.path)
				}
				return a.IsAuthorizedForWrite(true, "needed", "write_file", sb, tt.path)
			})
			if tt.ran {
				assert.NoError(t, err)
				assert.Empty(t, seen)
				return
			}
			assert.ErrorIs(t, err, ErrAuthorizationDenied)
			require.Len(t, seen, 1)
			assert.Nil(t, seen[0].GrantDirs, "a protected path is offered only as itself")
		})
	}
}

func TestExactGrantRules(t *testing.T) {
	tests := []struct {
		name string
		g    Grant
		ok   bool
	}{
		{"exact", Grant{Operation: OpShell, Command: []string{"cat", ".env"}, Exact: true, Cwd: "/sb", Rule: "rule: protected path .env: .env"}, true},
		{"no directory", Grant{Operation: OpShell, Command: []string{"cat", ".env"}, Exact: true, Rule: "r"}, false},
		{"relative directory", Grant{Operation: OpShell, Command: []string{"cat", ".env"}, Exact: true, Cwd: "sb", Rule: "r"}, false},
		{"no rule", Grant{Operation: OpShell, Command: []string{"cat", ".env"}, Exact: true, Cwd: "/sb"}, false},
		{"a shell", Grant{Operation: OpShell, Command: []string{"bash", "-c", "x"}, Exact: true, Cwd: "/sb", Rule: "r"}, false},
		{"a blocked program", Grant{Operation: OpShell, Command: []string{"curl", "x"}, Exact: true, Cwd: "/sb", Rule: "r"}, false},
		{"a path program", Grant{Operation: OpShell, Command: []string{"./x"}, Exact: true, Cwd: "/sb", Rule: "r"}, false},
		{"NUL", Grant{Operation: OpShell, Command: []string{"cat", "a\x00"}, Exact: true, Cwd: "/sb", Rule: "r"}, false},
		{"directory on a word grant", Grant{Operation: OpShell, Command: []string{"make"}, Cwd: "/sb"}, false},
		{"exact path grant", Grant{Operation: OpRead, Path: "/sb/x", Exact: true}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkGrant(tt.g)
			if tt.ok {
				assert.NoError(t, err)
			} else {
				assert.ErrorIs(t, err, ErrInvalidConfig)
			}
		})
	}
}

func TestGrantArgv(t *testing.T) {
	tests := []struct {
		argv, want []string
	}{
		{[]string{"bash", "-c", "npm run test"}, []string{"npm", "run", "test"}},
		{[]string{"sh", "-c", "git push 'origin'"}, []string{"git", "push", "origin"}},
		{[]string{"bash", "-c", "a; b"}, []string{"bash", "-c", "a; b"}},
		{[]string{"bash", "-c", "X=1 make"}, []string{"bash", "-c", "X=1 make"}},
		{[]string{"bash", "-c", "ls *.go"}, []string{"bash", "-c", "ls *.go"}},
		{[]string{"bash", "-c", "make", "arg0"}, []string{"bash", "-c", "make", "arg0"}},
		{[]string{"/bin/bash", "-c", "make"}, []string{"/bin/bash", "-c", "make"}},
		{[]string{"make", "-c", "x"}, []string{"make", "-c", "x"}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, grantArgv(tt.argv), "%q", tt.argv)
	}
}

// find's -exec terminator is an argument find receives, not shell syntax;
// a ; anywhere else still is.
func TestFindExecTerminator(t *testing.T) {
	cmds := NewShellAllowedCommands()
	tests := []struct {
		argv []string
		want CommandCheckResult
		rule string
	}{
		{[]string{"find", ".", "-name", "x", "-exec", "ls", "{}", ";"}, CommandCheckResultDangerous, "dangerous: find"},
		{[]string{"timeout", "5", "find", ".", "-execdir", "rm", "{}", ";"}, CommandCheckResultDangerous, "dangerous: find"},
		{[]string{"find", ".", "-exec", "ls", ";", ";", "rm", "x"}, CommandCheckResultInscrutable, "rule: shell syntax in argv"},
		{[]string{"echo", "-exec", ";"}, CommandCheckResultInscrutable, "rule: shell syntax in argv"},
		{[]string{"find", ".", ";"}, CommandCheckResultInscrutable, "rule: shell syntax in argv"},
	}
	for _, tt := range tests {
		c, err := cmds.Classify(CommandSite{}, tt.argv)
		require.NoError(t, err)
		assert.Equal(t, tt.want, c.Result, "%q", tt.argv)
		assert.True(t, strings.HasPrefix(c.Rule, tt.rule), "%q: rule %q", tt.argv, c.Rule)
	}
}
