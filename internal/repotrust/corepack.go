package repotrust

import (
	"encoding/json"
	"regexp"
	"sync"
)

// releasedManager matches a packageManager value that names a released
// version of a package manager, with an optional integrity hash:
// "pnpm@9.1.0", "yarn@4.2.2+sha512.1f2e...". Corepack fetches such a
// version from the npm registry. A URL, a tag or a range is not one: a
// URL makes Corepack download and run whatever it serves. It is compiled
// on first use: most processes never read a packageManager field.
var releasedManager = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(npm|pnpm|yarn)@[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?(\+sha(1|224|256|512)\.[0-9a-fA-F]+)?$`)
})

// CorepackTrusted reports whether the files Corepack reads in dir and its
// parents up to sandbox let it run only a released package manager.
// Corepack's shims (yarn, pnpm, and npm when enabled) read the
// packageManager field of package.json, and devEngines.packageManager, to
// choose the package manager they download and run, and .corepack.env for
// their own environment (the registry among it). So every package.json
// must name a released version or none, declare no devEngines package
// manager, and no .corepack.env may exist. A package.json that is not a
// JSON object is not trusted.
func CorepackTrusted(dir, sandbox string) (ok bool, reason string) {
	return scanProjectFiles(dir, sandbox, "package manager settings", []string{"package.json", ".corepack.env"}, func(name, base string, b []byte) (bool, string) {
		if base == ".corepack.env" {
			return false, name + " sets Corepack's environment (its registry among it), so which package manager runs is not known"
		}
		var top map[string]json.RawMessage
		if err := json.Unmarshal(b, &top); err != nil {
			return false, name + " is not read as a JSON object (" + err.Error() + "), so which package manager Corepack runs is not known"
		}
		if raw, found := top["packageManager"]; found {
			var v string
			if json.Unmarshal(raw, &v) != nil || !releasedManager().MatchString(v) {
				return false, name + ": packageManager " + string(raw) + " is not a released version, and Corepack would download and run what it names"
			}
		}
		if raw, found := top["devEngines"]; found {
			var engines map[string]json.RawMessage
			if json.Unmarshal(raw, &engines) != nil {
				return false, name + ": devEngines is not an object, so which package manager Corepack runs is not known"
			}
			if _, found := engines["packageManager"]; found {
				return false, name + ": devEngines.packageManager chooses the package manager Corepack downloads and runs"
			}
		}
		return true, ""
	})
}
