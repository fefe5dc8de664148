package sandboxauth_test

import (
	"log/slog"
	"os"
	"path/filepath"

	"github.com/sandboxauth/sandboxauth"
	"github.com/sandboxauth/sandboxauth/codeunit"
	"github.com/sandboxauth/sandboxauth/toolpolicy"
)

// The decision log: one structured record per decision, with the rule that
// decided, including the refusals of wrapping authorizers (code unit, tool
// policy), which write to their fallback's log unless given their own.
func ExampleWithDecisionLog() {
	sandbox, _ := os.MkdirTemp("", "sandbox")
	defer os.RemoveAll(sandbox)
	_ = os.MkdirAll(filepath.Join(sandbox, "parser"), 0o755)

	// Keep the example's output stable: no time, no temporary paths.
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			switch a.Key {
			case slog.TimeKey, "cwd", "paths", "error":
				return slog.Attr{}
			}
			return a
		},
	}))

	base, _, _ := sandboxauth.NewSandboxAuthorizer(nil, sandboxauth.WithDecisionLog(logger), sandboxauth.WithHeadless())
	defer base.Close()
	unit, _ := codeunit.NewCodeUnit("parser", filepath.Join(sandbox, "parser"))
	policy, _ := toolpolicy.Compile(toolpolicy.Layer{Name: "agent:coder", Allow: []string{"read_file", "write_file"}})
	a := sandboxauth.NewToolPolicyAuthorizer(policy, sandboxauth.NewCodeUnitAuthorizer(unit, base))
	defer a.Close()

	_ = a.IsShellAuthorized(false, "", sandbox, sandbox, []string{"ls"})
	_ = a.IsAuthorizedForWrite(false, "", "write_file", sandbox, filepath.Join(sandbox, "main.go"))
	_ = base.IsShellAuthorized(false, "", sandbox, sandbox, []string{"timeout", "5", "curl", "https://example.com"})
	_ = base.IsShellAuthorized(false, "", sandbox, sandbox, []string{"git", "status"})
	// Output:
	// level=WARN msg="sandboxauth decision" policy=toolpolicy operation=shell outcome=deny decided_by=policy rule="tool policy not-listed in layer agent:coder" argv=[ls]
	// level=WARN msg="sandboxauth decision" policy=codeunit operation=write outcome=deny decided_by=policy rule="outside the code unit parser" tool=write_file
	// level=WARN msg="sandboxauth decision" policy=sandbox operation=shell outcome=deny decided_by=policy rule="blocked: curl" argv="[timeout 5 curl https://example.com]" class=blocked
	// level=INFO msg="sandboxauth decision" policy=sandbox operation=shell outcome=allow decided_by=policy rule="safe: git status" argv="[git status]" class=safe
}
