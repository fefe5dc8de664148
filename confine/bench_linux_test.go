package confine

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// BenchmarkStart compares starting and waiting for /bin/true confined by
// DefaultPolicy with four yardsticks measured in the same run: the same
// start done plainly with exec.Cmd, bubblewrap's cheapest sandbox
// (bwrap --ro-bind / / true), bubblewrap making the namespaces a
// confined command gets, with its own /dev and /proc, and nothing else,
// and bubblewrap making the confined command's whole view (bwrap-view).
func BenchmarkStart(b *testing.B) {
	sb := b.TempDir()
	b.Run("plain", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if err := exec.Command("/bin/true").Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("bwrap-ro-bind", func(b *testing.B) {
		requireConfinement(b)
		bwrap, err := findBwrap()
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if err := exec.Command(bwrap, "--ro-bind", "/", "/", "/bin/true").Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("bwrap-namespaces", func(b *testing.B) {
		requireConfinement(b)
		bwrap, err := findBwrap()
		if err != nil {
			b.Fatal(err)
		}
		args := append(namespaceArgs(false), "--as-pid-1", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "/bin/true")
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if err := exec.Command(bwrap, args...).Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("bwrap-view", func(b *testing.B) {
		// The confined start's own bubblewrap arguments, the same view
		// with the same mounts, running /bin/true instead of the helper:
		// what confinement adds to it is the helper, the filter, the
		// pipes and the work before and after.
		requireConfinement(b)
		bwrap, err := findBwrap()
		if err != nil {
			b.Fatal(err)
		}
		p := DefaultPolicy(sb)
		v, err := resolveView(newTrue(sb), &p)
		if err != nil {
			b.Fatal(err)
		}
		src, err := openSources(v, 3)
		if err != nil {
			b.Fatal(err)
		}
		defer src.close()
		args := viewOnly(bwrapArgs(v, false, 3, src, "{}", []string{"/bin/true"}))
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			cmd := exec.Command(bwrap, args...)
			cmd.ExtraFiles = src.files
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatal(err, string(out))
			}
		}
	})
	b.Run("confined", func(b *testing.B) {
		requireConfinement(b)
		p := DefaultPolicy(sb)
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if err := Run(newTrue(sb), p); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// viewOnly turns bwrapArgs' arguments into those of bubblewrap making the
// same view and running /bin/true in it: no helper, filter or pipes.
func viewOnly(args []string) []string {
	operands := map[string]int{"--setenv": 2, "--info-fd": 1, "--json-status-fd": 1, "--seccomp": 1}
	var out []string
	for i := 0; i < len(args); i++ {
		if n, ok := operands[args[i]]; ok {
			i += n
			continue
		}
		if args[i] == "--" {
			break
		}
		out = append(out, args[i])
	}
	return append(out, "--", "/bin/true")
}

// BenchmarkResolveView measures the work Start does before anything runs:
// resolving DefaultPolicy (with a repository's protected paths) into the
// view, scanning the machine's UNIX sockets included.
func BenchmarkResolveView(b *testing.B) {
	requireConfinement(b)
	sb := b.TempDir()
	p := DefaultPolicy(sb)
	p.ReadOnly = []string{sb + "/.git/config", sb + "/.git/hooks"}
	cmd := newTrue(sb)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		v, err := resolveView(cmd, &p)
		if err != nil {
			b.Fatal(err)
		}
		src, err := openSources(v, 10)
		if err != nil {
			b.Fatal(err)
		}
		_ = bwrapArgs(v, false, 3, src, "{}", []string{"/bin/true"})
		src.close()
	}
}

// BenchmarkConnect: one loopback TCP connect (and accept) inside the
// command, plain and confined, without and with Network, where each
// connect goes through the helper's guard (connectguard_linux.go), which
// makes it on a copy of the command's socket; and the same to a UNIX
// socket of the command's in its sandbox (the -unix modes), which the
// guard also looks up with sock_diag (and, with Network, in the
// sandbox's processes' descriptors) before connecting. The metric is the command's
// own timing of 2,000 connects.
func BenchmarkConnect(b *testing.B) {
	requireConfinement(b)
	sb := b.TempDir()
	for _, mode := range []struct {
		name                    string
		confined, network, unix bool
	}{
		{"plain", false, false, false}, {"confined", true, false, false}, {"confined-network", true, true, false},
		{"plain-unix", false, false, true}, {"confined-unix", true, false, true}, {"confined-network-unix", true, true, true},
	} {
		b.Run(mode.name, func(b *testing.B) {
			b.ReportAllocs()
			var total float64
			for i := 0; i < b.N; i++ {
				family := "tcp"
				if mode.unix {
					family = "unix"
				}
				_ = os.Remove(filepath.Join(sb, "connect-loop.sock"))
				cmd := exec.Command(testBinary(b), "2000", family)
				cmd.Env = append(os.Environ(), "CONFINE_TEST_HELPER=connect-loop")
				cmd.Dir = sb
				var out bytes.Buffer
				cmd.Stdout = &out
				var err error
				if mode.confined {
					p := DefaultPolicy(sb)
					p.Network = mode.network
					err = Run(cmd, p)
				} else {
					err = cmd.Run()
				}
				if err != nil {
					b.Fatal(err, out.String())
				}
				ns, err := strconv.ParseFloat(strings.TrimSpace(out.String()), 64)
				if err != nil {
					b.Fatal(err, out.String())
				}
				total += ns
			}
			b.ReportMetric(total/float64(b.N), "ns/connect")
		})
	}
}

// BenchmarkCheckSandbox measures what Start does to tell whether the
// sandbox is a place it must refuse (the homes, the settings and
// toolchain places, the links of every PATH directory and of the home),
// with this process's PATH and home.
func BenchmarkCheckSandbox(b *testing.B) {
	p := DefaultPolicy(b.TempDir())
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := CheckSandbox(p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadRules: the reading rules of DefaultPolicy's view (see
// readRules): "compute" lists the directories that hold hidden paths
// outside the writable places (the starting process does it), "ruleset"
// builds the Landlock ruleset from them (the sandbox's first process does
// it, before the command starts; here in this process, which it does not
// restrict). The metric grants is how many entries get a rule.
func BenchmarkReadRules(b *testing.B) {
	requireConfinement(b)
	sb := b.TempDir()
	p := DefaultPolicy(sb)
	v, err := resolveView(newTrue(sb), &p)
	if err != nil {
		b.Fatal(err)
	}
	r := readRulesFor(v)
	if r == nil {
		b.Skip("no hidden path outside the sandbox here")
	}
	b.Run("compute", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			_ = readRulesFor(v)
		}
		b.ReportMetric(float64(r.count()), "grants")
	})
	b.Run("ruleset", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			fd, err := fileRuleset(landlockABI(), helperWritable(v), r)
			if err != nil {
				b.Fatal(err)
			}
			unix.Close(fd)
		}
		b.ReportMetric(float64(r.count()), "grants")
	})
}
