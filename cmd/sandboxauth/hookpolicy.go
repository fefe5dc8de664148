package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/sandboxauth/sandboxauth"
	"github.com/sandboxauth/sandboxauth/internal/hookproto"
	"github.com/sandboxauth/sandboxauth/toolpolicy"
)

// projectConfigName is the policy file looked for in the project directory,
// and userConfigPath (below os.UserConfigDir) the one looked for next.
const (
	projectConfigName = ".sandboxauth.json"
	userConfigPath    = "sandboxauth/config.json"
)

// hookPolicy is what decides one hook event.
type hookPolicy struct {
	authz    sandboxauth.Authorizer
	requests <-chan sandboxauth.UserRequest // the authorizer's questions; the hook hands them to the agent
	sandbox  string                         // the project directory
	source   string                         // the configuration file used, or "" for the defaults

	// tools decides the calls that are not shell commands, reads or
	// writes, under the agent's tool names. A tool it does not allow is
	// asked about when toolsAsk is set (the default policy knows only a
	// few harmless tools) and refused otherwise.
	tools    *toolpolicy.Policy
	toolsAsk bool
}

// close releases the authorizer.
func (p *hookPolicy) close() { p.authz.Close() }

// harmlessTools are the agents' own bookkeeping tools, which touch no file,
// run nothing and reach no network: the default tool policy allows them and
// asks about every other tool it cannot look into.
var harmlessTools = []string{
	"todowrite", "write_todos", "update_plan", // task lists
	"exitplanmode", "exit_plan_mode", "enter_plan_mode", // plan mode
	"askuserquestion", "ask_user", // questions to the person
	"task", // subagents, whose own tool calls reach the hook
}

// loadHookPolicy returns the policy for an event whose project directory is
// req.ProjectDir. configPath is the --config flag.
//
// Today the configuration file is a command-list file (the format of
// check --commands) whose additions are applied to the default lists (the
// project's own file may add blocked and dangerous commands only: a
// repository can ship one, and must not be able to widen the policy), and
// the policy is the Sandbox policy with the project directory as sandbox,
// compound commands classified segment by segment, and the hook playing
// the person: a question the authorizer raises is handed to the agent's
// own prompt, never to a terminal.
//
// When the one-policy-file loader lands in the library, this function is
// the single place to switch: replace the findHookConfig / loadCommandsFile
// / NewSandboxAuthorizer / default tool policy steps with
// sandboxauth.LoadConfig(path) and (*Config).NewAuthorizer, keeping the
// returned authorizer, its request channel and the configured tool policy
// (toolsAsk false when the file sets one), and keeping the rule that a
// file found in the project cannot widen what the defaults allow.
func loadHookPolicy(configPath string, req *hookproto.Request) (*hookPolicy, error) {
	path, fromProject, err := findHookConfig(configPath, req.ProjectDir)
	if err != nil {
		return nil, err
	}
	commands := sandboxauth.NewShellAllowedCommands()
	if path != "" {
		f, err := loadCommandsFile(path)
		if err != nil {
			return nil, err
		}
		if fromProject && len(f.Safe) > 0 {
			return nil, fmt.Errorf("%s: safe[0]: the project's own policy file may only add blocked and dangerous commands, since a repository can ship one; put safe entries in the user's %s or pass --config", path, userConfigPath)
		}
		f.apply(commands)
	}
	commands.SetSplitCompound(true)
	authz, requests, err := sandboxauth.NewSandboxAuthorizer(commands)
	if err != nil {
		return nil, err
	}
	tools, err := toolpolicy.Compile(toolpolicy.Layer{Name: "hook default", Allow: harmlessTools})
	if err != nil {
		authz.Close()
		return nil, err
	}
	return &hookPolicy{authz: authz, requests: requests, sandbox: req.ProjectDir, source: path, tools: tools, toolsAsk: true}, nil
}

// findHookConfig returns the configuration file to use: configPath when
// given (it must exist), else the project's .sandboxauth.json, else the
// user's sandboxauth/config.json, else "" (the defaults); and whether the
// file is the project's. A file that exists but cannot be examined is an
// error, never a reason to fall back.
func findHookConfig(configPath, projectDir string) (path string, fromProject bool, err error) {
	if configPath != "" {
		if _, err := os.Stat(configPath); err != nil {
			return "", false, fmt.Errorf("--config: %w", err)
		}
		return configPath, false, nil
	}
	candidates := []string{filepath.Join(projectDir, projectConfigName)}
	if dir, err := os.UserConfigDir(); err == nil {
		candidates = append(candidates, filepath.Join(dir, userConfigPath))
	}
	for i, c := range candidates {
		_, err := os.Stat(c)
		if err == nil {
			return c, i == 0, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", false, fmt.Errorf("configuration %s: %w", c, err)
		}
	}
	return "", false, nil
}
