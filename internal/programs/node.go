package programs

import "strings"

// node: Node.js and its package managers and compilers. Only what reads
// the project or prints versions is here; installs, publishing and running
// packages from the registry are not. npm reads any configuration setting
// as a flag (--script-shell, --node-options, --userconfig), so its specs
// list the few flags known to be harmless and nothing else. Running the
// project's scripts (npm test, npm run) is project code: the engine asks
// about it, or allows it under confinement.
func node() []*Spec {
	version := func(cmd string) []*Spec {
		return []*Spec{
			{ReadOnly: true, Command: cmd, Prefix: words("--version"), Syntax: Exact, MaxOperands: NoOperands, Reason: "prints the version"},
			{ReadOnly: true, Command: cmd, Prefix: words("-v"), Syntax: Exact, MaxOperands: NoOperands, Reason: "prints the version"},
		}
	}
	workspaces := opts("-w,--workspace= -ws,--workspaces --include-workspace-root --no-workspaces")
	var out []*Spec
	for _, c := range []string{"node", "npm", "pnpm", "yarn", "bun", "deno", "tsc"} {
		out = append(out, version(c)...)
	}
	for _, check := range []string{"--check", "-c"} {
		// node --check parses one file and runs nothing of it.
		out = append(out, &Spec{ReadOnly: true, Command: "node", Prefix: words(check), Syntax: Exact, MaxOperands: 1, Reason: "checks a script's syntax without running it"})
	}
	return append(out,
		&Spec{ReadOnly: true, Command: "npm", Prefix: words("ls"), Syntax: Exact, Operands: Text, Reason: "lists installed packages",
			Options: join(workspaces, opts("-a,--all --depth= --json -l,--long -p,--parseable --omit= --include= --link --package-lock-only --unicode"),
				unsafe("reads the global package tree", "-g,--global --location="))},
		&Spec{ReadOnly: true, Command: "npm", Prefix: words("list"), Syntax: Exact, Operands: Text, Reason: "lists installed packages",
			Options: join(workspaces, opts("-a,--all --depth= --json -l,--long -p,--parseable --omit= --include= --link --package-lock-only --unicode"),
				unsafe("reads the global package tree", "-g,--global --location="))},
		&Spec{ReadOnly: true, Command: "pnpm", Prefix: words("list"), Syntax: Exact, Operands: Text, Reason: "lists installed packages",
			Options: opts("--depth= --json --long --parseable -P,--prod -D,--dev --no-optional -r,--recursive --filter= --only-projects")},
		&Spec{ReadOnly: true, Command: "pnpm", Prefix: words("ls"), Syntax: Exact, Operands: Text, Reason: "lists installed packages",
			Options: opts("--depth= --json --long --parseable -P,--prod -D,--dev --no-optional -r,--recursive --filter= --only-projects")},
		&Spec{ReadOnly: true, Command: "pnpm", Prefix: words("why"), Syntax: Exact, Operands: Text, Reason: "explains why a package is installed",
			Options: opts("--depth= --json --long --parseable -P,--prod -D,--dev -r,--recursive --filter=")},
		&Spec{ReadOnly: true, Command: "yarn", Prefix: words("why"), Syntax: Exact, Operands: Text, Reason: "explains why a package is installed",
			Options: opts("-R,--recursive --peers --json")},
		&Spec{ReadOnly: true, Command: "yarn", Prefix: words("list"), Syntax: Exact, Operands: Text, Reason: "lists installed packages",
			Options: opts("--depth= --pattern= --json")},
		&Spec{ReadOnly: true, Command: "tsc", Prefix: words("--noEmit"), Syntax: Exact, Operands: Read, Reason: "type-checks without writing",
			Options: join(opts("--pretty --strict --skipLibCheck --noErrorTruncation --listFiles --listFilesOnly --explainFiles --extendedDiagnostics --diagnostics --traceResolution --noUnusedLocals --noUnusedParameters --noImplicitAny --target= --module= --moduleResolution= --jsx= --lib= --types= --allowJs --checkJs --esModuleInterop --resolveJsonModule --isolatedModules"),
				opts("-p,--project=R"),
				unsafe("never ends", "-w,--watch"),
				unsafe("writes build information", "-b,--build --generateTrace= --tsBuildInfoFile="))},
	)
}

// nodeProjectFiles: npm and the package managers that share its
// configuration read .npmrc from the project (registry, scripts' shell,
// logs directory); yarn reads its own .yarnrc files too, and pnpm loads
// the project's .pnpmfile.cjs hooks and pnpm-workspace.yaml settings on
// every command, --version and listings included. Where yarn, pnpm
// or npm is Corepack's shim, even --version first runs the package
// manager that package.json names, downloading it when a URL is given.
func nodeProjectFiles(command string) ProjectFiles {
	switch command {
	case "npx":
		return Npmrc
	case "npm":
		return Npmrc | Corepack
	case "pnpm":
		return Npmrc | Corepack | Pnpm
	case "yarn":
		return Npmrc | Yarnrc | Corepack
	}
	return 0
}

