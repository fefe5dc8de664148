package main

import (
	"bytes"
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/sandboxauth/sandboxauth/internal/hookproto"
)

// BenchmarkHookCall measures a whole hook call as an agent makes it: start
// the built binary, read the event on stdin, load the configuration,
// decide, write the answer, exit. It reports the median and the 99th
// percentile of the wall-clock time of one call (p50-ms, p99-ms; ns/op is
// their mean) and the median CPU time (user and system) the process used
// (cpu-ms), which a loaded machine inflates less. The "version" case is
// the floor: starting the program and exiting. Run it with:
//
//	go test ./cmd/sandboxauth -run '^$' -bench BenchmarkHookCall -benchtime 300x
func BenchmarkHookCall(b *testing.B) {
	cases := []struct{ name, agent, fixture string }{
		{"version", "", ""},
		{"claude-code/safe-shell", "claude-code", "safe"},
		{"claude-code/curl-pipe-sh", "claude-code", "curl-pipe-sh"},
		{"codex/apply-patch", "codex", "edit-inside"},
		{"gemini-cli/read-outside", "gemini-cli", "read-outside"},
		{"cursor/malformed", "cursor", "malformed"},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			project, home := hookProject(b)
			args, event := []string{"version"}, ""
			if c.agent != "" {
				payload := mustRead(b, filepath.Join(hooksDir, c.agent, c.fixture+".json"))
				args, event = []string{"hook", "--for", c.agent}, strings.ReplaceAll(payload, projectMark, project)
			}
			env := hookEnv(home)
			b.ReportAllocs()
			times := make([]time.Duration, 0, b.N)
			cpu := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				cmd := exec.Command(bin, args...)
				cmd.Dir, cmd.Env = project, env
				cmd.Stdin = strings.NewReader(event)
				var out bytes.Buffer
				cmd.Stdout = &out
				start := time.Now()
				err := cmd.Run()
				times = append(times, time.Since(start))
				if _, ok := err.(*exec.ExitError); err != nil && !ok {
					b.Fatal(err)
				}
				cpu = append(cpu, cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
			}
			b.StopTimer()
			b.ReportMetric(percentileMS(times, 0.50), "p50-ms")
			b.ReportMetric(percentileMS(times, 0.99), "p99-ms")
			b.ReportMetric(percentileMS(cpu, 0.50), "cpu-ms")
		})
	}
}

// linkage says how the program at path is linked: "dynamically" when it
// names a program interpreter (the dynamic loader), "statically" when it
// does not, and "as this system links" when it is not ELF.
func linkage(b *testing.B, path string) string {
	b.Helper()
	f, err := elf.Open(path)
	if err != nil {
		if _, ok := err.(*elf.FormatError); ok {
			return "as this system links"
		}
		b.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			return "dynamically"
		}
	}
	return "statically"
}

// percentileMS returns the p-th percentile of ds, in milliseconds.
func percentileMS(ds []time.Duration, p float64) float64 {
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return float64(ds[int(p*float64(len(ds)-1))]) / float64(time.Millisecond)
}

// mustRead returns the contents of path.
func mustRead(tb testing.TB, path string) string {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return string(data)
}

// BenchmarkHookAnswer is a hook call without the process: decode the event,
// load the policy, decide, encode.
func BenchmarkHookAnswer(b *testing.B) {
	payload := mustRead(b, filepath.Join(hooksDir, "claude-code", "safe.json"))
	project, _ := hookProject(b)
	event := strings.ReplaceAll(payload, projectMark, project)
	agent, _ := hookproto.Lookup("claude-code")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if ans := hookAnswer(strings.NewReader(event), agent, ""); ans.ExitCode != 0 {
			b.Fatalf("%s", ans.Stdout)
		}
	}
}

// BenchmarkHookLatency runs, side by side and alternately, a yardstick
// (testdata/yardstick: a Go program that only decodes the same event) and
// sandboxauth hook deciding a Claude Code shell call, and reports the
// median wall-clock time of each (yardstick-p50-ms, hook-p50-ms) and their
// ratio (ratio; the target is at most 1.5). Alternating the two keeps a
// change in the machine's load from favouring either. Run it with:
//
//	go test ./cmd/sandboxauth -run '^$' -bench BenchmarkHookLatency -benchtime 200x
//
// Both programs are run as the linker wrote them, which is also how the
// page cache holds them once they are read back from disk: in single
// pages, each mapped and unmapped on its own by every process. The same
// two programs written anew through write(2) (as cp or a download writes
// a file) are held in larger folios, which the kernel maps and unmaps
// several pages at a time; they are run in the same alternation and
// reported as written-yardstick-p50-ms, written-hook-p50-ms and
// written-ratio, to show how much of the difference is the mapping of
// the larger program's pages.
func BenchmarkHookLatency(b *testing.B) {
	dir := b.TempDir()
	yardstick := filepath.Join(dir, "yardstick")
	if out, err := goBuild(yardstick, "./testdata/yardstick"); err != nil {
		b.Fatalf("building the yardstick: %v\n%s", err, out)
	}
	if y, h := linkage(b, yardstick), linkage(b, bin); y != h {
		b.Fatalf("the yardstick is linked %s and sandboxauth %s: they must be built alike", y, h)
	}
	writtenYardstick := rewrite(b, yardstick, filepath.Join(dir, "yardstick-written"))
	writtenBin := rewrite(b, bin, filepath.Join(dir, "sandboxauth-written"))
	project, home := hookProject(b)
	event := strings.ReplaceAll(mustRead(b, filepath.Join(hooksDir, "claude-code", "safe.json")), projectMark, project)
	env := hookEnv(home)
	run := func(path string, args ...string) time.Duration {
		cmd := exec.Command(path, args...)
		cmd.Dir, cmd.Env = project, env
		cmd.Stdin = strings.NewReader(event)
		var out bytes.Buffer
		cmd.Stdout = &out
		start := time.Now()
		err := cmd.Run()
		d := time.Since(start)
		if err != nil {
			b.Fatalf("%s: %v", path, err)
		}
		return d
	}
	var floor, hook, writtenFloor, writtenHook []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		floor = append(floor, run(yardstick))
		hook = append(hook, run(bin, "hook", "--for", "claude-code"))
		writtenFloor = append(writtenFloor, run(writtenYardstick))
		writtenHook = append(writtenHook, run(writtenBin, "hook", "--for", "claude-code"))
	}
	b.StopTimer()
	y, h := percentileMS(floor, 0.50), percentileMS(hook, 0.50)
	b.ReportMetric(y, "yardstick-p50-ms")
	b.ReportMetric(h, "hook-p50-ms")
	b.ReportMetric(h/y, "ratio")
	wy, wh := percentileMS(writtenFloor, 0.50), percentileMS(writtenHook, 0.50)
	b.ReportMetric(wy, "written-yardstick-p50-ms")
	b.ReportMetric(wh, "written-hook-p50-ms")
	b.ReportMetric(wh/wy, "written-ratio")
}

// rewrite writes the program at path anew, through write(2), at to, and
// returns to.
func rewrite(b *testing.B, path, to string) string {
	b.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o755); err != nil {
		b.Fatal(err)
	}
	return to
}
