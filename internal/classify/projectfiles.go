package classify

import (
	"os"

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
	}
	for _, c := range checkers {
		if !files.Has(c.file) {
			continue
		}
		if ok, reason := c.check(dir, r.sandboxRoot()); !ok {
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
