package classify

import (
	"os"
	"path/filepath"
	"syscall"
)

// systemProgram reports whether an absolute command path names a program
// that nobody but the administrator could have put there: the path and the
// file it resolves to are owned by root and writable by nobody else, and so
// is every directory above them. Such a program (/usr/bin/rg) is the one
// its base name finds on PATH, and is classified by that name. Running as
// root, the user could have written it, so nothing is a system program.
func systemProgram(p string) bool {
	if os.Geteuid() == 0 || !filepath.IsAbs(p) || filepath.Clean(p) != p {
		return false
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return false
	}
	fi, err := os.Stat(real)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode()&0o111 == 0 || !rootOnly(fi) {
		return false
	}
	for _, start := range []string{p, real} {
		for d := filepath.Dir(start); ; d = filepath.Dir(d) {
			di, err := os.Stat(d)
			if err != nil || !rootOnly(di) {
				return false
			}
			if d == "/" {
				break
			}
		}
	}
	return true
}

// rootOnly reports whether fi is owned by root and writable by nobody else
// (a sticky directory such as /tmp is writable by all).
func rootOnly(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Uid == 0 && fi.Mode().Perm()&0o022 == 0
}