// nodeProjectCode: npm's script commands, the package managers whose other
// words name scripts, and the test runners, linters and loaders that load
// the project's configuration (which is JavaScript).
func nodeProjectCode() []ProjectCodeEntry {
	return []ProjectCodeEntry{
		// npm pack runs the prepack and prepare scripts, --dry-run too.
		{Command: "npm", Subcommands: words("test t tst run run-script rum urn start stop restart exec x pack")},
		{Command: "deno", Subcommands: words("task test run bench")},
		// npx runs a program the project installed (node_modules/.bin),
		// unless it is told to fetch one (npxFetches).
		{Command: "npx", Fetches: npxFetches}, {Command: "jest"}, {Command: "vitest"}, {Command: "mocha"}, {Command: "eslint"},
		{Command: "prettier"}, {Command: "tsx"}, {Command: "ts-node"},
		// tsc follows tsconfig.json, which may name a build-info file or
		// an output directory anywhere (written even with --noEmit when
		// incremental) and extend a configuration anywhere.
		{Command: "tsc"},
		// dlx downloads a package and runs it: not the project's code, and
		// the lists decide (as for npx x@latest).
		{Command: "yarn", Managed: words("dlx add install remove upgrade upgrade-interactive up publish login logout " +
			"config cache global init link unlink pack set plugin policies info why list outdated audit version versions " +
			"help owner tag team import licenses generate-lock-entry autoclean check npm constraints workspaces")},
		// pnpm's workspace options come before the script's name (pnpm -r
		// test, pnpm --filter web build); -C and --dir, which move it to
		// another directory, are not skipped.
		{Command: "pnpm", Globals: map[string]bool{"-r": false, "--recursive": false, "-w": false, "--workspace-root": false,
			"--parallel": false, "--stream": false, "-s": false, "--silent": false, "--if-present": false, "--aggregate-output": false,
			"--no-bail": false, "--sort": false, "--reverse": false, "--filter": true, "-F": true, "--filter-prod": true,
			"--workspace-concurrency": true, "--reporter": true},
			Managed: words("dlx add install i remove rm uninstall un update up upgrade publish login logout " +
				"config c store link ln unlink init import fetch prune audit outdated list ls ll why setup env self-update " +
				"server patch patch-commit deploy pack help root bin licenses rebuild rb install-test it")},
		{Command: "bun", Managed: words("add a install i remove rm update upgrade publish link unlink pm init create c " +
			"outdated patch patch-commit help audit info why")},
	}
}

// RunnerConfigOption reports an option, given to a command that runs the
// project's scripts, that the program reads as configuration, which can
// change what it runs (npm's: see NpmConfigOption). args are the words
// after name.
func RunnerConfigOption(name string, args []string) bool {
	return name == "npm" && NpmConfigOption(args)
}

// NpmConfigOption reports an option of an npm script command (npm test,
// npm run x; args are the words after npm) before "--" that npm reads as
// configuration (--script-shell, --node-options, --userconfig, --prefix,
// ...): every option but a few harmless ones.
func NpmConfigOption(args []string) bool {
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return false
		}
		if !strings.HasPrefix(a, "-") {
			continue
		}
		key, _, attached := strings.Cut(a, "=")
		switch key {
		case "-w", "--workspace":
			if !attached {
				i++ // its value
			}
		case "--if-present", "-s", "--silent", "-q", "--quiet", "-ws", "--workspaces",
			"--include-workspace-root", "--no-workspaces", "--ignore-scripts", "--dry-run", "--json":
		default:
			return true
		}
	}
	return false
}

// nodeInterpreter is node's command line.
func nodeInterpreter() *Interpreter {
	return &Interpreter{
		withValue: wordSet(words("-r --require --import --loader --experimental-loader --conditions -C --env-file --input-type --stack-size --max-old-space-size")),
		inline:    wordSet(words("-e --eval -p --print")),
		parseOnly: wordSet(words("-c --check")),
	}
}

// npxFetches reports whether npx's args (the words after npx) name a
// package to download and run rather than a program the project
// installed: a versioned spec (create-next-app@latest, @scope/x@1), a
// path, URL or git spec, --package, --yes (install without asking) or
// --call (a shell command line). Such an invocation is not project code:
// the lists decide, and a person is asked.
func npxFetches(args []string) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			if i+1 < len(args) {
				return fetchedSpec(args[i+1])
			}
			return false
		}
		if !strings.HasPrefix(a, "-") {
			return fetchedSpec(a)
		}
		key, _, _ := strings.Cut(a, "=")
		switch key {
		case "-y", "--yes", "-p", "--package", "-c", "--call":
			return true
		}
	}
	return false
}

// fetchedSpec reports whether an npx package spec names something to
// download: a version (x@1, @scope/x@latest), a path or a URL.
func fetchedSpec(spec string) bool {
	if strings.ContainsAny(spec, "/:") && !strings.HasPrefix(spec, "@") {
		return true
	}
	at := strings.LastIndexByte(spec, '@')
	return at > 0 || strings.Count(spec, "/") > 1
}
