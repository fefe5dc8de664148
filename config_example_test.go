package sandboxauth_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sandboxauth/sandboxauth"
	"github.com/sandboxauth/sandboxauth/toolpolicy"
)

// A configuration file drives the authorizer: here `cat` no longer runs
// without asking, terraform is blocked, and nobody is there to ask.
func ExampleLoadConfig() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	sandbox, _ := filepath.EvalSymlinks(dir)
	path := filepath.Join(sandbox, "policy.json")
	os.WriteFile(path, []byte(`{
  "policy": "sandbox",
  "headless": true,
  "commands": {
    "safe":    {"remove": [{"command": "cat"}]},
    "blocked": {"add": [{"command": "terraform", "reason": "no infrastructure changes"}]}
  }
}`), 0o644)

	cfg, err := sandboxauth.LoadConfig(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	authz, _, err := cfg.NewAuthorizer()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer authz.Close()

	for _, argv := range [][]string{{"ls"}, {"cat", "go.mod"}, {"terraform", "apply"}} {
		err := authz.IsShellAuthorized(false, "", sandbox, sandbox, argv)
		switch {
		case err == nil:
			fmt.Println(argv[0], "runs")
		case errors.Is(err, sandboxauth.ErrNoUser):
			fmt.Println(argv[0], "would ask a person: refused (headless)")
		case errors.Is(err, sandboxauth.ErrBlockedCommand):
			fmt.Println(argv[0], "is blocked")
		}
	}
	// Output:
	// ls runs
	// cat would ask a person: refused (headless)
	// terraform is blocked
}

// Errors name the line, the column and the key.
func ExampleParseConfig_errors() {
	_, err := sandboxauth.ParseConfig([]byte(`{
  "commands": {
    "safe": {"add": [{"command": "curl"}]}
  },
  "headles": true
}`))
	fmt.Println(err)
	fmt.Println(errors.Is(err, sandboxauth.ErrInvalidConfig))

	_, err = sandboxauth.ParseConfig([]byte(`{
  "commands": {
    "safe": {"add": [{"command": "curl", "args": ["--version"]}]}
  }
}`))
	fmt.Println(err)
	// Output:
	// 5:3: headles: unknown field "headles": did you mean "headless"? (known fields: $schema, agents, commands, confine, headless, policy, promptTimeout, protectedPaths, splitCompound, tools)
	// true
	// 3:22: commands.safe.add[0]: the safe entry "curl --version" would overrule the default blocked entry "curl" (network client: downloads, uploads or connects out): safe entries win over blocked ones. Add "overrideBlocked": true to the entry if that is what you mean, or remove the blocked entry with "commands": {"blocked": {"remove": [{"command": "curl"}]}}
}

// A tool policy in the configuration, written in any agent's tool names,
// applies to the agent's own names for its tools.
func ExampleConfig_NewAuthorizer_toolPolicy() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	sandbox, _ := filepath.EvalSymlinks(dir)

	cfg, err := sandboxauth.ParseConfig([]byte(`{
  "tools":  {"profile": "coding"},
  "agents": [{"id": "reviewer", "tools": {"deny": ["exec", "write"]}}]
}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	authz, _, err := cfg.NewAuthorizer(
		sandboxauth.WithToolQuery(toolpolicy.Query{AgentID: "reviewer"}),
		sandboxauth.WithToolVocabulary(toolpolicy.AgentClaudeCode),
		sandboxauth.WithHeadless(),
	)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer authz.Close()

	err = authz.IsShellAuthorized(false, "", sandbox, sandbox, []string{"ls"})
	fmt.Println(errors.Is(err, sandboxauth.ErrToolNotPermitted))
	fmt.Println(strings.ReplaceAll(err.Error(), sandbox, "SANDBOX"))
	fmt.Println(authz.IsAuthorizedForRead(false, "", "Read", sandbox, filepath.Join(sandbox, "main.go")))
	// Output:
	// true
	// sandboxauth: running `ls` in "SANDBOX" was refused: the tool "Bash" is not available to this agent ("exec" is denied by layer agent:reviewer: deny rule "exec" (agents[0].tools.deny[0])). Use one of the tools you were given instead.
	// <nil>
}
