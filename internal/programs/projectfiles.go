package programs

// ProjectFiles is a set of a project's configuration files that a program
// reads on its own and that can steer it: make it run another program,
// download a toolchain, or reach another host. The engine checks each file
// of the set against an allow-list of its keys (internal/repotrust) before
// a command of a safe spec is allowed; the knowledge of which program reads
// which file lives in the program's family file.
type ProjectFiles uint16

// The project files the engine knows how to judge.
const (
	Npmrc            ProjectFiles = 1 << iota // .npmrc (npm, npx, pnpm, yarn)
	Yarnrc                                    // .yarnrc, .yarnrc.yml (yarn)
	RustToolchain                             // rust-toolchain, rust-toolchain.toml (cargo, rustc, rustup, ...)
	CargoConfig                               // .cargo/config.toml (cargo)
	PipConfig                                 // pip.conf, PIP_CONFIG_FILE (pip, python -m pip)
	UvConfig                                  // uv.toml, pyproject.toml [tool.uv] (uv, uvx)
	Corepack                                  // package.json packageManager and devEngines, .corepack.env (yarn, pnpm, npm through Corepack's shims)
	Pnpm                                      // .pnpmfile.cjs and its kin, pnpm-workspace.yaml (pnpm)
	GoToolchain                               // go.mod and go.work go and toolchain lines (every go command)
	Shellcheckrc                              // .shellcheckrc in each script's directory and its parents, --rcfile (shellcheck)
	SwiftVersion                              // .swift-version (swift through swiftly's proxies)
	DotnetGlobalJSON                          // global.json (dotnet)
)

// Has reports whether s holds every file of f.
func (s ProjectFiles) Has(f ProjectFiles) bool { return s&f == f }

// ReadsProjectFiles returns the project files that command reads when run
// with args (the words after the command), or 0.
func ReadsProjectFiles(command string, args []string) ProjectFiles {
	return nodeProjectFiles(command) | rustProjectFiles(command) | pythonProjectFiles(command, args) | goProjectFiles(command, args) | systemProjectFiles(command) | probeProjectFiles(command)
}

// SteeringFile reports whether name (a base name) is a project file that
// steers a program the classifier knows, so that a segment naming it may
// change what a later one does (hidden files are steering files too; the
// engine sees those by their dot): the toolchain and manifest files, beyond
// hidden ones, whose contents steer what a program this package knows runs
// or fetches. The list is a switch, so that no process builds a table for
// it.
func SteeringFile(name string) bool {
	switch name {
	case "go.mod", "go.work", "go.env",
		"rust-toolchain", "rust-toolchain.toml", "Cargo.toml", "rustfmt.toml",
		"pyproject.toml", "uv.toml", "pip.conf", "setup.cfg", "tox.ini", "pytest.ini", "conftest.py",
		"package.json", "pnpm-workspace.yaml", "tsconfig.json",
		"Makefile", "makefile", "GNUmakefile", "justfile", "Justfile",
		"mise.toml", "lefthook.yml", "lefthook.yaml":
		return true
	}
	return false
}
