package classify

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/sandboxauth/sandboxauth/internal/programs"
	"github.com/sandboxauth/sandboxauth/internal/repotrust"
)

// projectFiles judges the project files that steer a safe program: a
// .npmrc that moves npm's logs or registry, a rust-toolchain file that
// makes rustc run a project binary or download a toolchain, a cargo
// configuration that wraps rustc, a pip or uv configuration that changes
// the package index, a package.json whose packageManager makes Corepack
// download and run another program. A key outside the program's allow-list (see
// internal/repotrust) makes the command dangerous. Which program reads
// which file is the programs package's knowledge (ReadsProjectFiles). args
// are the words after the program name.
func (r *cmdClassifier) projectFiles(name string, args []string, cwd string) Verdict {
	files := programs.ReadsProjectFiles(name, args)
	if files != 0 && r.untrusted {
		return untrustedVerdict("the project files "+name+" reads", "they may have been written to make it run a program or reach a host")
	}
	if files == 0 || r.sandbox == "" {
		return safeCmdVerdict
	}
	dir, inside, err := r.contains(cwd)
	if err != nil || !inside {
		return mkVerdict(Dangerous, "rule: project files outside the sandbox",
			name+" runs in a directory outside the sandbox, whose configuration files are not known")
	}
	checkers := [...]struct {
		file  programs.ProjectFiles
		check func(dir, sandbox string) (bool, string)
	}{
		{programs.Npmrc, repotrust.NpmTrusted},
		{programs.Yarnrc, repotrust.YarnTrusted},
		{programs.RustToolchain, repotrust.RustToolchainTrusted},
		{programs.CargoConfig, repotrust.CargoTrusted},
		{programs.PipConfig, pipTrusted},
		{programs.UvConfig, repotrust.UvTrusted},
		{programs.Corepack, repotrust.CorepackTrusted},
		{programs.Pnpm, repotrust.PnpmTrusted},
		{programs.GoToolchain, goToolchainTrusted},
		{programs.SwiftVersion, repotrust.SwiftVersionTrusted},
		{programs.DotnetGlobalJSON, repotrust.DotnetGlobalJSONTrusted},
	}
	for _, c := range checkers {
		if !files.Has(c.file) {
			continue
		}
		if ok, reason := c.check(dir, r.sandboxRoot()); !ok {
			return mkVerdict(Dangerous, "rule: project file steers "+name, reason)
		}
	}
	if files.Has(programs.Shellcheckrc) {
		return r.perOperandFiles(name, args, cwd, repotrust.ShellcheckTrusted, repotrust.ShellcheckRCFileTrusted, "--rcfile")
	}
	return safeCmdVerdict
}

// perOperandFiles judges settings files that a program looks for in the
// directory of each file it reads and the directories above (shellcheck's
// .shellcheckrc), and the file an option names (--rcfile). Every word
// that is not an option is taken as such a file, the worse case: an
// option's value adds one more directory to check.
func (r *cmdClassifier) perOperandFiles(name string, args []string, cwd string, check func(dir, sandbox string) (bool, string), file func(name string) (bool, string), option string) Verdict {
	for i := 0; i < len(args); i++ {
		a := args[i]
		var p string
		switch {
		case a == option && i+1 < len(args):
			i++
			p = atCwd(cwd, args[i])
		case strings.HasPrefix(a, option+"="):
			p = atCwd(cwd, a[len(option)+1:])
		case a == "" || strings.HasPrefix(a, "-"):
			continue
		default:
			d, inside, err := r.contains(filepath.Dir(atCwd(cwd, a)))
			if err != nil || !inside {
				continue // a file outside is refused as a path
			}
			if ok, reason := check(d, r.sandboxRoot()); !ok {
				return mkVerdict(Dangerous, "rule: project file steers "+name, reason)
			}
			continue
		}
		if ok, reason := file(p); !ok {
			return mkVerdict(Dangerous, "rule: project file steers "+name, reason)
		}
	}
	return safeCmdVerdict
}

func pipTrusted(dir, sandbox string) (bool, string) {
	return repotrust.PipTrusted(dir, sandbox, os.LookupEnv)
}

func goToolchainTrusted(dir, sandbox string) (bool, string) {
	return repotrust.GoToolchainTrusted(dir, sandbox, os.LookupEnv)
}
