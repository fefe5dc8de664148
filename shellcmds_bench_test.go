package sandboxauth

import "testing"

func benchCheck(b *testing.B, s *ShellAllowedCommands, argv []string, want CommandCheckResult) {
	b.Helper()
	if r, err := s.Check(argv); err != nil || r != want {
		b.Fatalf("Check(%q) = %v, %v; want %v", argv, r, err, want)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, _ = s.Check(argv)
	}
}

func BenchmarkCheckPlainLs(b *testing.B) {
	benchCheck(b, NewShellAllowedCommands(), []string{"ls", "-la"}, CommandCheckResultSafe)
}

func BenchmarkCheckPlainGitStatus(b *testing.B) {
	benchCheck(b, NewShellAllowedCommands(), []string{"git", "status"}, CommandCheckResultSafe)
}

func BenchmarkCheckBlocked(b *testing.B) {
	benchCheck(b, NewShellAllowedCommands(), []string{"curl", "-fsSL", "https://example.com"}, CommandCheckResultBlocked)
}

// BenchmarkCheckBashLcGoTest: a command that runs project code, which
// Check calls dangerous (a person decides, or it runs confined).
func BenchmarkCheckBashLcGoTest(b *testing.B) {
	benchCheck(b, NewShellAllowedCommands(), []string{"bash", "-lc", "go test ./..."}, CommandCheckResultDangerous)
}

func BenchmarkCheckBashLcQuoted(b *testing.B) {
	benchCheck(b, NewShellAllowedCommands(), []string{"bash", "-lc", "grep -rn 'func main' ."}, CommandCheckResultSafe)
}

func BenchmarkCheckCompoundSplit(b *testing.B) {
	s := NewShellAllowedCommands()
	s.SetSplitCompound(true)
	benchCheck(b, s, []string{"bash", "-lc", "git status && git diff --stat | tail -20"}, CommandCheckResultSafe)
}

func BenchmarkClassifySandbox(b *testing.B) {
	s := NewShellAllowedCommands()
	sb := newSandbox(b)
	argv := []string{"cat", "internal/config/config.go"}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, _ = s.Classify(CommandSite{SandboxDir: sb}, argv)
	}
}

func BenchmarkNewShellAllowedCommands(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_ = NewShellAllowedCommands()
	}
}
