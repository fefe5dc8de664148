package sandboxauth

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/auth"
)

// searchTree makes a sandbox with source files, a secret .env at the top
// and a .env.local deeper down, as a project has them.
func searchTree(t *testing.T) string {
	t.Helper()
	sb, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	for name, content := range map[string]string{
		"main.go":                "package main\n",
		"src/lib.go":             "package src\n",
		"src/web/app.ts":         "export {}\n",
		"docs/readme.md":         "# docs\n",
		"clean/only.go":          "package clean\n",
		".env":                   "TOKEN=secret\n",
		"config/deep/.env.local": "TOKEN=local\n",
	} {
		p := filepath.Join(sb, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o600))
	}
	return sb
}

// TestSearchReachesProtectedFiles: a search of the contents of the files
// beneath a directory asks when a read-protected file that its patterns may
// match exists beneath it, as a read of that file asks; a search that
// cannot reach one, and a listing of names, run.
func TestSearchReachesProtectedFiles(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(t *testing.T, sb string)
		view    func(a auth.Authorizer) auth.Authorizer // nil: the authorizer itself
		tool    string
		dir     string // relative to the sandbox
		wantAsk string // a substring of the question's rule, or "" for an allow
	}{
		{"Grep of the project without patterns", nil, nil, "Grep", ".", "protected path .env: "},
		{"grep_search, another agent's grep", nil, nil, "grep_search", ".", "protected path .env"},
		{"search_file_content, Gemini CLI's earlier name", nil, nil, "search_file_content", ".", "protected path .env"},
		{"glob .env*", nil, search(".env*"), "Grep", ".", "protected path .env"},
		{"glob *", nil, search("*"), "Grep", ".", "protected path .env"},
		{"glob **", nil, search("**"), "Grep", ".", "protected path .env"},
		{"glob in braces", nil, search("*.{go,local}"), "Grep", "config", "protected path .env.*"},
		{"a negation only excludes", nil, search("!*.go"), "Grep", ".", "protected path .env"},
		{"a negated class, as globs write it", nil, search(".en[!x]"), "Grep", ".", "protected path .env"},
		{"a pattern in another case", nil, search(".ENV"), "Grep", ".", "protected path .env"},
		{"deep below the directory searched", nil, nil, "Grep", "config", "protected path .env.*: "},
		{"a link named like source leading to the secret", func(t *testing.T, sb string) {
			require.NoError(t, os.Symlink("../.env", filepath.Join(sb, "clean", "settings.go")))
		}, search("*.go"), "Grep", "clean", "protected path .env: "},
		{"read_many_files through the view", nil, search("**/*"), "read_many_files", ".", "protected path .env"},
		{"glob *.go cannot match .env", nil, search("*.go"), "Grep", ".", ""},
		{"src/**/*.ts cannot either", nil, search("src/**/*.ts"), "Grep", ".", ""},
		{"a directory without secrets", nil, nil, "Grep", "clean", ""},
		{"a link to a directory is not followed", func(t *testing.T, sb string) {
			require.NoError(t, os.Symlink("../config", filepath.Join(sb, "clean", "cfg")))
		}, nil, "Grep", "clean", ""},
		{"a listing of names (Glob) reads no contents", nil, nil, "Glob", ".", ""},
		{"a listing of names (LS) reads no contents", nil, nil, "LS", ".", ""},
		{"a read of a directory by another tool", nil, nil, "read_file", ".", ""},
		{"a secret that is not read-protected", func(t *testing.T, sb string) {
			require.NoError(t, os.Remove(filepath.Join(sb, ".env")))
			require.NoError(t, os.Remove(filepath.Join(sb, "config", "deep", ".env.local")))
		}, nil, "Grep", ".", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sb := searchTree(t)
			if tt.setup != nil {
				tt.setup(t, sb)
			}
			a, ch, err := NewSandboxAuthorizer(testCommands())
			require.NoError(t, err)
			defer a.Close()
			var reader auth.Authorizer = a
			if tt.view != nil {
				reader = tt.view(a)
			}
			dir := filepath.Join(sb, tt.dir)
			seen, err := answering(t, ch, false, func() error { return reader.IsAuthorizedForRead(false, "", tt.tool, sb, dir) })
			if tt.wantAsk == "" {
				assert.NoError(t, err)
				assert.Empty(t, seen, "nobody is asked")
				return
			}
			require.Len(t, seen, 1, "a person is asked")
			assert.Contains(t, seen[0].Rule, tt.wantAsk)
			assert.Contains(t, seen[0].Rule, "which searching "+dir+" reaches")
			assert.ErrorIs(t, err, ErrAuthorizationDenied)
		})
	}
}

// search returns a view for a search with patterns.
func search(patterns ...string) func(a auth.Authorizer) auth.Authorizer {
	return func(a auth.Authorizer) auth.Authorizer { return ForSearch(a, patterns...) }
}

// TestSearchTooLargeToCheck: a search beneath more entries than the walk
// may look at asks (the authorizer's limit is maxSearchWalk; here a small
// one), naming the directory; within the limit it is decided by what it
// finds.
func TestSearchTooLargeToCheck(t *testing.T) {
	sb := searchTree(t)
	require.NoError(t, os.Remove(filepath.Join(sb, ".env"))) // found first otherwise
	rules, err := compileProtected(DefaultProtectedPaths())
	require.NoError(t, err)
	clean := filepath.Join(sb, "clean")
	c := readCall(false, "", "Grep", sb, []string{sb})
	pl, err := place(sb, c.paths)
	require.NoError(t, err)
	assert.Equal(t, "searching "+sb+" reaches more than 3 files and directories, too many to check for protected paths (search a smaller directory)",
		protectedInSearch(rules, c, &pl, 3))
	c = readCall(false, "", "Grep", sb, []string{clean})
	pl, err = place(sb, c.paths)
	require.NoError(t, err)
	assert.Empty(t, protectedInSearch(rules, c, &pl, 3), "clean/ holds one file")
}

