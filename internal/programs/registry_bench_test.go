package programs

import (
	"strings"
	"testing"
)

// BenchmarkFamilyBuild measures building the specs of the families that
// define a command (or its forms that begin with a word), as the first
// lookup of that command does (a hook
// process pays this once per family it needs), and of every family: the
// options read from their lists, the unsafe spellings and the
// short-option index.
func BenchmarkFamilyBuild(b *testing.B) {
	for _, c := range []struct{ command, first string }{{"", ""}, {"git", ""}, {"git", "status"}, {"git", "log"}, {"ls", ""}, {"cat", ""}} {
		name := strings.TrimSpace(c.command + " " + c.first)
		if name == "" {
			name = "every-family"
		}
		command := c.command
		b.Run(name, func(b *testing.B) {
			set, _ := familiesOf(c.command, c.first)
			if c.first == "" {
				for _, e := range commandEntries(c.command) {
					set |= e.families
				}
			}
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
