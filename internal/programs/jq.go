package programs

import "strings"

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

// yq: the YAML processor, in either of its two common forms: the jq
// wrapper (Python, argparse: it passes what it does not know to jq) and
// the Go program (cobra). Its options are read as argparse reads them
// (abbreviations, -o=json, no value that begins with "-"), which the Go
// program's parser accepts too. Only options that are harmless in both are
// accepted; -s (jq's slurp, the Go program's --split-exp, which writes a
// file per document) and in-place editing are not. The program must be
// harmless for jq (jqProgramHarmless) and for the Go program, whose load
// operators read any file, env, strenv and envsubst read the environment,
// and eval evaluates a string as a program. The Go program reads a lone
// operand that names a file as that file: it is checked as a read.
func yq() []*Spec {
	return []*Spec{{
		ReadOnly: true, Command: "yq", Syntax: Argparse, First: Text, FirstGiven: []string{"--expression"}, Check: yqCheck,
		Reason: "processes YAML, safe only with a provably harmless program",
		Options: join(
			opts("-r,--raw-output -e,--exit-status -c,--compact-output -j,--join-output,--tojson -n,--null-input -M,--monochrome-output,--no-colors -C,--color-output,--colors -S,--sort-keys --tab --indent= --arg== --argjson== -y,--yaml-output,--yml-output -Y,--yaml-roundtrip,--yml-roundtrip -w,--width= --indentless-lists,--indentless --explicit-start --explicit-end -o,--output-format= -p,--input-format= -P,--prettyPrint -I= -N,--no-doc -0,--nul-output --expression= --front-matter= --header-preprocess -v,--verbose -V,--version -h,--help"),
			opts("--slurpfile==R --rawfile==R"),
			unsafe("edits files in place", "-i,--in-place,--inplace"),
			unsafe("slurps (jq) or writes a file per document (the Go yq's --split-exp)", "-s,--slurp,--split-exp="),
			unsafe("reads the program from a file the classifier cannot inspect", "-f,--from-file="),
			unsafe("loads modules from a directory", "-L,--library-path="),
		),
	}}
}

// yqCheck inspects yq's program (the first operand, or --expression) and
// checks a lone operand as the file the Go yq reads it as.
func yqCheck(p *Parsed) *Problem {
	progs := p.Values("--expression")
	if len(progs) == 0 && len(p.Operands) > 0 {
		progs = p.Operands[:1]
		if len(p.Operands) == 1 {
			p.Files = append(p.Files, Arg{Word: p.Operands[0], Role: Read})
		}
	}
	for _, prog := range progs {
		if !jqProgramHarmless(prog) || !yqProgramHarmless(prog) {
			return &Problem{Rule: "yq program not provably harmless",
				Reason: "yq programs using load, env, strenv, envsubst, eval, import, include or $ENV may read files or secrets; a person decides"}
		}
	}
	return nil
}

// yqProgramHarmless scans a program for the Go yq's operators that reach
// beyond its input: any name beginning with load, any holding env (in any
// case), eval, and system, unless it is a field (.env).
func yqProgramHarmless(prog string) bool {
	for i := 0; i < len(prog); {
		c := prog[i]
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			i++
			continue
		}
		j := i + 1
		for j < len(prog) && (prog[j] == '_' || 'a' <= prog[j] && prog[j] <= 'z' || 'A' <= prog[j] && prog[j] <= 'Z' || '0' <= prog[j] && prog[j] <= '9') {
			j++
		}
		word := strings.ToLower(prog[i:j])
		field := i > 0 && prog[i-1] == '.'
		if !field && (strings.HasPrefix(word, "load") || strings.Contains(word, "env") || word == "eval" || word == "system") {
			return false
		}
		i = j
	}
	return true
}
