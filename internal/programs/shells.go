package programs

import (
	"slices"
	"strings"
	"sync"

	"github.com/sandboxauth/sandboxauth/internal/shell"
)

// Shells: programs that run a script given with -c, the grammars their
// script is read with, and how they read their own options. A name that stands for different
// shells on different systems is read with each grammar it may mean, and
// the worst answer is taken: sh is dash on Debian, bash on Fedora and
// macOS, busybox ash (which takes some bash syntax) on Alpine; ksh is ksh93
// or a pdksh. zsh has no grammar of its own (see shell.Zsh). It is built on first use.
var shellDialects = sync.OnceValue(func() map[string][]shell.Dialect {
	return map[string][]shell.Dialect{
		"bash": {shell.Bash},
		"sh":   {shell.POSIX, shell.Bash},
		"ash":  {shell.POSIX, shell.Bash},
		"dash": {shell.POSIX},
		"posh": {shell.POSIX},
		"ksh":  {shell.POSIX, shell.MirBSDKorn, shell.Bash},
		"mksh": {shell.MirBSDKorn},
		"zsh":  {shell.Zsh},
	}
})

// ShellDefaultPath returns the PATH the shell name gives itself when it
// starts with none, which it does not export: bash 5's (whose last entry,
// ".", is the working directory) for every shell but dash and posh, whose
// default is not known here or is bash's.
func ShellDefaultPath(name string) string {
	switch name {
	case "dash", "posh":
		return "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
	}
	return "/usr/local/bin:/usr/local/sbin:/usr/bin:/usr/sbin:/bin:/sbin:."
}

// foreignShellNames are the shells whose language the classifier does not
// parse.
var foreignShellNames = [...]string{
	"tcsh", "csh", "fish", "nu", "xonsh", "elvish",
	"rc", "es", "yash", "oksh", "loksh", "pdksh",
}

// isForeignShell reports whether name is one of foreignShellNames.
func isForeignShell(name string) bool {
	for _, n := range foreignShellNames {
		if n == name {
			return true
		}
	}
	return false
}

// ShellInvocation is a parsed shell command line.
type ShellInvocation struct {
	Script  string // the -c script
	HasC    bool   // the script is given with -c
	File    string // a script file to run, when there is no -c
	Problem string // why the invocation is inscrutable
}

// ParseShellInvocation parses the options of sh/bash/zsh/... (args is argv[1:]).
// Accepted: -c, login and error-handling options (-l, --login, -e, -u, -x,
// -v, -f, -n, -E, -h, -B, -C, -o pipefail|errexit|nounset|xtrace|noglob,
// --norc, --noprofile, --posix), in any bundle (-lc, -ec, -eux). Anything
// else, or arguments after the script (which would become $0, $1, ...), is
// inscrutable.
func ParseShellInvocation(args []string) ShellInvocation {
	var sc ShellInvocation
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" || a == "-" {
			i++
			break
		}
		if len(a) < 2 || (a[0] != '-' && a[0] != '+') {
			break
		}
		if strings.HasPrefix(a, "--") {
			switch a {
			case "--login", "--norc", "--noprofile", "--posix", "--noediting":
				continue
			}
			sc.Problem = "shell option " + a
			return sc
		}
		wantO := false
		for k := 1; k < len(a); k++ {
			switch a[k] {
			case 'c':
				if a[0] == '+' {
					sc.Problem = "shell option " + a
					return sc
				}
				sc.HasC = true
			case 'l', 'e', 'u', 'x', 'v', 'f', 'n', 'E', 'h', 'B', 'C', 'T', 'H', 'P':
			case 'o':
				wantO = true
			default:
				sc.Problem = "shell option " + a
				return sc
			}
		}
		if wantO {
			if i+1 >= len(args) {
				sc.Problem = "shell option -o without a name"
				return sc
			}
			i++
			switch args[i] {
			case "pipefail", "errexit", "nounset", "xtrace", "noglob", "verbose", "noclobber":
			default:
				sc.Problem = "shell option -o " + args[i]
				return sc
			}
		}
	}
	rest := args[i:]
	if sc.HasC {
		if len(rest) == 0 {
			sc.Problem = "-c without a script"
			return sc
		}
		if len(rest) > 1 {
			sc.Problem = "arguments after the -c script become $0, $1, ..."
			return sc
		}
		sc.Script = rest[0]
		return sc
	}
	if len(rest) == 0 {
		sc.Problem = "shell reading commands from standard input"
		return sc
	}
	sc.File = rest[0]
	return sc
}

// ShellGrammars returns the grammars a script given to the shell name is
// read with (each one it may mean on some system), or false when name is
// not a shell whose language the engine parses.
func ShellGrammars(name string) ([]shell.Dialect, bool) {
	ds, ok := shellDialects()[name]
	return ds, ok
}

// Shells returns the names of the shells whose language the engine
// parses, in no order.
func Shells() []string { return keys(shellDialects()) }

// ForeignShells returns the names of the shells whose language the engine
// does not parse (csh, fish, ...), in no order.
func ForeignShells() []string { return slices.Clone(foreignShellNames[:]) }

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
