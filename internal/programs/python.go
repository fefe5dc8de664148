package programs

// python: the interpreter's version, pytest and unittest (argparse: long
// options abbreviate, -c=FILE is -c FILE), pip's read-only queries
// (optparse, read as GNU) and ruff (clap). Running the project's tests is project code for the
// engine; the specs say which options pytest may be given (plugins loaded
// with -p run arbitrary code). pip's queries that reach the index
// (--outdated, --uptodate) are unsafe.
func python() []*Spec {
	var out []*Spec
	for _, py := range []string{"python", "python3"} {
		out = append(out,
			&Spec{ReadOnly: true, Command: py, Prefix: words("--version"), Syntax: Exact, MaxOperands: NoOperands, Reason: "prints the version"},
			&Spec{ReadOnly: true, Command: py, Prefix: words("-V"), Syntax: Exact, MaxOperands: NoOperands, Reason: "prints the version"},
			&Spec{Command: py, Prefix: words("-m pytest"), Syntax: Argparse, Options: pytestOptions(), Check: responseFiles, Reason: "runs the project's tests"},
			&Spec{Command: py, Prefix: words("-m unittest"), Syntax: Argparse, Operands: Text, Options: opts("-v,--verbose -q,--quiet --locals --durations= -f,--failfast -c,--catch -b,--buffer -k= -h,--help"), Reason: "runs the project's tests"},
			&Spec{Command: py, Prefix: words("-m unittest discover"), Syntax: Argparse, MaxOperands: 3, Reason: "finds and runs the project's tests",
				Options: opts("-v,--verbose -q,--quiet --locals --durations= -f,--failfast -c,--catch -b,--buffer -k= -p,--pattern= -s,--start-directory=R -t,--top-level-directory=R -h,--help")},
		)
	}
	pipList := func(sub, reason string, list string) []*Spec {
		var s []*Spec
		for _, pip := range []string{"pip", "pip3"} {
			s = append(s, &Spec{ReadOnly: true, Command: pip, Prefix: words(sub), Syntax: GNU, Operands: Text, Reason: reason,
				Options: join(opts(list+" -v,--verbose -q,--quiet --no-color --disable-pip-version-check --no-python-version-warning -h,--help"),
					unsafe("queries the package index over the network", "-o,--outdated -u,--uptodate --index-url= -i --extra-index-url= --find-links="),
					unsafe("reads configuration or packages from elsewhere", "--isolated --python= --path= --cert= --client-cert= --proxy= --trusted-host= --log="))})
		}
		return s
	}
	out = append(out, pipList("list", "lists installed packages", "--format= -l,--local --user -e,--editable --exclude-editable --include-editable --not-required --exclude= --pre")...)
	out = append(out, pipList("show", "shows installed packages", "--files")...)
	out = append(out, pipList("freeze", "lists installed packages", "--all -l,--local --user --exclude-editable --exclude=")...)
	out = append(out, pipList("check", "checks installed packages", "")...)
	for _, pip := range []string{"pip", "pip3"} {
		out = append(out, &Spec{ReadOnly: true, Command: pip, Prefix: words("--version"), Syntax: Exact, MaxOperands: NoOperands, Reason: "prints the version"})
	}
	ruff := join(opts("--select= --extend-select= --ignore= --extend-ignore= --per-file-ignores= --exclude= --extend-exclude= --respect-gitignore --no-respect-gitignore --force-exclude --no-force-exclude --line-length= --target-version= --preview --no-preview --output-format= --statistics --show-files --show-settings --show-fixes --no-show-fixes --diff --exit-zero --exit-non-zero-on-fix -e -q,--quiet -s,--silent -v,--verbose --no-cache -n --isolated --stdin-filename= --fixable= --unfixable= --extend-fixable= -h,--help"),
		opts("--config=R --cache-dir=W"),
		// Fixes rewrite the project's files; ruff is project code either way.
		opts("--fix --no-fix --unsafe-fixes --no-unsafe-fixes --fix-only --no-fix-only --add-noqa"),
		unsafe("never ends", "-w,--watch"))
	return append(out,
		&Spec{Command: "pytest", Syntax: Argparse, Options: pytestOptions(), Check: responseFiles, Reason: "runs the project's tests"},
		&Spec{Command: "ruff", Prefix: words("check"), Syntax: Clap, Options: ruff, Reason: "lints Python code"},
		&Spec{Command: "ruff", Prefix: words("format"), Syntax: Clap, Options: join(ruff, opts("--check --range=")), Reason: "checks or rewrites formatting (project code)"},
		&Spec{ReadOnly: true, Command: "ruff", Prefix: words("--version"), Syntax: Exact, MaxOperands: NoOperands, Reason: "prints the version"},
		&Spec{ReadOnly: true, Command: "uv", Prefix: words("--version"), Syntax: Exact, MaxOperands: NoOperands, Reason: "prints the version"},
		&Spec{ReadOnly: true, Command: "uv", Prefix: words("version"), Syntax: Exact, MaxOperands: NoOperands, Options: opts("--short --output-format="), Reason: "prints the version"},
	)
}

