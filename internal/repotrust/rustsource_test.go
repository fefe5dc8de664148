package repotrust

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestScanRust: path keys inside attributes are found however they are
// spelled, and never inside comments, strings or code outside attributes.
func TestScanRust(t *testing.T) {
	for _, c := range []struct {
		src  string
		path bool
		mods []string
		ok   bool
	}{
		{"fn main() {}\n", false, nil, true},
		{"#[path = \"/etc/x.rs\"]\nmod x;\n", true, []string{"x"}, true},
		{"#[ path=\"x\" ] mod x;", true, []string{"x"}, true},
		{"# /* c */ [ /* c */ path /* c */ = \"x\"] mod x;", true, []string{"x"}, true},
		{"#[cfg_attr(unix, path = \"/x.rs\")]\nmod x;", true, []string{"x"}, true},
		{"#![path = \"x\"]", true, nil, true},
		{"#[doc = \"path = x\"] fn f() {}", false, nil, true},
		{"fn f() { let path = 1; let s = \"#[path = x]\"; }", false, nil, true},
		{"// #[path = \"x\"]\n/* #[path = \"y\"] /* nested */ still */ fn f() {}", false, nil, true},
		{"const C: char = '\"'; #[path = \"x\"] mod a;", true, []string{"a"}, true},
		{"const S: &str = r#\"\" #[path]\"#; fn f<'a>(x: &'a str) {}", false, nil, true},
		{"const B: &[u8] = b\"/*\"; #[path = \"x\"] mod m;", true, []string{"m"}, true},
		{"const Q: u8 = b'\\''; mod r#target;", false, []string{"target"}, true},
		{"#[derive(Debug)] struct S { path: String }", false, nil, true},
		{"#[cfg(x)] fn f() { if path == 1 {} }", false, nil, true},
		{"#[attr(path == 1)] fn f() {}", false, nil, true},
		{"/* unterminated", false, nil, false},
		{"const S: &str = \"unterminated;", false, nil, false},
		{"#[path = \"x\"", true, nil, false},
	} {
		path, mods, ok := scanRust([]byte(c.src))
		assert.Equal(t, c.ok, ok, "%q", c.src)
		if c.ok {
			assert.Equal(t, c.path, path, "%q", c.src)
			assert.Equal(t, c.mods, mods, "%q", c.src)
		}
	}
}

// TestRustTreeTrusted: the trees rustfmt and cargo fmt start in.
func TestRustTreeTrusted(t *testing.T) {
	type file struct{ path, text string }
	for _, c := range []struct {
		name      string
		files     []file
		link      [2]string
		manifests bool
		safe      bool
		reason    string
	}{
		{"plain crate", []file{{"Cargo.toml", "[package]\nname = \"a\"\nreadme = \"../README.md\"\n"}, {"src/main.rs", "mod a;\nfn main() {}\n"}, {"src/a.rs", "pub fn f() {}\n"}}, [2]string{}, true, true, ""},
		{"path attribute in a module", []file{{"src/main.rs", "mod a;\n"}, {"src/a/b.rs", "#[path = \"/etc/x.rs\"] mod c;\n"}}, [2]string{}, false, false, "src/a/b.rs holds a path attribute"},
		{"symbolic link", []file{{"src/main.rs", "mod m;\n"}}, [2]string{"src/m.rs", "/etc/hostname"}, false, false, "symbolic link"},
		{"a link no module can name", []file{{"src/main.rs", "fn main() {}\n"}}, [2]string{"root-link", "/"}, false, true, ""},
		{"a directory link a module can name", []file{{"src/main.rs", "mod m;\n"}}, [2]string{"src/m", "/etc"}, false, false, "symbolic link"},
		{"target is skipped", []file{{"src/main.rs", "fn main() {}\n"}, {"target/debug/x.rs", "#[path = \"/etc/x\"] mod y;\n"}}, [2]string{}, false, true, ""},
		{"a module named target", []file{{"build.rs", "mod target;\n"}, {"target/mod.rs", "#[path = \"/etc/x\"] mod y;\n"}}, [2]string{}, false, false, "declares the module target"},
		{"manifest target path outside", []file{{"Cargo.toml", "[[bin]]\nname = \"b\"\npath = \"/etc/x.rs\"\n"}}, [2]string{}, true, false, "Cargo.toml:3:1: /etc/x.rs names a path outside"},
		{"workspace member climbing out", []file{{"Cargo.toml", "[workspace]\nmembers = [\n  \"crates/a\",\n  \"../other\",\n]\n"}}, [2]string{}, true, false, "../other"},
		{"path dependency outside", []file{{"crates/a/Cargo.toml", "[dependencies]\nb = { path = \"../../../b\" }\n"}}, [2]string{}, true, false, "../../../b"},
		{"escaped manifest string", []file{{"Cargo.toml", "[lib]\npath = \"\\u002fetc/x.rs\"\n"}}, [2]string{}, true, false, "escapes"},
		{"manifests not judged for rustfmt", []file{{"Cargo.toml", "[lib]\npath = \"/etc/x.rs\"\n"}}, [2]string{}, false, true, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			sb := realTemp(t)
			if c.name == "plain crate" {
				ok, reason := RustTreeTrusted(sb+"/missing", sb, true)
				assert.True(t, ok, "a directory that does not exist holds nothing to read: %s", reason)
			}
			for _, f := range c.files {
				writeFile(t, filepath.Join(sb, f.path), f.text, 0o644)
			}
			if c.link[0] != "" {
				require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(sb, c.link[0])), 0o755))
				require.NoError(t, os.Symlink(c.link[1], filepath.Join(sb, c.link[0])))
			}
			ok, reason := RustTreeTrusted(sb, sb, c.manifests)
			assert.Equal(t, c.safe, ok, reason)
			if !c.safe {
				assert.Contains(t, reason, c.reason)
			}
		})
	}
}

// TestRustfmtFollowsPath: rustfmt really reads the file a path attribute
// names, and prints it (the family this check closes).
func TestRustfmtFollowsPath(t *testing.T) {
	if _, err := exec.LookPath("rustfmt"); err != nil {
		t.Skip("rustfmt is not installed")
	}
	outside := realTemp(t)
	writeFile(t, outside+"/o.rs", "fn   f(){let x=1; // OUTSIDE\n}\n", 0o644)
	sb := realTemp(t)
	writeFile(t, sb+"/src/main.rs", "#[cfg_attr(unix, path = \""+outside+"/o.rs\")]\nmod x;\nfn main() {}\n", 0o644)
	cmd := exec.Command("rustfmt", "--check", "src/main.rs")
	cmd.Dir = sb
	out, _ := cmd.CombinedOutput()
	if !assert.Contains(t, string(out), "OUTSIDE", "rustfmt prints the file the attribute names") {
		return
	}
	ok, _ := RustTreeTrusted(sb+"/src", sb, false)
	assert.False(t, ok)
}

// FuzzScanRust: the Rust lexer never panics and never reports a path
// attribute in a source holding no "path".
func FuzzScanRust(f *testing.F) {
	for _, s := range []string{"#[path = \"x\"] mod a;", "/* /* */ */ 'a' '\\n' r##\"x\"## b'q' c\"s\"", "#![cfg_attr(x, path = \"y\")]", "'", "r#", "b\"", "#[", "mod r#x;"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		path, _, _ := scanRust(b)
		if path && !containsPath(b) {
			t.Fatalf("a path attribute without path in %q", b)
		}
	})
}

func containsPath(b []byte) bool {
	for i := 0; i+4 <= len(b); i++ {
		if string(b[i:i+4]) == "path" {
			return true
		}
	}
	return false
}
