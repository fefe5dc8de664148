package programs

// luaInterpreter is the command line of lua and luajit, for the
// project-code rules: lua on a file in the project runs that file, and
// lua -e runs inline code the model chose. -l names a library to load
// first (attached or as the next word), as ruby -r does. Its options are
// known whole: luajit's -b (save bytecode), -j and -O are on none of the
// sets, so Run reports nothing and the lists decide.
func luaInterpreter() *Interpreter {
	return &Interpreter{
		withValue: wordSet(words("-l")),
		inline:    wordSet(words("-e")),
		flags:     wordSet(words("-i -v -E -W")),
	}
}
