package sandboxauth

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/confine"
)

// TestEscape14RecordsOfAnotherCacheHome: bookkeepingHidden hides the
// record places the current environment names (os.UserCacheDir, that is
// XDG_CACHE_HOME or ~/.cache; XDG_RUNTIME_DIR; /tmp/sandboxauth-UID), not
// the places earlier runs used. A project run with XDG_CACHE_HOME set
// (an IDE's terminal, a direnv .envrc, a CI-like shell: records in
// $XDG_CACHE_HOME/sandboxauth, under the home, in the command's read-only
// view) and another run without it: the second one's command reads the
// first's records and flocks them. Round 13's placeholder lock comes
// back: the other project's run ends without removing its placeholders,
// some fifty files and directories it never had.
//
//	ls $HOME/alt/sandboxauth; exec flock -s $HOME/alt/sandboxauth/placeholders/<S2's digest> sleep 600
//
// The command can as well lock runs.lock (one for every sandbox)
// exclusively: every run of that record directory then waits forever.
// Verified with sandboxauth run as root and as an unprivileged user
// (flock -n -x $ALT/sandboxauth/runs.lock: taken).
func TestEscape14RecordsOfAnotherCacheHome(t *testing.T) {
	s2 := escapeSandbox(t)
	alt := filepath.Join(homeVictimDir(t), "cache")
	require.NoError(t, os.MkdirAll(alt, 0o700))
	t.Setenv("XDG_CACHE_HOME", alt)
	runs, err := confine.SandboxRecord(confine.DefaultPolicy(s2), "runs")
	require.NoError(t, err)
	records := filepath.Join(filepath.Dir(runs), "placeholders")
	// S2 was used before (with XDG_CACHE_HOME set): its record exists.
	out, err := runConfined(shIn(s2, `true`), protectedPolicy(t, s2))
	require.NoError(t, err, out)
	before, err := os.ReadDir(s2)
	require.NoError(t, err)

	// The attacker's project, run without XDG_CACHE_HOME.
	require.NoError(t, os.Unsetenv("XDG_CACHE_HOME"))
	sb := escapeSandbox(t)
	hold := shIn(sb, `ls `+filepath.Dir(runs)+` && exec flock -s `+records+`/* -c 'touch held; while [ ! -e stop ]; do sleep 0.05; done'`)
	var hout lockedOutput
	hold.Stdout, hold.Stderr = &hout, &hout
	require.NoError(t, confine.Start(hold, protectedPolicy(t, sb)))
	waitHeld(t, filepath.Join(sb, "held"), &hout)

	t.Setenv("XDG_CACHE_HOME", alt)
	out, err = runConfined(shIn(s2, `true`), protectedPolicy(t, s2))
	require.NoError(t, err, out)
	require.NoError(t, os.WriteFile(filepath.Join(sb, "stop"), nil, 0o644))
	_ = hold.Wait()
	t.Logf("attacker: %s", hout.String())

	after, err := os.ReadDir(s2)
	require.NoError(t, err)
	var names []string
	for _, e := range after {
		names = append(names, e.Name())
	}
	assert.Len(t, after, len(before), "a command of another project left the placeholders of this one's run in it: %v", names)
	assert.NoFileExists(t, filepath.Join(s2, ".mcp.json"))
}

