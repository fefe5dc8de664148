package programs

// rubyInterpreter is ruby's command line, for the project-code rules: ruby
// on a file in the project runs that file, and ruby -e runs inline code
// the model chose. Its options are known whole: -S (a script looked up on
// PATH), -C and -x (a directory to change to), -h and --version, --dump
// and the debugging options are on none of the sets, so Run reports
// nothing and the lists decide; so does -c, which only checks the
// syntax. -r, -I, -E and the encoding and feature options take a value,
// attached or as the next word; -i's extension, -F's pattern and -W's
// level are the rest of their word; -0 takes octal digits and the bundle
// goes on.
func rubyInterpreter() *Interpreter {
	return &Interpreter{
		withValue: wordSet(words("-r -I -E --enable --disable --encoding --external-encoding --internal-encoding")),
		inline:    wordSet(words("-e")),
		parseOnly: wordSet(words("-c")),
		attached:  wordSet(words("-i -F -W")),
		digits:    map[string]bool{"-0": false},
		flags:     wordSet(words("-a -d -l -n -p -s -v -w --verbose --jit --yjit")),
	}
}
