package sandboxauth

import (
	"os"

	"github.com/sandboxauth/sandboxauth/internal/repotrust"
)

// projectFiles judges the project files that steer a safe program: a
// .npmrc that moves npm's logs or registry, a rust-toolchain file that
// makes rustc run a project binary or download a toolchain, a cargo
// configuration that wraps rustc, a pip or uv configuration that changes
// the package index. A key outside the program's allow-list (see
// internal/repotrust) makes the command dangerous. args are the words
// after the program name.
func (r *cmdClassifier) projectFiles(name string, args []string, cwd string) cmdVerdict {
	var checks []func(dir, sandbox string) (bool, string)
	switch name {
	case "npm", "npx", "pnpm":
		checks = append(checks, repotrust.NpmTrusted)
	case "yarn":
		checks = append(checks, repotrust.NpmTrusted, repotrust.YarnTrusted)
	case "cargo":
		checks = append(checks, repotrust.RustToolchainTrusted, repotrust.CargoTrusted)
	case "rustc", "rustdoc", "rustfmt", "cargo-fmt", "cargo-clippy", "clippy-driver", "rustup", "rust-analyzer":
		checks = append(checks, repotrust.RustToolchainTrusted)
	case "pip", "pip3":
		checks = append(checks, pipTrusted)
	case "python", "python3":
		if len(args) >= 2 && args[0] == "-m" && args[1] == "pip" {
			checks = append(checks, pipTrusted)
		}
	case "uv", "uvx":
		checks = append(checks, repotrust.UvTrusted)
	}
	if len(checks) > 0 && r.untrusted {
		return untrustedVerdict("the project files "+name+" reads", "they may have been written to make it run a program or reach a host")
	}
	if len(checks) == 0 || r.sandbox == "" {
		return safeCmdVerdict
	}
	dir, inside, err := r.contains(cwd)
	if err != nil || !inside {
		return mkVerdict(CommandCheckResultDangerous, "rule: project files outside the sandbox",
			name+" runs in a directory outside the sandbox, whose configuration files are not known")
	}
	for _, check := range checks {
		if ok, reason := check(dir, r.rootReal); !ok {
			return mkVerdict(CommandCheckResultDangerous, "rule: project file steers "+name, reason)
		}
	}
	return safeCmdVerdict
}

func pipTrusted(dir, sandbox string) (bool, string) {
	return repotrust.PipTrusted(dir, sandbox, os.LookupEnv)
}
