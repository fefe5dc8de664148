package repotrust

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
)

// RiskySettingsDigest returns a digest of the settings of the repository
// configuration b that are not on the allow-list of harmless keys (see
// harmlessKey): everything that could make git run a program, contact a
// host or read a file elsewhere, includes among them, in their order.
// Two configurations with the same digest differ at most in harmless
// settings (the author's name, a remote's URL): a change of the user's
// own between them (git config user.name) is not a change of what git
// obeys. A configuration git would not read as this parser does is
// digested whole, so that any change to it counts.
func RiskySettingsDigest(b []byte) string {
	h := sha256.New()
	err := ParseGitConfig("config", b, func(s Setting) error {
		if harmlessKey(s) {
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
