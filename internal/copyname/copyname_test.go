package copyname

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestOf: the copies editors, package managers and people leave
// beside a file are told from other names that begin with it.
func TestOf(t *testing.T) {
	hidden := map[string]bool{".netrc": true, ".env": true, ".claude.json": true, "ssh_host_rsa_key": true,
		"credentials": true, ".bash_history": true, ".yarnrc": true, "shadow": true, ".ssh": true}
	is := func(n string) bool { return hidden[n] }
	for _, c := range []struct{ name, of string }{
		{".netrc~", ".netrc"}, {".netrc.~3~", ".netrc"}, {"#.netrc#", ".netrc"}, {".netrc.swp", ".netrc"},
		{".netrc.swo", ".netrc"}, {".credentials.swp", "credentials"}, {"credentials.swp", "credentials"},
		{".netrc.bak", ".netrc"}, {".netrc.BAK", ".netrc"}, {".netrc.bak2", ".netrc"}, {".netrc_backup", ".netrc"},
		{".claude.json.backup", ".claude.json"}, {".claude.json.backup.1732000000", ".claude.json"},
		{".netrc.old", ".netrc"}, {".netrc.orig", ".netrc"}, {".netrc.save", ".netrc"}, {".netrc.2024-01-31", ".netrc"},
		{".bash_history-1234.tmp", ".bash_history"}, {"shadow-", "shadow"}, {"shadow.dpkg-old", "shadow"},
		{"shadow.rpmsave", "shadow"}, {"shadow.pacnew", "shadow"}, {".ssh.bak", ".ssh"}, {".ssh~", ".ssh"},
		{".env.local.bak", ".env"}, {"credentials.copy", "credentials"},
		// File managers' copies, RCS's, Vim's undo files.
		{".netrc (copy)", ".netrc"}, {".netrc (another copy)", ".netrc"}, {".netrc (3rd copy)", ".netrc"},
		{".netrc (1)", ".netrc"}, {".netrc copy", ".netrc"}, {".netrc copy 2", ".netrc"},
		{".netrc - Copy", ".netrc"}, {".netrc - Copy (2)", ".netrc"}, {"Copy of .netrc", ".netrc"},
		{"copy of .netrc", ".netrc"}, {"Copy (2) of .netrc", ".netrc"}, {"Copy of .netrc.bak", ".netrc"},
		{"Copy of Copy of .netrc", ".netrc"}, {".netrc,v", ".netrc"}, {"credentials,v", "credentials"},
		{"..netrc.un~", ".netrc"}, {".credentials.un~", "credentials"}, {"..env.un~", ".env"},
		{"..env.kate-swp", ".env"}, {".credentials.kate-swp", "credentials"},
		// Archives and compressed copies.
		{".ssh.tar", ".ssh"}, {".ssh.tar.gz", ".ssh"}, {".ssh.tgz", ".ssh"}, {".ssh.tar.xz", ".ssh"},
		{".ssh.tar.zst", ".ssh"}, {".ssh.zip", ".ssh"}, {".ssh.7z", ".ssh"}, {".ssh.TAR.GZ", ".ssh"},
		{".ssh-2024-01-31.tar.gz", ".ssh"}, {".ssh.bak.zip", ".ssh"}, {".netrc.gz", ".netrc"},
		{".ssh (copy).zip", ".ssh"}, {".ssh.tar.bz2", ".ssh"}, {".ssh.tar.gz.1", ".ssh"}, {".ssh.tar.lz", ".ssh"},
		{".ssh.example.tar.gz", ".ssh"}, // an archive of what was in it all the same
		// Not copies.
		{".env.example", ""}, {".env.local", ""}, {"ssh_host_rsa_key.pub", ""}, {".yarnrc.yml", ""},
		{".netrc", ""}, {".ssh-agent", ""}, {"#.netrc", ""}, {"##", ""}, {".sw", ""}, {".netrcbak", ""},
		{".env.", ""}, {"x.bak", ""}, {".swp", ""}, {"..swp", ""},
		{".env example", ""}, {".netrc (", ""}, {".netrc ()", ""}, {".netrc,", ""}, {".netrc,x", ""},
		{".netrc.un~", ""}, {".un~", ""}, {"..un~", ""}, {"...un~", ""}, {"Copy of ", ""}, {"Copy of .env.example", ""},
		{".kate-swp", ""}, {"..kate-swp", ""},
		{"Copy (x) of .netrc", ""}, {"Copy () of .netrc", ""}, {"Copy (2)of .netrc", ""}, {"Copy .netrc", ""},
		{".sshtar.gz", ""}, {".yarnrc.yml.pub", ""}, {".ssh.targz", ""}, {".ssh.zipper", ""},
	} {
		of, ok := Of(c.name, is)
		assert.Equal(t, c.of != "", ok, "%s", c.name)
		assert.Equal(t, c.of, of, "%s", c.name)
	}
}

// FuzzOf: whatever the name, Of does not panic, and a copy it
// finds is of a hidden name that is a proper part of the name.
func FuzzOf(f *testing.F) {
	for _, s := range []string{".netrc~", "#.netrc#", ".netrc.swp", "..netrc.swp", ".netrc.bak.1", ".env.example",
		"~", "#", "##", ".sw", "", ".netrc-", ".netrc.~1~", "\xff.netrc.bak", ".netrc (copy)", ".netrc (1)",
		".netrc copy", "Copy of .netrc", "Copy (2) of .netrc", "Copy of Copy of .netrc", ".netrc,v", "..netrc.un~",
		".un~", ".netrc.tar.gz", ".netrc-1.tgz", ".netrc.zip", "Copy (", "Copy ()", "..netrc.kate-swp", ".kate-swp"} {
		f.Add(s, ".netrc")
	}
	f.Fuzz(func(t *testing.T, name, hiddenName string) {
		of, ok := Of(name, func(n string) bool { return n == hiddenName })
		if !ok {
			return
		}
		if of != hiddenName || len(of) >= len(name) || !strings.Contains(name, of) {
			t.Fatalf("Of(%q) = %q with hidden %q", name, of, hiddenName)
		}
	})
}

// TestOfAllocates: telling a name costs no allocation, a copy or not, so
// that the read protection can ask on every path it checks.
func TestOfAllocates(t *testing.T) {
	is := func(n string) bool { return n == ".env" || n == ".npmrc" }
	for _, name := range []string{".env-backup", ".env.example", "main.go", "Copy of .npmrc.BAK", ".env.local.tar.gz", ".env (1)"} {
		assert.Zero(t, testing.AllocsPerRun(100, func() { Of(name, is) }), "%s", name)
	}
}

// TestUsualAreCopies: every name looked at in a directory that
// cannot be listed is one that Of counts as a copy, so that the
// two ways of finding copies agree.
func TestUsualAreCopies(t *testing.T) {
	for _, name := range []string{".netrc", ".ssh", "credentials", ".env", "id_ed25519"} {
		for _, n := range Usual(name) {
			got, ok := Of(n, func(h string) bool { return h == name })
			assert.True(t, ok, "%q is looked at as a copy of %q, but copyname.Of does not count it", n, name)
			assert.Equal(t, name, got, "%q", n)
		}
	}
}
