package sandboxauth

import (
	"strings"

	"github.com/sandboxauth/sandboxauth/internal/shell"
)

// Shell wrappers: programs that run a script given with -c, and the
// grammars their script is read with. A name that stands for different
// shells on different systems is read with each grammar it may mean, and
// the worst answer is taken: sh is dash on Debian, bash on Fedora and
// macOS, busybox ash (which takes some bash syntax) on Alpine; ksh is ksh93
// or a pdksh. zsh has no grammar of its own (see shell.Zsh).
var shellDialects = map[string][]shell.Dialect{
	"bash": {shell.Bash},
	"sh":   {shell.POSIX, shell.Bash},
	"ash":  {shell.POSIX, shell.Bash},
	"dash": {shell.POSIX},
	"posh": {shell.POSIX},
	"ksh":  {shell.POSIX, shell.MirBSDKorn, shell.Bash},
	"mksh": {shell.MirBSDKorn},
	"zsh":  {shell.Zsh},
}

// Shells whose language the classifier does not parse.
var foreignShells = map[string]bool{
	"tcsh": true, "csh": true, "fish": true, "nu": true, "xonsh": true, "elvish": true,
	"rc": true, "es": true, "yash": true, "oksh": true, "loksh": true, "pdksh": true,
}

// shellInvocation is a parsed shell invocation.
type shellInvocation struct {
	script  string // the -c script
	hasC    bool
	file    string // a script file to run, when there is no -c
	problem string // why the invocation is inscrutable
}

// parseShellInvocation parses the options of sh/bash/zsh/... (args is argv[1:]).
// Accepted: -c, login and error-handling options (-l, --login, -e, -u, -x,
// -v, -f, -n, -E, -h, -B, -C, -o pipefail|errexit|nounset|xtrace|noglob,
// --norc, --noprofile, --posix), in any bundle (-lc, -ec, -eux). Anything
// else, or arguments after the script (which would become $0, $1, ...), is
// inscrutable.
func parseShellInvocation(args []string) shellInvocation {
	var sc shellInvocation
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
			sc.problem = "shell option " + a
			return sc
		}
		wantO := false
		for k := 1; k < len(a); k++ {
			switch a[k] {
			case 'c':
				if a[0] == '+' {
					sc.problem = "shell option " + a
					return sc
				}
				sc.hasC = true
			case 'l', 'e', 'u', 'x', 'v', 'f', 'n', 'E', 'h', 'B', 'C', 'T', 'H', 'P':
			case 'o':
				wantO = true
			default:
				sc.problem = "shell option " + a
				return sc
			}
		}
		if wantO {
			if i+1 >= len(args) {
				sc.problem = "shell option -o without a name"
				return sc
			}
			i++
			switch args[i] {
			case "pipefail", "errexit", "nounset", "xtrace", "noglob", "verbose", "noclobber":
			default:
				sc.problem = "shell option -o " + args[i]
				return sc
			}
		}
	}
	rest := args[i:]
	if sc.hasC {
		if len(rest) == 0 {
			sc.problem = "-c without a script"
			return sc
		}
		if len(rest) > 1 {
			sc.problem = "arguments after the -c script become $0, $1, ..."
			return sc
		}
		sc.script = rest[0]
		return sc
	}
	if len(rest) == 0 {
		sc.problem = "shell reading commands from standard input"
		return sc
	}
	sc.file = rest[0]
	return sc
}

// remoteOperand reports an rsync operand naming another host: host:path,
// user@host:path, host::module or rsync://host/.
func remoteOperand(a string) bool {
	if strings.HasPrefix(a, "-") {
		return false
	}
	if strings.HasPrefix(a, "rsync://") {
		return true
	}
	i := strings.IndexByte(a, ':')
	return i > 0 && !strings.Contains(a[:i], "/")
}
