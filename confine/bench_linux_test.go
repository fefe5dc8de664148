package confine

import (
	"os/exec"
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

// BenchmarkStart compares starting and waiting for /bin/true confined by
// a DefaultPolicy with doing so plainly with exec.Cmd.
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
	b.Run("confined", func(b *testing.B) {
		requireLandlock(b)
		p := DefaultPolicy(sb)
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if err := Run(exec.Command("/bin/true"), p); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkOverhead measures the fixed costs confinement adds to a start,
// apart from the child: building DefaultPolicy's ruleset (opening each
// path, one rule each) and a fresh OS thread that is retired afterwards.
func BenchmarkOverhead(b *testing.B) {
	requireLandlock(b)
	abi, err := support(false)
	if err != nil {
		b.Fatal(err)
	}
	p := DefaultPolicy(b.TempDir())
	cmd := exec.Command("/bin/true")
	b.Run("ruleset", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			fd, err := ruleset(abi, cmd, &p)
			if err != nil {
				b.Fatal(err)
			}
			unix.Close(fd)
		}
	})
	b.Run("thread", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			done := make(chan struct{})
			go func() {
				runtime.LockOSThread() // never unlocked: the thread is retired
				close(done)
			}()
			<-done
		}
	})
}
