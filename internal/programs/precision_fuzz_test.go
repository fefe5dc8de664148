package programs

import (
	"strings"
	"testing"
)

// FuzzPrecisionForms reads fuzzed argument lists with the specs of issue
// 24's families and checks what each one promises whatever the words: the
// parser never panics; dd never accepts of=, seek= or oseek=; tar never
// accepts -C or -T with --create, nor creates without its archive as a
// write; a tmux listing never accepts a format; yq never accepts a
// program that names load, env or eval; kill -0 accepts only process IDs;
// gzip never writes FILE.gz without checking it.
func FuzzPrecisionForms(f *testing.F) {
	seeds := []struct {
		form string
		args string
	}{
		{"dd", "if=a.bin\x00bs=1\x00count=4"},
		{"dd", "if=a\x00of=b"},
		{"tar", "-czf\x00out.tgz\x00src"},
		{"tar", "czf\x00out.tgz\x00-C\x00/\x00etc"},
		{"tar", "-tf\x00a.tar"},
		{"tmux ls", "-F\x00#(id)"},
		{"yq", ".a\x00x.yaml"},
		{"yq", "-n\x00env(HOME)"},
		{"kill -0", "123\x00-1"},
		{"gzip", "-k\x00a.txt"},
		{"gzip", "-dk\x00a.txt.gz"},
		{"zip", "-ry\x00out.zip\x00src"},
		{"journalctl", "-n\x00--vacuum-size=1"},
	}
	for _, s := range seeds {
		f.Add(s.form, s.args)
	}
	f.Fuzz(func(t *testing.T, form, joined string) {
		w := strings.Fields(form)
		if len(w) == 0 {
			return
		}
		sp := Lookup(w[0], w[1:])
		if sp == nil {
			return
		}
		args := strings.Split(joined, "\x00")
		p := Parse(sp, args)
		if p.Problem != nil {
			return
		}
		switch form {
		case "dd":
			for _, a := range args {
				k, _, _ := strings.Cut(a, "=")
				if k == "of" || k == "seek" || k == "oseek" {
					t.Fatalf("dd accepted %q", a)
				}
			}
		case "tar":
			if p.Has("-c") {
				if p.Has("-C", "-T") {
					t.Fatalf("tar --create accepted -C or -T: %q", args)
				}
				written := false
				for _, f := range p.Files {
					if f.Role == Write && f.Word == p.Values("-f")[0] {
						written = true
					}
				}
				if !written {
					t.Fatalf("tar --create without its archive as a write: %q %+v", args, p.Files)
				}
			}
		case "tmux ls":
			if p.Has("-F") || p.Has("-f") {
				t.Fatalf("tmux ls accepted a format: %q", args)
			}
		case "yq":
			// The program is --expression's value, or else the first operand.
			progs := p.Values("--expression")
			if len(progs) == 0 && len(p.Operands) > 0 {
				progs = p.Operands[:1]
			}
			for _, o := range progs {
				low := strings.ToLower(o)
				if strings.Contains(low, "load(") || strings.Contains(low, "env(") || strings.Contains(low, "eval(") {
					t.Fatalf("yq accepted %q", o)
				}
			}
		case "kill -0":
			for _, o := range p.Operands {
				if strings.Trim(strings.TrimPrefix(o, "-"), "0123456789") != "" {
					t.Fatalf("kill -0 accepted %q", o)
				}
			}
		case "gzip":
			if !p.Has("-c", "-l", "-t") {
				for _, o := range p.Operands {
					if o == "-" {
						continue
					}
					found := false
					for _, f := range p.Files {
						if f.Role == Write && f.Word == o+".gz" || p.Has("-d") && f.Role == Write {
							found = true
						}
					}
					if !found {
						t.Fatalf("gzip %q writes %s.gz unchecked: %+v", args, o, p.Files)
					}
				}
			}
		}
	})
}
