package repotrust

import "strings"

// uvKey: the uv settings (uv.toml, or [tool.uv] in pyproject.toml) that
// change neither where uv installs from, nor where it writes, nor which
// host it contacts, nor which Python it downloads. index-url,
// extra-index-url, index, find-links, python-downloads,
// python-preference, cache-dir, sources, pip.* and the rest are not.
func uvKey(key string) bool {
	switch key {
	case "link-mode", "compile-bytecode", "resolution", "prerelease", "exclude-newer", "native-tls", "no-progress", "offline":
		return true
	}
	return false
}

// UvTrusted reports whether uv's project settings in dir and its parents
// up to sandbox set only keys from the allow-list: every uv.toml, and the
// tool.uv table of every pyproject.toml (other tables of pyproject.toml
// are skipped). A line of a uv setting this reader does not understand
// (arrays, inline tables) is not trusted.
func UvTrusted(dir, sandbox string) (ok bool, reason string) {
	return scanProjectFiles(dir, sandbox, "uv settings", []string{"uv.toml", "pyproject.toml"}, func(name, base string, b []byte) (bool, string) {
		prefix := ""
		var skip func(string) bool
		if base == "pyproject.toml" {
			prefix = "tool.uv."
			skip = func(path string) bool {
				return path != "tool.uv" && !strings.HasPrefix(path, "tool.uv.")
			}
		}
		return tomlScan(name, b, skip, func(path, value string, l line) string {
			key, found := strings.CutPrefix(path, prefix)
			if !found || !uvKey(key) {
				return at(name, l) + ": key " + path + " may change what uv installs, writes or contacts"
			}
			return ""
		})
	})
}
