package sandboxauth

import "strings"

// editorCopies returns, for a read-protected pattern naming files, the
// patterns of the copies that editors keep of such a file beside it,
// read-protected too: the secrets are in them as in the file. They are
// the backup of Emacs, Vim with backup set, nano -B, gedit and Kate
// (NAME~), Emacs's numbered backups (NAME.~1~) and auto-save file
// (#NAME#), Vim's swap files (.NAME.swp, .swo, ...; NAME.swp for a name
// that begins with a dot, as .env.swp), Kate's swap file
// (.NAME.kate-swp: ..env.kate-swp for .env), and the copies other editors,
// merge tools and patch leave (NAME.bak, NAME.orig). A pattern for a directory
// (a trailing slash) has none: what lies below it is protected already.
func editorCopies(p ProtectedPath) []ProtectedPath {
	if !p.Read || p.Pattern == "" || strings.HasSuffix(p.Pattern, "/") {
		return nil
	}
	dir, last := "", p.Pattern
	if i := strings.LastIndexByte(p.Pattern, '/'); i >= 0 {
		dir, last = p.Pattern[:i+1], p.Pattern[i+1:]
	}
	if last == "" || last == "**" {
		return nil
	}
	swap := "." + last + ".sw?"
	if strings.HasPrefix(last, ".") {
		swap = last + ".sw?"
	}
	names := [...]string{last + "~", last + ".~*~", "#" + last + "#", swap, "." + last + ".un~", last + ".bak",
		last + ".orig", last + ",v", last + " (*)", last + " *copy*", "copy*of " + last,
		// Kate's and KWrite's swap file: the edits not yet saved.
		"." + last + ".kate-swp",
		// What the quarantine moved aside (a file the user saved there
		// while a command ran): NAME.sandboxauth-quarantine, ".N" after
		// it when taken.
		last + quarantineSuffix, last + quarantineSuffix + ".*"}
	out := make([]ProtectedPath, 0, len(names))
	for _, name := range names {
		out = append(out, ProtectedPath{Pattern: dir + name, Read: true})
	}
	return out
}
