package classify

import (
	"os"
	"slices"
	"strings"

	"github.com/sandboxauth/sandboxauth/internal/shell"
)

// Globs in a script are expanded as the shell will expand them (package
// internal/shell: bash's or dash's rules, whichever grammar the script was
// read with), and the command the shell would really run is classified:
// a file named `--checkpoint-action=exec=sh x` matched by `*` is an option
// to tar, a symbolic link matched by `*` is a path that leads outside. A
// pattern that matches nothing is passed as written, as the shell does.
//
// Not safe: a glob the engine cannot expand exactly (locale-dependent
// ranges or names, collating elements, more than a few hundred matches), a
// glob with no sandbox known (no directory to expand it in), and a glob
// after a segment that may write (the files it will match are not the ones
// there now).
//
// The shell sorts the matches in its locale's collation order, which is not
// known: when byte order and a dictionary order (case folded, punctuation
// ignored, as glibc's en_US collation does) put the matches differently,
// both argvs are classified and the worse answer is kept.

// expanded classifies a script command after glob expansion.
func (r *cmdClassifier) expanded(c shell.Command, cwd string, depth int) Verdict {
	if c.Globs == nil {
		return r.argv(c.Args, cwd, depth, true)
	}
	pattern := ""
	for i, g := range c.Globs {
		if g {
			pattern = c.Args[i]
			break
		}
	}
	for i, g := range c.Globs {
		if g && dotGlob(c.Patterns[i]) {
			return worseOf(r.argv(c.Args, cwd, depth, true), mkVerdict(Dangerous, "rule: glob may match ..: "+c.Args[i],
				"a pattern component starting with . matches .. (the parent directory) in bash before 5.2"))
		}
	}
	var fail Verdict
	switch {
	case globSettingsInherited():
		fail = mkVerdict(Inscrutable, "rule: glob settings inherited: "+pattern,
			"GLOBIGNORE, BASHOPTS or SHELLOPTS in this process's environment change how the shell expands globs")
	case r.untrusted:
		fail = untrustedVerdict("glob "+pattern, "it may match files written since")
	case r.sandbox == "":
		fail = mkVerdict(Inscrutable, "rule: glob expansion unknown: "+pattern,
			"with no sandbox known, the names a glob expands to (options, links out) cannot be checked")
	default:
		words, alt, err := r.expandGlobs(c, cwd)
		if err == nil {
			v := r.argv(words, cwd, depth, true)
			if alt != nil {
				v = worseOf(v, r.argv(alt, cwd, depth, true))
			}
			return v
		}
		fail = mkVerdict(Inscrutable, "rule: glob not expanded exactly: "+pattern,
			err.Error()+"; name the files, or quote the pattern if the program should see it")
	}
	// The command is not safe; the literal words still say whether it is
	// blocked.
	return worseOf(r.argv(c.Args, cwd, depth, true), fail)
}

// expandGlobs returns c's argv with every glob replaced by its matches in
// byte order, and the same argv with the matches in dictionary order when
// that differs (nil otherwise).
func (r *cmdClassifier) expandGlobs(c shell.Command, cwd string) (words, alt []string, err error) {
	words = make([]string, 0, len(c.Args))
	reordered := false
	for i, a := range c.Args {
		if i >= len(c.Globs) || !c.Globs[i] {
			words = append(words, a)
			if alt != nil {
				alt = append(alt, a)
			}
			continue
		}
		m, err := shell.Expand(cwd, c.Patterns[i], r.dialect, shell.DefaultGlobLimits())
		if err != nil {
			return nil, nil, err
		}
		if len(m) == 0 {
			m = []string{a}
		}
		d := m
		if len(m) > 1 {
			d = slices.Clone(m)
			slices.SortStableFunc(d, func(x, y string) int { return strings.Compare(collationKey(x), collationKey(y)) })
			if !slices.Equal(d, m) && !reordered {
				reordered = true
				alt = slices.Clone(words)
			}
		}
		words = append(words, m...)
		if alt != nil {
			alt = append(alt, d...)
		}
	}
	return words, alt, nil
}

// collationKey approximates a dictionary collation: letters folded to
// lower case, digits kept, everything else ignored.
func collationKey(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'A' <= c && c <= 'Z':
			b.WriteByte(c + 'a' - 'A')
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9', c >= 0x80:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// dotGlob reports a pattern with a component that begins with a dot and
// holds pattern characters.
func dotGlob(pattern string) bool {
	for _, comp := range strings.Split(pattern, "/") {
		if (strings.HasPrefix(comp, ".") || strings.HasPrefix(comp, `\.`)) && shell.HasMagic(comp) {
			return true
		}
	}
	return false
}

// globSettingsInherited reports environment variables, inherited by the
// shells this process starts, that change glob expansion (GLOBIGNORE turns
// dotglob on; BASHOPTS and SHELLOPTS can set dotglob, nocaseglob, globstar,
// extglob, nullglob or noglob).
func globSettingsInherited() bool {
	for _, name := range []string{"GLOBIGNORE", "BASHOPTS", "SHELLOPTS"} {
		if _, ok := os.LookupEnv(name); ok {
			return true
		}
	}
	return false
}
