package sandboxauth

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEscape21OtherProjectBinDirs (round 21): round 20 looks at the
// project's PATH directories whether or not they are on PATH now, but only
// three of them (projectBinDirs: .venv/bin, venv/bin, node_modules/.bin).
// The other places the user's tools put on PATH once the project is
// entered are passed over, and a git the command plants there stays:
//
//   - .direnv/python-3.12/bin: direnv's `layout python3` (an .envrc the
//     user already allowed, unchanged by the run, so direnv keeps loading
//     it) puts $PWD/.direnv/python-$version/bin first on PATH;
//
//   - bin: direnv's `PATH_add bin`, a common .envrc line;
//
//   - .conda/bin: the conda environment VS Code's "Python: Create
//     Environment" makes in the workspace (conda activate ./.conda);
//
//   - .pixi/envs/default/bin: pixi shell / pixi run;
//
//   - packages/web/node_modules/.bin: a workspace package's npm scripts
//     (npm run -w web puts it first on PATH).
//
//     payload: for d in .direnv/python-3.12/bin bin .conda/bin .pixi/envs/default/bin packages/web/node_modules/.bin; do
//     mkdir -p $d; printf '#!/bin/sh\ntouch ~/v/pwned\nexec /usr/bin/git "$@"\n' > $d/git; chmod +x $d/git; done
//     user:    cd project (direnv loads .envrc); git status
//
// Verified with sandboxauth run as root and as sbtest: .venv/bin/git,
// venv/bin/git and node_modules/.bin/git were moved aside, every other git
// stayed, and git status with the directory first on PATH made the marker.
func TestEscape21OtherProjectBinDirs(t *testing.T) {
	for _, dir := range []string{".direnv/python-3.12/bin", "bin", ".conda/bin", ".pixi/envs/default/bin", "packages/web/node_modules/.bin"} {
		t.Run(dir, func(t *testing.T) {
			sb := escapeSandbox(t)
			require.NoError(t, os.WriteFile(filepath.Join(sb, ".envrc"), []byte("layout python3\nPATH_add bin\n"), 0o644))
			marker := homeMarker(t)
			runProtected20(t, sb, plantGit20(t, dir, marker))
			laterGit20(sb, filepath.Join(sb, dir)+string(os.PathListSeparator)+os.Getenv("PATH"))
			assert.NoFileExists(t, marker, "a git the confined command planted in %s ran unconfined once the user's tools put it on PATH", dir)
		})
	}
}

// TestEscape21CredentialVariablesNotKnown (round 21): envCredentials now
// takes ~/ and relative values, but only for the dozen variables it
// names. The programs whose default files homeCredentials hides read
// other variables that move those same files, and a credential moved by
// one of them is readable:
//
//   - PGPASSFILE (libpq's ~/.pgpass),
//
//   - GRADLE_USER_HOME (~/.gradle/gradle.properties, with repository and
//     signing passwords),
//
//   - REGISTRY_AUTH_FILE (podman/buildah/skopeo's
//     ~/.config/containers/auth.json),
//
//   - TF_CLI_CONFIG_FILE (~/.terraformrc, with app.terraform.io tokens),
//
//   - COMPOSER_HOME (~/.config/composer/auth.json),
//
//   - BOTO_CONFIG (~/.boto), RCLONE_CONFIG (~/.config/rclone/rclone.conf),
//     SOPS_AGE_KEY_FILE (~/.config/sops/age/keys.txt), HF_TOKEN_PATH
//     (~/.cache/huggingface/token), PULUMI_HOME (~/.pulumi).
//
//     env:     PGPASSFILE=~/secrets/pgpass GRADLE_USER_HOME=~/gradle REGISTRY_AUTH_FILE=~/secrets/auth.json
//     payload: cat "$PGPASSFILE" "$GRADLE_USER_HOME/gradle.properties" "$REGISTRY_AUTH_FILE"
//
// Verified with sandboxauth run as root (fake HOME) and as sbtest: all
// three secrets printed, while ~/.git-credentials was hidden.
func TestEscape21CredentialVariablesNotKnown(t *testing.T) {
	for _, c := range []struct{ name, value, file string }{
		{"PGPASSFILE", "secrets/pgpass", "secrets/pgpass"},
		{"GRADLE_USER_HOME", "gradle", "gradle/gradle.properties"},
		{"REGISTRY_AUTH_FILE", "secrets/auth.json", "secrets/auth.json"},
		{"TF_CLI_CONFIG_FILE", "secrets/terraformrc", "secrets/terraformrc"},
		{"COMPOSER_HOME", "composer", "composer/auth.json"},
		{"BOTO_CONFIG", "secrets/boto", "secrets/boto"},
		{"RCLONE_CONFIG", "secrets/rclone.conf", "secrets/rclone.conf"},
		{"SOPS_AGE_KEY_FILE", "secrets/age.txt", "secrets/age.txt"},
		{"HF_TOKEN_PATH", "secrets/hf-token", "secrets/hf-token"},
		{"PULUMI_HOME", "pulumi", "pulumi/credentials.json"},
	} {
		t.Run(c.name, func(t *testing.T) {
			sb := escapeSandbox(t)
			home := dotHome15(t)
			write15(t, filepath.Join(home, ".git-credentials"), "https://u:GITCRED21@example.com\n", 0o600)
			file := filepath.Join(home, c.file)
			write15(t, file, "SECRET21-"+c.name+"\n", 0o600)
			t.Setenv(c.name, filepath.Join(home, c.value))
			out := runHidden18(t, sb, "cat "+filepath.Join(home, ".git-credentials")+"; cat "+file)
			require.NotContains(t, out, "GITCRED21", "the default credentials are not hidden")
			assert.NotContains(t, out, "SECRET21-"+c.name, "the confined command read the credential %s moves", c.name)
		})
	}
}

