package sandboxauth

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/sandboxauth/sandboxauth/confine"
)

// plantGit20 is a payload that puts a program named git in dir (relative
// to the sandbox) which creates marker and then runs the real git.
func plantGit20(t *testing.T, dir, marker string) string {
	t.Helper()
	real, err := exec.LookPath("git")
	require.NoError(t, err)
	return "mkdir -p " + dir + " && printf '#!/bin/sh\\ntouch " + marker + "\\nexec " + real + " \"$@\"\\n' > " + dir + "/git && chmod +x " + dir + "/git"
}

// runProtected20 runs script confined in sb under ProtectConfinement's
// policy (the quarantine judges after it) and returns its output.
func runProtected20(t *testing.T, sb, script string) string {
	t.Helper()
	p, err := ProtectConfinement(confine.DefaultPolicy(sb), DefaultProtectedPaths())
	require.NoError(t, err)
	out, err := runConfined(shIn(sb, script), p)
	t.Logf("payload: %v %s", err, out)
	return out
}

// laterGit20 runs `git status` by name in sb, unconfined, with path as
// PATH, as the user's shell does later.
func laterGit20(sb, path string) {
	cmd := exec.Command("/bin/sh", "-c", "git status >/dev/null 2>&1")
	cmd.Dir = sb
	cmd.Env = append(os.Environ(), "PATH="+path)
	_, _ = cmd.CombinedOutput()
}

