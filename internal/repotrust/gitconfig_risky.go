package repotrust

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
)

// RiskySettingsDigest returns a digest of the settings of the repository
// configuration b that are not on the allow-list of harmless keys (see
// harmlessKey): everything that could make git run a program, contact a
// host or read a file elsewhere, includes among them, in their order.
// Two configurations with the same digest differ at most in harmless
// settings (the author's name, a remote's URL, but one through a remote
// helper, "evil::x"): a change of the user's
// own between them (git config user.name) is not a change of what git
// obeys. A configuration git would not read as this parser does is
// digested whole, so that any change to it counts.
func RiskySettingsDigest(b []byte) string {
	h := sha256.New()
	err := ParseGitConfig("config", b, func(s Setting) error {
		// git-lfs's filter settings, harmless where git-lfs is the one
		// installed, name a program found on PATH: what changes them
		// counts.
		if harmlessKey(s) && s.Section != "filter" && !helperURL(s) {
			return nil
		}
		for _, f := range []string{s.Section, s.Subsection, strconv.FormatBool(s.HasSubsection), s.Key, s.Value, strconv.FormatBool(s.HasValue)} {
			h.Write([]byte(strconv.Quote(f)))
		}
		h.Write([]byte{'\n'})
		return nil
	})
	if err != nil {
		whole := sha256.Sum256(b)
		return "whole:" + hex.EncodeToString(whole[:])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// helperURL reports whether s names a remote through a remote helper
// ("<transport>::<address>", or a URL of a scheme git has no transport
// of its own for, "evil://x"): git fetch, pull and push then run
// git-remote-<transport>, found on PATH, for the user.
func helperURL(s Setting) bool {
	switch {
	case s.Section == "remote" && (s.Key == "url" || s.Key == "pushurl"),
		s.Section == "submodule" && s.Key == "url",
		s.Section == "branch" && s.Key == "remote":
	default:
		return false
	}
	if strings.Contains(s.Value, "::") {
		return true
	}
	scheme, _, ok := strings.Cut(s.Value, "://")
	if !ok {
		return false // a path, a remote's name, or user@host:path (ssh)
	}
	switch strings.ToLower(scheme) {
	case "http", "https", "ssh", "git", "file", "ftp", "ftps", "git+ssh", "ssh+git":
		return false
	}
	return true
}
