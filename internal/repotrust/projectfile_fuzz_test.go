package repotrust

import (
	"strings"
	"testing"
)

// FuzzProjectFileScanners: the TOML and ini line scanners never panic, a
// refusal names the file, and a setting they pass on is one line's
// "key = scalar".
func FuzzProjectFileScanners(f *testing.F) {
	for _, s := range []string{
		"[build]\nrustc-wrapper = \"./w.sh\"\n", "[term]\ncolor = \"always\" # c\n", "build.jobs = [\n1]\n",
		"[ \"build\" ]\n\"rustc\" = './r'\n", "[[bin]]\nname = 'x'\n", "a = \"\"\"\nx\n\"\"\"\n",
		"save-exact=true\n[x]\nk\n", "\xef\xbb\xbfk = 'v\n", "[tool.uv]\nlink-mode = \"copy\"\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, skip := range []func(string) bool{nil, func(p string) bool { return !strings.HasPrefix(p, "tool.uv") }} {
			ok, reason := tomlScan("f.toml", b, skip, func(path, value string, l line) string {
				if !scalarValue(value) || path == "" {
					t.Fatalf("passed on %q = %q", path, value)
				}
				return ""
			})
			if !ok && !strings.HasPrefix(reason, "f.toml:") {
				t.Fatalf("reason %q does not name the file", reason)
			}
		}
		ok, reason := iniScan("f.ini", b, func(section, key, value string, l line) string {
			if strings.ContainsAny(key+value, "\n") {
				t.Fatalf("a setting spans lines: %q = %q", key, value)
			}
			return ""
		})
		if !ok && !strings.HasPrefix(reason, "f.ini:") {
			t.Fatalf("reason %q does not name the file", reason)
		}
	})
}
