package programs

// rust: cargo, rustc and rustfmt. cargo reads its options with clap (Clap:
// long options by their full names, -p=NAME is -p NAME); rustc and rustfmt
// with getopts (Exact); words after "--" go to the test
// binary, clippy or rustfmt and are text. Options that load configuration
// (--config, -Z), open a browser or rewrite sources are unsafe. Project
// files that redirect these programs (rust-toolchain, .cargo/config) and
// whether the project's build scripts run are the engine's concern.
func rust() []*Spec {
	common := join(
		opts("-p,--package= --workspace --all --exclude= --lib --bins --bin= --examples --example= --tests --test= --benches --bench= --all-targets -F,--features= --all-features --no-default-features -r,--release --profile= -j,--jobs= --keep-going --target= --locked --offline --frozen -v,--verbose -q,--quiet --color= --message-format= --timings[=] --future-incompat-report --ignore-rust-version -h,--help"),
		opts("--target-dir=W --manifest-path=R --lockfile-path=R"),
		unsafe("overrides cargo's configuration (runners, linkers, registries)", "--config= -Z="),
		unsafe("opens a browser", "--open"),
		unsafe("rewrites the project's sources", "--fix --allow-dirty --allow-staged --allow-no-vcs --broken-code"),
	)
	// c builds a cargo form; all but tree and metadata write target/.
	c := func(sub, reason string, more ...[]Option) *Spec {
		return &Spec{ReadOnly: sub == "tree" || sub == "metadata", Command: "cargo", Prefix: words(sub), Syntax: Clap, Operands: Text, Options: join(append([][]Option{common}, more...)...), Reason: reason}
	}
	version := func(cmd, word, reason string) *Spec {
		return &Spec{ReadOnly: true, Command: cmd, Prefix: words(word), Syntax: Clap, MaxOperands: NoOperands, Options: opts("-v,--verbose"), Reason: reason}
	}
	return []*Spec{
		c("test", "builds and runs the project's tests", opts("--no-run --no-fail-fast --doc")),
		c("bench", "builds and runs the project's benchmarks", opts("--no-run --no-fail-fast")),
		c("check", "type-checks the project"),
		c("build", "builds the project into target/", opts("--build-plan --artifact-dir=W")),
		c("clippy", "lints the project", opts("--no-deps")),
		c("doc", "builds documentation into target/", opts("--no-deps --document-private-items")),
		c("tree", "prints the dependency tree (resolving it fetches dependencies: project code)", opts("-e,--edges= -i,--invert= --prune= --depth= --no-dedupe -d,--duplicates --charset= -f,--format= --prefix=")),
		c("metadata", "prints package metadata (resolving dependencies fetches them: project code)", opts("--format-version= --no-deps --filter-platform=")),
		{ReadOnly: true, Command: "cargo", Prefix: words("fmt"), Syntax: Clap, Operands: Text, Check: passthroughOnly("--check"), RustCrate: true,
			Options: opts("--check --all -p,--package= --manifest-path=R --message-format= -v,--verbose -q,--quiet -h,--help"), Reason: "checks formatting (with --check), or formats the project's sources (project code)"},
		version("cargo", "--version", "prints the version"),
		version("cargo", "-V", "prints the version"),
		version("cargo", "version", "prints the version"),
		{ReadOnly: true, Command: "rustfmt", Syntax: Exact, Check: checkOnly("--check", false), RustModules: true, Reason: "checks formatting without writing",
			Options: join(opts("--check --edition= --color= -l,--files-with-diff -v,--verbose -q,--quiet --style-edition= -h,--help -V,--version"),
				unsafe("writes files or backups", "--emit= --backup --print-config="),
				unsafe("reads configuration from another file", "--config-path= --config="))},
		version("rustc", "--version", "prints the version"),
		version("rustc", "-V", "prints the version"),
		{ReadOnly: true, Command: "rustc", Prefix: words("-vV"), Syntax: Exact, MaxOperands: NoOperands, Reason: "prints the version"},
	}
}

// passthroughOnly accepts the words after "--" that go to the formatter
// (cargo fmt -- --check) only when they are the one option understood
// there. Without --check the formatter rewrites the project's sources:
// the project-code rules label that form.
func passthroughOnly(option string) func(p *Parsed) *Problem {
	return func(p *Parsed) *Problem {
		for _, o := range p.Operands {
			if o != option {
				return &Problem{Unknown: true, Rule: "argument passed to the formatter: " + o,
					Reason: "words after -- go to the formatter, which may write files; only " + option + " is understood there"}
			}
		}
		return nil
	}
}

// checkOnly makes a formatter safe only in its check mode: the option must
// be given. With passthrough, the operands are words after "--" that go to
// the formatter (cargo fmt -- --check): only the option itself is
// understood there.
func checkOnly(option string, passthrough bool) func(p *Parsed) *Problem {
	return func(p *Parsed) *Problem {
		given := p.Has(option)
		for _, o := range p.Operands {
			if !passthrough {
				break
			}
			if o != option {
				return &Problem{Unknown: true, Rule: "argument passed to the formatter: " + o,
					Reason: "words after -- go to the formatter, which may write files; only " + option + " is understood there"}
			}
			given = true
		}
		if given {
			return nil
		}
		return &Problem{Rule: p.Spec.Command + " without " + option,
			Reason: "without " + option + " the formatter rewrites files; add " + option + " or a person decides"}
	}
}

// rustProjectFiles: every rustup proxy (cargo, rustc, rustfmt, ...) reads
// the project's rust-toolchain file, which can name a toolchain to
// download or a directory of binaries to run; cargo also reads
// .cargo/config.toml (rustc wrappers, runners, registries).
func rustProjectFiles(command string) ProjectFiles {
	switch command {
	case "cargo":
		return RustToolchain | CargoConfig
	case "rustc", "rustdoc", "rustfmt", "cargo-fmt", "cargo-clippy", "clippy-driver", "rustup", "rust-analyzer":
		return RustToolchain
	}
	return 0
}

// rustProjectCode: cargo's build-like subcommands run the project's build
// scripts and procedural macros. cargo tree and cargo metadata run
// nothing of the project, but resolve its dependencies: Cargo.toml may name
// a git dependency on any host, which they fetch (a channel out for
// anything the model read). Confined, they do not reach the network.
//
// Any other word that is not one of cargo's own subcommands names an
// extension (cargo nextest, cargo make: a cargo-NAME program) or an alias
// from .cargo/config.toml, which can stand for any cargo command line: project
// code too. cargo fmt rewrites the project's sources (cargo fmt --check only
// reads them, and its spec decides). cargo's own subcommands that manage
// packages, publish or install are not labelled: the lists decide.
func rustProjectCode() []ProjectCodeEntry {
	return []ProjectCodeEntry{{Command: "cargo",
		Managed: words("add remove new init search publish install uninstall login logout owner yank " +
			"version help locate-project read-manifest verify-project generate-lockfile pkgid config " +
			"clean update fetch vendor report info"),
		Checking: map[string]string{"fmt": "--check"},
	}}
}
