package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/sandboxauth/sandboxauth"
	"github.com/sandboxauth/sandboxauth/confine"
	"github.com/sandboxauth/sandboxauth/internal/hookproto"
	"github.com/sandboxauth/sandboxauth/toolpolicy"
)

// projectConfigName is the policy file looked for in the project directory,
// and userConfigPath (below os.UserConfigDir) the user's; the hook applies
// both when both exist.
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

	// tools returns what decides the calls that are not shell commands,
	// reads or writes, under the agent's tool names. A tool it does not
	// allow is asked about when toolsAsk is set (the default policy knows
	// only a few harmless tools) and refused otherwise. The default
	// policy is compiled when a call first needs it (most calls are shell
	// commands, reads and writes); a file's is resolved at once, so that
	// its errors stop every call.
	tools    func() (*toolpolicy.Policy, error)
	toolsAsk bool
}

// defaultHookTools compiles the hook's default tool policy: harmlessTools.
func defaultHookTools() (*toolpolicy.Policy, error) {
	return toolpolicy.Compile(toolpolicy.Layer{Name: "hook default", Allow: harmlessTools})
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

// loadHookPolicies returns the policies an event whose project directory
// is req.ProjectDir is decided by: one per configuration file that
// applies, or the defaults when none does. configPath is the --config
// flag, which replaces both files.
//
// The configuration files are the library's (sandboxauth.LoadConfig): the
// user's and the project's own .sandboxauth.json. When both exist, both
// decide every call and the stricter answer wins (see decideAll), so the
// project's file can narrow the user's policy but never loosen it: a
// repository can ship one. For the same reason the project's file may only
// narrow the defaults too: any entry that Config.Widenings reports makes
// it an error. Each policy is the configuration's (Sandbox by default)
// with the project directory as sandbox and compound commands classified
// segment by segment, and the hook plays the person: a question the
// authorizer raises is handed to the agent's own prompt, never to a
// terminal. A tool policy in a file decides the other tools (and refuses
// those it does not give); without one, a few harmless tools run and every
// other tool is asked about.
func loadHookPolicies(configPath string, req *hookproto.Request) ([]*hookPolicy, *hookConfinement, error) {
	files, err := findHookConfigs(configPath, req.ProjectDir)
	if err != nil {
		return nil, nil, err
	}
	if len(files) == 0 {
		files = []hookConfig{{}} // the defaults
	}
	cfgs := make([]*sandboxauth.Config, len(files))
	for i, f := range files {
		if cfgs[i], err = loadHookConfig(f); err != nil {
			return nil, nil, err
		}
	}
	confined := hookConfinementFor(files, cfgs, req, confine.Available)
	var out []*hookPolicy
	for i, f := range files {
		p, err := newHookPolicy(f, cfgs[i], req, confined)
		if err != nil {
			closePolicies(out)
			return nil, nil, err
		}
		out = append(out, p)
	}
	return out, confined, nil
}

// projectWidening is the error for w, an entry of the project's own
// policy file that widens the defaults (Config.Widenings).
func projectWidening(w error) error {
	return fmt.Errorf("%w: the project's own policy file may only narrow the defaults, since a repository can ship one; put this in the user's %s or pass --config", w, userConfigFile())
}

// userConfigFile names the user's policy file for a person: its full
// path where the user configuration directory is known, else its place
// relative to that directory.
func userConfigFile() string {
	if dir, err := os.UserConfigDir(); err == nil {
		return filepath.Join(dir, userConfigPath)
	}
	return userConfigPath + " in the user configuration directory"
}

// closePolicies closes every policy of ps.
func closePolicies(ps []*hookPolicy) {
	for _, p := range ps {
		p.close()
	}
}

// loadHookConfig loads one configuration file ("" for the defaults). The
// project's own file may only narrow the defaults; see loadHookPolicies.
func loadHookConfig(file hookConfig) (*sandboxauth.Config, error) {
	cfg, err := loadConfig(file.path)
	if err != nil {
		return nil, err
	}
	if file.fromProject {
		if ws := cfg.Widenings(); len(ws) > 0 {
			var errs []error
			for _, w := range ws {
				errs = append(errs, projectWidening(w))
			}
			return nil, errors.Join(errs...)
		}
	}
	return cfg, nil
}

// newHookPolicy returns the policy of one configuration; see
// loadHookPolicies. Its "confine" section counts only through confined,
// which the hook carries out by rewriting the command: without it nothing
// confines the command the agent runs, so project code must not run
// unasked. With it, every configuration's policy (the project's too) is
// built knowing that the command will run confined.
func newHookPolicy(file hookConfig, cfg *sandboxauth.Config, req *hookproto.Request, confined *hookConfinement) (*hookPolicy, error) {
	commands := cfg.Commands()
	commands.SetSplitCompound(true)
	// The hook receives each question as it is asked (decideCall), so one
	// slot is enough; the default buffer would be allocated, 6 KB, for
	// nothing in every hook process.
	opts := []sandboxauth.Option{sandboxauth.WithRequestBuffer(1)}
	if agent := toolpolicy.Agent(req.Agent); slices.Contains(toolpolicy.Agents(), agent) {
		opts = append(opts, sandboxauth.WithToolVocabulary(agent))
	}
	if confined != nil {
		opts = append(opts, confined.option())
	}
	authz, requests, err := cfg.WithoutConfinement().NewPolicyAuthorizer(cfg.Policy(), commands, opts...)
	if err != nil {
		return nil, err
	}
	p := &hookPolicy{authz: authz, requests: requests, sandbox: req.ProjectDir, source: file.path}
	if tc := cfg.Tools(); tc != nil {
		tools, err := tc.Resolve(toolpolicy.Query{})
		if err != nil {
			authz.Close()
			return nil, err
		}
		p.tools = func() (*toolpolicy.Policy, error) { return tools, nil }
	} else {
		p.tools, p.toolsAsk = defaultHookTools, true
	}
	return p, nil
}

// hookConfig is one configuration file the hook applies.
type hookConfig struct {
	path        string // "" for the defaults
	fromProject bool   // the project's own .sandboxauth.json
}

// findHookConfigs returns the configuration files to apply: configPath
// alone when given (it must exist); else the user's sandboxauth/config.json
// and the project's .sandboxauth.json, those of them that exist (none: the
// defaults). A file that exists but cannot be examined is an error, never
// a reason to skip it. An empty directory in the place of the project's
// file is the placeholder a confined run of the project puts there while
// it runs (the file being missing, the command may not create it): it
// counts as missing, so that a dev server running confined does not make
// every later call fail.
func findHookConfigs(configPath, projectDir string) ([]hookConfig, error) {
	if configPath != "" {
		if _, err := os.Stat(configPath); err != nil {
			return nil, fmt.Errorf("--config: %w", err)
		}
		return []hookConfig{{path: configPath}}, nil
	}
	var candidates []hookConfig
	if dir, err := os.UserConfigDir(); err == nil {
		candidates = append(candidates, hookConfig{path: filepath.Join(dir, userConfigPath)})
	}
	candidates = append(candidates, hookConfig{path: filepath.Join(projectDir, projectConfigName), fromProject: true})
	var out []hookConfig
	for _, c := range candidates {
		fi, err := os.Stat(c.path)
		if err == nil {
			if c.fromProject && fi.IsDir() && emptyDir(c.path) {
				continue
			}
			out = append(out, c)
			continue
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("configuration %s: %w", c.path, err)
		}
	}
	return out, nil
}

// emptyDir reports whether dir is a directory that lists nothing.
func emptyDir(dir string) bool {
	f, err := os.Open(dir)
	if err != nil {
		return false
	}
	defer f.Close()
	names, err := f.Readdirnames(1)
	return len(names) == 0 && errors.Is(err, io.EOF)
}
