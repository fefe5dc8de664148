package copyname

import "strings"

// Of returns the name that name, an entry of the same directory, is a
// copy of (one for which original is true), as editors, package managers, tools and people
// leave them beside a file: NAME~ and NAME.~N~ (Emacs, Vim, cp -b),
// #NAME# (Emacs's auto-save), .NAME.swp and NAME.swp for a dot name
// (Vim's swap, .swo and the rest), .NAME.un~ (Vim's persistent undo file,
// which holds the lines changed: ..netrc.un~ for .netrc), .NAME.kate-swp
// (Kate's and KWrite's swap file: the edits not yet saved), NAME,v (RCS),
// "Copy of NAME" and "Copy (2) of NAME" (Windows), an archive or a
// compressed copy (NAME.tar, NAME.tar.gz, NAME.tgz, NAME.tar.xz,
// NAME.tar.zst, NAME.zip, NAME.7z, NAME.gz, ...: tar czf ~/.ssh.tar.gz
// .ssh before a reinstall), and NAME followed by a separator (. - _ ~ or
// a space) and words that say backup (NAME.bak, NAME.backup.1732000000,
// NAME.old, NAME.orig, NAME.save, NAME.tmp, NAME.new, NAME-1234.tmp,
// NAME.dpkg-old, NAME.rpmsave, NAME.pacnew, NAME- as vipw leaves; the
// names file managers give a copy: "NAME (copy)", "NAME (another copy)",
// "NAME copy", "NAME copy 2", "NAME - Copy") or only digits (a dated copy,
// NAME.2024-01-31; "NAME (1)"). Other names beginning with an original one
// are not copies (.env.example, ssh_host_rsa_key.pub, .yarnrc.yml). ok is
// false when name is no copy of a name original accepts. original is
// asked about proper parts of name only, and never allocates here: a
// name that is no copy costs no allocation.
func Of(name string, original func(string) bool) (string, bool) {
	if len(name) > 2 && name[0] == '#' && name[len(name)-1] == '#' && original(name[1:len(name)-1]) {
		return name[1 : len(name)-1], true
	}
	if n := len(name); n > 4 && name[n-4:n-1] == ".sw" && name[n-1] >= 'a' && name[n-1] <= 'z' {
		// Vim puts a dot before a name that has none.
		base := name[:n-4]
		if original(base) && strings.HasPrefix(base, ".") {
			return base, true
		}
		if b, ok := strings.CutPrefix(base, "."); ok && b != "" && original(b) {
			return b, true
		}
	}
	if n := len(name); n > 5 && name[0] == '.' && name[n-4:] == ".un~" && original(name[1:n-4]) {
		// Vim's undo file: a dot before the name, even a name that
		// begins with one.
		return name[1 : n-4], true
	}
	if base, ok := strings.CutSuffix(name, kateSwapSuffix); ok && len(base) > 1 && base[0] == '.' && original(base[1:]) {
		// Kate's and KWrite's swap file, likewise: the unsaved edits.
		return base[1:], true
	}
	if rest, ok := copyOfPrefix(name); ok {
		if original(rest) {
			return rest, true
		}
		return Of(rest, original)
	}
	// The longest original name that name begins with, followed by a
	// separator.
	for i := len(name) - 1; i > 0; i-- {
		if !strings.ContainsRune(".-_~ ,", rune(name[i])) || !original(name[:i]) {
			continue
		}
		if backupDecoration(name[i:]) {
			return name[:i], true
		}
	}
	return "", false
}

// kateSwapSuffix ends the name of the swap file Kate and KWrite keep
// beside a file being edited, after a dot and the file's name.
const kateSwapSuffix = ".kate-swp"