// TestSearchWithoutReadProtection: with no path protected for reads, a
// search walks nothing and runs.
func TestSearchWithoutReadProtection(t *testing.T) {
	sb := searchTree(t)
	a, _, err := NewSandboxAuthorizer(testCommands(), WithProtectedPaths(ProtectedPath{Pattern: ".git/", Write: true}))
	require.NoError(t, err)
	defer a.Close()
	assert.NoError(t, a.IsAuthorizedForRead(false, "", "Grep", sb, sb))
}

// TestSearchReachesProtectedDirectory: a read-protected directory counts
// too: a search whose patterns may match a file in it asks.
func TestSearchReachesProtectedDirectory(t *testing.T) {
	sb := searchTree(t)
	require.NoError(t, os.MkdirAll(filepath.Join(sb, "secrets"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(sb, "secrets", "key.txt"), []byte("k"), 0o600))
	a, ch, err := NewSandboxAuthorizer(testCommands(), WithProtectedPaths(ProtectedPath{Pattern: "secrets/", Read: true}))
	require.NoError(t, err)
	defer a.Close()
	seen, err := answering(t, ch, false, func() error { return ForSearch(a, "*.txt").IsAuthorizedForRead(false, "", "Grep", sb, sb) })
	require.Len(t, seen, 1)
	assert.Contains(t, seen[0].Rule, "protected path secrets/: "+filepath.Join(sb, "secrets", "key.txt"))
	assert.ErrorIs(t, err, ErrAuthorizationDenied)
	assert.NoError(t, ForSearch(a, "*.go").IsAuthorizedForRead(false, "", "Grep", sb, sb), "*.go cannot match key.txt")
}

// TestSearchOutsideStillRefused: the view changes nothing else: a search
// outside the sandbox is refused, and writes and shell calls through the
// view are decided as without it.
func TestSearchOutsideStillRefused(t *testing.T) {
	sb := searchTree(t)
	a, _, err := NewSandboxAuthorizer(testCommands())
	require.NoError(t, err)
	defer a.Close()
	v := ForSearch(a, "*.go")
	assert.ErrorIs(t, v.IsAuthorizedForRead(false, "", "Grep", sb, "/etc"), ErrOutsideSandbox)
	assert.NoError(t, v.IsAuthorizedForWrite(false, "", "Write", sb, filepath.Join(sb, "new.go")))
	assert.NoError(t, v.IsShellAuthorized(false, "", sb, sb, []string{"ls"}))
	ca, ok := v.(ContextAuthorizer)
	require.True(t, ok, "the view is a ContextAuthorizer")
	assert.NoError(t, ca.IsAuthorizedForReadContext(t.Context(), false, "", "Grep", sb, filepath.Join(sb, "clean")))
}

func TestSearchPatternsMatch(t *testing.T) {
	tests := []struct {
		patterns []string
		name     string
		want     bool
	}{
		{nil, ".env", true},
		{[]string{"*.go"}, ".env", false},
		{[]string{"*.go"}, "a.go", true},
		{[]string{"*.go", ".env*"}, ".env", true},
		{[]string{"src/*.go"}, "a.go", true},
		{[]string{"src/*.go"}, ".env", false},
		{[]string{"src/"}, ".env", true},
		{[]string{"src/**"}, ".env", true},
		{[]string{"*.{go,ts}"}, ".env", false},
		{[]string{"*.{go,ts}"}, "x.ts", true},
		{[]string{"{*.go,.env}"}, ".env", true},
		{[]string{"*.{go,{env,x}}"}, "a.env", true},
		{[]string{"*.{go"}, ".env", true},
		{[]string{"*.go}"}, ".env", true},
		{[]string{`\{a,b\}`}, ".env", false},
		{[]string{"[!a]env"}, ".env", true},
		{[]string{"[!.]env"}, ".env", false},
		{[]string{"?env"}, ".env", true},
		{[]string{".[!x]nv"}, ".env", true},
		{[]string{".[^x]nv"}, ".env", true},
		{[]string{"[a-"}, ".env", true},
		{[]string{"!.env"}, ".env", true},
		{[]string{".ENV"}, ".env", true},
		{[]string{"*"}, ".env", true},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, searchPatternsMatch(tt.patterns, tt.name), "%q against %q", tt.patterns, tt.name)
	}
}

// BenchmarkSearchThousandFiles: a Grep of a project of 1,000 files in 100
// directories, with a .env deep down that its pattern cannot match: the
// walk a search costs on top of a read.
func BenchmarkSearchThousandFiles(b *testing.B) {
	sb, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	for d := 0; d < 100; d++ {
		dir := filepath.Join(sb, "pkg", string(rune('a'+d/26)), string(rune('a'+d%26)))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		for f := 0; f < 10; f++ {
			if err := os.WriteFile(filepath.Join(dir, string(rune('a'+f))+".go"), nil, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := os.WriteFile(filepath.Join(sb, "pkg", "a", "a", ".env"), nil, 0o600); err != nil {
		b.Fatal(err)
	}
	a, _, err := NewSandboxAuthorizer(NewShellAllowedCommands())
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	v := ForSearch(a, "*.go")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := v.IsAuthorizedForRead(false, "", "Grep", sb, sb); err != nil {
			b.Fatal(err)
		}
	}
}
