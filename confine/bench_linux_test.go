package confine

import (
	"os/exec"
	"testing"
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
