package programs

import (
	"strings"
	"sync"
)

// procinfo: the grammars of ps and lsof, which fit no getopt-like syntax.
// Their specs (system.go) are TextOnly with a Check that reads every word
// as the program does and refuses any word it does not know: a person
// decides about an unknown option, never the parser's guess.
//
// ps (procps) mixes three kinds of options: UNIX ones after one dash
// (-ef, -o pid,args), BSD ones without a dash (aux, p 1), and GNU long
// ones (--sort=-rss). The same letter means different things in each: -e
// is every process, BSD e prints every process's environment, secrets
// included. Output formats name columns by keyword, and some keywords
// (environ) print environments too, so only the listed keywords pass.
//
// lsof reads - and + options with optional values that may be the next
// word; -i names network addresses, and a host name there is looked up in
// the DNS: a model-chosen name reaches the network, so only numeric
// addresses pass.

// psUnixFlags and psUnixValues are ps's UNIX option letters (one dash):
// flags, and options that take a value (the rest of the word or the next
// word). -n (a namelist file) and -D are not listed.
const (
	psUnixFlags  = "AadefFHjlLMNTwycPZmVh"
	psUnixValues = "oOpqstuUgGC"
)

// psBSDFlags and psBSDValues are ps's BSD option letters (no dash); e is
// not a flag here: it prints environments.
const (
	psBSDFlags  = "acfhjlmrsSuvwxXLTVnHZ"
	psBSDValues = "oOpqtUk"
)

// psLong maps ps's long options to whether they take a value. It is built on first use.
var psLong = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"pid": true, "ppid": true, "sid": true, "tty": true, "user": true, "User": true, "group": true, "Group": true,
		"sort": true, "format": true, "cols": true, "columns": true, "width": true, "lines": true, "rows": true, "quick-pid": true,
		"headers": false, "no-headers": false, "forest": false, "cumulative": false, "deselect": false, "help": false, "version": false,
	}
})

// psFormatKeywords are the output columns ps prints that hold no secret
// (the list ps L prints; environ, which it does not list, prints
// environments).
var psFormatKeywords = sync.OnceValue(func() map[string]bool {
	return setOf("%cpu %mem ag_id ag_nice args atime blocked bsdstart bsdtime c caught cgname cgroup cgroupns class cls cmd comm command context cp cpuid cputime cputimes cuc cuu drs dsiz egid egroup eip esp etime etimes euid euser exe f fgid fgroup flag flags fname fsgid fsgroup fsuid fsuser fuid fuser gid group ignored intpri ipcns label lastcpu lim longtname lsession lstart luid lwp lxc m_drs m_size m_trs machine maj_flt majflt min_flt minflt mntns netns ni nice nlwp numa oom oomadj opri ouid pagein pcpu pending pgid pgrp pid pidns pmem policy ppid pri pri_api pri_bar pri_baz pri_foo priority psr pss rbytes rchars rgid rgroup rops rss rssize rsz rtprio ruid ruser s sched seat sess session sgi_p sgi_rss sgid sgroup sid sig sig_block sig_catch sig_ignore sig_pend sigcatch sigignore sigmask size slice spid stackp start start_stack start_time stat state stime suid supgid supgrp suser svgid svgroup svuid svuser sz tgid thcount tid time timens times tname tpgid trs trss tsig tsiz tt tty tty4 tty8 ucmd ucomm uid uname unit user userns uss util utsns uunit vsize vsz wbytes wcbytes wchan wchars wname wops zone")
})

func setOf(list string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(list) {
		m[w] = true
	}
	return m
}

func unknownWord(command, word, why string) *Problem {
	return &Problem{Unknown: true, Rule: "unknown " + command + " argument " + word,
		Reason: "the classifier's grammar of " + command + " does not know " + word + " (" + why + "); a person decides, or drop it"}
}

// psCheck reads ps's arguments.
func psCheck(p *Parsed) *Problem {
	args := p.Operands
	for i := 0; i < len(args); i++ {
		a := args[i]
		var value string
		hasValue := false
		switch {
		case a == "":
			return unknownWord("ps", `""`, "an empty word")
		case strings.HasPrefix(a, "--"):
			name, v, attached := strings.Cut(a[2:], "=")
			takes, ok := psLong()[name]
			if !ok || attached && !takes {
				return unknownWord("ps", a, "not a long option it knows")
			}
			if takes {
				if !attached {
					if i+1 >= len(args) {
						return unknownWord("ps", a, "its value is missing")
					}
					i++
					v = args[i]
				}
				if name == "format" {
					value, hasValue = v, true
				}
			}
		case a[0] == '-':
			for k := 1; k < len(a); k++ {
				c := a[k]
				if strings.IndexByte(psUnixFlags, c) >= 0 {
					continue
				}
				if strings.IndexByte(psUnixValues, c) < 0 {
					return unknownWord("ps", a, "-"+string(c)+" is not a UNIX option it knows")
				}
				v := a[k+1:]
				if v == "" {
					if i+1 >= len(args) {
						return unknownWord("ps", a, "its value is missing")
					}
					i++
					v = args[i]
				}
				if c == 'o' || c == 'O' {
					value, hasValue = v, true
				}
				break
			}
		case allDigitsOrCommas(a):
			// a list of process IDs
		default:
			for k := 0; k < len(a); k++ {
				c := a[k]
				if c == 'e' {
					return &Problem{Rule: "ps e (environments)",
						Reason: "ps's BSD option e prints every process's environment, secrets included; leave e out (ps -e, with a dash, lists every process)"}
				}
				if strings.IndexByte(psBSDFlags, c) >= 0 {
					continue
				}
				if strings.IndexByte(psBSDValues, c) < 0 || k != len(a)-1 {
					return unknownWord("ps", a, string(c)+" is not a BSD option it knows here")
				}
				if i+1 >= len(args) {
					return unknownWord("ps", a, "its value is missing")
				}
				i++
				if c == 'o' || c == 'O' {
					value, hasValue = args[i], true
				}
			}
		}
		if hasValue {
			if pr := psFormat(value); pr != nil {
				return pr
			}
		}
	}
	return nil
}

