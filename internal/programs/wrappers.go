package programs

import (
	"strings"
	"sync"
)

// Transparent wrappers: programs that run the command given as their
// operands with other scheduling, signals, buffering or environment, and do
// nothing else (env, timeout, nice, nohup, time, command, stdbuf, setsid,
// ionice, chrt, taskset, the shell's exec, and the multi-call busybox and
// toybox). The engine classifies the inner command in their place, with the
// environment changes they make. Each wrapper's options are read here as
// the wrapper reads them; an option this file does not know makes the
// wrapper inscrutable (Unwrapped.Problem), never transparent.

// Unwrapped is the result of looking through a transparent wrapper.
type Unwrapped struct {
	Inner   []string     // the wrapped command; nil when there is none
	Assigns []EnvSetting // env NAME=VALUE settings, and unset variables
	Problem string       // why the wrapper is inscrutable
	// ShellExec: the wrapper is the shell's exec, which finds the command
	// with the shell's own PATH; the settings apply to the command only.
	ShellExec bool
}

// EnvSetting is one change a wrapper makes to the environment: NAME=value,
// or with unset the removal of name ("" for the whole environment: env -i,
// exec -c).
type EnvSetting struct {
	Name, Value string
	Unset       bool
}

// ClearsPath reports whether the settings remove PATH from the
// environment.
func ClearsPath(settings []EnvSetting) bool {
	for _, s := range settings {
		if s.Unset && (s.Name == "" || s.Name == "PATH") {
			return true
		}
	}
	return false
}

// transparentWrappers are programs that run their operand command with
// different scheduling, signals, buffering or environment, and nothing
// else: the inner command is classified in their place. It is built on first use.
var transparentWrappers = sync.OnceValue(func() map[string]func(args []string) (int, []EnvSetting, string) {
	return map[string]func(args []string) (int, []EnvSetting, string){
		"env":     unwrapEnv,
		"timeout": unwrapTimeout,
		"nice":    unwrapNice,
		"nohup":   unwrapNohup,
		"time":    unwrapTime,
		"command": unwrapCommand,
		"stdbuf":  unwrapStdbuf,
		"setsid":  unwrapSetsid,
		"ionice":  unwrapIonice,
		"chrt":    unwrapChrt,
		"taskset": unwrapTaskset,
		"exec":    unwrapExec,
		"busybox": unwrapMultiCall,
		"toybox":  unwrapMultiCall,
	}
})

// wrapperKind: xargs runs commands built from its input, which the
// engine cannot see.
func wrapperKind(name string) Kind {
	if name == "xargs" {
		return KindXargs
	}
	return KindPlain
}

// Wrappers returns the names of the transparent wrappers, in no order.
func Wrappers() []string { return keys(transparentWrappers()) }

// Unwrap looks through the wrapper name; args is argv[1:]. The returned
// index is where the inner command starts in args (len(args) when there is
// none).
func Unwrap(name string, args []string) (Unwrapped, bool) {
	f, ok := transparentWrappers()[name]
	if !ok || name == "command" && len(args) > 0 && (args[0] == "-v" || args[0] == "-V") {
		// command -v and -V look a name up and run nothing; their specs
		// (builtins.go) judge them.
		return Unwrapped{}, false
	}
	idx, settings, problem := f(args)
	u := Unwrapped{Assigns: settings, Problem: problem, ShellExec: name == "exec"}
	if problem == "" && idx < len(args) {
		u.Inner = args[idx:]
	}
	return u, true
}

