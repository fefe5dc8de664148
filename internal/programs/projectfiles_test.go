package programs

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestReadsProjectFiles(t *testing.T) {
	tests := []struct {
		argv []string
		want ProjectFiles
	}{
		{[]string{"npm", "ls"}, Npmrc | Corepack},
		{[]string{"pnpm", "list"}, Npmrc | Corepack | Pnpm},
		{[]string{"yarn", "why", "x"}, Npmrc | Yarnrc | Corepack},
		{[]string{"yarn", "--version"}, Npmrc | Yarnrc | Corepack},
		{[]string{"npx", "x"}, Npmrc},
		{[]string{"cargo", "metadata"}, RustToolchain | CargoConfig},
		{[]string{"rustc", "--version"}, RustToolchain},
		{[]string{"rustfmt", "--check", "src/main.rs"}, RustToolchain},
		{[]string{"pip", "list"}, PipConfig},
		{[]string{"python3", "-m", "pip", "list"}, PipConfig},
		{[]string{"python3", "-m", "pytest"}, 0},
		{[]string{"python3", "-m"}, 0},
		{[]string{"uv", "tree"}, UvConfig},
		{[]string{"go", "version"}, GoToolchain},
		{[]string{"go", "env", "GOPATH"}, GoToolchain},
		{[]string{"go", "mod", "edit", "-json"}, GoToolchain},
		{[]string{"go", "test", "./..."}, 0},
		{[]string{"go", "tool", "cover", "-func=c.out"}, 0},
		{[]string{"gofmt", "-l", "."}, 0},
		{[]string{"git", "status"}, 0},
		{[]string{"ls"}, 0},
	}
	for _, tt := range tests {
		got := ReadsProjectFiles(tt.argv[0], tt.argv[1:])
		assert.Equal(t, tt.want, got, "%q", tt.argv)
		if tt.want != 0 {
			assert.True(t, got.Has(tt.want))
		}
	}
	assert.False(t, Npmrc.Has(Npmrc|Yarnrc), "Has needs every file of the set")
}

// TestSteeringFile: the toolchain and manifest files are steering files by
// their exact base names; other names, paths and case variants are not.
func TestSteeringFile(t *testing.T) {
	for _, name := range []string{"go.mod", "go.work", "go.env", "rust-toolchain", "rust-toolchain.toml", "Cargo.toml",
		"rustfmt.toml", "pyproject.toml", "uv.toml", "pip.conf", "setup.cfg", "tox.ini", "pytest.ini", "conftest.py",
		"package.json", "pnpm-workspace.yaml", "tsconfig.json", "Makefile", "makefile", "GNUmakefile", "justfile",
		"Justfile", "mise.toml", "lefthook.yml", "lefthook.yaml"} {
		assert.True(t, SteeringFile(name), name)
	}
	for _, name := range []string{"", "main.go", "go.sum", "README.md", "MAKEFILE", "sub/go.mod", "package.json~", ".npmrc"} {
		assert.False(t, SteeringFile(name), name)
	}
}
