package programs

import "strings"

// streams: dd and shuf, which copy or shuffle what they read to standard
// output. dd without of= (and without seek=, which only matters with it)
// writes nothing; its if= is a read, checked like any other (a disk device
// is outside the sandbox). shuf writes only with -o, a checked write.
func streams() []*Spec {
	return []*Spec{
		{ReadOnly: true, Command: "dd", TextOnly: true, Check: ddOperands, Reason: "copies its input (if=) to standard output; never writes a file"},
		{ReadOnly: true, Command: "shuf", Syntax: GNU, Reason: "prints its input's lines in random order",
			Options: join(
				opts("-e,--echo -i,--input-range= -n,--head-count= -r,--repeat -z,--zero-terminated --help --version"),
				opts("-o,--output=W --random-source=R"),
			), Check: shufEcho},
	}
}

// ddOperands reads dd's KEY=VALUE operands: if= names a file read; the
// other keys accepted shape the copy. of= (and seek=, oseek=) would write a
// file: dd is then not safe.
func ddOperands(p *Parsed) *Problem {
	for _, o := range p.Operands {
		if o == "--help" || o == "--version" {
			continue
		}
		key, value, ok := strings.Cut(o, "=")
		if !ok {
			return &Problem{Unknown: true, Rule: "dd operand " + o, Reason: "dd takes KEY=VALUE operands; " + o + " is not one"}
		}
		switch key {
		case "if":
			p.Files = append(p.Files, Arg{Word: value, Role: Read})
		case "bs", "ibs", "obs", "cbs", "count", "skip", "iseek", "status", "conv", "iflag", "oflag":
		case "of", "seek", "oseek":
			return &Problem{Rule: "dd " + key + "=", Reason: "dd " + key + "= writes a file (a disk, a device, anything); a person decides"}
		default:
			return &Problem{Unknown: true, Rule: "dd operand " + key + "=", Reason: "dd's " + key + "= is not understood; a person decides"}
		}
	}
	return nil
}

// shufEcho: with -e the operands are the lines to shuffle, not files.
func shufEcho(p *Parsed) *Problem {
	if !p.Has("-e") {
		if len(p.Operands) > 1 {
			return &Problem{Unknown: true, Rule: "shuf operand " + p.Operands[1], Reason: "shuf reads one file; with -e its operands are lines"}
		}
		return nil
	}
	files := p.Files[:0]
	for _, f := range p.Files {
		if f.Role != Read || !isOperand(p, f.Word) {
			files = append(files, f)
		}
	}
	p.Files = files
	return nil
}

func isOperand(p *Parsed, w string) bool {
	for _, o := range p.Operands {
		if o == w {
			return true
		}
	}
	return false
}
