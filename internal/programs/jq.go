package programs

// jq: the JSON processor. Its program is safe only when it transforms its
// input: no modules (import, include load files from any directory) and no
// environment (env, $ENV hold secrets).
func jq() []*Spec {
	return []*Spec{{
		ReadOnly: true, Command: "jq", Syntax: Exact, First: Text, Reason: "processes JSON, safe only with a provably harmless program",
		Options: join(
			opts("-n,--null-input -R,--raw-input -s,--slurp -c,--compact-output -r,--raw-output --raw-output0 -j,--join-output -a,--ascii-output -S,--sort-keys -C,--color-output -M,--monochrome-output --tab --indent= --unbuffered --stream --stream-errors --seq -e,--exit-status --arg== --argjson== --args --jsonargs -h,--help -V,--version --build-configuration"),
			opts("--slurpfile==R --rawfile==R"),
			unsafe("reads the program from a file the classifier cannot inspect", "-f,--from-file="),
			unsafe("loads modules from a directory", "-L,--library-path="),
		),
		Check: func(p *Parsed) *Problem {
			if len(p.Operands) > 0 && !jqProgramHarmless(p.Operands[0]) {
				return &Problem{Rule: "jq program not provably harmless",
					Reason: "jq programs using import, include, env or $ENV may read files or secrets; a person decides"}
			}
			return nil
		},
	}}
}

// jqProgramHarmless scans a jq program for the identifiers that reach
// beyond its input. Strings are scanned too: "\(env.HOME)" interpolates.
func jqProgramHarmless(prog string) bool {
	for i := 0; i < len(prog); {
		c := prog[i]
		if !(c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			i++
			continue
		}
		j := i + 1
		for j < len(prog) && (prog[j] == '_' || 'a' <= prog[j] && prog[j] <= 'z' || 'A' <= prog[j] && prog[j] <= 'Z' || '0' <= prog[j] && prog[j] <= '9') {
			j++
		}
		word := prog[i:j]
		field := i > 0 && prog[i-1] == '.'
		switch word {
		case "import", "include", "modulemeta", "get_search_list", "$ENV", "ENV", "$__prog_args", "__prog_args":
			// jq takes white space or a comment between $ and a name
			// ("$ ENV"), so the bare names count too.
			return false
		case "env":
			if !field {
				return false
			}
		}
		i = j
	}
	return true
}
