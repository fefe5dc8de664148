package programs

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProcInfoGrammars reads ps's, lsof's and lsblk's arguments, and those
// of the shell's and coreutils' small commands (cd, wait, type, sleep, seq,
// factor): every option known, environments and DNS lookups refused.
func TestProcInfoGrammars(t *testing.T) {
	tests := []struct {
		line    string
		verdict string // "ok", "unknown" or "unsafe"
	}{
		{"ps", "ok"},
		{"ps aux", "ok"},
		{"ps auxww", "ok"},
		{"ps -ef", "ok"},
		{"ps -e", "ok"},
		{"ps axjf", "ok"},
		{"ps -eo pid,ppid,%cpu,args --sort=-%cpu", "ok"},
		{"ps -p 1 -o comm=", "ok"},
		{"ps -o pid=PID,args=COMMAND,X", "ok"},
		{"ps p 1 o pid,args", "ok"},
		{"ps 1,2", "ok"},
		{"ps e", "unsafe"},
		{"ps eww", "unsafe"},
		{"ps auxe", "unsafe"},
		{"ps -ef e", "unsafe"},
		{"ps -o environ", "unsafe"},
		{"ps -eo pid,environ", "unsafe"},
		{"ps o pid,ENVIRON", "unsafe"},
		{"ps --format=environ", "unsafe"},
		{"ps -O environ", "unsafe"},
		{"ps --zz", "unknown"},
		{"ps -n System.map", "unknown"},
		{"ps -o", "unknown"},
		{"ps ax q", "unknown"},
		{"lsof", "ok"},
		{"lsof -i :8080", "ok"},
		{"lsof -ti :3000", "ok"},
		{"lsof -nP -iTCP -sTCP:LISTEN", "ok"},
		{"lsof -i @127.0.0.1:80", "ok"},
		{"lsof -i6TCP@[::1]:80", "ok"},
		{"lsof -p 123", "ok"},
		{"lsof -- -i@evil.example", "ok"},
		{"lsof -i @evil.example", "unsafe"},
		{"lsof -iTCP@evil.example:443", "unsafe"},
		{"lsof -i @dead.beef", "unsafe"},
		{"lsof -i @1234", "unsafe"},
		{"lsof -i @[evil.example]", "unsafe"},
		{"lsof -ni @evil.example", "unsafe"},
		{"lsof +D .", "unknown"},
		{"lsof -r", "unknown"},
		{"lsof -D /tmp/cache", "unknown"},
		{"lsof -zz", "unknown"},
		{"lsblk -f", "ok"},
		{"lsblk -o NAME,SIZE --json", "ok"},
		{"lsblk --sysroot /x", "unsafe"},
		{"lsblk --zz", "unknown"},
		{"cd sub", "ok"},
		{"cd -P sub", "ok"},
		{"cd -", "ok"},
		{"cd --zz", "unknown"},
		{"cd -@ x", "unknown"},
		{"cd a b", "unknown"},
		{"wait", "ok"},
		{"wait -n 1", "ok"},
		{"wait -p PATH", "unsafe"},
		{"wait -np PATH", "unsafe"},
		{"wait --zz", "unknown"},
		{"sleep 1", "ok"},
		{"sleep --zz 1", "unknown"},
		{"seq 1 10", "ok"},
		{"seq -5 5", "ok"},
		{"seq -w -s , 1 10", "ok"},
		{"seq --zz 1", "unknown"},
		{"factor 12", "ok"},
		{"factor --zz", "unknown"},
		{"type -a ls", "ok"},
		{"type --zz", "unknown"},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			w := strings.Fields(tt.line)
			s := Lookup(w[0], nil)
			require.NotNil(t, s)
			p := Parse(s, w[1:])
			switch tt.verdict {
			case "ok":
				assert.Nil(t, p.Problem, "%+v", p.Problem)
			case "unknown":
				require.NotNil(t, p.Problem)
				assert.True(t, p.Problem.Unknown, p.Problem.Rule)
			default:
				require.NotNil(t, p.Problem)
				assert.False(t, p.Problem.Unknown, p.Problem.Rule)
			}
		})
	}
}

// TestProcInfoAgainstRealPrograms: ps's BSD e prints environments and -e
// does not; lsof looks an -i host name up.
func TestProcInfoAgainstRealPrograms(t *testing.T) {
	t.Run("ps e", func(t *testing.T) {
		ps := installed(t, "ps")
		pid := itoa(os.Getpid())
		require.NoError(t, os.Setenv("SANDBOXAUTH_PS_PROBE", "visible"))
		defer os.Unsetenv("SANDBOXAUTH_PS_PROBE")
		out, _ := exec.Command(ps, "eww", "-p", pid).CombinedOutput()
		if !strings.Contains(string(out), "=") {
			t.Skipf("ps e shows no environment here (no access to /proc/PID/environ): %s", out)
		}
		assert.Contains(t, string(out), "PATH=", "ps e printed the test's own environment")
		out, _ = exec.Command(ps, "-eww", "-p", pid).CombinedOutput()
		assert.NotContains(t, string(out), "PATH=")
		assert.NotNil(t, Parse(Lookup("ps", nil), []string{"eww", "-p", pid}).Problem)
		assert.Nil(t, Parse(Lookup("ps", nil), []string{"-eww", "-p", pid}).Problem)
	})
	t.Run("lsof -i @NAME", func(t *testing.T) {
		lsof := installed(t, "lsof")
		// .invalid never resolves; the message shows that lsof tried.
		out, _ := exec.Command(lsof, "-i", "@sandboxauth-probe.invalid").CombinedOutput()
		assert.Contains(t, string(out), "unknown host name")
		assert.NotNil(t, Parse(Lookup("lsof", nil), []string{"-i", "@sandboxauth-probe.invalid"}).Problem)
	})
}
