package programs

import (
	"fmt"
	"strings"
)

// opts builds options from a compact list, so that a family file reads like
// a program's synopsis. Options are separated by spaces; the spellings of
// one option by commas. A suffix says what the option takes:
//
//	-n,--number     a flag
//	-w,--width=     a value that is text
//	-f,--file=R     a value naming a file the program reads
//	-o,--output=W   a value naming a file the program writes
//	-m,--magic=P    a value naming files the program reads, colon-separated
//	-T,--files-from=L  a value naming a file of more names (never safe)
//	-g,--glob=G     a glob that selects files, hidden ones included
//	--ignore-file=I a file of ignore rules the program reads
//	-t,--type=F     one of the program's file types, a whitelist of its globs
//	--color[=]      an optional value, attached only
//	--arg==         two values, both text (--arg NAME VALUE)
//	--rawfile==R    two values, the second naming a file the program reads
//
// A malformed list panics: specs are fixed tables, and a test builds them
// all.
func opts(list string) []Option {
	// One backing array for the options and one for all their spellings:
	// the registry is built at the first decision of every process (a
	// hook is one process per call), so its allocations count.
	n := 0
	for range strings.FieldsSeq(list) {
		n++
	}
	out := make([]Option, n)
	names := make([]string, 0, n+strings.Count(list, ","))
	i := 0
	for tok := range strings.FieldsSeq(list) {
		out[i], names = opt(tok, names)
		i++
	}
	return out
}

// opt reads one option, appending its spellings to names (which must have
// room for them, so that earlier options' Names stay valid).
func opt(tok string, names []string) (Option, []string) {
	var o Option
	switch {
	case strings.HasSuffix(tok, "==R"):
		o.Arity, o.Value, tok = Pair, Read, strings.TrimSuffix(tok, "==R")
	case strings.HasSuffix(tok, "=="):
		o.Arity, o.Value, tok = Pair, Text, strings.TrimSuffix(tok, "==")
	case strings.HasSuffix(tok, "[=]"):
		o.Arity, o.Value, tok = Attached, Text, strings.TrimSuffix(tok, "[=]")
	case strings.HasSuffix(tok, "=R"):
		o.Arity, o.Value, tok = Value, Read, strings.TrimSuffix(tok, "=R")
	case strings.HasSuffix(tok, "=W"):
		o.Arity, o.Value, tok = Value, Write, strings.TrimSuffix(tok, "=W")
	case strings.HasSuffix(tok, "=P"):
		o.Arity, o.Value, tok = Value, ReadPaths, strings.TrimSuffix(tok, "=P")
	case strings.HasSuffix(tok, "=L"):
		o.Arity, o.Value, tok = Value, ReadList, strings.TrimSuffix(tok, "=L")
	case strings.HasSuffix(tok, "=G"):
		o.Arity, o.Value, tok = Value, Whitelist, strings.TrimSuffix(tok, "=G")
	case strings.HasSuffix(tok, "=F"):
		o.Arity, o.Value, tok = Value, FileType, strings.TrimSuffix(tok, "=F")
	case strings.HasSuffix(tok, "=I"):
		o.Arity, o.Value, tok = Value, IgnoreRules, strings.TrimSuffix(tok, "=I")
	case strings.HasSuffix(tok, "="):
		o.Arity, o.Value, tok = Value, Text, strings.TrimSuffix(tok, "=")
	}
	start := len(names)
	for {
		n, rest, more := strings.Cut(tok, ",")
		if len(n) < 2 || n[0] != '-' || strings.ContainsAny(n, "=[] ") {
			panic(fmt.Sprintf("programs: malformed option spelling %q", n))
		}
		names = append(names, n)
		if !more {
			break
		}
		tok = rest
	}
	o.Names = names[start:len(names):len(names)]
	return o, names
}

// unsafe builds options that are known and never safe, each doing what why
// says.
func unsafe(why, list string) []Option {
	out := opts(list)
	for i := range out {
		out[i].Unsafe = why
	}
	return out
}

// recursive builds options that make the program read its operands as
// trees.
func recursive(list string) []Option {
	out := opts(list)
	for i := range out {
		out[i].Recursive = true
	}
	return out
}

// recursiveIf builds options whose value, when it names one of values,
// makes the program read its operands as trees (grep -d recurse).
func recursiveIf(list string, values ...string) []Option {
	out := opts(list)
	for i := range out {
		out[i].RecursiveIf = values
	}
	return out
}

// hyphenValues builds options that take a next word beginning with "-" as
// their value in the Clap and Argparse syntaxes (rg -e -x).
func hyphenValues(list string) []Option {
	out := opts(list)
	for i := range out {
		out[i].HyphenValue = true
	}
	return out
}

// namesOnly builds options that make the program list its trees' files
// instead of reading them.
func namesOnly(list string) []Option {
	out := opts(list)
	for i := range out {
		out[i].NamesOnly = true
	}
	return out
}

// hidden builds options that make a recursive walk include hidden or
// ignored files.
func hidden(list string) []Option {
	out := opts(list)
	for i := range out {
		out[i].Hidden = true
	}
	return out
}

// join concatenates option lists.
//
// Specs never change their options, so a join of one non-empty list is
// that list, capped so that an append to it copies; otherwise the lists
// are copied into one allocation of the exact size (the git family joins
// hundreds of options per form, built at a process's first decision).
func join(lists ...[]Option) []Option {
	n, only := 0, -1
	for i, l := range lists {
		if len(l) > 0 {
			n += len(l)
			only = i
		}
	}
	switch {
	case n == 0:
		return nil
	case n == len(lists[only]):
		return lists[only][:n:n]
	}
	out := make([]Option, 0, n)
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// words splits a space-separated list of words.
func words(s string) []string { return strings.Fields(s) }

// MatcherSyntax returns how a list matcher for the program name (a base
// name) recognises options: Find for programs that take long options with
// one dash and do not bundle (find and its clones, java), GoFlag for Go's
// tools, GNU for every other.
func MatcherSyntax(name string) Syntax {
	switch {
	case findNames()[name], jvmNames()[name]:
		return Find
	case goToolNames()[name]:
		return GoFlag
	}
	return GNU
}
