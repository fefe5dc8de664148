package programs

import (
	"slices"
	"strings"
	"testing"
)

// FuzzParse reads random argvs with the spec they select: the parser never
// panics, a command without a problem names files only in the roles the
// engine checks, and every operand and file is a word of the argv (or part
// of one, or the default tree).
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"xxd\x00-rc\x00in.hex\x00out", "xxd\x00-c16\x00a", "tree\x00-Lo\x002\x00out\x00d", "rg\x00--engine\x00--pre=sh\x00x",
		"rg\x00-f=pats\x00-g\x00.env\x00KEY", "grep\x00-d\x00rec\x00KEY", "tar\x00-tf\x00a.tar\x00-T\x00list", "file\x00-m\x00a:b\x00x",
		"ps\x00eww", "ps\x00-eo\x00pid,environ", "lsof\x00-i\x00@host.example", "lsof\x00-nPiTCP@1.2.3.4:80", "cd\x00-P\x00x", "wait\x00-p\x00PATH",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if len(in) > 1024 {
			return
		}
		argv := strings.Split(in, "\x00")
		s := Form(argv[0], argv[1:])
		if s == nil {
			return
		}
		args := argv[1+len(s.Prefix):]
		p := Parse(s, args)
		if p.Problem != nil {
			if p.Problem.Rule == "" || p.Problem.Reason == "" {
				t.Fatalf("%q: a problem without a rule or a reason", argv)
			}
			return
		}
		for _, a := range p.Files {
			switch a.Role {
			case Read, ReadTree, Write, ReadPaths, IgnoreRules:
			default:
				t.Fatalf("%q: file %q with role %d, which the engine does not check", argv, a.Word, a.Role)
			}
			if a.Word != s.DefaultTree && !inWords(args, a.Word) {
				t.Fatalf("%q: file %q is no word of the argv", argv, a.Word)
			}
		}
		for _, o := range p.Operands {
			if !slices.Contains(args, o) {
				t.Fatalf("%q: operand %q is no word of the argv", argv, o)
			}
		}
	})
}

// inWords reports whether w is a word of args or the end of one (an
// attached value).
func inWords(args []string, w string) bool {
	for _, a := range args {
		if strings.HasSuffix(a, w) {
			return true
		}
	}
	return false
}