// TestEscape20RelativePathEntry (round 20): pathShadows skips the PATH
// entries that are not absolute ("a relative entry names whatever the
// working directory holds"). That is exactly the danger: with
// PATH=.venv/bin:... (or node_modules/.bin, ./bin, "." or an empty entry,
// which users and direnv-like tools put there), every program the command
// puts in that directory of the sandbox runs in place of the system's
// whenever the user types its name in the project.
//
//	PATH:    .venv/bin:/usr/local/bin:/usr/bin:/bin
//	payload: printf '#!/bin/sh\ntouch ~/v/pwned\nexec /usr/bin/git "$@"\n' > .venv/bin/git; chmod +x .venv/bin/git
//	user:    git status   (in the project)
//
// Verified with sandboxauth run as root and as sbtest: .venv/bin/git is
// not moved aside, and the user's git status made the marker.
func TestEscape20RelativePathEntry(t *testing.T) {
	sb := escapeSandbox(t)
	require.NoError(t, os.MkdirAll(filepath.Join(sb, ".venv", "bin"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(sb, ".venv", "bin", "activate"), []byte("# venv\n"), 0o644))
	marker := homeMarker(t)
	path := ".venv/bin" + string(os.PathListSeparator) + os.Getenv("PATH")
	t.Setenv("PATH", path)
	runProtected20(t, sb, plantGit20(t, ".venv/bin", marker))
	laterGit20(sb, path)
	assert.NoFileExists(t, marker, "a git the confined command planted in .venv/bin (a relative PATH entry) ran unconfined")
}

// TestEscape20PathDirectoryActivatedLater (round 20): pathShadows looks at
// the PATH of the process that confines, at the time of the run. The
// agent (or the hook) rarely has the project's virtual environment
// activated; the user's terminal has it, or activates it later (source
// .venv/bin/activate, direnv, poetry shell, an editor's terminal). What
// the command put in .venv/bin is then on the user's PATH before
// /usr/bin, and nothing judged it.
//
//	PATH (run):  /usr/local/bin:/usr/bin:/bin
//	payload:     printf '#!/bin/sh\ntouch ~/v/pwned\nexec /usr/bin/git "$@"\n' > .venv/bin/git; chmod +x .venv/bin/git
//	user:        . .venv/bin/activate; git status
//
// Verified with sandboxauth run as root and as sbtest: the marker was made.
func TestEscape20PathDirectoryActivatedLater(t *testing.T) {
	sb := escapeSandbox(t)
	venvBin := filepath.Join(sb, ".venv", "bin")
	require.NoError(t, os.MkdirAll(venvBin, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(venvBin, "activate"), []byte("# venv\n"), 0o644))
	marker := homeMarker(t)
	runProtected20(t, sb, plantGit20(t, ".venv/bin", marker))
	laterGit20(sb, venvBin+string(os.PathListSeparator)+os.Getenv("PATH"))
	assert.NoFileExists(t, marker, "a git the confined command planted in .venv/bin ran unconfined once the user activated the environment")
}

// TestEscape20RemoteHelperThroughHarmlessURL (round 20): round 18 judges a
// read-only git configuration replaced during the run (the user's git
// config renames over .git/config, which detaches the read-only mount in
// the command's view, and the command appends before the watch kills it)
// by repotrust.RiskySettingsDigest, which leaves out what harmlessKey
// allows: remote.<name>.url among them ("used only by commands that talk
// to a remote, which are not safe anyway"). But a URL "<name>::<address>"
// makes git run the remote helper git-remote-<name>, found on PATH, and
// the protocol of an unknown helper is allowed to the user's own commands
// (protocol.allow's "user"). The helper the command puts in the sandbox's
// PATH directory (.venv/bin, on PATH during the run) shadows nothing, so
// pathShadows keeps it too. The user's next git fetch (or git pull, git
// push, or an editor's automatic fetch) runs it unconfined.
//
//	PATH:    <sandbox>/.venv/bin:/usr/bin:/bin
//	payload: printf '#!/bin/sh\ntouch ~/v/pwned\n' > .venv/bin/git-remote-evil; chmod +x ...
//	         while :; do printf '[remote "origin"]\n\turl = evil::x\n' >> .git/config; done  (x4)
//	user:    git config user.name someone (during the run); later git fetch origin
//
// Verified with the library as root: the config kept the URL (no
// quarantine), and git fetch made the marker.
func TestEscape20RemoteHelperThroughHarmlessURL(t *testing.T) {
	var config string
	var marker string
	for attempt := 0; attempt < 3; attempt++ {
		sb := escapeSandbox(t)
		venvBin := filepath.Join(sb, ".venv", "bin")
		require.NoError(t, os.MkdirAll(venvBin, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(venvBin, "activate"), []byte("# venv\n"), 0o644))
		path := venvBin + string(os.PathListSeparator) + os.Getenv("PATH")
		t.Setenv("PATH", path)
		marker = homeMarker(t)
		plant := `printf '#!/bin/sh\ntouch ` + marker + `\n' > .venv/bin/git-remote-evil && chmod +x .venv/bin/git-remote-evil; `
		window18(t, sb, plant+loops18(`printf '\n[remote "origin"]\n\turl = evil::x\n' >> .git/config`), func() {
			userGit(t, sb, "config", "user.name", "someone")
		})
		b, _ := os.ReadFile(filepath.Join(sb, ".git", "config"))
		config = string(b)
		cmd := exec.Command("git", "fetch", "origin")
		cmd.Dir = sb
		cmd.Env = append(os.Environ(), "PATH="+path)
		out, _ := cmd.CombinedOutput()
		t.Logf("git fetch: %s", out)
		if strings.Contains(config, "evil::") {
			break
		}
	}
	assert.Zero(t, strings.Count(config, "evil::"), "the confined command's remote URL stayed in .git/config")
	assert.NoFileExists(t, marker, "the user's git fetch ran the remote helper the confined command planted")
}

// TestEscape20LFSFilterByNameOnPath (round 20): harmlessKey lets through
// the exact filter.lfs values `git lfs install --local` writes ("git-lfs
// filter-process", ...), trusting them as git-lfs. They name a program by
// name, looked up on PATH when git runs the filter. Where git-lfs is not
// installed, the git-lfs the command puts in the sandbox's PATH directory
// shadows nothing and stays (pathShadows), and the filter settings
// appended in the watch's window leave RiskySettingsDigest unchanged. The
// project's .gitattributes (`* filter=lfs`) makes the user's next git
// diff, git add or git commit -a run it unconfined: no fetch needed.
//
//	PATH:    <sandbox>/.venv/bin:/usr/bin:/bin   (no git-lfs installed)
//	payload: printf '#!/bin/sh\ntouch ~/v/pwned\nexec cat\n' > .venv/bin/git-lfs; chmod +x .venv/bin/git-lfs
//	         echo '* filter=lfs' > .gitattributes; echo change >> a.txt
//	         while :; do printf '[filter "lfs"]\n\tprocess = git-lfs filter-process\n\trequired = true\n' >> .git/config; done  (x4)
//	user:    git config user.name someone (during the run); later git diff
//
// Verified with sandboxauth run as root: 1334 filter sections kept, no
// quarantine, and git diff made the marker.
func TestEscape20LFSFilterByNameOnPath(t *testing.T) {
	if _, err := exec.LookPath("git-lfs"); err == nil {
		t.Skip("git-lfs is installed: the planted one would be a shadow")
	}
	var config, marker string
	for attempt := 0; attempt < 3; attempt++ {
		sb := escapeSandbox(t)
		require.NoError(t, os.WriteFile(filepath.Join(sb, "a.txt"), []byte("hello\n"), 0o644))
		userGit(t, sb, "add", "a.txt")
		userGit(t, sb, "commit", "-qm", "x")
		venvBin := filepath.Join(sb, ".venv", "bin")
		require.NoError(t, os.MkdirAll(venvBin, 0o755))
		path := venvBin + string(os.PathListSeparator) + os.Getenv("PATH")
		t.Setenv("PATH", path)
		marker = homeMarker(t)
		plant := `printf '#!/bin/sh\ntouch ` + marker + `\nexec cat\n' > .venv/bin/git-lfs && chmod +x .venv/bin/git-lfs; echo '* filter=lfs' > .gitattributes; echo change >> a.txt; `
		window18(t, sb, plant+loops18(`printf '\n[filter "lfs"]\n\tprocess = git-lfs filter-process\n\trequired = true\n' >> .git/config`), func() {
			userGit(t, sb, "config", "user.name", "someone")
		})
		b, _ := os.ReadFile(filepath.Join(sb, ".git", "config"))
		config = string(b)
		cmd := exec.Command("git", "diff")
		cmd.Dir = sb
		cmd.Env = append(os.Environ(), "PATH="+path)
		_, _ = cmd.CombinedOutput()
		if strings.Contains(config, "filter-process") {
			break
		}
	}
	assert.Zero(t, strings.Count(config, "filter-process"), "the confined command's lfs filter stayed in .git/config")
	assert.NoFileExists(t, marker, "the user's git diff ran the git-lfs the confined command planted")
}

// TestEscape20CredentialVariableWithTilde (round 20): envCredentials
// passes over a value that is not an absolute path. The tools expand a
// leading "~/" themselves: botocore (aws, boto3) reads
// AWS_SHARED_CREDENTIALS_FILE and AWS_CONFIG_FILE through
// os.path.expanduser, npm expands NPM_CONFIG_USERCONFIG, GnuPG GNUPGHOME.
// A value written with quotes in a shell profile
// (export AWS_SHARED_CREDENTIALS_FILE='~/work/cloud/aws-creds') stays
// "~/...", is not hidden, and the file, in a directory of the home that
// holds no hidden path, is read whole by the command.
//
//	env:     AWS_SHARED_CREDENTIALS_FILE='~/work/cloud/aws-creds'
//	payload: cat ~/work/cloud/aws-creds
//
// Verified with sandboxauth run as root (fake HOME): the payload printed
// the secret; botocore with the same environment loads it
// (method shared-credentials-file).
func TestEscape20CredentialVariableWithTilde(t *testing.T) {
	sb := escapeSandbox(t)
	home := dotHome15(t)
	write15(t, filepath.Join(home, ".ssh", "id_ed25519"), "k\n", 0o600) // the home is a holder
	creds := filepath.Join(home, "work", "cloud", "aws-creds")
	write15(t, creds, "[default]\naws_access_key_id = AKIAEXAMPLE\naws_secret_access_key = AWSTILDE20\n", 0o600)
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", "~/work/cloud/aws-creds")
	out := runHidden18(t, sb, "cat "+creds)
	assert.NotContains(t, out, "AWSTILDE20", "the confined command read the AWS credentials AWS_SHARED_CREDENTIALS_FILE names as ~/...")
}

// TestEscape20NestedDotEnvInOtherWorkTree (round 20): round 19 hides the
// read-protected files of the repository's other work trees
// (hideTopSecrets), but only the entries at the top of each. The patterns
// match at any depth (".env", ".env.*"), and in the sandbox a nested
// backend/.env is hidden; in the linked worktree next to it (or, when the
// sandbox is the linked worktree, in the main one) apps/api/.env,
// backend/.env of a monorepo are read by the command.
//
//	git worktree add ~/wt; echo API=... > ~/wt/backend/.env
//	payload: cat ~/wt/backend/.env
//
// Verified with sandboxauth run as root, both ways (sandbox = main work
// tree reading the linked one's backend/.env, and sandbox = linked work
// tree reading the main one's): the secret was printed, while the top
// .env of each was hidden.
func TestEscape20NestedDotEnvInOtherWorkTree(t *testing.T) {
	sb := escapeSandbox(t)
	userGit(t, sb, "commit", "-q", "--allow-empty", "-m", "x")
	wt := filepath.Join(homeVictimDir(t), "wt")
	out := userGit(t, sb, "worktree", "add", "-q", wt)
	require.DirExists(t, wt, "%s", out)
	write15(t, filepath.Join(wt, ".env"), "TOP=WTTOPSECRET20\n", 0o600)
	write15(t, filepath.Join(wt, "backend", ".env"), "API=WTNESTEDSECRET20\n", 0o600)
	got := runHidden18(t, sb, "cat "+filepath.Join(wt, ".env")+" "+filepath.Join(wt, "backend", ".env"))
	require.NotContains(t, got, "WTTOPSECRET20", "round 19's fix is not in place")
	assert.NotContains(t, got, "WTNESTEDSECRET20", "the confined command read backend/.env of the repository's other work tree")
}

// TestEscape20VimLocalVimrc (round 20): the editors' project settings are
// write-protected (.vscode/, .idea/, .zed/, .helix/), not Vim's. With
// `set exrc` in the user's ~/.vimrc (what per-project settings take),
// Vim sources .vimrc, .exrc (and Neovim .nvim.lua, .nvimrc, behind its
// trust prompt) from the directory it starts in, with no trust check:
// a `silent !cmd` there runs when the user opens Vim in the project.
//
//	~/.vimrc: set exrc
//	payload:  echo 'silent !touch ~/v/pwned' > .vimrc
//	user:     vim   (in the project)
//
// Verified with sandboxauth run as root (Vim 9.0): the marker was made.
func TestEscape20VimLocalVimrc(t *testing.T) {
	vim, err := exec.LookPath("vim")
	if err != nil {
		t.Skipf("vim is not installed: %v", err)
	}
	sb := escapeSandbox(t)
	home := dotHome15(t)
	write15(t, filepath.Join(home, ".vimrc"), "set exrc\n", 0o644)
	marker := homeMarker(t)
	runProtected20(t, sb, "echo 'silent !touch "+marker+"' > .vimrc; echo 'silent !touch "+marker+"' > .exrc")
	cmd := exec.Command("timeout", "10", vim, "-N", "-c", "qa!")
	cmd.Dir = sb
	cmd.Env = append(os.Environ(), "HOME="+home, "TERM=dumb")
	_, _ = cmd.CombinedOutput()
	assert.NoFileExists(t, marker, "the user's vim in the project ran the .vimrc the confined command wrote")
}

// TestEscape20CredentialVariableRelative (round 20): the same pass-over
// for a relative value. A project that keeps its own cloud credentials
// beside it (direnv or a README: AWS_SHARED_CREDENTIALS_FILE=.aws/credentials,
// which botocore opens relative to the working directory) has the file
// hidden when the value is absolute, read by the command when it is
// relative.
//
//	env:     AWS_SHARED_CREDENTIALS_FILE=.aws/credentials
//	payload: cat .aws/credentials
//
// Verified with sandboxauth run as root: "Permission denied" with
// $PWD/.aws/credentials, the secret printed with .aws/credentials.
func TestEscape20CredentialVariableRelative(t *testing.T) {
	sb := escapeSandbox(t)
	dotHome15(t)
	write15(t, filepath.Join(sb, ".aws", "credentials"), "[default]\naws_secret_access_key = AWSRELATIVE20\n", 0o600)
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", ".aws/credentials")
	t.Chdir(sb) // sandboxauth run runs from the project
	out := runHidden18(t, sb, "cat .aws/credentials")
	assert.NotContains(t, out, "AWSRELATIVE20", "the confined command read the credentials AWS_SHARED_CREDENTIALS_FILE names relative to the project")
}
