package sandboxauth

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sandboxauth/sandboxauth/internal/pathres"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// envrcDirs returns what the project's .envrc (and the files it reads,
// files: name to content) puts on PATH.
func envrcDirs(t *testing.T, envrc string, files map[string]string) (string, *pathDirs) {
	t.Helper()
	sb, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	for _, d := range []string{"tools", "bin", "a/bin", "pfx/bin", "pfx/sbin", "a/b"} {
		require.NoError(t, os.MkdirAll(filepath.Join(sb, d), 0o755))
	}
	require.NoError(t, os.WriteFile(filepath.Join(sb, ".envrc"), []byte(envrc), 0o644))
	for name, content := range files {
		require.NoError(t, os.WriteFile(filepath.Join(sb, name), []byte(content), 0o644))
	}
	p := &pathDirs{sandbox: sb, known: map[string]bool{}}
	readEnvrcPath(sb, p)
	return sb, p
}

// TestEnvrcPath: the spellings direnv's stdlib and bash accept for a
// directory on PATH are read; what touches PATH and is not understood
// makes every directory one on PATH (the relative entry "."), round 25b.
func TestEnvrcPath(t *testing.T) {
	t.Setenv("HOME", "/nonexistent-home")
	for _, tc := range []struct {
		name, envrc string
		files       map[string]string
		inside      []string // relative to the sandbox
		relative    []string
	}{
		{name: "bare PATH_add", envrc: "PATH_add tools\n", inside: []string{"tools"}},
		{name: "quoted PATH_add", envrc: `PATH_add "tools" 'bin'` + "\n", inside: []string{"tools", "bin"}},
		{name: "PATH_add with PWD", envrc: `PATH_add "${PWD}/tools"` + "\n", inside: []string{"tools"}},
		{name: "path_add PATH", envrc: "path_add PATH tools\n", inside: []string{"tools"}},
		{name: "path_add another variable", envrc: "path_add PYTHONPATH tools\n"},
		{name: "load_prefix", envrc: "load_prefix pfx\n", inside: []string{"pfx/bin", "pfx/sbin"}},
		{name: "export PWD", envrc: "export PATH=$PWD/tools:$PATH\n", inside: []string{"tools"}},
		{name: "export braced and quoted", envrc: `export PATH="${PWD}/tools:${PATH}"` + "\n", inside: []string{"tools"}},
		{name: "plain assignment, relative piece", envrc: "PATH=tools:$PATH\n", relative: []string{"tools"}},
		{name: "append", envrc: "PATH+=:bin\n", relative: []string{"bin"}},
		{name: "empty piece is the working directory", envrc: "export PATH=:$PATH\n", relative: []string{"."}},
		{name: "inside an if", envrc: "if true; then\n  PATH_add a/bin\nfi\n", inside: []string{"a/bin"}},
		{name: "sourced file", envrc: "source_env .envrc.local\n", files: map[string]string{".envrc.local": "PATH_add tools\n"}, inside: []string{"tools"}},
		{name: "dotenv", envrc: "dotenv\n", files: map[string]string{".env": "PATH=./bin:$PATH\n"}, relative: []string{"bin"}},
		{name: "a package's .envrc", envrc: "", files: map[string]string{"a/.envrc": "PATH_add bin\n"}, inside: []string{"a/bin"}},
		{name: "source_env reads from the file's directory", envrc: "", files: map[string]string{"a/.envrc": "source_env b/env.sh\n", "a/b/env.sh": "PATH_add bin\n"}, inside: []string{"a/b/bin"}},
		{name: "plain source stays in the .envrc's directory", envrc: "", files: map[string]string{"a/.envrc": "source ../x.sh\n", "x.sh": "PATH_add b\n"}, inside: []string{"a/b"}},
		{name: "no PATH", envrc: "export FOO=bar\nlayout python3\nlayout go\n"},
		{name: "layout php", envrc: "layout php\n", inside: []string{"vendor/bin"}},
		{name: "layout ruby", envrc: "layout ruby\n", inside: []string{".direnv/bin"}},
		{name: "layout opam", envrc: "layout opam\n", inside: []string{"_opam/bin", "_opam/sbin"}},
		{name: "layout of the user's", envrc: "layout mine\n", relative: []string{"."}},
		{name: "layout anaconda", envrc: "layout anaconda ./env\n", relative: []string{"."}},
		{name: "command substitution", envrc: "export PATH=$(pwd)/tools:$PATH\n", relative: []string{"."}},
		{name: "other variable", envrc: "export PATH=$TOOLS:$PATH\n", relative: []string{"."}},
		{name: "PATH_add of a variable", envrc: "PATH_add $TOOLS\n", relative: []string{"."}},
		{name: "PATH_add of a pattern", envrc: "PATH_add tools/*\n", relative: []string{"."}},
		{name: "PATH_add of a brace expansion", envrc: "PATH_add {tools,bin}\n", relative: []string{"."}},
		{name: "quoted pattern is literal", envrc: "PATH_add 'tools*'\n", inside: []string{"tools*"}},
		{name: "eval", envrc: "eval \"$(tool env)\"\n", relative: []string{"."}},
		{name: "dynamic export", envrc: "export \"PATH=tools:$PATH\"\n", relative: []string{"."}},
		{name: "read into PATH", envrc: "read -r PATH < file\n", relative: []string{"."}},
		{name: "parse error", envrc: "PATH_add (\n", relative: []string{"."}},
		{name: "mid-PATH marker", envrc: "export PATH=$PATH/x\n", relative: []string{"."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sb, p := envrcDirs(t, tc.envrc, tc.files)
			var inside []string
			for _, d := range tc.inside {
				inside = append(inside, filepath.Join(sb, d))
			}
			assert.ElementsMatch(t, inside, p.inside)
			assert.ElementsMatch(t, tc.relative, p.relative)
		})
	}
}

// FuzzEnvrcPath: reading any .envrc neither panics nor records as inside
// the sandbox a directory that lies outside it.
func FuzzEnvrcPath(f *testing.F) {
	for _, s := range []string{"PATH_add tools\n", `path_add PATH "a b"`, "export PATH=$PWD/x:$PATH\n", "PATH+=:~/bin",
		"source_env .\n", "dotenv .envrc\n", "eval x\n", "declare -x PATH=${PWD}/bin\n", "load_prefix ''\n", "PATH[1]=x\n"} {
		f.Add(s)
	}
	sb, err := filepath.EvalSymlinks(f.TempDir())
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, envrc string) {
		require.NoError(t, os.WriteFile(filepath.Join(sb, ".envrc"), []byte(envrc), 0o644))
		p := &pathDirs{sandbox: sb, known: map[string]bool{}}
		readEnvrcPath(sb, p)
		for _, d := range p.inside {
			assert.True(t, pathres.Within(sb, d), d)
		}
	})
}
