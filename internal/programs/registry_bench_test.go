package programs

import "testing"

// BenchmarkFamilyBuild measures building the specs of the families that
// define a command, as the first lookup of that command does (a hook
// process pays this once per family it needs), and of every family: the
// options read from their lists, the unsafe spellings and the
// short-option index.
func BenchmarkFamilyBuild(b *testing.B) {
	for _, command := range []string{"", "git", "ls"} {
		name := command
		if name == "" {
			name = "every-family"
		}
		b.Run(name, func(b *testing.B) {
			set, _ := familiesOf(command)
			b.ReportAllocs()
			for b.Loop() {
				for i, f := range families {
					if command != "" && set&(1<<i) == 0 {
						continue
					}
					for _, s := range f() {
						s.unsafeNames = s.unsafeSpellings()
						s.shorts = s.shortIndex()
					}
				}
			}
		})
	}
}