// TestEscape14SandboxInToolchainHomes: checkSandbox refuses a sandbox
// holding a home, lying in ~/.config, ~/.local, ~/.cache or a directory
// on PATH, but not one lying in the places where the user's toolchains
// keep the code they run or build from: the global packages of a node
// version manager (~/.nvm/versions/node/V/lib/node_modules/PKG, whose
// programs ~/.nvm/versions/node/V/bin on PATH links to), cargo's
// registry sources (every other crate's build compiles them and runs
// their build.rs), Go's module cache, rustup's toolchains, pyenv's
// site-packages, VS Code server's extensions, Maven's and Gradle's
// caches. A user who runs `npm test` (or `cargo test`, `make`) in such a
// directory confines a command that rewrites what the user's programs
// run later, unconfined: here the global eslint's entry point, which
// the user runs by name from PATH.
//
//	cd ~/.nvm/versions/node/v20.0.0/lib/node_modules/eslint && sandboxauth run -- ./payload.sh
//	payload.sh: printf '#!/bin/sh\ntouch $HOME/pwned\n' > bin/eslint.js
//
// Verified with sandboxauth run as root and as an unprivileged user (the
// user's eslint printed the payload's output).
func TestEscape14SandboxInToolchainHomes(t *testing.T) {
	requireConfinement(t)
	home := homeVictimDir(t)
	t.Setenv("HOME", home)
	nodeBin := filepath.Join(home, ".nvm/versions/node/v20.0.0/bin")
	pkg := filepath.Join(home, ".nvm/versions/node/v20.0.0/lib/node_modules/eslint")
	require.NoError(t, os.MkdirAll(filepath.Join(pkg, "bin"), 0o755))
	require.NoError(t, os.MkdirAll(nodeBin, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(pkg, "bin/eslint.js"), []byte("#!/bin/sh\necho lint\n"), 0o755))
	require.NoError(t, os.Symlink("../lib/node_modules/eslint/bin/eslint.js", filepath.Join(nodeBin, "eslint")))
	t.Setenv("PATH", nodeBin+string(os.PathListSeparator)+os.Getenv("PATH"))
	marker := filepath.Join(home, "pwned")

	p := confine.DefaultPolicy(pkg)
	p, err := ProtectConfinement(p, DefaultProtectedPaths())
	if err == nil {
		var out string
		out, err = runConfined(shIn(pkg, `printf '#!/bin/sh\ntouch `+marker+`\n' > bin/eslint.js`), p)
		t.Logf("payload: %v %s", err, out)
	}
	t.Logf("confined: %v", err)
	lint, _ := exec.Command("eslint").CombinedOutput()
	t.Logf("user's eslint: %s", lint)
	assert.NoFileExists(t, marker, "the user's eslint (from PATH) ran a program a confined command rewrote")

	// The same for the other toolchains' places: the confined command
	// must not write there.
	for _, rel := range []string{
		".cargo/registry/src/index.crates.io-6f17d22bba15001f/serde-1.0.0",
		"go/pkg/mod/example.com/m@v1.0.0",
		".rustup/toolchains/stable-x86_64-unknown-linux-gnu/lib/rustlib",
		".pyenv/versions/3.12.0/lib/python3.12/site-packages/requests",
		".vscode-server/extensions/ms-python.python-2024.0.0",
		".m2/repository/org/example/lib/1.0",
		".gradle/caches/modules-2/files-2.1/org.example",
	} {
		dir := filepath.Join(home, rel)
		require.NoError(t, os.MkdirAll(dir, 0o755))
		p, err := ProtectConfinement(confine.DefaultPolicy(dir), DefaultProtectedPaths())
		if err == nil {
			_, err = runConfined(shIn(dir, `echo 'evil' > injected.rs`), p)
		}
		assert.NoFileExists(t, filepath.Join(dir, "injected.rs"), "a confined command wrote in %s (%v)", rel, err)
	}
}

