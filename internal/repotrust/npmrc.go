package repotrust

import "strings"

// npmrcKeys are the .npmrc keys that change neither what npm runs, nor
// where it writes, nor which host it contacts: how versions are saved,
// whether engines are enforced, and the quiet switches. logs-dir, cache,
// prefix, userconfig, globalconfig, registry, @scope:registry,
// //host/:_authToken, script-shell, node-options, proxy, ... are not.
func npmrcKey(key string) bool {
	switch key {
	case "save-exact", "save-prefix", "engine-strict", "fund", "audit", "update-notifier", "progress", "color", "loglevel":
		return true
	}
	return false
}

// NpmTrusted reports whether the .npmrc files npm reads in dir and its
// parents up to sandbox (the project's own; npm reads the one at the
// project root, and every parent is checked, the worse case) set only
// keys from the allow-list. The user's and the global npmrc lie outside
// the sandbox and are the user's. dir and sandbox are absolute and clean.
// reason names file:line:column and the key.
func NpmTrusted(dir, sandbox string) (ok bool, reason string) {
	return scanProjectFiles(dir, sandbox, ".npmrc files", []string{".npmrc"}, func(name, _ string, b []byte) (bool, string) {
		return iniScan(name, b, func(section, key, value string, l line) string {
			if section != "" {
				return at(name, l) + ": section [" + section + "] is not read here, so what it sets for npm is not known"
			}
			if !npmrcKey(strings.ToLower(key)) {
				return at(name, l) + ": key " + key + " may change what npm runs, writes or contacts (only " +
					"save-exact, save-prefix, engine-strict, fund, audit, update-notifier, progress, color and loglevel are harmless)"
			}
			return ""
		})
	})
}