func unwrapEnv(args []string) (int, []EnvSetting, string) {
	var settings []EnvSetting
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-i" || a == "--ignore-environment" || a == "-":
			settings = append(settings, EnvSetting{Unset: true})
		case a == "-0" || a == "--null" || a == "-v" || a == "--debug":
		case a == "-u" || a == "--unset":
			if i+1 >= len(args) {
				return 0, nil, "env -u without a name"
			}
			i++
			settings = append(settings, EnvSetting{Name: args[i], Unset: true})
		case strings.HasPrefix(a, "--unset="):
			settings = append(settings, EnvSetting{Name: a[len("--unset="):], Unset: true})
		case strings.HasPrefix(a, "-u") && len(a) > 2 && !strings.ContainsAny(a[2:], "S"):
			settings = append(settings, EnvSetting{Name: a[2:], Unset: true})
		case a == "--":
			return i + 1, settings, ""
		case strings.HasPrefix(a, "-S") || strings.HasPrefix(a, "--split-string") || (strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsRune(a, 'S')):
			return 0, nil, "env -S splits a string into a command line"
		case strings.HasPrefix(a, "-"):
			return 0, nil, "env option " + a
		case strings.Contains(a, "="):
			j := strings.IndexByte(a, '=')
			settings = append(settings, EnvSetting{Name: a[:j], Value: a[j+1:]})
		default:
			return i, settings, ""
		}
	}
	return len(args), settings, ""
}

func isDuration(s string) bool {
	if s == "" {
		return false
	}
	digits := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c == '.':
		case i == len(s)-1 && (c == 's' || c == 'm' || c == 'h' || c == 'd'):
		default:
			return false
		}
	}
	return digits > 0
}

// isSignedNumber reports an integer with an optional sign (nice -n -5).
func isSignedNumber(s string) bool {
	return allDigits(strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+"))
}

func unwrapTimeout(args []string) (int, []EnvSetting, string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--preserve-status" || a == "--foreground" || a == "-v" || a == "--verbose" || a == "-f" || a == "-p":
		case a == "-s" || a == "--signal" || a == "-k" || a == "--kill-after":
			i++
		case strings.HasPrefix(a, "--signal=") || strings.HasPrefix(a, "--kill-after=") ||
			(len(a) > 2 && (strings.HasPrefix(a, "-s") || strings.HasPrefix(a, "-k"))):
		case a == "--":
			continue
		case isDuration(a):
			if i+1 >= len(args) {
				return 0, nil, "timeout without a command"
			}
			return i + 1, nil, ""
		default:
			return 0, nil, "timeout option " + a
		}
	}
	return 0, nil, "timeout without a duration"
}

func unwrapNice(args []string) (int, []EnvSetting, string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-n" || a == "--adjustment":
			if i+1 >= len(args) || !isSignedNumber(args[i+1]) {
				return 0, nil, "nice -n without a number"
			}
			i++
		case strings.HasPrefix(a, "--adjustment=") || (strings.HasPrefix(a, "-n") && isSignedNumber(a[2:])) || (strings.HasPrefix(a, "-") && isSignedNumber(a)):
		case a == "--":
			return i + 1, nil, ""
		case strings.HasPrefix(a, "-"):
			return 0, nil, "nice option " + a
		default:
			return i, nil, ""
		}
	}
	return 0, nil, "nice without a command"
}

func unwrapNohup(args []string) (int, []EnvSetting, string) {
	if len(args) > 0 && args[0] == "--" {
		return 1, nil, ""
	}
	if len(args) > 0 && strings.HasPrefix(args[0], "-") {
		return 0, nil, "nohup option " + args[0]
	}
	return 0, nil, ""
}

func unwrapTime(args []string) (int, []EnvSetting, string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-p" || a == "--portability" || a == "-v" || a == "--verbose" || a == "-q" || a == "--quiet" || a == "-l":
		case a == "-f" || a == "--format":
			i++
		case strings.HasPrefix(a, "--format="):
		case a == "--":
			return i + 1, nil, ""
		case a == "-o" || a == "-a" || strings.HasPrefix(a, "--output") || strings.HasPrefix(a, "--append"):
			return 0, nil, "time writing its report to a file"
		case strings.HasPrefix(a, "-"):
			return 0, nil, "time option " + a
		default:
			return i, nil, ""
		}
	}
	return len(args), nil, ""
}

func unwrapCommand(args []string) (int, []EnvSetting, string) {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; a {
		case "-p":
		case "--":
			return i + 1, nil, ""
		default:
			if strings.HasPrefix(a, "-") {
				return 0, nil, "command option " + a
			}
			return i, nil, ""
		}
	}
	return len(args), nil, ""
}

