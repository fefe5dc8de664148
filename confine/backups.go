package confine

import "strings"

// backupOf returns the hidden name that name, an entry of the same
// directory, is a copy of, as editors, package managers, tools and people
// leave them beside a file: NAME~ and NAME.~N~ (Emacs, Vim, cp -b),
// #NAME# (Emacs's auto-save), .NAME.swp and NAME.swp for a dot name
// (Vim's swap, .swo and the rest), and NAME followed by a separator (. - _
// ~) and words that say backup (NAME.bak, NAME.backup.1732000000,
// NAME.old, NAME.orig, NAME.save, NAME.tmp, NAME.new, NAME-1234.tmp,
// NAME.dpkg-old, NAME.rpmsave, NAME.pacnew, NAME- as vipw leaves) or only
// digits (a dated copy, NAME.2024-01-31). Other names beginning with a
// hidden one are not copies (.env.example, ssh_host_rsa_key.pub,
// .yarnrc.yml). ok is false when name is no copy of a hidden name.
func backupOf(name string, hidden func(string) bool) (string, bool) {
	if len(name) > 2 && name[0] == '#' && name[len(name)-1] == '#' && hidden(name[1:len(name)-1]) {
		return name[1 : len(name)-1], true
	}
	if n := len(name); n > 4 && name[n-4:n-1] == ".sw" && name[n-1] >= 'a' && name[n-1] <= 'z' {
		// Vim puts a dot before a name that has none.
		base := name[:n-4]
		if hidden(base) && strings.HasPrefix(base, ".") {
			return base, true
		}
		if b, ok := strings.CutPrefix(base, "."); ok && b != "" && hidden(b) {
			return b, true
		}
	}
	// The longest hidden name that name begins with, followed by a
	// separator.
	for i := len(name) - 1; i > 0; i-- {
		if !strings.ContainsRune(".-_~", rune(name[i])) || !hidden(name[:i]) {
			continue
		}
		if backupDecoration(name[i:]) {
			return name[:i], true
		}
	}
	return "", false
}

// backupDecoration reports whether rest, what follows a hidden name,
// marks a copy: "~", "-", ".~N~", or words that say backup, or only
// digits, between separators.
func backupDecoration(rest string) bool {
	if rest == "~" || rest == "-" {
		return true
	}
	words := strings.FieldsFunc(strings.ToLower(rest), func(r rune) bool { return strings.ContainsRune(".-_~ ", r) })
	if len(words) == 0 {
		return false
	}
	allDigits := true
	for _, w := range words {
		digits := strings.TrimLeft(w, "0123456789") == ""
		if backupWord(strings.TrimRight(w, "0123456789")) {
			return true
		}
		allDigits = allDigits && digits
	}
	return allDigits
}

// backupWord reports whether w (lower case, without trailing digits)
// says that a name is a copy of another.
func backupWord(w string) bool {
	switch w {
	case "bak", "bk", "bkp", "bck", "backup", "backups", "old", "orig", "original", "save", "saved",
		"sav", "tmp", "temp", "new", "prev", "previous", "copy", "keep", "swp", "swo", "dpkg", "ucf",
		"rpmsave", "rpmnew", "rpmorig", "pacsave", "pacnew", "cfsaved":
		return true
	}
	return false
}
