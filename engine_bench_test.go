package sandboxauth

import "testing"

func benchClassify(b *testing.B, s *ShellAllowedCommands, sb string, argv []string, want CommandCheckResult) {
	b.Helper()
	if c, err := s.Classify(CommandSite{SandboxDir: sb}, argv); err != nil || c.Result != want {
		b.Fatalf("Classify(%q) = %v (%s), %v; want %v", argv, c.Result, c.Rule, err, want)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, _ = s.Classify(CommandSite{SandboxDir: sb}, argv)
	}
}

// BenchmarkCheckCompoundSplitSh is the three-segment compound given to sh,
// which is read with both the POSIX and the bash grammar.
func BenchmarkCheckCompoundSplitSh(b *testing.B) {
	s := NewShellAllowedCommands()
	s.SetSplitCompound(true)
	benchCheck(b, s, []string{"sh", "-c", "git status && git diff --stat | tail -20"}, CommandCheckResultSafe)
}

// BenchmarkClassifyCompoundReadOnly is a read-only chain in a sandbox:
// every path resolved, nothing written.
func BenchmarkClassifyCompoundReadOnly(b *testing.B) {
	s := NewShellAllowedCommands()
	s.SetSplitCompound(true)
	benchClassify(b, s, newSandbox(b), []string{"bash", "-c", "ls && git status && cat README.md"}, CommandCheckResultSafe)
}

// BenchmarkClassifyCompoundAfterWrite: the segment after a write is
// judged without trusting the tree.
func BenchmarkClassifyCompoundAfterWrite(b *testing.B) {
	s := NewShellAllowedCommands()
	s.SetSplitCompound(true)
	benchClassify(b, s, newSandbox(b), []string{"bash", "-c", "touch x && cat README.md"}, CommandCheckResultDangerous)
}

// BenchmarkClassifyGlob expands a glob in the sandbox and classifies the
// resulting argv.
func BenchmarkClassifyGlob(b *testing.B) {
	benchClassify(b, NewShellAllowedCommands(), newSandbox(b), []string{"bash", "-c", "wc -l *.md"}, CommandCheckResultSafe)
}
