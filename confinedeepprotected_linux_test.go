package sandboxauth

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEscapeProtectedDeeperThanWalk: a write-protected file deeper than
// the walk reaches (a/b/c/d/e: the walk reads three levels) is neither
// read-only nor, before this, judged after the run. The command creates
// a/b/c/d/e/.cargo/config.toml with a rustc wrapper: the user's next
// cargo build in a/b/c/d/e runs it, unconfined. It changes the user's
// own rust-toolchain.toml and .vscode/settings.json there (a toolchain
// path, a task the editor runs on opening the folder). Each is moved
// aside after the run. What the command makes in a dependency directory
// (node_modules/x/.npmrc) or a framework's build output
// (.next/standalone/.env), which no one works in, and the user's deep
// protected files it did not touch, stay.
//
//	mkdir -p a/b/c/d/e/.cargo; printf '[build]\nrustc-wrapper = "%s"\n' $PWD/evil.sh > a/b/c/d/e/.cargo/config.toml
func TestEscapeProtectedDeeperThanWalk(t *testing.T) {
	sb := escapeSandbox(t)
	deep := filepath.Join(sb, "a/b/c/d/e")
	other := filepath.Join(sb, "a/b/c/d/f")
	for _, d := range []string{filepath.Join(deep, ".vscode"), filepath.Join(other, ".vscode"), filepath.Join(sb, "node_modules/x")} {
		require.NoError(t, os.MkdirAll(d, 0o755))
	}
	files := map[string]string{
		filepath.Join(deep, "rust-toolchain.toml"):       "[toolchain]\nchannel = \"stable\"\n",
		filepath.Join(deep, ".vscode", "settings.json"):  "{}\n",
		filepath.Join(other, "rust-toolchain.toml"):      "[toolchain]\nchannel = \"stable\"\n",
		filepath.Join(other, ".vscode", "settings.json"): "{}\n",
		filepath.Join(sb, "node_modules/x/package.json"): "{}\n",
	}
	for path, content := range files {
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	}
	marker := homeMarker(t)
	out, err := runConfined(shIn(sb, `set -e
d=a/b/c/d/e
printf '#!/bin/sh\ntouch `+marker+`\nexec "$@"\n' > evil.sh; chmod +x evil.sh
mkdir -p $d/.cargo
printf '[build]\nrustc-wrapper = "%s"\n' "$PWD/evil.sh" > $d/.cargo/config.toml
printf '[toolchain]\npath = "%s"\n' "$PWD/tc" > $d/rust-toolchain.toml
printf '{"task.allowAutomaticTasks": "on"}\n' > $d/.vscode/settings.json
printf 'script-shell=%s\n' "$PWD/evil.sh" > node_modules/x/.npmrc
mkdir -p web/.next/standalone && echo 'API=1' > web/.next/standalone/.env`), protectedPolicy(t, sb))
	require.NoError(t, err, out)

	assert.NoFileExists(t, filepath.Join(deep, ".cargo", "config.toml"), "a cargo configuration made deeper than the walk was left")
	assert.NoFileExists(t, filepath.Join(deep, "rust-toolchain.toml"), "a toolchain file changed deeper than the walk was left")
	assert.NoDirExists(t, filepath.Join(deep, ".vscode"), "editor settings changed deeper than the walk were left")
	for _, path := range []string{filepath.Join(other, "rust-toolchain.toml"), filepath.Join(other, ".vscode", "settings.json")} {
		b, err := os.ReadFile(path)
		require.NoError(t, err, "a deep protected file the command did not touch was moved")
		assert.Equal(t, files[path], string(b))
	}
	assert.FileExists(t, filepath.Join(sb, "node_modules/x/.npmrc"), "a file of a dependency directory was moved aside")
	assert.FileExists(t, filepath.Join(sb, "web/.next/standalone/.env"), "the .env a framework's build copies into its output was moved aside")

	if cargo, err := exec.LookPath("cargo"); err == nil {
		require.NoError(t, os.WriteFile(filepath.Join(deep, "Cargo.toml"), []byte("[package]\nname = \"x\"\nversion = \"0.1.0\"\nedition = \"2021\"\n"), 0o644))
		require.NoError(t, os.MkdirAll(filepath.Join(deep, "src"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(deep, "src", "main.rs"), []byte("fn main() {}\n"), 0o644))
		build := exec.Command(cargo, "build", "--offline", "-q")
		build.Dir = deep
		build.Env = append(os.Environ(), "CARGO_TARGET_DIR="+t.TempDir())
		b, err := build.CombinedOutput()
		t.Logf("cargo build: %v %s", err, b)
		assert.NoFileExists(t, marker, "the user's cargo build ran the command's rustc wrapper")
	}
}
