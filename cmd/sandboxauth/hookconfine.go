package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/sandboxauth/sandboxauth"
	"github.com/sandboxauth/sandboxauth/confine"
	"github.com/sandboxauth/sandboxauth/internal/hookproto"
)

// hookConfinement is how the hook has the shell commands it allows run
// confined: it answers the agent with an allow that rewrites the command to
//
//	/abs/sandboxauth run --config FILE --sandbox PROJECT -- bash -c 'COMMAND'
//
// (zsh -c where the agent runs zsh; see hookShells), so that
// the command runs under `sandboxauth run` with the user's policy and the
// project as sandbox. Project code (go test, npm test, ./build.sh, ...),
// which would otherwise be asked about, is then allowed: the policies are
// built with sandboxauth.WithConfinement of the same confine.Policy run
// confines the command with.
//
// The rewritten command means exactly the original: the script is the
// agent's own, single-quoted (each quote in it closed, escaped with a
// backslash and reopened), so that no character of it
// is read by the outer shell; it runs in the working directory the agent's
// shell is in, with its environment (run passes the environment on, with a
// private TMPDIR). What the agent's own shell adds to a command it runs
// directly (aliases and functions of the user's shell start-up files) does
// not apply: the hook judged the script without them, so the confined run
// does what was judged. A `cd` inside the script no longer changes the
// agent's working directory for its next command.
//
// `sandboxauth run` decides the command again before it runs it, under the
// configuration named by --config, and refuses it (exit 126, the reason on
// standard error) rather than run it unconfined when the kernel cannot
// confine it any more.
type hookConfinement struct {
	exe    string         // the absolute path of this program
	config string         // the absolute path of the configuration with the "confine" section
	policy confine.Policy // the policy run confines the command with
	shell  string         // the shell the script is run with: bash or zsh
}

// hookConfinementFor returns the confinement of req's answer, or nil when
// the hook answers as without one. It confines only where all of these
// hold, so that it never answers with a rewrite that would run unconfined
// or be refused by run:
//
//   - the call is a shell command given as a script, of an agent event that
//     rewrites commands (req.CanRewrite: Claude Code's Bash tool; see
//     package hookproto for why the other agents' events do not);
//   - the user's configuration (--config, or the user's own file: never
//     the project's, which a repository ships) has a "confine" section and
//     the Sandbox policy, which is the one run applies;
//   - the machine can confine (available, which is confine.Available), the
//     project is a place confinement accepts as a sandbox
//     (confine.CheckSandbox: not the home directory, ~/.config, ...), and
//     the path of this program is known.
func hookConfinementFor(files []hookConfig, cfgs []*sandboxauth.Config, req *hookproto.Request, available func() error) *hookConfinement {
	if req.Kind != hookproto.KindShell || !req.CanRewrite || req.Argv != nil {
		return nil
	}
	for i, f := range files {
		if f.fromProject || f.path == "" {
			continue
		}
		if _, ok := cfgs[i].Confinement(); !ok || cfgs[i].Policy() != sandboxauth.PolicySandbox {
			continue
		}
		if available() != nil {
			return nil
		}
		exe, err := os.Executable()
		if err != nil {
			return nil
		}
		if exe, err = filepath.EvalSymlinks(exe); err != nil {
			return nil
		}
		config, err := filepath.Abs(f.path)
		if err != nil {
			return nil
		}
		// run refuses a sandbox named through a symbolic link (an
		// earlier command could have planted it); the project the agent
		// was started in is the user's, fixed before any command ran, so
		// its real directory is the sandbox. The working directory of the
		// rewritten command is the agent's, unchanged.
		project, err := filepath.EvalSymlinks(req.ProjectDir)
		if err != nil {
			return nil
		}
		policy := decisionPolicy(cfgs[i], project)
		if confine.CheckSandbox(policy) != nil {
			// run would refuse the project as a sandbox (the home
			// directory, say): answer as without confinement.
			return nil
		}
		return &hookConfinement{
			exe:    exe,
			config: config,
			policy: policy,
			shell:  runShell(hookShells(os.Getenv)),
		}
	}
	return nil
}

// decisionPolicy is the confinement the hook's authorizer is told of: the
// sandbox, and what the configuration's "confine" section makes writable,
// readable and reachable, which is all WithConfinement reads. The hook
// runs nothing: run makes the whole policy (confinePolicy, with the walk
// and scans of ProtectConfinement and its run group) when it runs the
// command, and decides again under it.
func decisionPolicy(cfg *sandboxauth.Config, sandbox string) confine.Policy {
	p, _ := cfg.Confinement()
	p.Sandbox = sandbox
	return p
}

// option is the authorizer option that declares the confinement, so that
// project code is allowed.
func (c *hookConfinement) option() sandboxauth.Option {
	return sandboxauth.WithConfinement(c.policy)
}

// command is the rewritten command line that runs script confined in the
// sandbox (the project directory).
func (c *hookConfinement) command(sandbox, script string) string {
	return strings.Join([]string{
		shellQuote(c.exe), "run", "--config", shellQuote(c.config), "--sandbox", shellQuote(sandbox),
		"--", c.shell, "-c", shellQuote(script),
	}, " ")
}

// confined returns d with the command rewritten to run confined when d
// allows a shell call, and d itself otherwise.
func (c *hookConfinement) confined(req *hookproto.Request, d hookproto.Decision) hookproto.Decision {
	if c == nil || d.Action != hookproto.Allow || req.Kind != hookproto.KindShell {
		return d
	}
	d.Command = c.command(c.policy.Sandbox, req.Command)
	return d
}

// runShell is the shell the rewritten command runs the script with: the
// one shell it was judged with, or, when it was judged with both bash and
// zsh (see hookShells), the one Claude Code would have run: zsh where
// there is one, bash otherwise.
func runShell(judged []string) string {
	if len(judged) == 1 {
		return judged[0]
	}
	if _, err := exec.LookPath("zsh"); err == nil {
		return "zsh"
	}
	return "bash"
}

// shellQuote quotes s as one word for sh, bash and zsh: in single quotes,
// where no character is special, each single quote written as '\”.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
