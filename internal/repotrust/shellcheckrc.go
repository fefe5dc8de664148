package repotrust

import "strings"

// shellcheckKeys are the .shellcheckrc keys that change only which
// warnings shellcheck gives: enable, disable, shell, extended-analysis.
// external-sources=true makes it read (and, with --check-sourced, print
// lines of) every file a script's "# shellcheck source=" directive names,
// anywhere; source-path and the rest are not read here.
func shellcheckKey(key string) bool {
	switch key {
	case "enable", "disable", "shell", "extended-analysis":
		return true
	}
	return false
}

// ShellcheckTrusted reports whether the .shellcheckrc and shellcheckrc
// files shellcheck reads for a script in dir (that directory and its
// parents; those up to sandbox are checked, the user's own above it are
// theirs) set only keys from the allow-list.
func ShellcheckTrusted(dir, sandbox string) (ok bool, reason string) {
	return scanProjectFiles(dir, sandbox, "shellcheck settings", []string{".shellcheckrc", "shellcheckrc"}, shellcheckRC)
}

// ShellcheckRCFileTrusted judges a file given to shellcheck --rcfile.
func ShellcheckRCFileTrusted(name string) (ok bool, reason string) {
	b, exists, problem := readProjectFile(name)
	if problem != "" {
		return false, problem
	}
	if !exists {
		return true, "" // shellcheck stops: the file cannot be read
	}
	return shellcheckRC(name, "", b)
}

func shellcheckRC(name, _ string, b []byte) (bool, string) {
	for _, l := range lines(b) {
		if l.text[0] == '#' {
			continue
		}
		// A line may hold several key=value pairs, as a directive does.
		for _, pair := range strings.Fields(l.text) {
			if strings.HasPrefix(pair, "#") {
				break
			}
			key, _, _ := strings.Cut(pair, "=")
			if !shellcheckKey(key) {
				return false, at(name, l) + ": " + key + " is not a shellcheck setting known to leave other files alone (external-sources makes shellcheck read the files scripts name anywhere)"
			}
		}
	}
	return true, ""
}