// copyOfPrefix returns what follows "Copy of " or "Copy (N) of " (any
// case) at the start of name, as Windows names a copy.
func copyOfPrefix(name string) (string, bool) {
	const copyWord = "copy "
	if len(name) <= len(copyWord) || !strings.EqualFold(name[:len(copyWord)], copyWord) {
		return "", false
	}
	rest := name[len(copyWord):]
	if len(rest) > 0 && rest[0] == '(' {
		i := strings.IndexByte(rest, ')')
		if i < 2 || strings.TrimLeft(rest[1:i], "0123456789") != "" || !strings.HasPrefix(rest[i+1:], " ") {
			return "", false
		}
		rest = rest[i+2:]
	}
	const of = "of "
	if len(rest) <= len(of) || !strings.EqualFold(rest[:len(of)], of) {
		return "", false
	}
	return rest[len(of):], true
}

// backupDecoration reports whether rest, what follows an original name,
// marks a copy: "~", "-", ",v", ".~N~", or words that say backup or
// name an archive or a compressed file, or only digits, between
// separators (. - _ ~, spaces and parentheses). It does not allocate.
func backupDecoration(rest string) bool {
	if rest == "~" || rest == "-" || rest == ",v" {
		return true
	}
	if rest[0] == ',' {
		return false
	}
	words, allDigits := 0, true
	for len(rest) > 0 {
		i := strings.IndexFunc(rest, isDecorationSeparator)
		if i == 0 {
			rest = rest[1:]
			continue
		}
		w := rest
		if i > 0 {
			w, rest = rest[:i], rest[i:]
		} else {
			rest = ""
		}
		words++
		if backupWord(strings.TrimRight(w, "0123456789")) {
			return true
		}
		allDigits = allDigits && strings.TrimLeft(w, "0123456789") == ""
	}
	return words > 0 && allDigits
}

// isDecorationSeparator reports whether r separates the words of a copy's
// decoration.
func isDecorationSeparator(r rune) bool { return strings.ContainsRune(".-_~ ()", r) }

// backupWord reports whether w (any case, without trailing digits)
// says that a name is a copy of another: a word of backups, or the
// extension of an archive or a compressed file (tar, gz, tgz, zip, 7z,
// ...: the archive of a hidden directory beside it, .ssh.tar.gz).
func backupWord(w string) bool {
	var buf [len("quarantine")]byte // the longest word below
	if len(w) == 0 || len(w) > len(buf) {
		return false
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	switch string(buf[:len(w)]) {
	case "bak", "bk", "bkp", "bck", "backup", "backups", "old", "orig", "original", "save", "saved",
		"sav", "tmp", "temp", "new", "prev", "previous", "copy", "keep", "swp", "swo", "dpkg", "ucf",
		"quarantine", // what sandboxauth run moved aside: NAME.sandboxauth-quarantine(.N)
		"rpmsave", "rpmnew", "rpmorig", "pacsave", "pacnew", "cfsaved",
		"tar", "gz", "tgz", "xz", "txz", "zst", "tzst", "bz", "tbz", "lz", "lzma", "zip", "7z", "rar":
		return true
	}
	return false
}

// Usual returns the names of copies of name to look for where a directory
// cannot be listed: the fixed forms among those Of recognizes (a dated or
// numbered copy cannot be guessed).
func Usual(name string) []string {
	swap := "." + name
	if strings.HasPrefix(name, ".") {
		swap = name
	}
	out := []string{name + "~", name + ".~1~", "#" + name + "#", swap + ".swp", swap + ".swo", "." + name + ".un~",
		"." + name + kateSwapSuffix, name + ",v", name + "-", "Copy of " + name, name + " (copy)", name + " copy", name + " - Copy", name + " (1)"}
	for _, w := range []string{"bak", "backup", "old", "orig", "save", "tmp", "new", "dpkg-old", "1",
		"tar", "tar.gz", "tgz", "tar.xz", "tar.bz2", "tar.zst", "zip", "7z", "gz", "bz2", "xz", "zst"} {
		out = append(out, name+"."+w)
	}
	return out
}