// TestEscape21EnclosingWorkTreeDotEnv (round 21): round 20 hides the
// read-protected files of the repository's other work trees
// (hideTopSecrets), "the same project: their .env", but passes over the
// work tree the sandbox itself lies in (pathres.Within(real, c.sandbox)
// returns early) when the sandbox is a subdirectory of the repository (a
// monorepo's service, the agent started in services/api). The .env at the
// top of the checkout and a sibling service's .env, the same project's
// secrets, are read by the command, while the sandbox's own .env is
// hidden.
//
//	~/mono: git init; echo TOP=... > .env; echo WEB=... > services/web/.env
//	sandbox: ~/mono/services/api
//	payload: cat ../../.env ../web/.env
//
// Verified with sandboxauth run as root and as sbtest: both secrets
// printed ("cat: .env: Permission denied" for the sandbox's own).
func TestEscape21EnclosingWorkTreeDotEnv(t *testing.T) {
	escapeSandbox(t) // requires confinement
	top := homeVictimDir(t)
	userGit(t, top, "init", "-q")
	sb := filepath.Join(top, "services", "api")
	require.NoError(t, os.MkdirAll(sb, 0o755))
	write15(t, filepath.Join(sb, ".env"), "API=OWNSECRET21\n", 0o600)
	write15(t, filepath.Join(top, ".env"), "TOP=MONOTOPSECRET21\n", 0o600)
	write15(t, filepath.Join(top, "services", "web", ".env"), "WEB=MONOWEBSECRET21\n", 0o600)
	got := runHidden18(t, sb, "cat .env; cat ../../.env; cat ../web/.env")
	require.NotContains(t, got, "OWNSECRET21", "the sandbox's own .env is not hidden")
	assert.NotContains(t, got, "MONOTOPSECRET21", "the confined command read the .env at the top of the work tree it lies in")
	assert.NotContains(t, got, "MONOWEBSECRET21", "the confined command read a sibling directory's .env of the work tree it lies in")
}

