package repotrust

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// parseCases: git configuration texts, with the settings git lists for
// them ("name=value", or the name alone for a key without a value), or
// "error" when git rejects the text.
var bad = []string{"error"}

var parseCases = []struct {
	text string
	want []string
}{
	{"[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n", []string{"core.repositoryformatversion=0", "core.filemode=true"}},
	{"\xef\xbb\xbf[core]\n\tfsmonitor = ./m.sh\n", []string{"core.fsmonitor=./m.sh"}},
	{"\xef\xbb[core]\n", bad}, // partial BOM: error
	{"[CORE]\n\tFSMonitor = ./x\n", []string{"core.fsmonitor=./x"}},
	{"[core] fsmonitor = ./x\n", []string{"core.fsmonitor=./x"}},
	{"[core]\n\tbare\n", []string{"core.bare"}},
	{"[core]\n\tbare ; comment\n", bad}, // a comment after a bare key is an error in git
	{"[diff \"A b\"]\n\ttextconv = t\n", []string{"diff.A b.textconv=t"}},
	{"[diff.Bin]\n\ttextconv = t\n", []string{"diff.bin.textconv=t"}},
	{"[diff \"a\\\"]b\"] command = ./pwn.sh\n", []string{"diff.a\"]b.command=./pwn.sh"}},
	{"[alias]\n\tx = \"!sh \\\n-c id\"\n", []string{"alias.x=!sh -c id"}},
	{"[a]\n\tb = x \\\n  y\n", []string{"a.b=x   y"}},
	{"[a]\n\tb = \"one # two\" ; three\n", []string{"a.b=one # two"}},
	{"[a]\n\tb = one\\ttwo\\\\\n", []string{"a.b=one\ttwo\\"}},
	{"[a]\n\tb = \\q\n", bad},
	{"[a]\n\tb = \"open\n", bad},
	{"[a\n\tb = c\n", bad},
	{"b = c\n", []string{"b=c"}},
	{"[a]\r\n\tb = c\r\n", []string{"a.b=c"}},
	{"[a]\n\tb = c  \t \n", []string{"a.b=c"}},
	{"[a]\n\tb = c\t d\n", []string{"a.b=c  d"}},
	{"[a]\n\t1b = c\n", bad},
	{"[a]\n\tb-1 = c\n", []string{"a.b-1=c"}},
	{"[a]\n\tb_1 = c\n", bad},
	{"# only a comment\n; another\n", nil},
	{"[a]\n\tb = c\n[x \"y\"] z\n", []string{"a.b=c", "x.y.z"}},
	{"[a]\n\tb =\n", []string{"a.b="}},
	{"[include]\n\tpath = other\n", []string{"include.path=other"}},
	{"[a] b = \"x\"\"y\"\n", []string{"a.b=xy"}},
	{"[]\n", bad},
	{"[a \"b\" ]\n", bad},
	{"[core.]\n\tbare\n", []string{"core..bare"}},
	{"[.core]\n\tbare\n", []string{".core.bare"}},
	{"[a.B \"C\"]\n\tb = c\n", []string{"a.b.C.b=c"}},
	{"[a]\n\tb = c\\", []string{"a.b=c"}},
	{"[ \"x\"]\n\tk = 1\n", []string{".x.k=1"}},
	{"[..]\n\tk=1\n", []string{"...k=1"}},
	{"[core \"\"]\n\thooksPath = x\n", []string{"core..hookspath=x"}},
	{"[a]\n\tb = \"x\x00y\"\n", []string{"a.b=x"}},
	{"[a]\n\tb = x\x00y\"\n", bad},
	{"[a]\n\tb = x\x00\\q\n", bad},
	{"[a]\n\tb = \"x\\", bad},
}

// TestParseGitConfig: each text gives the settings git itself lists; the
// same texts go through the real git when it is installed, and where both
// accept a text they must agree.
func TestParseGitConfig(t *testing.T) {
	gitPath, _ := exec.LookPath("git")
	for _, c := range parseCases {
		var got []string
		err := ParseGitConfig("cfg", []byte(c.text), func(s Setting) error {
			if s.HasValue {
				got = append(got, s.Name()+"="+s.Value)
			} else {
				got = append(got, s.Name())
			}
			return nil
		})
		if len(c.want) == 1 && c.want[0] == "error" {
			assert.ErrorIs(t, err, ErrConfigSyntax, "%q", c.text)
			assert.Contains(t, err.Error(), "cfg:", "%q", c.text)
		} else {
			require.NoError(t, err, "%q", c.text)
			assert.Equal(t, c.want, got, "%q", c.text)
		}
		if gitPath == "" {
			continue
		}
		f := filepath.Join(t.TempDir(), "cfg")
		require.NoError(t, os.WriteFile(f, []byte(c.text), 0o644))
		out, gerr := exec.Command(gitPath, "config", "--file", f, "--no-includes", "--list").Output()
		if gerr != nil {
			// What git refuses makes git fail.
			assert.Error(t, err, "git refuses %q", c.text)
			continue
		}
		// What git accepts is read: refusing it would leave what git
		// obeys in it unread.
		require.NoError(t, err, "git accepts %q", c.text)
		var lines []string
		for _, l := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
			if l != "" {
				lines = append(lines, l)
			}
		}
		// git lists names with the section lower-case and the key
		// lower-case, a subsection as written.
		assert.Equal(t, got, lines, "%q", c.text)
	}
}
