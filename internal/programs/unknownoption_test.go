package programs

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestEverySpecRefusesAnUnknownOption probes every safe form that reads
// options with an option no program has, before any operand (after the
// first operand, POSIX and Go programs read words as operands): it is
// never harmless. Forms whose words are all text are probed where a check
// reads them (dd's KEY=VALUE operands, ip's verbs).
func TestEverySpecRefusesAnUnknownOption(t *testing.T) {
	n := 0
	for _, sp := range All() {
		if sp.TextOnly && sp.Check == nil || sp.TextOnly && sp.Command == "printf" {
			continue
		}
		name := strings.Join(append([]string{sp.Command}, sp.Prefix...), " ")
		for _, probe := range [][]string{{"--zz-unknown"}, {"--zz-unknown", "x"}} {
			assert.NotNil(t, Parse(sp, probe).Problem, "%s %q accepted an unknown option", name, probe)
			n++
		}
	}
	t.Logf("%d probes", n)
	assert.NotNil(t, Parse(Lookup("ip", []string{"addr"}), []string{"show", "--zz-unknown"}).Problem)
	assert.NotNil(t, Parse(Lookup("dd", nil), []string{"if=a", "--zz-unknown"}).Problem)
}