// psFormat checks an output format: keywords separated by commas or
// blanks, each with an optional =HEADER that runs to the end of the word.
func psFormat(f string) *Problem {
	for _, w := range strings.Fields(f) {
		for w != "" {
			var item string
			item, w, _ = strings.Cut(w, ",")
			key, _, header := strings.Cut(item, "=")
			if key != "" && !psFormatKeywords()[strings.ToLower(key)] {
				return &Problem{Rule: "ps format keyword " + key,
					Reason: "ps's output column " + key + " is not known to hold no secret (environ prints environments); use the usual columns (pid, args, %cpu, ...)"}
			}
			if header {
				break // the header takes the rest of the word
			}
		}
	}
	return nil
}

func allDigitsOrCommas(s string) bool {
	for i := 0; i < len(s); i++ {
		if (s[i] < '0' || s[i] > '9') && s[i] != ',' {
			return false
		}
	}
	return s != ""
}

// lsofFlags are lsof's options that take no value; lsofValues take one
// (attached or the next word); lsofOptional take one only when attached,
// or from a next word that does not begin with - or +. +D, +d (walks),
// -r and +r (repeat forever), -k, -m, +m (other kernel and mount files)
// and -D (a device cache file) are not listed.
const (
	lsofFlags    = "abhlnNoOPRtUvVXQ"
	lsofValues   = "cdpu"
	lsofOptional = "FgiKsSTxLEZw"
)

// lsofCheck reads lsof's arguments: options (a - bundle ends at a letter
// that takes a value), then file names.
func lsofCheck(p *Parsed) *Problem {
	args := p.Operands
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return nil // the rest are names
		case len(a) < 2 || a[0] != '-' && a[0] != '+':
			continue // a file name: lsof reports who has it open
		case a[0] == '+':
			switch a[1:] {
			case "c":
				i++ // +c WIDTH
			case "E", "f", "L", "M", "w":
			default:
				return unknownWord("lsof", a, "not an option it knows")
			}
			continue
		}
		for k := 1; k < len(a); k++ {
			c := a[k]
			if strings.IndexByte(lsofFlags, c) >= 0 || c == 'M' {
				continue
			}
			if strings.IndexByte(lsofValues, c) >= 0 {
				if k+1 == len(a) {
					if i+1 >= len(args) {
						return unknownWord("lsof", a, "its value is missing")
					}
					i++
				}
				break
			}
			if strings.IndexByte(lsofOptional, c) < 0 {
				return unknownWord("lsof", a, "-"+string(c)+" is not an option it knows")
			}
			v := a[k+1:]
			if v == "" && c == 'i' && i+1 < len(args) && args[i+1] != "" && args[i+1][0] != '-' && args[i+1][0] != '+' {
				i++
				v = args[i]
			}
			if c == 'i' {
				if pr := lsofAddress(v); pr != nil {
					return pr
				}
			}
			break
		}
	}
	return nil
}

// lsofAddress accepts an -i address ([46][protocol][@host][:ports]) only
// when its host, if any, is a numeric address (an IPv4 one, or an IPv6 one
// in brackets): a name is looked up in the DNS, which reaches the network
// with a name the model chose, even one spelled in hexadecimal.
func lsofAddress(v string) *Problem {
	at := strings.IndexByte(v, '@')
	if at < 0 {
		return nil
	}
	host, numeric := v[at+1:], false
	if rest, ok := strings.CutPrefix(host, "["); ok {
		if end := strings.IndexByte(rest, ']'); end > 0 {
			numeric = isPlainIPv6(rest[:end])
		}
	} else {
		if colon := strings.IndexByte(host, ':'); colon >= 0 {
			host = host[:colon]
		}
		numeric = isIPv4(host)
	}
	if !numeric {
		return &Problem{Rule: "lsof -i with a host name",
			Reason: "lsof looks the host " + host + " up in the DNS, which reaches the network; give a numeric address, or a person decides"}
	}
	return nil
}
