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
// not know) or "unsafe" (understood, and unsafe). For "ok", files are the
// arguments the parse must find when not nil (none when empty).
type formCase struct {
	line    string
	prefix  int
	verdict string
	files   []Arg
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
				if tt.files != nil {
					if len(tt.files) == 0 {
						assert.Empty(t, p.Files)
					} else {
						assert.Equal(t, tt.files, p.Files)
					}
				}
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
		{"netstat -tlnp", 0, "ok", nil},
		{"netstat -an", 0, "ok", nil},
		{"netstat --numeric --listening", 0, "ok", nil},
		{"netstat -c", 0, "unsafe", nil},
		{"netstat -tlnc", 0, "unsafe", nil},
		{"netstat host.example", 0, "unknown", nil},
		{"ss -tlnp", 0, "ok", nil},
		{"ss -s", 0, "ok", nil},
		{"ss -K dst 1.2.3.4", 0, "unsafe", nil},
		{"ss -D out.raw", 0, "unsafe", nil},
		{"ss -F filter.txt", 0, "unsafe", nil},
		{"ss -E", 0, "unsafe", nil},
		{"ss -N other", 0, "unsafe", nil},
		{"ss -tn dst evil.example.com", 0, "unknown", nil}, // a host ss would look up in DNS
		{"journalctl -u nginx -n 50 --no-pager", 0, "ok", nil},
		{"journalctl -n20 -b --since today", 0, "ok", nil},
		{"journalctl -b -o short-monotonic --no-pager -u redis-server", 0, "ok", nil},
		{"journalctl --lines=5 _PID=1", 0, "ok", nil},
		{"journalctl -n --vacuum-size=1G", 0, "unsafe", nil}, // -n does not take the next word
		{"journalctl --vacuum-time=1s", 0, "unsafe", nil},
		{"journalctl --rotate", 0, "unsafe", nil},
		{"journalctl --flush", 0, "unsafe", nil},
		{"journalctl -f", 0, "unsafe", nil},
		{"journalctl -fu nginx", 0, "unsafe", nil},
		{"journalctl -e", 0, "unsafe", nil},
		{"journalctl --image=disk.img", 0, "unsafe", nil},
		{"journalctl --setup-keys", 0, "unsafe", nil},
		{"journalctl --zz", 0, "unknown", nil},
		{"dmesg -T", 0, "ok", nil},
		{"dmesg --level=err,warn -H", 0, "ok", nil},
		{"dmesg -c", 0, "unsafe", nil},
		{"dmesg -C", 0, "unsafe", nil},
		{"dmesg -n 1", 0, "unsafe", nil},
		{"dmesg -w", 0, "unsafe", nil},
		{"dmesg -Tw", 0, "unsafe", nil},
		{"dmesg -D", 0, "unsafe", nil},
		{"kill -0 123", 1, "ok", nil},
		{"kill -0 123 456", 1, "ok", nil},
		{"kill -0 -- -42", 1, "ok", nil},
		{"kill -0", 1, "unknown", nil},
		{"kill -0 %1", 1, "unknown", nil},
		{"kill -0 -9 123", 1, "unknown", nil},
		{"kill -0 -s KILL 1", 1, "unknown", nil},
		{"tmux ls", 1, "ok", nil},
		{"tmux list-sessions", 1, "ok", nil},
		{"tmux ls -F #(id)", 1, "unsafe", nil},
		{"tmux ls -f #(id)", 1, "unsafe", nil},
		{"tmux ls ; kill-server", 1, "unknown", nil},
		{"tmux list-windows -a", 1, "ok", nil},
		{"tmux lsw -t main", 1, "ok", nil},
		{"tmux list-panes -a -F #(id)", 1, "unsafe", nil},
		{"tmux list-panes -s -t main", 1, "ok", nil},
		{"ldconfig -p", 1, "ok", nil},
		{"ldconfig -p -v", 1, "unknown", nil},
		{"ldconfig -p /lib", 1, "unknown", nil},
		{"rpm -qa", 1, "ok", nil},
		{"rpm -q bash", 1, "ok", nil},
		{"rpm -qi bash", 1, "ok", nil},
		{"rpm -q --qf %{VERSION} bash", 1, "ok", nil},
		{"rpm -qf /usr/bin/ls", 1, "ok", nil},
		{"rpm -q --pipe sh bash", 1, "unsafe", nil},
		{"rpm -q --eval %(id)", 1, "unsafe", nil},
		{"rpm -q --define x bash", 1, "unsafe", nil},
		{"rpm -q --root /x bash", 1, "unsafe", nil},
		{"rpm -qa --zz", 1, "unknown", nil},
		{"apt list --installed", 1, "ok", nil},
		{"apt list --upgradable nginx", 1, "ok", nil},
		{"apt list -o Dir::State=/x", 1, "unknown", nil},
		{"top -b -n 1", 0, "ok", nil},
		{"top -bn1 -o %MEM", 0, "ok", nil},
		{"top -b", 0, "unsafe", nil},
		{"top", 0, "unsafe", nil},
		{"ip addr", 1, "ok", nil},
		{"ip a show dev eth0", 1, "ok", nil},
		{"ip route list", 1, "ok", nil},
		{"ip addr show --zz", 1, "unknown", nil},
		{"ip addr add 10.0.0.1/24 dev eth0", 1, "unknown", nil},
		{"ip addr a 10.0.0.1/24 dev eth0", 1, "unknown", nil},
		{"ip link set eth0 down", 1, "unknown", nil},
		{"ip route flush all", 1, "unknown", nil},
		{"docker stats --no-stream", 1, "ok", nil},
		{"docker stats", 1, "unsafe", nil},
		{"docker network ls", 2, "ok", nil},
		{"docker image ls -a", 2, "ok", nil},
		{"docker container ls -q", 2, "ok", nil},
		{"docker volume ls", 2, "ok", nil},
		{"docker compose ps -a", 2, "ok", nil},
		{"docker compose logs --tail 50 web", 2, "ok", nil},
		{"docker compose logs -f web", 2, "unsafe", nil},
		{"docker network ls --zz", 2, "unknown", nil},
	})
}

