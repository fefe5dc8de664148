package programs

import (
	"archive/zip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestArchiveForms: listing, and creating archives with every output a
// checked write and every input a checked read.
func TestArchiveForms(t *testing.T) {
	tests := []formCase{
		{"tar -czf out.tgz src", 0, "ok", []Arg{{"out.tgz", Write}, {"src", ReadTree}}},
		{"tar czf out.tgz src README.md", 0, "ok", []Arg{{"out.tgz", Write}, {"src", ReadTree}, {"README.md", ReadTree}}},
		{"tar -cf - src", 0, "ok", nil},
		{"tar -czf out.tgz -C / etc", 0, "unsafe", nil},
		{"tar -czf out.tgz -T list.txt", 0, "unsafe", nil},
		{"tar -czhf out.tgz src", 0, "unknown", nil}, // -h follows links
		{"tar -cz src", 0, "unsafe", nil},
		{"tar -czf out.tgz", 0, "unknown", nil},
		{"tar -czf host:out.tgz src", 0, "unsafe", nil},
		{"tar -ctf a.tar src", 0, "unknown", nil},
		{"tar -czf out.tgz --remove-files src", 0, "unsafe", nil},
		{"tar -xf a.tar", 0, "unsafe", nil},
		{"tar C0t", 0, "unknown", nil},       // old style: C takes the next word, and there is none (tar refuses)
		{"tar tfC a.tar", 0, "unknown", nil}, // f takes a.tar, C has nothing left
		{"tar t-00", 0, "unknown", nil},      // "-" is no option letter (it would end the options)
		{"tar tQf a.tar", 0, "unknown", nil}, // Q is no option tar's spec knows
		{"7z l a.7z", 1, "ok", []Arg{{"a.7z", Read}}},
		{"7z l -slt a.7z", 1, "ok", nil},
		{"7z l a.7z -slt", 1, "unknown", nil},
		{"7z l @list", 1, "unknown", nil},
		{"7z l *.env", 1, "unknown", nil},
		{"jar tf app.jar", 1, "ok", []Arg{{"app.jar", Read}}},
		{"jar tf app.jar META-INF/MANIFEST.MF", 1, "ok", nil},
		{"jar tf @args", 1, "unknown", nil},
		{"jar tf app.jar -J-javaagent:x.jar", 1, "unknown", nil},
		{"gzip -k a.txt", 0, "ok", []Arg{{"a.txt", Read}, {"a.txt.gz", Write}}},
		{"gzip a.txt", 0, "ok", []Arg{{"a.txt", Write}, {"a.txt.gz", Write}}},
		{"gzip -c a.txt", 0, "ok", []Arg{{"a.txt", Read}}},
		{"gzip -dk a.txt.gz", 0, "ok", []Arg{{"a.txt.gz", Read}, {"a.txt", Write}}},
		{"gzip -d a.tgz", 0, "unknown", nil},
		{"gzip -dN a.txt.gz", 0, "unsafe", nil},
		{"gzip -f a.txt", 0, "unsafe", nil},
		{"gzip -r src", 0, "unsafe", nil},
		{"gzip -S .x a.txt", 0, "unsafe", nil},
		{"gunzip -k a.txt.gz", 0, "ok", []Arg{{"a.txt.gz", Read}, {"a.txt", Write}}},
		{"gzip -l a.txt.gz", 0, "ok", []Arg{{"a.txt.gz", Read}}},
		{"zip -r -y out.zip src", 0, "ok", []Arg{{"out.zip", Write}, {"src", ReadTree}}},
		{"zip -ry out.zip src", 0, "ok", nil},
		{"zip out.zip a.txt b.txt", 0, "ok", []Arg{{"out.zip", Write}, {"a.txt", Read}, {"b.txt", Read}}},
		{"zip -r out.zip src", 0, "ok", nil}, // follows links: the engine checks them (FollowsLinks)
		{"zip -r -y out.zip src -x *.git*", 0, "ok", nil},
		{"zip out.zip *.env", 0, "unknown", nil},
		{"zip out.zip", 0, "unknown", nil},
		{"zip -@ out.zip", 0, "unknown", nil},
		{"zip -T out.zip a.txt", 0, "unsafe", nil},
		{"zip -TT x out.zip a.txt", 0, "unsafe", nil},
		{"zip -m out.zip a.txt", 0, "unsafe", nil},
		{"zip -y- out.zip a.txt", 0, "unknown", nil},
		{"zip -b /tmp out.zip a.txt", 0, "unknown", nil},
	}
	checkForms(t, tests)
	assert.False(t, ReadOnlyArgv("tar", strings.Fields("-czf out.tgz src")))
	assert.True(t, ReadOnlyArgv("tar", strings.Fields("-tzf out.tgz")))
	assert.False(t, ReadOnlyArgv("gzip", strings.Fields("-k a.txt")))
}

// archiveDir makes a throwaway directory under the home directory with a
// file outside it and a tree holding a link to that file.
func archiveDir(t *testing.T) (dir, secret string) {
	t.Helper()
	home, err := os.UserHomeDir()
	require.NoError(t, err)
	dir, err = os.MkdirTemp(home, "archives-test-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	secret = filepath.Join(dir, "outside", "secret.txt")
	require.NoError(t, os.MkdirAll(filepath.Dir(secret), 0o755))
	require.NoError(t, os.WriteFile(secret, []byte("SECRET-CONTENT\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "sb", "src"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sb", "src", "a.txt"), []byte("a\n"), 0o644))
	require.NoError(t, os.Symlink(secret, filepath.Join(dir, "sb", "src", "link")))
	return dir, secret
}

// TestZipFollowsLinksWithoutY: zip -r stores what a link points at,
// outside the tree too, unless -y: the reason the engine checks the links
// of zip -r's trees without -y.
func TestZipFollowsLinksWithoutY(t *testing.T) {
	if _, err := exec.LookPath("zip"); err != nil {
		t.Skip("zip is not installed")
	}
	dir, _ := archiveDir(t)
	sb := filepath.Join(dir, "sb")
	read := func(name string) string {
		r, err := zip.OpenReader(filepath.Join(sb, name))
		require.NoError(t, err)
		defer r.Close()
		var all strings.Builder
		for _, f := range r.File {
			if f.Name != "src/link" {
				continue
			}
			rc, err := f.Open()
			require.NoError(t, err)
			b := make([]byte, 64)
			n, _ := rc.Read(b)
			rc.Close()
			all.Write(b[:n])
		}
		return all.String()
	}
	for _, args := range [][]string{{"-r", "-q", "follow.zip", "src"}, {"-r", "-y", "-q", "links.zip", "src"}} {
		cmd := exec.Command("zip", args...)
		cmd.Dir = sb
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	assert.Contains(t, read("follow.zip"), "SECRET-CONTENT", "zip -r follows the link out")
	assert.NotContains(t, read("links.zip"), "SECRET-CONTENT", "zip -r -y stores the link")
	follow := Parse(Lookup("zip", nil), []string{"-r", "follow.zip", "src"})
	assert.Nil(t, follow.Problem)
	assert.True(t, follow.FollowsLinks, "the engine is told to check where the links lead")
	links := Parse(Lookup("zip", nil), []string{"-r", "-y", "links.zip", "src"})
	assert.Nil(t, links.Problem)
	assert.False(t, links.FollowsLinks)
}

// TestTarCreateStoresLinks: tar -c stores a link as a link (the spec
// accepts it), and with -h follows it (the spec does not know -h).
func TestTarCreateStoresLinks(t *testing.T) {
	if _, err := exec.LookPath("tar"); err != nil {
		t.Skip("tar is not installed")
	}
	dir, _ := archiveDir(t)
	sb := filepath.Join(dir, "sb")
	for _, args := range [][]string{{"-cf", "links.tar", "src"}, {"-chf", "follow.tar", "src"}} {
		cmd := exec.Command("tar", args...)
		cmd.Dir = sb
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	links, err := os.ReadFile(filepath.Join(sb, "links.tar"))
	require.NoError(t, err)
	follow, err := os.ReadFile(filepath.Join(sb, "follow.tar"))
	require.NoError(t, err)
	assert.NotContains(t, string(links), "SECRET-CONTENT")
	assert.Contains(t, string(follow), "SECRET-CONTENT")
	assert.Nil(t, Parse(Lookup("tar", nil), []string{"-cf", "links.tar", "src"}).Problem)
	assert.NotNil(t, Parse(Lookup("tar", nil), []string{"-chf", "follow.tar", "src"}).Problem)
}

// TestGzipOutputs: gzip -k writes FILE.gz beside FILE and refuses to
// write through an existing link there (without -f), which the spec
// refuses.
func TestGzipOutputs(t *testing.T) {
	if _, err := exec.LookPath("gzip"); err != nil {
		t.Skip("gzip is not installed")
	}
	dir, secret := archiveDir(t)
	src := filepath.Join(dir, "sb", "src")
	cmd := exec.Command("gzip", "-k", "a.txt")
	cmd.Dir = src
	require.NoError(t, cmd.Run())
	_, err := os.Stat(filepath.Join(src, "a.txt.gz"))
	require.NoError(t, err, "gzip -k writes FILE.gz beside FILE")
	_, err = os.Stat(filepath.Join(src, "a.txt"))
	require.NoError(t, err, "and keeps FILE")

	require.NoError(t, os.WriteFile(filepath.Join(src, "b.txt"), []byte("b\n"), 0o644))
	require.NoError(t, os.Symlink(secret, filepath.Join(src, "b.txt.gz")))
	cmd = exec.Command("gzip", "-k", "b.txt")
	cmd.Dir = src
	_ = cmd.Run()
	got, err := os.ReadFile(secret)
	require.NoError(t, err)
	assert.Equal(t, "SECRET-CONTENT\n", string(got), "gzip without -f does not write through a link")
	assert.NotNil(t, Parse(Lookup("gzip", nil), []string{"-kf", "b.txt"}).Problem)
}

// TestJarReadsArgumentFiles: jar expands @FILE into arguments, so an
// operand beginning with @ is refused.
func TestJarReadsArgumentFiles(t *testing.T) {
	if _, err := exec.LookPath("jar"); err != nil {
		t.Skip("jar is not installed")
	}
	dir, _ := archiveDir(t)
	sb := filepath.Join(dir, "sb")
	require.NoError(t, os.WriteFile(filepath.Join(sb, "args"), []byte("--version\n"), 0o644))
	cmd := exec.Command("jar", "@args")
	cmd.Dir = sb
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), "jar ", "jar @args read --version from the file")
	p := Parse(Lookup("jar", []string{"tf"}), []string{"@args"})
	require.NotNil(t, p.Problem)
}
