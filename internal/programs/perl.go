package programs

// perlInterpreter is perl's command line (perlrun), for the project-code
// rules: perl on a file in the project runs that file, and perl -e/-E runs
// inline code the model chose. Its options are known whole: -S (a script
// looked up on PATH), -x (a directory to change to), -d and -D (the
// debugger), -u (a core dump) and the options that print and exit (-v,
// -V, -h) are on none of the sets, so Run reports nothing and the lists
// decide. perl -c is no check of syntax alone (it runs BEGIN blocks), so
// it is a flag like -n. -i's extension, -F's pattern, -C's flags and
// -m/-M's module are the rest of their word (perl -pie 'x' f takes "e" as
// -i's extension and runs the file x); -l and -0 take digits and the
// bundle goes on (perl -lne, -0777ne).
func perlInterpreter() *Interpreter {
	return &Interpreter{
		withValue: wordSet(words("-I")),
		inline:    wordSet(words("-e -E")),
		attached:  wordSet(words("-i -F -C -m -M")),
		digits:    map[string]bool{"-l": false, "-0": true},
		flags:     wordSet(words("-a -c -f -n -p -s -t -T -U -w -W -X")),
	}
}