// TestProbeForms: version probes take no other word.
func TestProbeForms(t *testing.T) {
	checkForms(t, []formCase{
		{"gh --version", 1, "ok", nil},
		{"gh version", 1, "ok", nil},
		{"gh version extra", 1, "unknown", nil},
		{"r --version", 1, "ok", nil},
		{"rscript --version", 1, "ok", nil},
		{"rscript --version -e 1", 1, "unknown", nil},
		{"quarto --version", 1, "ok", nil},
		{"swift --version", 1, "ok", nil},
		{"dotnet --list-sdks", 1, "ok", nil},
		{"dotnet --info", 1, "ok", nil},
		{"dotnet --version", 1, "ok", nil},
		{"sw_vers", 0, "ok", nil},
		{"sw_vers -productVersion", 0, "ok", nil},
		{"sw_vers -zz", 0, "unknown", nil},
		{"rustup show", 1, "ok", nil},
		{"rustup show active-toolchain", 2, "ok", nil},
		{"rustup show x", 1, "unknown", nil},
		{"rustup --version", 1, "ok", nil},
		{"rustup toolchain list -v", 2, "ok", nil},
		{"gcc --version", 1, "ok", nil},
		{"gcc --version x.c", 1, "unknown", nil},
		{"xcodebuild -version", 1, "ok", nil},
		{"java -version", 1, "ok", nil},
		{"xcodebuild -showsdks", 1, "ok", nil},
		{"xcrun --show-sdk-path --sdk iphoneos", 1, "ok", nil},
		{"xcrun --find clang", 1, "ok", nil},
		{"xcrun simctl list devices available", 2, "ok", nil},
		{"xcrun simctl list -j", 2, "ok", nil},
		{"xcrun simctl list boot", 2, "unknown", nil},
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
