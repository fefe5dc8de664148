package confine

// Escapes found by the fourth red-team round: each test asserts that the
// escape does NOT happen, and fails while it does.

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// TestEscapeDeviceNodeMetadata: bubblewrap's /dev holds the machine's own
// device nodes (null, zero, full, random, urandom, tty) bound writable,
// and Landlock has no right for metadata: a command running as root (its
// user is mapped to the real root, the nodes' owner) changes the modes
// and times of the machine's /dev/null and the others. chmod 000
// /dev/null breaks every program on the machine.
//
//	touch -m -d @1000000000 /dev/full; chmod 0640 /dev/full
func TestEscapeDeviceNodeMetadata(t *testing.T) {
	sb, _, p := dirs(t)
	var before unix.Stat_t
	require.NoError(t, unix.Stat("/dev/full", &before))
	t.Cleanup(func() {
		_ = unix.Chmod("/dev/full", before.Mode&0o7777)
		_ = unix.UtimesNano("/dev/full", []unix.Timespec{before.Atim, before.Mtim})
	})
	out, _ := sh(t, p, sb, "touch -m -d @1000000000 /dev/full; chmod 0640 /dev/full")
	t.Log(out)
	var after unix.Stat_t
	require.NoError(t, unix.Stat("/dev/full", &after))
	assert.Equal(t, before.Mode, after.Mode, "the confined command changed the mode of the machine's /dev/full")
	assert.NotEqual(t, time.Unix(1000000000, 0), time.Unix(after.Mtim.Unix()), "the confined command changed the times of the machine's /dev/full")
	if os.Getuid() != 0 {
		t.Log("not root: the device nodes are not the command's, so this run cannot show the escape")
	}
}

// TestEscapeCredentialsRound4: more files that hold credentials in the
// home directory, readable by a confined command under DefaultPolicy.
//
//	cat ~/.cloudflared/cert.pem ~/.minikube/profiles/minikube/client.key ...
func TestEscapeCredentialsRound4(t *testing.T) {
	requireConfinement(t)
	home := fakeHome(t)
	t.Setenv("GOCACHE", home+"/.cache/go-build")
	secrets := map[string]string{
		".cloudflared/cert.pem":                  "CLOUDFLAREDSECRET",
		".minikube/profiles/minikube/client.key": "MINIKUBESECRET",
		".config/openstack/clouds.yaml":          "password: OPENSTACKSECRET",
		".authinfo":                              "machine x login y password AUTHINFOSECRET",
		".msmtprc":                               "password MSMTPSECRET",
		".config/helm/repositories.yaml":         "password: HELMSECRET",
		".ivy2/.credentials":                     "password=IVYSECRET",
		".sbt/.credentials":                      "password=SBTSECRET",
		".bundle/config":                         "BUNDLE_GEMS__EXAMPLE__COM: BUNDLESECRET",
		".config/pip/pip.conf":                   "index-url = https://u:PIPSECRET@example.com/simple",
		".pip/pip.conf":                          "index-url = https://u:PIPOLDSECRET@example.com/simple",
		".wakatime.cfg":                          "api_key = WAKATIMESECRET",
		".tsh/keys/proxy/user":                   "TELEPORTSECRET",
		".passwd-s3fs":                           "AKIA:S3FSSECRET",
		".config/scw/config.yaml":                "secret_key: SCALEWAYSECRET",
		".config/clickhouse-client/config.xml":   "<password>CLICKHOUSESECRET</password>",
		".influxdbv2/configs":                    "token = \"INFLUXSECRET\"",
	}
	assertSecretsHidden(t, home, secrets)
}

// TestEscapeFirstProcessEndedBySignal: the helper is PID 1 of the sandbox's
// namespace, which gets a signal sent from inside only when it has a
// handler for it, and Go's runtime installs one for every signal: it
// ignores the ones the helper Notifies, but crashes on SIGABRT, SIGILL,
// SIGTRAP, SIGSYS, SIGBUS, SIGFPE and SIGSEGV sent by kill. The command
// ends the sandbox's first process (and with it the sandbox) at a moment
// of its choosing; bubblewrap exits at once, and cmd.Wait returns before
// Policy.AfterExit has run (see the sandboxauth package's
// TestEscapeRunReturnsBeforeQuarantine).
//
//	kill -s ABRT 1
func TestEscapeFirstProcessEndedBySignal(t *testing.T) {
	sb, _, p := dirs(t)
	for _, sig := range []string{"ABRT", "ILL", "TRAP", "SYS", "BUS", "FPE", "SEGV"} {
		out, _ := sh(t, p, sb, "kill -s "+sig+" 1; sleep 0.3; echo alive")
		assert.Contains(t, out, "alive", "SIG%s sent by the command ended the sandbox's first process: %.80s", sig, out)
	}
}

