package repotrust

import (
	"path/filepath"
	"strings"
)

// pipKey: the pip configuration keys that change neither what pip
// installs from, nor where it writes, nor which host it contacts.
// index-url, extra-index-url, find-links, trusted-host, cert, proxy,
// cache-dir, target, prefix, src, log and the rest are not.
func pipKey(key string) bool {
	switch strings.ReplaceAll(strings.ToLower(key), "_", "-") {
	case "disable-pip-version-check", "no-color", "progress-bar", "require-virtualenv", "no-input", "quiet", "verbose":
		return true
	}
	return false
}

// PipTrusted reports whether the pip configuration files that lie in the
// sandbox set only keys from the allow-list: pip.conf and pip.ini in dir,
// a virtual environment's pip.conf (dir/.venv, dir/venv, $VIRTUAL_ENV)
// and $PIP_CONFIG_FILE when they lie in the sandbox. env gives the
// environment pip runs with (nil for none). The user's and the system's
// files lie outside and are the user's.
func PipTrusted(dir, sandbox string, env Env) (ok bool, reason string) {
	if _, in := projectDirs(dir, sandbox); !in {
		return false, dir + " is not in the sandbox, so its pip configuration is not known"
	}
	files := []string{
		filepath.Join(dir, "pip.conf"), filepath.Join(dir, "pip.ini"),
		filepath.Join(dir, ".venv", "pip.conf"), filepath.Join(dir, "venv", "pip.conf"),
	}
	if env != nil {
		if v, ok := env("VIRTUAL_ENV"); ok && filepath.IsAbs(v) {
			files = append(files, filepath.Join(v, "pip.conf"))
		}
		if v, ok := env("PIP_CONFIG_FILE"); ok && filepath.IsAbs(v) {
			files = append(files, v)
		}
	}
	for _, name := range files {
		if _, in := projectDirs(filepath.Dir(name), sandbox); !in {
			continue
		}
		b, exists, problem := readProjectFile(name)
		if problem != "" {
			return false, problem
		}
		if !exists {
			continue
		}
		ok, reason := iniScan(name, b, func(section, key, value string, l line) string {
			if section == "" {
				return at(name, l) + ": key outside a section, which pip does not read this way"
			}
			if !pipKey(key) {
				return at(name, l) + ": key " + key + " may change what pip installs, writes or contacts"
			}
			return ""
		})
		if !ok {
			return false, reason
		}
	}
	return true, ""
}
