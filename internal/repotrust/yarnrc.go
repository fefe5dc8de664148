package repotrust

import (
	"path/filepath"
	"strings"
)

// yarnrcKeys (Yarn 1's .yarnrc, "key value" lines) that change neither
// what yarn runs, where it writes, nor which host it contacts. yarn-path
// (a script yarn runs instead of itself), registry, cache-folder, prefix,
// --*-prefixed command defaults and the rest are not.
func yarnrcKey(key string) bool {
	switch key {
	case "save-prefix", "save-exact", "disable-self-update-check", "network-timeout", "ignore-engines":
		return true
	}
	return false
}

// yarnrcYmlKeys (Yarn 2+'s .yarnrc.yml, flat "key: value" lines). yarnPath
// (the release yarn runs, a project file), npmRegistryServer, plugins,
// cacheFolder, unsafeHttpWhitelist, enableTelemetry other than false and
// the rest are not.
func yarnrcYmlKey(key, value string) bool {
	switch key {
	case "nodeLinker", "compressionLevel", "enableImmutableInstalls", "defaultSemverRangePrefix", "enableGlobalCache", "enableColors", "enableProgressBars":
		return true
	case "enableTelemetry":
		return value == "false" || value == "0"
	}
	return false
}

// YarnTrusted reports whether the .yarnrc and .yarnrc.yml files in dir
// and its parents up to sandbox set only keys from the allow-lists. A
// .yarnrc.yml line that is not a flat "key: scalar" (nesting, lists,
// anchors) is not understood and not trusted.
func YarnTrusted(dir, sandbox string) (ok bool, reason string) {
	dirs, in := projectDirs(dir, sandbox)
	if !in {
		return false, dir + " is not in the sandbox, so its .yarnrc files are not known"
	}
	for _, d := range dirs {
		if ok, reason := yarnrc(filepath.Join(d, ".yarnrc")); !ok {
			return false, reason
		}
		if ok, reason := yarnrcYml(filepath.Join(d, ".yarnrc.yml")); !ok {
			return false, reason
		}
	}
	return true, ""
}

func yarnrc(name string) (bool, string) {
	b, exists, problem := readProjectFile(name)
	if problem != "" || !exists {
		return problem == "", problem
	}
	for _, l := range lines(b) {
		if l.text[0] == '#' {
			continue
		}
		key, _, _ := strings.Cut(l.text, " ")
		key = strings.Trim(key, `"`)
		if !yarnrcKey(key) {
			return false, at(name, l) + ": key " + key + " may change what yarn runs, writes or contacts"
		}
	}
	return true, ""
}

func yarnrcYml(name string) (bool, string) {
	b, exists, problem := readProjectFile(name)
	if problem != "" || !exists {
		return problem == "", problem
	}
	for _, l := range lines(b) {
		if l.text[0] == '#' {
			continue
		}
		if l.col != 1 {
			return false, at(name, l) + ": nested value not read here, so what it sets for yarn is not known"
		}
		key, value, found := strings.Cut(l.text, ":")
		key = strings.Trim(strings.TrimSpace(key), `"'`)
		value = strings.Trim(strings.TrimSpace(stripYAMLComment(value)), `"'`)
		if !found || value == "" || strings.ContainsAny(value, "[]{}&*!|>") {
			return false, at(name, l) + ": " + key + " has a value not read here, so what it sets for yarn is not known"
		}
		if !yarnrcYmlKey(key, value) {
			return false, at(name, l) + ": key " + key + " may change what yarn runs, writes or contacts"
		}
	}
	return true, ""
}

func stripYAMLComment(v string) string {
	if i := strings.Index(v, " #"); i >= 0 {
		return v[:i]
	}
	return v
}
