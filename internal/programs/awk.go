package programs

import "strings"

// awk: awk, gawk, mawk and nawk. The program text is safe only when it has
// no way to run a command, open a file or load code; options that load
// files or write them are unsafe.
func awk() []*Spec {
	o := join(
		opts("-F,--field-separator= -v,--assign= -e,--source= -b,--characters-as-bytes -c,--traditional -C,--copyright -g,--gen-pot -h,--help -L,--lint[=] -M,--bignum -n,--non-decimal-data -N,--use-lc-numeric -O,--optimize -P,--posix -r,--re-interval -s,--no-optimize -t,--lint-old -V,--version -S,--sandbox"),
		unsafe("reads the program from a file the classifier cannot inspect", "-f,--file= -i,--include= -l,--load= -E,--exec="),
		unsafe("writes a file of its own (dump, profile or pretty-print output)", "-d,--dump-variables[=] -p,--profile[=] -o,--pretty-print[=]"),
		unsafe("runs the interactive debugger", "-D,--debug[=]"),
		unsafe("takes implementation options the classifier does not read", "-W="),
	)
	mk := func(name string) *Spec {
		return &Spec{
			ReadOnly: true, Command: name, Syntax: POSIX, Options: o, First: Text, FirstGiven: []string{"-e"},
			Reason: "text processing, safe only with a provably harmless program",
			Check:  awkCheck,
		}
	}
	return []*Spec{mk("awk"), mk("gawk"), mk("mawk"), mk("nawk")}
}

func awkCheck(p *Parsed) *Problem {
	progs := p.Values("-e")
	if len(progs) == 0 {
		if len(p.Operands) == 0 {
			return &Problem{Unknown: true, Rule: "awk without a program", Reason: "awk needs a program"}
		}
		progs = p.Operands[:1]
	}
	for _, s := range progs {
		if !awkProgramHarmless(s) {
			return &Problem{Rule: "awk program not provably harmless",
				Reason: "awk programs with system(), pipes, output redirection, getline or comparisons written with > may run commands or write files; compare with < instead, or a person decides"}
		}
	}
	return nil
}

// awkProgramHarmless accepts an awk program that has no way to run a
// command, open a file or load code: no system(), no pipes, no output
// redirection (nor comparisons written with >, which awk cannot tell apart
// here), no getline, no @include/@load.
func awkProgramHarmless(p string) bool {
	if strings.ContainsAny(p, "|>@`") {
		return false
	}
	for _, bad := range []string{"system", "getline", "close", "fflush", "PROCINFO", "ENVIRON", "ARGV", "ARGC"} {
		if strings.Contains(p, bad) {
			return false
		}
	}
	return true
}
