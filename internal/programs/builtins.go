package programs

import "strings"

// builtins: the shell's own commands that only print, test or set the
// shell's options. Their arguments are text. cd changes the directory that
// later commands are judged in, which the engine follows; the wrappers
// (env, nice, timeout, exec) are the engine's too.
func builtins() []*Spec {
	text := func(name, reason string) *Spec {
		return &Spec{ReadOnly: true, Command: name, TextOnly: true, Reason: reason}
	}
	return []*Spec{
		text("echo", "prints its arguments"),
		text("true", "does nothing"),
		text("false", "does nothing"),
		text("test", "tests a condition"),
		text("[", "tests a condition"),
		text("cd", "changes the working directory"),
		text("wait", "waits for background jobs"),
		text("type", "describes a command name"),
		text("set", "sets shell options or positional parameters"),
		{ReadOnly: true, Command: "printf", TextOnly: true, Reason: "prints text", Check: printfCheck},
		{ReadOnly: true, Command: "command", Prefix: words("-v"), TextOnly: true, Reason: "looks up a command name"},
		{ReadOnly: true, Command: "command", Prefix: words("-V"), TextOnly: true, Reason: "describes a command name"},
	}
}

// printfCheck refuses the shell builtin's -v NAME, which assigns a
// variable (PATH among them) instead of printing.
func printfCheck(p *Parsed) *Problem {
	if len(p.Operands) > 0 && strings.HasPrefix(p.Operands[0], "-v") {
		return &Problem{Rule: "printf -v", Reason: "printf -v assigns a shell variable, which may change what later commands run"}
	}
	return nil
}