// TestEscape14DotfilesLinkedIntoSandbox: checkSandbox refuses a sandbox
// that holds what ~/.config or ~/.local resolve to (a dotfiles project
// that ~/.config links into), and ProtectConfinement keeps a
// ~/.gitconfig linked into the sandbox read-only, but the other files
// of a home that a dotfiles manager (GNU stow, chezmoi's symlink mode,
// yadm, a plain `ln -s`) links into the project are not looked at: the
// shell's start-up files (~/.bashrc, ~/.profile, ~/.zshrc), programs in
// ~/.local/bin linked one by one, an application's directory in
// ~/.config (stow's ~/.config/nvim -> dotfiles/nvim: checkSandbox looks
// at where ~/.config itself resolves, not its entries). The confined command of the dotfiles
// project (`make test` there) rewrites them; the user's next shell runs
// them unconfined.
//
//	echo 'touch $HOME/pwned' >> bash/.bashrc; printf '#!/bin/sh\ntouch $HOME/pwned\n' > bin/mytool
//	echo 'os.execute("touch pwned")' >> nvim/init.lua
//
// Verified as root and as an unprivileged user (sandboxauth run).
func TestEscape14DotfilesLinkedIntoSandbox(t *testing.T) {
	sb := escapeSandbox(t)
	home := homeVictimDir(t)
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	require.NoError(t, os.MkdirAll(filepath.Join(sb, "bash"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(sb, "bin"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(home, ".local/bin"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(sb, "bash/.bashrc"), []byte("# the user's\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(sb, "bin/mytool"), []byte("#!/bin/sh\necho mine\n"), 0o755))
	require.NoError(t, os.Symlink(filepath.Join(sb, "bash/.bashrc"), filepath.Join(home, ".bashrc")))
	require.NoError(t, os.Symlink(filepath.Join(sb, "bin/mytool"), filepath.Join(home, ".local/bin/mytool")))
	// stow links each application's directory: ~/.config/nvim -> dotfiles/nvim
	require.NoError(t, os.MkdirAll(filepath.Join(sb, "nvim"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(home, ".config"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(sb, "nvim/init.lua"), []byte("-- mine\n"), 0o644))
	require.NoError(t, os.Symlink(filepath.Join(sb, "nvim"), filepath.Join(home, ".config/nvim")))

	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	if err == nil {
		var out string
		out, err = runConfined(shIn(sb, `echo 'echo PWNED' >> bash/.bashrc; printf '#!/bin/sh\necho hijacked\n' > bin/mytool; echo 'os.execute("touch pwned")' >> nvim/init.lua`), p)
		t.Logf("payload: %s", out)
	}
	t.Logf("confined: %v", err)
	b, _ := os.ReadFile(filepath.Join(home, ".bashrc"))
	assert.Equal(t, "# the user's\n", string(b), "a confined command changed ~/.bashrc (a link into its sandbox), which the user's next shell runs")
	b, _ = os.ReadFile(filepath.Join(home, ".local/bin/mytool"))
	assert.Equal(t, "#!/bin/sh\necho mine\n", string(b), "a confined command changed ~/.local/bin/mytool (a link into its sandbox)")
	b, _ = os.ReadFile(filepath.Join(home, ".config/nvim/init.lua"))
	assert.Equal(t, "-- mine\n", string(b), "a confined command changed ~/.config/nvim/init.lua (~/.config/nvim a link into its sandbox), which the user's next nvim runs")
}

// TestEscape14GroupsOfAnotherCacheHome: the runs of one sandbox share a
// group (one baseline, judged by the last run) through records in the
// record directory, which the current environment chooses
// (XDG_CACHE_HOME). Two runs of the same project begun with different
// XDG_CACHE_HOME (the dev server started from an IDE's terminal or a
// direnv'd shell, `sandboxauth run -- make` from another) are two groups
// with a baseline each, and overlapping (which waits for a group of a
// sandbox holding this one, or lying in it) does not see the other
// record directory either. Round 11's swap comes back: run A appends a
// core.fsmonitor to a repository of the user's deep in the project; run
// B begins (its baseline holds the changed config); A writes the
// original back and ends (nothing changed for A); B writes the fsmonitor
// again and ends (nothing changed for B). The user's git status runs it.
func TestEscape14GroupsOfAnotherCacheHome(t *testing.T) {
	sb := escapeSandbox(t)
	marker := homeMarker(t)
	alt := filepath.Join(homeVictimDir(t), "cache")
	require.NoError(t, os.MkdirAll(alt, 0o700))
	repo := filepath.Join(sb, "a/b/c/d/e/f")
	require.NoError(t, os.MkdirAll(repo, 0o755))
	out, err := exec.Command("git", "init", "-q", repo).CombinedOutput()
	require.NoError(t, err, "%s", out)
	g := "a/b/c/d/e/f/.git"
	line := `printf '\tfsmonitor = "touch ` + marker + `; false"\n' >> `

	t.Setenv("XDG_CACHE_HOME", alt)
	a := shIn(sb, `set -e
cp `+g+`/config /tmp/orig
`+line+g+`/config
touch ready-a
while [ ! -e go-a ]; do sleep 0.05; done
cat /tmp/orig > `+g+`/config`)
	require.NoError(t, confine.Start(a, protectedPolicy(t, sb)))
	waitFile(t, filepath.Join(sb, "ready-a"))

	require.NoError(t, os.Unsetenv("XDG_CACHE_HOME"))
	b := shIn(sb, `set -e
touch ready-b
while [ ! -e a-ended ]; do sleep 0.05; done
`+line+g+`/config`)
	started := make(chan error, 1)
	go func() { started <- confine.Start(b, protectedPolicy(t, sb)) }()
	select {
	case err := <-started:
		require.NoError(t, err)
		waitFile(t, filepath.Join(sb, "ready-b"))
		require.NoError(t, os.WriteFile(filepath.Join(sb, "go-a"), nil, 0o644))
		require.NoError(t, a.Wait())
	case <-time.After(2 * time.Second):
		t.Log("B waits for A's run to end")
		require.NoError(t, os.WriteFile(filepath.Join(sb, "go-a"), nil, 0o644))
		require.NoError(t, a.Wait())
		require.NoError(t, <-started)
	}
	require.NoError(t, os.WriteFile(filepath.Join(sb, "a-ended"), nil, 0o644))
	require.NoError(t, b.Wait())

	cfg, _ := os.ReadFile(filepath.Join(repo, ".git/config"))
	t.Logf("config after both runs:\n%s", cfg)
	t.Logf("git status: %s", userGit(t, repo, "status", "--short"))
	assert.NoFileExists(t, marker, "git status ran an fsmonitor that two runs of one project, begun with different XDG_CACHE_HOME, passed between them")
}

// TestEscape14ProtectedMatchInSkippedDirectory: the deep scan looks for
// write-protected matches made or changed by the command everywhere but
// in git directories and in the directories the walk skips (walkSkip:
// node_modules, vendor, target, dist, build, .venv, .cache, ...), at any
// depth. A workspace member named like one of them (crates/build, a Go
// build/ package, a tools/dist crate) is the project's own code, where
// the user runs cargo: crates/build/rust-toolchain.toml with
// `path = ".../tc"` makes the user's next `cargo` there run tc/bin/cargo,
// the command's program, unconfined (verified with rustup: `cd
// crates/build && cargo --version` printed the payload's output). The
// same for .cargo/config.toml (rustc-wrapper), .npmrc, mise.toml.
//
//	mkdir -p crates/build/tc/bin && printf '#!/bin/sh\ntouch $HOME/pwned\n' > crates/build/tc/bin/cargo && chmod +x crates/build/tc/bin/cargo
//	printf '[toolchain]\npath = "%s/crates/build/tc"\n' "$PWD" > crates/build/rust-toolchain.toml
func TestEscape14ProtectedMatchInSkippedDirectory(t *testing.T) {
	sb := escapeSandbox(t)
	marker := homeMarker(t)
	require.NoError(t, os.MkdirAll(filepath.Join(sb, "crates/build/src"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(sb, "crates/build/Cargo.toml"), []byte("[package]\nname = \"build\"\nversion = \"0.1.0\"\n"), 0o644))
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	out, err := runConfined(shIn(sb, `set -e
mkdir -p crates/build/tc/bin crates/build/.cargo
printf '#!/bin/sh\ntouch `+marker+`\n' > crates/build/tc/bin/cargo; chmod +x crates/build/tc/bin/cargo
printf '[toolchain]\npath = "%s/crates/build/tc"\n' "$PWD" > crates/build/rust-toolchain.toml
printf '[build]\nrustc-wrapper = "/bin/true"\n' > crates/build/.cargo/config.toml
echo 'registry=http://127.0.0.1:9/' > crates/build/.npmrc
printf '[env]\nX = "1"\n' > crates/build/mise.toml`), p)
	require.NoError(t, err, out)
	if cargo, err := exec.LookPath("cargo"); err == nil {
		c := exec.Command(cargo, "--version")
		c.Dir = filepath.Join(sb, "crates/build")
		b, _ := c.CombinedOutput()
		t.Logf("the user's cargo in crates/build: %s", b)
		assert.NoFileExists(t, marker, "the user's cargo ran the toolchain a confined command named in crates/build/rust-toolchain.toml")
	}
	for _, rel := range []string{"crates/build/rust-toolchain.toml", "crates/build/.cargo/config.toml", "crates/build/.npmrc", "crates/build/mise.toml"} {
		assert.NoFileExists(t, filepath.Join(sb, rel), "the confined command created the protected %s", rel)
	}
}
