package programs

import (
	"slices"
	"strings"
	"testing"
)

// FuzzInterpreterRun: reading an interpreter's command line never panics,
// reports at most one of a file, a module and inline code, and a file it
// reports is one of the words given; the option it names for inline code is
// one of the words too, or the name part of one (--eval=1).
func FuzzInterpreterRun(f *testing.F) {
	for _, s := range []string{
		"python\x00-c\x00print(1)", "python\x00-uc\x00x", "python\x00-m\x00pytest", "python\x00-", "python\x00-W\x00error\x00x.py",
		"node\x00-e\x001", "node\x00--eval=1\x00app.js", "node\x00-r\x00./x.js\x00app.js", "node\x00--check\x00x.js", "node\x00-p",
		"php\x00-r\x00echo 1;", "php\x00-d\x00x=1\x00artisan", "python\x00--\x00-c", "node\x00-",
		"perl\x00-lne\x00print", "perl\x00-0x1Fne\x00x", "perl\x00-pie\x00x\x00f", "perl\x00-Mstrict\x00-e\x001", "perl\x00-I\x00lib\x00t.pl",
		"ruby\x00-rjson\x00-e\x00x", "ruby\x00--disable\x00gems\x00x.rb", "ruby\x00-W0\x00-c\x00x.rb", "lua\x00-l\x00m\x00-e\x001", "luajit\x00-b\x00x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		w := strings.Split(in, "\x00")
		in0 := InterpreterOf(w[0])
		if in0 == nil || len(w) > 64 {
			return
		}
		file, module, inline := in0.Run(w[1:])
		n := 0
		for _, b := range []bool{file != "", module, inline != ""} {
			if b {
				n++
			}
		}
		if n > 1 {
			t.Fatalf("%q: file %q, module %v, inline %q at once", w, file, module, inline)
		}
		if file != "" && !slices.Contains(w[1:], file) {
			t.Fatalf("%q: file %q is not one of the words", w, file)
		}
		if inline != "" && !slices.ContainsFunc(w[1:], func(a string) bool {
			return a == inline || strings.HasPrefix(a, inline+"=") || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a[1:], inline[1:])
		}) {
			t.Fatalf("%q: inline option %q is not among the words", w, inline)
		}
	})
}
