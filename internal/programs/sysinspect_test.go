package programs

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

// formCase is one command line read with the spec its first prefix words
// select: "ok" (understood and harmless), "unknown" (a word the spec does
// not know) or "unsafe" (understood, and unsafe).
type formCase struct {
	line    string
	prefix  int
	verdict string
}

func checkForms(t *testing.T, tests []formCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			w := strings.Fields(tt.line)
			sp := Lookup(w[0], w[1:1+tt.prefix])
			require.NotNil(t, sp, "no spec for %v", w[:1+tt.prefix])
			p := Parse(sp, w[1+tt.prefix:])
			switch tt.verdict {
			case "ok":
				require.Nil(t, p.Problem, "%+v", p.Problem)
			case "unknown":
				require.NotNil(t, p.Problem)
				assert.True(t, p.Problem.Unknown, "%+v", p.Problem)
			case "unsafe":
				require.NotNil(t, p.Problem)
				assert.False(t, p.Problem.Unknown, "%+v", p.Problem)
				assert.NotEmpty(t, p.Problem.Reason)
			default:
				t.Fatalf("bad verdict %q", tt.verdict)
			}
		})
	}
}

// TestSysinspectForms: the system views' specs read their programs' real
// command lines; whatever follows, clears, kills, runs a format or picks
// another daemon is refused.
func TestSysinspectForms(t *testing.T) {
	checkForms(t, []formCase{
		{"netstat -tlnp", 0, "ok"},
		{"netstat -an", 0, "ok"},
		{"netstat --numeric --listening", 0, "ok"},
		{"netstat -c", 0, "unsafe"},
		{"netstat -tlnc", 0, "unsafe"},
		{"netstat host.example", 0, "unknown"},
		{"ss -tlnp", 0, "ok"},
		{"ss -s", 0, "ok"},
		{"ss -K dst 1.2.3.4", 0, "unsafe"},
		{"ss -D out.raw", 0, "unsafe"},
		{"ss -F filter.txt", 0, "unsafe"},
		{"ss -E", 0, "unsafe"},
		{"ss -N other", 0, "unsafe"},
		{"ss -tn dst evil.example.com", 0, "unknown"}, // a host ss would look up in DNS
		{"journalctl -u nginx -n 50 --no-pager", 0, "ok"},
		{"journalctl -n20 -b --since today", 0, "ok"},
		{"journalctl -b -o short-monotonic --no-pager -u redis-server", 0, "ok"},
		{"journalctl --lines=5 _PID=1", 0, "ok"},
		{"journalctl -n --vacuum-size=1G", 0, "unsafe"}, // -n does not take the next word
		{"journalctl --vacuum-time=1s", 0, "unsafe"},
		{"journalctl --rotate", 0, "unsafe"},
		{"journalctl --flush", 0, "unsafe"},
		{"journalctl -f", 0, "unsafe"},
		{"journalctl -fu nginx", 0, "unsafe"},
		{"journalctl -e", 0, "unsafe"},
		{"journalctl --image=disk.img", 0, "unsafe"},
		{"journalctl --setup-keys", 0, "unsafe"},
		{"journalctl --zz", 0, "unknown"},
		{"dmesg -T", 0, "ok"},
		{"dmesg --level=err,warn -H", 0, "ok"},
		{"dmesg -c", 0, "unsafe"},
		{"dmesg -C", 0, "unsafe"},
		{"dmesg -n 1", 0, "unsafe"},
		{"dmesg -w", 0, "unsafe"},
		{"dmesg -Tw", 0, "unsafe"},
		{"dmesg -D", 0, "unsafe"},
		{"kill -0 123", 1, "ok"},
		{"kill -0 123 456", 1, "ok"},
		{"kill -0 -- -42", 1, "ok"},
		{"kill -0", 1, "unknown"},
		{"kill -0 %1", 1, "unknown"},
		{"kill -0 -9 123", 1, "unknown"},
		{"kill -0 -s KILL 1", 1, "unknown"},
		{"tmux ls", 1, "ok"},
		{"tmux list-sessions", 1, "ok"},
		{"tmux ls -F #(id)", 1, "unsafe"},
		{"tmux ls -f #(id)", 1, "unsafe"},
		{"tmux ls ; kill-server", 1, "unknown"},
		{"tmux list-windows -a", 1, "ok"},
		{"tmux lsw -t main", 1, "ok"},
		{"tmux list-panes -a -F #(id)", 1, "unsafe"},
		{"tmux list-panes -s -t main", 1, "ok"},
		{"ldconfig -p", 1, "ok"},
		{"ldconfig -p -v", 1, "unknown"},
		{"ldconfig -p /lib", 1, "unknown"},
		{"rpm -qa", 1, "ok"},
		{"rpm -q bash", 1, "ok"},
		{"rpm -qi bash", 1, "ok"},
		{"rpm -q --qf %{VERSION} bash", 1, "ok"},
		{"rpm -qf /usr/bin/ls", 1, "ok"},
		{"rpm -q --pipe sh bash", 1, "unsafe"},
		{"rpm -q --eval %(id)", 1, "unsafe"},
		{"rpm -q --define x bash", 1, "unsafe"},
		{"rpm -q --root /x bash", 1, "unsafe"},
		{"rpm -qa --zz", 1, "unknown"},
		{"apt list --installed", 1, "ok"},
		{"apt list --upgradable nginx", 1, "ok"},
		{"apt list -o Dir::State=/x", 1, "unknown"},
		{"top -b -n 1", 0, "ok"},
		{"top -bn1 -o %MEM", 0, "ok"},
		{"top -b", 0, "unsafe"},
		{"top", 0, "unsafe"},
		{"ip addr", 1, "ok"},
		{"ip a show dev eth0", 1, "ok"},
		{"ip route list", 1, "ok"},
		{"ip addr show --zz", 1, "unknown"},
		{"ip addr add 10.0.0.1/24 dev eth0", 1, "unknown"},
		{"ip addr a 10.0.0.1/24 dev eth0", 1, "unknown"},
		{"ip link set eth0 down", 1, "unknown"},
		{"ip route flush all", 1, "unknown"},
		{"docker stats --no-stream", 1, "ok"},
		{"docker stats", 1, "unsafe"},
		{"docker network ls", 2, "ok"},
		{"docker image ls -a", 2, "ok"},
		{"docker container ls -q", 2, "ok"},
		{"docker volume ls", 2, "ok"},
		{"docker compose ps -a", 2, "ok"},
		{"docker compose logs --tail 50 web", 2, "ok"},
		{"docker compose logs -f web", 2, "unsafe"},
		{"docker network ls --zz", 2, "unknown"},
	})
}

