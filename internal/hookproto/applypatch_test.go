package hookproto

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPatchFiles(t *testing.T) {
	cases := []struct {
		name  string
		patch string
		want  []string
	}{
		{"add", "*** Begin Patch\n*** Add File: a.txt\n+hello\n*** End Patch", []string{"a.txt"}},
		{"update delete", "*** Begin Patch\n*** Update File: src/a.go\n@@ func a\n-x\n+y\n*** Delete File: old.go\n*** End Patch\n", []string{"src/a.go", "old.go"}},
		{"move", "*** Begin Patch\n*** Update File: a.go\n*** Move to: b/a.go\n@@\n-x\n+y\n*** End Patch", []string{"a.go", "b/a.go"}},
		{"end of file marker", "*** Begin Patch\n*** Update File: a.go\n@@\n-x\n+y\n*** End of File\n*** End Patch", []string{"a.go"}},
		{"CRLF and blank lines", "\r\n*** Begin Patch\r\n*** Add File: a.txt\r\n+x\r\n*** End Patch\r\n\r\n", []string{"a.txt"}},
		{"heredoc", "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch\nEOF\n", []string{"a.txt"}},
		{"absolute and climbing names kept as written", "*** Begin Patch\n*** Add File: /etc/cron.d/x\n+x\n*** Update File: ../y\n@@\n-a\n+b\n*** End Patch", []string{"/etc/cron.d/x", "../y"}},
		{"added lines that look like headers are content", "*** Begin Patch\n*** Add File: a.md\n+*** Add File: hidden.txt\n*** Update File: b.md\n@@\n-*** Delete File: x\n+*** Add File: y\n*** End Patch", []string{"a.md", "b.md"}},
		// Codex trims a line before reading a header, and an Add File
		// section ends at the first line without "+".
		{"an indented header after added lines", "*** Begin Patch\n*** Add File: ok.txt\n+hi\n *** Add File: /tmp/pwned.txt\n+owned\n*** End Patch", []string{"ok.txt", "/tmp/pwned.txt"}},
		{"a tab-indented delete", "*** Begin Patch\n*** Add File: a.md\n+x\n\t*** Delete File: also-seen\n*** End Patch", []string{"a.md", "also-seen"}},
		{"an indented move", "*** Begin Patch\n*** Update File: a\n  *** Move to: /tmp/b\n@@\n-x\n+y\n*** End Patch", []string{"a", "/tmp/b"}},
		{"a context line that looks like a header is checked too", "*** Begin Patch\n*** Update File: a\n@@\n *** Add File: c\n-x\n+y\n*** End Patch", []string{"a", "c"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := PatchFiles(c.patch)
			require.NoError(t, err)
			assert.Equal(t, c.want, got)
		})
	}
}

func TestPatchFilesRejects(t *testing.T) {
	cases := map[string]string{
		"empty":                "",
		"no begin":             "*** Add File: a\n+x\n*** End Patch",
		"no end":               "*** Begin Patch\n*** Add File: a\n+x\n",
		"no file":              "*** Begin Patch\n*** End Patch",
		"unknown header":       "*** Begin Patch\n*** Rename File: a\n*** End Patch",
		"header without name":  "*** Begin Patch\n*** Add File:   \n+x\n*** End Patch",
		"move without update":  "*** Begin Patch\n*** Add File: a\n*** Move to: b\n*** End Patch",
		"move after content":   "*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\n*** Move to: b\n*** End Patch",
		"header case differs":  "*** Begin Patch\n*** add file: a\n+x\n*** End Patch",
		"text after end":       "*** Begin Patch\n*** Add File: a\n+x\n*** End Patch\n*** Add File: b",
		"heredoc without body": "apply_patch <<'EOF'\nEOF",
	}
	for name, patch := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := PatchFiles(patch)
			assert.ErrorIs(t, err, ErrMalformed)
		})
	}
}
