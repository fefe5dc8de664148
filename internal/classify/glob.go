package classify

import (
	"fmt"
	"os"
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
// The shell sorts the matches in its collation order, which is not known
// and cannot be: the locale the shell inherits, or one an assignment to
// LC_ALL, LC_COLLATE or LANG earlier in the same script chooses, and each
// locale's own rules (glibc's en_US folds case and ignores punctuation,
// cs_CZ sorts "ch" after "h", da_DK "aa" after "z"). Only the set of
// matches is the same under every collation (internal/shell refuses the
// patterns whose set is not), so where the matches land in the argv is not
// assumed: the command is classified with every match in every position a
// match of that glob can take — the rotations of the matches, one argv
// each — and the worst answer is kept. A file named
// --checkpoint-action=exec=sh x is thus judged as tar -f's value and as an
// option. Beyond maxGlobOrders argvs the command is inscrutable.

// maxGlobOrders bounds the argvs a command's globs are classified in.
const maxGlobOrders = 64

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
		argvs, err := r.expandGlobs(c, cwd)
		if len(argvs) > 0 {
			v := r.argv(argvs[0], cwd, depth, true)
			for _, words := range argvs[1:] {
				v = worseOf(v, r.argv(words, cwd, depth, true))
			}
			if err == nil || v.res != Safe {
				return v // not safe in byte order already: that says why
			}
		}
		fail = mkVerdict(Inscrutable, "rule: glob not expanded exactly: "+pattern,
			err.Error()+"; name the files, or quote the pattern if the program should see it")
	}
	// The command is not safe; the literal words still say whether it is
	// blocked.
	return worseOf(r.argv(c.Args, cwd, depth, true), fail)
}

// expandGlobs returns the argvs c may run: every glob replaced by its
// matches, in each rotation of their byte order (every combination of
// rotations when there are several globs). When there would be more than
// maxGlobOrders, it returns the byte order's alone, and an error.
func (r *cmdClassifier) expandGlobs(c shell.Command, cwd string) ([][]string, error) {
	matches := make([][]string, len(c.Args))
	orders, size := 1, 0
	for i, a := range c.Args {
		if i >= len(c.Globs) || !c.Globs[i] {
			size++
			continue
		}
		m, err := shell.Expand(cwd, c.Patterns[i], r.dialect, shell.DefaultGlobLimits())
		if err != nil {
			return nil, err
		}
		if len(m) == 0 {
			m = []string{a}
		}
		matches[i] = m
		size += len(m)
		orders = min(orders*len(m), maxGlobOrders+1) // no overflow
	}
	if orders > maxGlobOrders {
		words := make([]string, 0, size)
		for i, a := range c.Args {
			if matches[i] == nil {
				words = append(words, a)
			} else {
				words = append(words, matches[i]...)
			}
		}
		return [][]string{words}, fmt.Errorf("%w: the shell's collation puts the matches in an order that cannot be known, and more than %d orders would have to be checked",
			shell.ErrNotExact, maxGlobOrders)
	}
	out := make([][]string, 0, orders)
	rot := make([]int, len(c.Args))
	for {
		words := make([]string, 0, size)
		for i, a := range c.Args {
			m := matches[i]
			if m == nil {
				words = append(words, a)
				continue
			}
			words = append(words, m[rot[i]:]...)
			words = append(words, m[:rot[i]]...)
		}
		out = append(out, words)
		i := 0
		for ; i < len(c.Args); i++ {
			if len(matches[i]) < 2 {
				continue
			}
			if rot[i]++; rot[i] < len(matches[i]) {
				break
			}
			rot[i] = 0
		}
		if i == len(c.Args) {
			return out, nil
		}
	}
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