// TestProbeForms: version probes take no other word.
func TestProbeForms(t *testing.T) {
	checkForms(t, []formCase{
		{"gh --version", 1, "ok"},
		{"gh version", 1, "ok"},
		{"gh version extra", 1, "unknown"},
		{"r --version", 1, "ok"},
		{"rscript --version", 1, "ok"},
		{"rscript --version -e 1", 1, "unknown"},
		{"quarto --version", 1, "ok"},
		{"swift --version", 1, "ok"},
		{"dotnet --list-sdks", 1, "ok"},
		{"dotnet --info", 1, "ok"},
		{"dotnet --version", 1, "ok"},
		{"sw_vers", 0, "ok"},
		{"sw_vers -productVersion", 0, "ok"},
		{"sw_vers -zz", 0, "unknown"},
		{"rustup show", 1, "ok"},
		{"rustup show active-toolchain", 2, "ok"},
		{"rustup show x", 1, "unknown"},
		{"rustup --version", 1, "ok"},
		{"rustup toolchain list -v", 2, "ok"},
		{"gcc --version", 1, "ok"},
		{"gcc --version x.c", 1, "unknown"},
		{"xcodebuild -version", 1, "ok"},
		{"java -version", 1, "ok"},
		{"xcodebuild -showsdks", 1, "ok"},
		{"xcrun --show-sdk-path --sdk iphoneos", 1, "ok"},
		{"xcrun --find clang", 1, "ok"},
		{"xcrun simctl list devices available", 2, "ok"},
		{"xcrun simctl list -j", 2, "ok"},
		{"xcrun simctl list boot", 2, "unknown"},
	})
	assert.True(t, CasedName("R"))
	assert.True(t, CasedName("Rscript"))
	assert.False(t, CasedName("LS"))
	assert.False(t, CasedName("RSCRIPT"))
}

// TestJournalctlLinesTakesOnlyANumber: journalctl reads the word after -n
// as its value only when it is a number, so -n --vacuum-size=... vacuums;
// the spec reads -n as taking an attached value and sees the option.
func TestJournalctlLinesTakesOnlyANumber(t *testing.T) {
	if _, err := exec.LookPath("journalctl"); err != nil {
		t.Skip("journalctl is not installed")
	}
	out, err := exec.Command("journalctl", "-n", "--version").CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), "systemd", "journalctl -n --version read --version as an option")
	p := Parse(Lookup("journalctl", nil), []string{"-n", "--version"})
	require.Nil(t, p.Problem)
	assert.True(t, p.Has("--version"))
}

// TestTmuxFormatsRunCommands: a tmux listing with -F or -f runs the
// #(command) of its format in the server; the spec refuses both, and a
// listing without a server starts none.
func TestTmuxFormatsRunCommands(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	home, err := os.UserHomeDir()
	require.NoError(t, err)
	dir, err := os.MkdirTemp(home, "tmux-test-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "sock")

	// A listing with no server running starts none.
	cmd := exec.Command("tmux", "-S", sock, "ls")
	_ = cmd.Run()
	_, err = os.Stat(sock)
	assert.True(t, os.IsNotExist(err), "tmux ls started a server")

	require.NoError(t, exec.Command("tmux", "-f", "/dev/null", "-S", sock, "new-session", "-d", "-s", "t", "sleep 30").Run())
	t.Cleanup(func() { _ = exec.Command("tmux", "-S", sock, "kill-server").Run() })
	for _, flag := range []string{"-F", "-f"} {
		mark := filepath.Join(dir, "ran"+flag)
		format := "#(touch " + mark + ")x"
		// The job runs in the background; the second listing waits for it.
		for range 20 {
			_ = exec.Command("tmux", "-S", sock, "ls", flag, format).Run()
			if _, err := os.Stat(mark); err == nil {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		_, err := os.Stat(mark)
		require.NoError(t, err, "tmux ls %s did not run its format's command", flag)
		p := Parse(Lookup("tmux", []string{"ls"}), []string{flag, format})
		require.NotNil(t, p.Problem)
		assert.False(t, p.Problem.Unknown)
	}
}
