package sandboxauth

import (
	"slices"
	"testing"

	"github.com/sandboxauth/sandboxauth/internal/programs"
)

// FuzzGrantArgv checks the promise that lets a grant apply to a one-command
// shell script as to the same argv: whenever grantArgv reduces
// [bash -c SCRIPT] to words, the classifier gives the script exactly the
// class of those words, and the words contain no NUL and are not empty.
// The seed corpus is in testdata/fuzz/FuzzGrantArgv.
func FuzzGrantArgv(f *testing.F) {
	for _, s := range []string{
		"npm run test", "git push origin 'main'", "make test > log", "a; b", "X=1 make",
		"ls *.go", `cat "$HOME/.env"`, "cat .env", "bash -c 'make'", "exec make", "timeout 5 curl x",
	} {
		f.Add("bash", s)
	}
	f.Add("zsh", "=ls")
	f.Add("sh", "npm  run\ttest")
	commands := NewShellAllowedCommands()
	f.Fuzz(func(t *testing.T, shellName, script string) {
		if len(script) > 1024 {
			return
		}
		argv := []string{shellName, "-c", script}
		words := grantArgv(argv)
		if slices.Equal(words, argv) {
			return
		}
		if _, ok := programs.ShellGrammars(shellName); !ok {
			t.Fatalf("grantArgv unwrapped %q, which is not a shell", shellName)
		}
		if len(words) == 0 || validateArgv(words) != nil {
			t.Fatalf("grantArgv(%q) = %q", argv, words)
		}
		whole, err := commands.Classify(CommandSite{}, argv)
		if err != nil {
			return // a NUL in the script: no call can carry it
		}
		alone, err := commands.Classify(CommandSite{}, words)
		if err != nil {
			t.Fatalf("Classify(%q): %v", words, err)
		}
		if whole.Result != alone.Result || whole.Rule != alone.Rule {
			t.Fatalf("%q classifies as %v (%s) but its words %q as %v (%s)", argv, whole.Result, whole.Rule, words, alone.Result, alone.Rule)
		}
	})
}