// TestEscapePlaceholderRecordInsideSandbox: the placeholder records (and
// the lock the runs of a sandbox share) are kept in the user's cache
// directory, and nothing stops that directory from lying inside the
// sandbox (XDG_CACHE_HOME=$PWD/.cache, common in CI; or a sandbox that
// contains ~/.cache). The command appends to its sandbox's record a
// "placeholder" naming any file outside that it can read (its device,
// inode and content are all it needs), and the last run to end removes
// it: the caller deletes a file outside the sandbox on the command's
// behalf.
//
//	rec=$(ls $XDG_CACHE_HOME/sandboxauth/placeholders/*)
//	printf 'f\0%s\0%s\0%s\0%s\0%s\0' "$dir" "$name" "$(cat $dir/$name)" $dev $ino >> "$rec"
func TestEscapePlaceholderRecordInsideSandbox(t *testing.T) {
	sb, outside, p := dirs(t)
	t.Setenv("XDG_CACHE_HOME", filepath.Join(sb, ".cache"))
	victim := filepath.Join(outside, "important.txt")
	require.NoError(t, os.WriteFile(victim, []byte("precious\n"), 0o644))
	var st unix.Stat_t
	require.NoError(t, unix.Stat(victim, &st))
	forged := strings.Join([]string{"f", outside, "important.txt", "precious\n", strconv.FormatUint(uint64(st.Dev), 10), strconv.FormatUint(st.Ino, 10)}, "\x00") + "\x00"
	require.NoError(t, os.WriteFile(filepath.Join(sb, "forged"), []byte(forged), 0o644))
	out, err := sh(t, p, sb, `for rec in .cache/sandboxauth/placeholders/*; do cat forged >> "$rec"; echo "appended to $rec"; done`)
	t.Log(out, err)
	assert.FileExists(t, victim, "the caller removed a file outside the sandbox that the command recorded as a placeholder")
}

// TestEscapePlaceholderRecordLinkTruncates: the same bookkeeping inside
// the sandbox, through a symbolic link: the command replaces its
// sandbox's record with a link to any file of the user, and the next run
// opens it (following the link), appends to it, and empties it when it
// ends (Truncate(0)): a file outside the sandbox loses its content.
//
//	for r in $XDG_CACHE_HOME/sandboxauth/placeholders/*; do rm "$r"; ln -s ~/.bashrc "$r"; done
func TestEscapePlaceholderRecordLinkTruncates(t *testing.T) {
	sb, outside, p := dirs(t)
	t.Setenv("XDG_CACHE_HOME", filepath.Join(sb, ".cache"))
	victim := filepath.Join(outside, "important.txt")
	require.NoError(t, os.WriteFile(victim, []byte("precious\n"), 0o644))
	out, err := sh(t, p, sb, `for r in .cache/sandboxauth/placeholders/*; do rm -f "$r"; ln -s `+victim+` "$r"; done`)
	t.Log(out, err)
	out, err = sh(t, p, sb, "true") // any later run
	t.Log(out, err)
	b, err := os.ReadFile(victim)
	require.NoError(t, err)
	assert.Equal(t, "precious\n", string(b), "a run opened the sandbox's placeholder record through the command's link and emptied a file outside")
}

// TestEscapeSystemSecretsReadableAsRoot: run as root, the command is
// root in its user namespace, mapped to the real root: it owns every
// root-owned file and reads those only root may read, though it has no
// capability. DefaultPolicy hides /etc/shadow, sudoers and the SSH host
// keys, but not the machine's other secrets: TLS private keys
// (/etc/ssl/private), WireGuard and NetworkManager connection secrets,
// cluster admin credentials (/etc/kubernetes/admin.conf,
// /etc/rancher/k3s/k3s.yaml), Let's Encrypt keys. This machine has
// /etc/ssl/private/ssl-cert-snakeoil.key (root:ssl-cert 0640, in a 0710
// directory).
//
//	cat /etc/ssl/private/*.key
func TestEscapeSystemSecretsReadableAsRoot(t *testing.T) {
	requireConfinement(t)
	const key = "/etc/ssl/private/ssl-cert-snakeoil.key"
	b, err := os.ReadFile(key)
	if err != nil {
		t.Logf("%s is not readable here (%v): nothing to show", key, err)
		return
	}
	sb, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	out, _ := sh(t, DefaultPolicy(sb), sb, "cat "+key)
	assert.NotContains(t, out, strings.TrimSpace(string(b))[:60], "the machine's TLS private key was readable by a command confined as root")
}

// TestEscapeTerminalSettings: the command's standard streams may be the
// user's terminal, and the filter refuses only the ioctls that type into
// it. The command changes the terminal's settings, which outlive it: with
// `stty intr undef -echo`, Ctrl-C no longer interrupts anything in that
// terminal (a later confined run included) and what the user types is no
// longer shown. (TIOCEXCL, which makes every later open of the terminal
// fail, and TCFLSH, which discards what the user typed ahead, pass too.)
//
//	stty intr undef -echo
func TestEscapeTerminalSettings(t *testing.T) {
	sb, _, p := dirs(t)
	ptmx, tty := openPty(t)
	go func() { _, _ = io.Copy(io.Discard, ptmx) }()
	before, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
	require.NoError(t, err)

	cmd := exec.Command("/bin/sh", "-c", "stty intr undef -echo")
	cmd.Dir = sb
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	t.Log(Run(cmd, p))

	after, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
	require.NoError(t, err)
	assert.Equal(t, before.Cc[unix.VINTR], after.Cc[unix.VINTR], "the confined command took Ctrl-C away from the user's terminal")
	assert.Equal(t, before.Lflag&unix.ECHO, after.Lflag&unix.ECHO, "the confined command turned the user's terminal's echo off")
}