func unwrapStdbuf(args []string) (int, []EnvSetting, string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-i" || a == "-o" || a == "-e":
			i++
		case len(a) > 2 && (strings.HasPrefix(a, "-i") || strings.HasPrefix(a, "-o") || strings.HasPrefix(a, "-e")):
		case strings.HasPrefix(a, "--input=") || strings.HasPrefix(a, "--output=") || strings.HasPrefix(a, "--error="):
		case a == "--":
			return i + 1, nil, ""
		case strings.HasPrefix(a, "-"):
			return 0, nil, "stdbuf option " + a
		default:
			return i, nil, ""
		}
	}
	return 0, nil, "stdbuf without a command"
}

func unwrapSetsid(args []string) (int, []EnvSetting, string) {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; a {
		case "-f", "--fork", "-w", "--wait", "-c", "--ctty":
		case "--":
			return i + 1, nil, ""
		default:
			if strings.HasPrefix(a, "-") {
				return 0, nil, "setsid option " + a
			}
			return i, nil, ""
		}
	}
	return 0, nil, "setsid without a command"
}

func unwrapIonice(args []string) (int, []EnvSetting, string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-c" || a == "--class" || a == "-n" || a == "--classdata":
			i++
		case a == "-t" || a == "--ignore":
		case len(a) > 2 && (strings.HasPrefix(a, "-c") || strings.HasPrefix(a, "-n")) && isSignedNumber(a[2:]):
		case strings.HasPrefix(a, "--class=") || strings.HasPrefix(a, "--classdata="):
		case a == "--":
			return i + 1, nil, ""
		case strings.HasPrefix(a, "-"):
			return 0, nil, "ionice option " + a + " (acts on other processes or is unknown)"
		default:
			return i, nil, ""
		}
	}
	return 0, nil, "ionice without a command"
}

func unwrapChrt(args []string) (int, []EnvSetting, string) {
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || isSignedNumber(a) {
			break
		}
		for _, c := range a[1:] {
			if !strings.ContainsRune("bfiorRv", c) {
				return 0, nil, "chrt option " + a
			}
		}
	}
	if i >= len(args) || !isSignedNumber(args[i]) || i+1 >= len(args) {
		return 0, nil, "chrt without a priority and a command"
	}
	return i + 1, nil, ""
}

func unwrapTaskset(args []string) (int, []EnvSetting, string) {
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a == "-a" || a == "--all-tasks" || a == "-c" || a == "--cpu-list" || a == "-ac" || a == "-ca" {
			continue
		}
		if strings.HasPrefix(a, "-") {
			return 0, nil, "taskset option " + a + " (acts on other processes or is unknown)"
		}
		break
	}
	if i+1 >= len(args) {
		return 0, nil, "taskset without a mask and a command"
	}
	return i + 1, nil, ""
}

// unwrapExec looks through the shell builtin exec, which replaces the shell
// with its command: -c (empty environment, so that PATH is unset for what
// the command starts) and -l (login) are understood;
// -a NAME changes argv[0], and exec without a command rewires the shell's
// file descriptors for the rest of the script.
func unwrapExec(args []string) (int, []EnvSetting, string) {
	var settings []EnvSetting
	for i := 0; i < len(args); i++ {
		switch a := args[i]; a {
		case "-c", "-cl", "-lc":
			settings = append(settings, EnvSetting{Unset: true})
		case "-l":
		case "--":
			if i+1 >= len(args) {
				return 0, nil, "exec without a command rewires the shell's file descriptors"
			}
			return i + 1, settings, ""
		default:
			if strings.HasPrefix(a, "-") {
				return 0, nil, "exec option " + a
			}
			return i, settings, ""
		}
	}
	return 0, nil, "exec without a command rewires the shell's file descriptors"
}

// unwrapMultiCall looks through busybox and toybox, which run the applet
// named by their first argument (busybox wget = wget).
func unwrapMultiCall(args []string) (int, []EnvSetting, string) {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return 0, nil, "multi-call binary without an applet, or with options"
	}
	return 0, nil, ""
}
