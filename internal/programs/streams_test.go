package programs

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestStreamForms: dd without an output file, and shuf.
func TestStreamForms(t *testing.T) {
	checkForms(t, []formCase{
		{"dd if=a.bin bs=1 count=16 status=none", 0, "ok", nil},
		{"dd if=/dev/urandom bs=16 count=1", 0, "ok", nil},
		{"dd bs=4k", 0, "ok", nil},
		{"dd if=a.bin of=b.bin", 0, "unsafe", nil},
		{"dd of=/dev/sda", 0, "unsafe", nil},
		{"dd if=a.bin seek=1", 0, "unsafe", nil},
		{"dd if=a.bin oseek=1", 0, "unsafe", nil},
		{"dd a.bin", 0, "unknown", nil},
		{"dd if=a.bin zz=1", 0, "unknown", nil},
		{"shuf a.txt", 0, "ok", nil},
		{"shuf -n 5 a.txt", 0, "ok", nil},
		{"shuf -e a b c", 0, "ok", nil},
		{"shuf -i 1-10", 0, "ok", nil},
		{"shuf -o out.txt a.txt", 0, "ok", nil},
		{"shuf a.txt b.txt", 0, "unknown", nil},
		{"shuf --zz a.txt", 0, "unknown", nil},
	})
	p := Parse(Lookup("dd", nil), strings.Fields("if=/dev/sda bs=512 count=1"))
	assert.Equal(t, []Arg{{"/dev/sda", Read}}, p.Files, "if= is a read, checked like any other")
	p = Parse(Lookup("shuf", nil), strings.Fields("-e /etc/passwd x"))
	assert.Empty(t, p.Files, "with -e the operands are lines")
	p = Parse(Lookup("shuf", nil), strings.Fields("-o out.txt a.txt"))
	assert.Equal(t, []Arg{{"out.txt", Write}, {"a.txt", Read}}, p.Files)
}

// TestViewerForms: eza lists without following links or reading
// repositories; less has no spec.
func TestViewerForms(t *testing.T) {
	checkForms(t, []formCase{
		{"eza -la", 0, "ok", nil},
		{"eza -T -L 2 src", 0, "ok", nil},
		{"eza --tree --level=2 --icons", 0, "ok", nil},
		{"eza -l --git", 0, "unsafe", nil},
		{"eza -X -l", 0, "unsafe", nil},
		{"eza --zz", 0, "unknown", nil},
	})
	assert.Nil(t, Lookup("less", nil), "less is a pager with shell escapes: asked about")
}

// TestYqForms: yq with harmless programs; env, load, eval, in-place
// editing and splitting into files are refused, in both yq's.
func TestYqForms(t *testing.T) {
	checkForms(t, []formCase{
		{"yq .a x.yaml", 0, "ok", nil},
		{"yq -r .version package.yaml", 0, "ok", nil},
		{"yq -o json . x.yaml", 0, "ok", nil},
		{"yq --expression .a x.yaml", 0, "ok", nil},
		{"yq -y .a x.yaml", 0, "ok", nil},
		{"yq .env x.yaml", 0, "ok", nil}, // a field named env
		{"yq -i .a=1 x.yaml", 0, "unsafe", nil},
		{"yq --in-pl .a=1 x.yaml", 0, "unsafe", nil}, // argparse's abbreviation
		{"yq -s . x.yaml", 0, "unsafe", nil},
		{"yq env(HOME)", 0, "unsafe", nil},
		{"yq -n strenv(AWS_SECRET)", 0, "unsafe", nil},
		{"yq -n envsubst", 0, "unsafe", nil},
		{"yq -n $ENV.HOME", 0, "unsafe", nil},
		{"yq -n env.HOME", 0, "unsafe", nil},
		{`yq -n load("/etc/passwd")`, 0, "unsafe", nil},
		{`yq -n load_str("/etc/passwd")`, 0, "unsafe", nil},
		{`yq -n eval(.x)`, 0, "unsafe", nil},
		{`yq --expression env(HOME) x.yaml`, 0, "unsafe", nil},
		{"yq -f prog.jq x.yaml", 0, "unsafe", nil},
		{"yq -L lib . x.yaml", 0, "unsafe", nil},
		{"yq --zz . x.yaml", 0, "unknown", nil},
		{"yq -I 4 .a x.yaml", 0, "ok", nil}, // -I takes the indent
		{"yq -I 4 env(HOME) x.yaml", 0, "unsafe", nil},
	})
	p := Parse(Lookup("yq", nil), []string{"/etc/passwd"})
	assert.Nil(t, p.Problem)
	assert.Contains(t, p.Files, Arg{"/etc/passwd", Read}, "the Go yq reads a lone operand as a file")
}
