package sandboxauth

import (
	"strings"
	"testing"
)

// FuzzProjectCode: the project-code label is never given to a command that
// is dangerous for another reason too. A labelled command is dangerous, its
// rule says project code, and in a compound script every segment that is not
// safe is labelled itself (none blocked, inscrutable or dangerous otherwise).
func FuzzProjectCode(f *testing.F) {
	for _, s := range []string{
		"go\x00test\x00./...", "bash\x00-c\x00go vet ./... && go test ./...", "python3\x00-um\x00unittest",
		"node\x00--require\x00x\x00scripts/build.js", "./build.sh", "sh\x00build.sh", "yarn\x00dlx\x00x",
		"bash\x00-c\x00go test ./... > /tmp/x", "timeout\x005\x00make\x00-j4", "env\x00GOFLAGS=-toolexec=x\x00go\x00test",
		"python3\x00-W\x00error\x00manage.py", "bash\x00-c\x00rm -rf x; npm test",
		// Code the model chose, and commands after project code.
		"node\x00-e\x001", "python3\x00-Ic\x00x", "python3\x00-", "php\x00-r\x00echo 1;",
		"bash\x00-c\x00./build.sh && cat a.txt", "bash\x00-c\x00./build.sh | tee build.log",
		"bash\x00-c\x00sh -c './build.sh; ls sub'", "bash\x00-c\x00./build.sh && cat ~/.ssh/id_rsa",
		"bash\x00-c\x00touch x && ./build.sh && cat x", "git\x00commit\x00-m\x00x", "git\x00stash",
	} {
		f.Add(s)
	}
	sb := newSandbox(f)
	s := NewShellAllowedCommands()
	s.SetSplitCompound(true)
	f.Fuzz(func(t *testing.T, in string) {
		if len(in) > 1024 || in == "" {
			return
		}
		argv := strings.Split(in, "\x00")
		c, err := s.Classify(CommandSite{SandboxDir: sb}, argv)
		if err != nil || !c.ProjectCode {
			return
		}
		if c.Result != CommandCheckResultDangerous || !strings.Contains(c.Rule, "project code") {
			t.Fatalf("%q: project code but %v by %q", argv, c.Result, c.Rule)
		}
		for _, seg := range c.Segments {
			if seg.Result != CommandCheckResultSafe && !seg.ProjectCode {
				t.Fatalf("%q: project code, but segment %q is %v by %q", argv, seg.Argv, seg.Result, seg.Rule)
			}
		}
	})
}