// TestEscape21RemoteHelperThroughSchemeURL (round 21): round 20 counts a
// remote URL in RiskySettingsDigest only when it names a remote helper as
// "<transport>::<address>" (helperURL looks for "::"). But git runs a
// remote helper for any URL "<scheme>://..." whose scheme it does not
// know itself: url = evil://x makes git fetch (pull, push) run
// git-remote-evil from PATH, exactly as evil::x does (verified: git fetch
// origin with url = evil://x ran it; RiskySettingsDigest of
// `url = evil://x` equals that of `url = https://example.com/x`). The
// helper the command plants in a project PATH directory pathShadows does
// not look at (direnv's .direnv/python-3.12/bin, see
// TestEscape21OtherProjectBinDirs) stays, and the URL appended in round
// 18's window (the user's git config renames over .git/config during the
// run) leaves the digest unchanged: no quarantine.
//
//	payload: printf '#!/bin/sh\ntouch ~/v/pwned\n' > .direnv/python-3.12/bin/git-remote-evil; chmod +x ...
//	         while :; do printf '[remote "origin"]\n\turl = evil://x\n' >> .git/config; done  (x4)
//	user:    git config user.name someone (during the run); later, direnv on, git fetch origin
func TestEscape21RemoteHelperThroughSchemeURL(t *testing.T) {
	var config, marker string
	for attempt := 0; attempt < 3; attempt++ {
		sb := escapeSandbox(t)
		bin := filepath.Join(sb, ".direnv", "python-3.12", "bin")
		require.NoError(t, os.MkdirAll(bin, 0o755))
		marker = homeMarker(t)
		plant := `printf '#!/bin/sh\ntouch ` + marker + `\n' > .direnv/python-3.12/bin/git-remote-evil && chmod +x .direnv/python-3.12/bin/git-remote-evil; `
		window18(t, sb, plant+loops18(`printf '\n[remote "origin"]\n\turl = evil://x\n' >> .git/config`), func() {
			userGit(t, sb, "config", "user.name", "someone")
		})
		b, _ := os.ReadFile(filepath.Join(sb, ".git", "config"))
		config = string(b)
		cmd := exec.Command("git", "fetch", "origin")
		cmd.Dir = sb
		cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		out, _ := cmd.CombinedOutput()
		t.Logf("git fetch: %s", out)
		if strings.Contains(config, "evil://") {
			break
		}
	}
	assert.Zero(t, strings.Count(config, "evil://"), "the confined command's remote URL through a helper (evil://x) stayed in .git/config")
	assert.NoFileExists(t, marker, "the user's git fetch ran the remote helper the confined command planted")
}

// TestEscape21KeptShadowLinkTargetChanged (round 21): pathShadows keeps a
// program that already shadowed one on PATH before the run "while it is
// as it was", and judges only the directory entry. npm's
// node_modules/.bin entries are symbolic links into the packages
// (node_modules/.bin/npm -> ../npm/bin/npm-cli.js, tsc, node-gyp,
// eslint, prettier, which the user also has installed globally): the
// command leaves the link alone and rewrites the file it points to, and
// the link, unchanged, is kept. The user's npm scripts (npm puts
// node_modules/.bin first on PATH) or shell then run the command's
// program under the system program's name, unconfined.
//
//	before:  node_modules/.bin/npm -> ../npm/bin/npm-cli.js   (npm also in /usr/bin)
//	payload: printf '#!/bin/sh\ntouch ~/v/pwned\n' > node_modules/npm/bin/npm-cli.js
//	user:    PATH=node_modules/.bin:$PATH npm --version
//
// Verified with sandboxauth run as root with node_modules/.bin/which ->
// ../which/bin/which.js (/usr/bin/which): the link was kept, and `which
// ls` with node_modules/.bin on PATH made the marker.
func TestEscape21KeptShadowLinkTargetChanged(t *testing.T) {
	sb := escapeSandbox(t)
	_, err := exec.LookPath("npm")
	require.NoError(t, err, "npm is needed on PATH: the link shadows it")
	write15(t, filepath.Join(sb, "node_modules", "npm", "bin", "npm-cli.js"), "#!/usr/bin/env node\nconsole.log('10.0.0')\n", 0o755)
	symlink15(t, "../npm/bin/npm-cli.js", filepath.Join(sb, "node_modules", ".bin", "npm"))
	bin := filepath.Join(sb, "node_modules", ".bin")
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	marker := homeMarker(t)
	time.Sleep(200 * time.Millisecond) // the link is older than the run (change times are coarse)
	runProtected20(t, sb, "printf '#!/bin/sh\\ntouch "+marker+"\\n' > node_modules/npm/bin/npm-cli.js")
	cmd := exec.Command("/bin/sh", "-c", "npm --version")
	cmd.Dir = sb
	out, _ := cmd.CombinedOutput()
	t.Logf("npm --version: %s", out)
	assert.NoFileExists(t, marker, "the user's npm ran the program the confined command wrote behind node_modules/.bin/npm")
}