// pytestOptions are pytest's own options. Plugins add more: an option of
// a plugin is unknown here, and the command is asked about.
func pytestOptions() []Option {
	return join(
		opts("-k= -m= -x,--exitfirst --maxfail= -q,--quiet -v,--verbose -s -r= -l,--showlocals --tb= --full-trace --color= --code-highlight= --durations= --durations-min= --lf,--last-failed --ff,--failed-first --nf,--new-first --sw,--stepwise --sw-skip,--stepwise-skip --co,--collect-only --collect-in-virtualenv --strict-markers --strict-config --strict --runxfail --no-header --no-summary --disable-warnings,--disable-pytest-warnings -W,--pythonwarnings= --import-mode= --capture= --setup-only --setup-show --setup-plan --fixtures,--funcargs --fixtures-per-test --markers --doctest-modules --doctest-glob= --doctest-continue-on-collection-errors --ignore= --ignore-glob= --deselect= --continue-on-collection-errors --cache-show[=] --cache-clear --rootdir= --confcutdir= --noconftest --keep-duplicates --assert= -h,--help --version -V --debug[=] --log-level= --log-cli-level= --log-format= --log-date-format= --show-capture= -o,--override-ini= --timeout= -n= --dist="),
		opts("-c=R --basetemp=W --junit-xml,--junitxml=W --log-file=W --result-log=W"),
		unsafe("loads a plugin, which runs arbitrary code", "-p= --pyargs --trace --pdb --pdbcls="),
	)
}

// pythonProjectFiles: pip (also as python -m pip) reads pip.conf, which can
// change the package index; uv reads uv.toml and pyproject.toml's
// [tool.uv].
func pythonProjectFiles(command string, args []string) ProjectFiles {
	switch command {
	case "pip", "pip3":
		return PipConfig
	case "python", "python3":
		if len(args) >= 2 && args[0] == "-m" && args[1] == "pip" {
			return PipConfig
		}
	case "uv", "uvx":
		return UvConfig
	}
	return 0
}

// pythonProjectCode: the runners of the project's environment and tests,
// and mypy (whose plugins the project's configuration names).
func pythonProjectCode() []ProjectCodeEntry {
	return []ProjectCodeEntry{
		// uv tree resolves the project's dependencies, fetching what the
		// lock file lacks from the indexes pyproject.toml names.
		{Command: "uv", Subcommands: words("run tree")},
		{Command: "poetry", Subcommands: words("run")},
		{Command: "pipenv", Subcommands: words("run")},
		{Command: "pytest"}, {Command: "py.test"}, {Command: "tox"}, {Command: "nox"}, {Command: "mypy"},
		// alembic runs the project's env.py and migration scripts; flake8
		// loads the project's local plugins, pylint its plugins and its
		// rcfile's init-hook.
		{Command: "alembic"}, {Command: "flake8"}, {Command: "pylint"},
		// ruff's settings (ruff.toml, .ruff.toml, pyproject.toml) may
		// name a cache directory anywhere, where ruff writes, and extend
		// a settings file anywhere.
		{Command: "ruff", Subcommands: words("check format")},
	}
}

// pythonInterpreter is python's command line.
func pythonInterpreter() *Interpreter {
	return &Interpreter{withValue: wordSet(words("-W -X --check-hash-based-pycs")), inline: wordSet(words("-c")), module: "-m"}
}
