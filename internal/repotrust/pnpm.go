package repotrust

import (
	"encoding/json"
	"strings"
	"sync"
)

// pnpmHookFiles are the scripts pnpm loads as hooks from the project (its
// lockfile directory: the workspace root or the package): .pnpmfile.cjs,
// .pnpmfile.mjs and the older pnpmfile.js. pnpm loads them on every
// command that reads the project, listings included.
var pnpmHookFiles = []string{".pnpmfile.cjs", ".pnpmfile.mjs", "pnpmfile.js"}

// PnpmTrusted reports whether pnpm would run nothing from the project in
// dir: no hook file in dir or its parents up to sandbox (any of them may
// be the workspace root), and a pnpm-workspace.yaml there that lists
// packages and nothing else (its settings, pnpmfile among them, are
// pnpm's configuration). .npmrc is judged apart (NpmTrusted).
func PnpmTrusted(dir, sandbox string) (ok bool, reason string) {
	return scanProjectFiles(dir, sandbox, "pnpm hooks and workspace settings", append([]string{"pnpm-workspace.yaml", "package.json"}, pnpmHookFiles...),
		func(name, base string, b []byte) (bool, string) {
			switch base {
			case "pnpm-workspace.yaml":
				return pnpmWorkspace(name, b)
			case "package.json":
				return pnpmPackageSettings(name, b)
			}
			return false, name + " is a script pnpm loads as hooks on every command that reads the project"
		})
}

// pnpmPackageKeys are the keys of package.json's "pnpm" settings that
// only steer how an install resolves and builds dependencies, which no
// safe pnpm form does. Any other key is a setting not read here. It is built on first use.
var pnpmPackageKeys = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"overrides": true, "peerDependencyRules": true, "onlyBuiltDependencies": true, "neverBuiltDependencies": true,
		"ignoredBuiltDependencies": true, "allowedDeprecatedVersions": true, "packageExtensions": true,
		"auditConfig": true, "updateConfig": true, "patchedDependencies": true, "allowNonAppliedPatches": true,
	}
})

// pnpmPackageSettings judges package.json's "pnpm" field.
func pnpmPackageSettings(name string, b []byte) (bool, string) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil {
		return false, name + " is not read as a JSON object (" + err.Error() + "), so its pnpm settings are not known"
	}
	raw, found := top["pnpm"]
	if !found {
		return true, ""
	}
	var settings map[string]json.RawMessage
	if err := json.Unmarshal(raw, &settings); err != nil {
		return false, name + ": the pnpm field is not an object, so its settings are not known"
	}
	for k := range settings {
		if !pnpmPackageKeys()[k] {
			return false, name + ": pnpm." + k + " is a pnpm setting not known to leave programs and hosts alone"
		}
	}
	return true, ""
}

// pnpmWorkspace accepts a pnpm-workspace.yaml that is a "packages:" list
// of plain patterns: any other key is a setting pnpm obeys (pnpmfile,
// storeDir, configDependencies, ...).
func pnpmWorkspace(name string, b []byte) (bool, string) {
	for _, l := range lines(b) {
		if l.text[0] == '#' {
			continue
		}
		if l.col == 1 {
			key, rest, _ := strings.Cut(l.text, ":")
			if strings.Trim(strings.TrimSpace(key), `"'`) != "packages" || strings.TrimSpace(stripYAMLComment(rest)) != "" {
				return false, at(name, l) + ": " + strings.TrimSpace(key) + " is a pnpm setting or a form not read here, so what pnpm does is not known (only a packages list is)"
			}
			continue
		}
		item, ok := strings.CutPrefix(l.text, "- ")
		item = strings.TrimSpace(stripYAMLComment(item))
		if !ok || !plainYAMLScalar(item) {
			return false, at(name, l) + ": not a plain packages entry, so what pnpm reads is not known"
		}
	}
	return true, ""
}

// plainYAMLScalar reports whether a YAML value is one quoted string
// without inner quotes or escapes, or a plain word that starts with no
// indicator and holds no ": ".
func plainYAMLScalar(v string) bool {
	if len(v) >= 2 && (v[0] == '\'' || v[0] == '"') {
		inner := v[1 : len(v)-1]
		return v[len(v)-1] == v[0] && !strings.ContainsAny(inner, "'\"\\")
	}
	return v != "" && !strings.ContainsAny(v[:1], "[]{}&*!|>%@`'\"#,?-:") && !strings.Contains(v, ": ")
}
