package sandboxauth

import (
	"os"
	"strings"

	"github.com/sandboxauth/sandboxauth/internal/programs"
)

// Project code.
//
// A command whose behaviour is defined by files in the project (tests,
// build scripts, package scripts, makefiles, ./script.sh, configuration
// files that are code) runs whatever the model wrote there, and no
// classifier can see what that is. Such a command is labelled: its class
// becomes dangerous with Classification.ProjectCode set, so that without
// confinement a person is asked (and may grant it for the session), and
// with WithConfinement the Sandbox and Permissive policies allow it.
//
// The label is applied only where the command's lists decided alone: a
// project-code command that is dangerous for another reason too (a path
// outside the sandbox, an environment variable, an option that is not
// allow-listed) keeps that reason, and a blocked one stays blocked. A
// command the caller's own safe matcher (AddSafe, a session grant) declares
// safe stays safe: the user vouched for it. Matchers given to
// WithProjectCode label their commands whatever the lists say.

// projectRule is the rule prefix of a project-code verdict.
const projectRule = "rule: project code: "

// projectCodeReason is the reason given for every project-code verdict.
const projectCodeReason = "runs code defined by files in the project (tests, build or package scripts, configuration that is code), which the classifier cannot see"

// projectSubcommands lists, per program, the subcommands that run project
// code; a nil set means every invocation does.
var projectSubcommands = map[string]map[string]bool{
	"go":       set("test", "run", "generate", "build", "vet"),
	"cargo":    set("build", "b", "check", "c", "clippy", "test", "t", "run", "r", "bench", "doc", "d"),
	"npm":      set("test", "t", "tst", "run", "run-script", "rum", "urn", "start", "stop", "restart", "exec", "x"),
	"deno":     set("task", "test", "run", "bench"),
	"dotnet":   set("test", "build", "run"),
	"swift":    set("test", "build", "run"),
	"uv":       set("run"),
	"poetry":   set("run"),
	"pipenv":   set("run"),
	"npx":      nil,
	"pytest":   nil,
	"py.test":  nil,
	"make":     nil,
	"gmake":    nil,
	"just":     nil,
	"task":     nil,
	"mvn":      nil,
	"mvnw":     nil,
	"gradle":   nil,
	"gradlew":  nil,
	"tox":      nil,
	"nox":      nil,
	"jest":     nil,
	"vitest":   nil,
	"mocha":    nil,
	"eslint":   nil,
	"prettier": nil,
	"mypy":     nil,
	"tsx":      nil,
	"ts-node":  nil,
}

// packageManagement lists, for the JavaScript package managers whose other
// words name package scripts (yarn test, pnpm lint, bun dev), the
// subcommands that manage packages instead; those are not labelled and
// keep their class.
var packageManagement = map[string]map[string]bool{
	"yarn": set("add", "install", "remove", "upgrade", "upgrade-interactive", "up", "publish", "login", "logout",
		"config", "cache", "global", "init", "link", "unlink", "pack", "set", "plugin", "policies", "info",
		"why", "list", "outdated", "audit", "version", "versions", "help", "owner", "tag", "team", "import",
		"licenses", "generate-lock-entry", "autoclean", "check", "npm", "constraints", "workspaces"),
	"pnpm": set("add", "install", "i", "remove", "rm", "uninstall", "un", "update", "up", "upgrade", "publish",
		"login", "logout", "config", "c", "store", "link", "ln", "unlink", "init", "import", "fetch", "prune",
		"audit", "outdated", "list", "ls", "ll", "why", "setup", "env", "self-update", "server", "patch",
		"patch-commit", "deploy", "pack", "help", "root", "bin", "licenses", "rebuild", "rb", "install-test", "it"),
	"bun": set("add", "a", "install", "i", "remove", "rm", "update", "upgrade", "publish", "link", "unlink",
		"pm", "init", "create", "c", "outdated", "patch", "patch-commit", "help", "audit", "info", "why"),
}

// versionOrHelp are the lone arguments that make a program print its
// version or usage without reading the project.
var versionOrHelp = set("--version", "--help")

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// projectCode labels v as project code when the lists decided it alone
// (v is still listed, the lists' own verdict) and the command runs project
// code. Blocked and inscrutable commands are never labelled, nor is a
// command that a safe matcher of the caller's own (one no program spec
// backs: AddSafe, a session grant) declared safe: the user has vouched for
// it.
func (r *cmdClassifier) projectCode(name string, args []string, cwd string, v, listed cmdVerdict, noSpec bool) cmdVerdict {
	if v.res != listed.res || v.rule != listed.rule || v.res == CommandCheckResultBlocked || v.res == CommandCheckResultInscrutable {
		return v
	}
	what := r.userProjectRule(name, args)
	if what == "" {
		if v.res == CommandCheckResultSafe && noSpec {
			return v
		}
		what = r.projectCodeRule(name, args, cwd)
	}
	if what == "" {
		return v
	}
	if v.res != CommandCheckResultSafe && (r.guardedOut(name, args) || r.dangerousFlag(name, args) || specRejects(name, args) || npmConfigFlag(name, args)) {
		// go test -exec x, pytest -p x: a safe entry for this very
		// command excludes one of its options. Confinement does not make
		// the excluded option harmless, so a person decides.
		return mkVerdict(CommandCheckResultDangerous, "rule: project code with an excluded option: "+what,
			"runs project code with an option that its safe entry excludes (it may run other programs or read outside the sandbox); a person decides")
	}
	return projectVerdict(what)
}

// specRejects reports whether the program spec of this command form (npm
// test, go test, ...) exists and does not accept its options: options are
// allow-listed for project code too (npm test --script-shell x).
func specRejects(name string, args []string) bool {
	for n := min(2, len(args)-1); n >= 0; n-- {
		if sp := programs.Lookup(name, args[1:1+n]); sp != nil {
			return !specUnderstood(sp, args)
		}
	}
	return false
}

// npmHarmless are the options of npm's script commands that change no
// configuration; npm reads every other option as a configuration setting
// (--script-shell, --node-options, --userconfig, --prefix, ...).
var npmHarmless = set("--if-present", "-s", "--silent", "-q", "--quiet", "-w", "--workspace", "-ws", "--workspaces",
	"--include-workspace-root", "--no-workspaces", "--ignore-scripts")

// npmConfigFlag reports an npm script command (npm test, npm run x) given
// an option before "--" that npm would read as configuration.
func npmConfigFlag(name string, args []string) bool {
	if name != "npm" {
		return false
	}
	for i := 2; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return false
		}
		if strings.HasPrefix(a, "-") {
			key, _, _ := strings.Cut(a, "=")
			if !npmHarmless[key] {
				return true
			}
			if (key == "-w" || key == "--workspace") && !strings.Contains(a, "=") {
				i++ // its value
			}
		}
	}
	return false
}

// dangerousFlag reports whether a dangerous matcher with flags matched
// (npm test --script-shell x): the command is dangerous for an option, not
// for running project code. Interpreters are the exception: their inline
// code flags (python -c, node -e) are read by interpreterFile.
func (r *cmdClassifier) dangerousFlag(name string, args []string) bool {
	switch versionless(name) {
	case "python", "pypy", "node", "nodejs":
		return false
	}
	cm := r.s.dangerous.lookup(name, args[1:])
	return cm != nil && len(cm.m.Flags) > 0
}

// guardedOut reports whether a safe entry for this command (same name and
// argument prefix) exists: the command then matched none only because of
// the entry's excluded flags.
func (r *cmdClassifier) guardedOut(name string, args []string) bool {
	for _, n := range []string{name, versionless(name)} {
		for i := range r.s.safe.byName[n] {
			if hasPrefix(args[1:], r.s.safe.byName[n][i].m.CommandArgsPrefix) {
				return true
			}
		}
	}
	return false
}

func projectVerdict(what string) cmdVerdict {
	return cmdVerdict{res: CommandCheckResultDangerous, rule: projectRule + what, reason: projectCodeReason, project: true}
}

// scriptFile is the verdict of a shell running a script file (sh build.sh):
// project code when the file is inside the sandbox, else what it was.
func (r *cmdClassifier) scriptFile(shellName, file, cwd string, v cmdVerdict) cmdVerdict {
	if r.sandbox == "" || file == "" || r.pathArg(file, cwd, false).res != CommandCheckResultSafe {
		return v
	}
	return projectVerdict(shellName + " " + file)
}

// userProjectRule returns the caller's project-code matcher (WithProjectCode)
// that matches args, rendered, or "".
func (r *cmdClassifier) userProjectRule(name string, args []string) string {
	for i := range r.projectMatchers {
		m := &r.projectMatchers[i]
		want := normalizeCommandName(m.Command)
		if (want == name || want == versionless(name)) && matchArgs(m, flagStyleOf(want), args[1:]) {
			return m.String()
		}
	}
	return ""
}

// projectCodeRule returns what runs project code in args (argv with
// argv[0] as written; name is its normalised base name), e.g. "go test",
// or "" when it does not.
func (r *cmdClassifier) projectCodeRule(name string, args []string, cwd string) string {
	if arg0 := args[0]; strings.IndexByte(arg0, '/') >= 0 && r.sandbox != "" {
		if r.pathArg(arg0, cwd, false).res == CommandCheckResultSafe {
			return "program in the project " + arg0
		}
	}
	first := ""
	if len(args) > 1 {
		first = args[1]
	}
	if len(args) == 2 && versionOrHelp[first] {
		return "" // make --version, just --help: nothing of the project runs
	}
	if subs, ok := projectSubcommands[name]; ok {
		if subs == nil {
			return name
		}
		if subs[first] {
			return name + " " + first
		}
		return ""
	}
	if mgmt, ok := packageManagement[name]; ok {
		if first == "" || strings.HasPrefix(first, "-") || mgmt[first] {
			return ""
		}
		return name + " " + first
	}
	switch versionless(name) {
	case "python", "pypy":
		return r.interpreterFile(name, args, cwd, pythonOptions)
	case "node", "nodejs":
		return r.interpreterFile(name, args, cwd, nodeOptions)
	}
	return ""
}

// interpreterOptions describes an interpreter's command line: options
// that take a value (as a separate argument), options that run inline code
// (never labelled: the code is on the command line, and the lists judge
// it), and for python -m, the option that names a module to run.
type interpreterOptions struct {
	withValue map[string]bool
	inline    map[string]bool
	module    string
}

var (
	pythonOptions = interpreterOptions{withValue: set("-W", "-X", "--check-hash-based-pycs"), inline: set("-c"), module: "-m"}
	nodeOptions   = interpreterOptions{
		withValue: set("-r", "--require", "--import", "--loader", "--experimental-loader", "--conditions", "-C", "--env-file", "--input-type", "--stack-size", "--max-old-space-size"),
		inline:    set("-e", "--eval", "-p", "--print"),
	}
)

// interpreterFile labels an interpreter run on a file inside the sandbox
// (python manage.py test, node scripts/build.js), or on a module (python
// -m unittest).
func (r *cmdClassifier) interpreterFile(name string, args []string, cwd string, o interpreterOptions) string {
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if i+1 < len(args) {
				return r.insideFile(name, args[i+1], cwd)
			}
			return ""
		case strings.HasPrefix(a, "--"):
			key, _, attached := strings.Cut(a, "=")
			if o.inline[key] {
				return ""
			}
			if o.withValue[key] && !attached {
				i++
			}
		case strings.HasPrefix(a, "-") && a != "-":
			// A bundle of short options (-uB, -um, -Werror).
			for k := 1; k < len(a); k++ {
				opt := "-" + a[k:k+1]
				if o.inline[opt] {
					return ""
				}
				if opt == o.module {
					return name + " " + o.module
				}
				if o.withValue[opt] {
					if k == len(a)-1 {
						i++
					}
					break
				}
			}
		default:
			return r.insideFile(name, a, cwd)
		}
	}
	return ""
}

// insideFile labels "name file" when file is an existing regular file
// inside the sandbox.
func (r *cmdClassifier) insideFile(name, file, cwd string) string {
	if r.sandbox == "" || file == "-" || r.pathArg(file, cwd, false).res != CommandCheckResultSafe {
		return ""
	}
	if fi, err := os.Stat(atCwd(cwd, file)); err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	return name + " " + file
}

// projectScript keeps the project-code label of a compound script only
// when every segment is safe or project code itself: `foo && go test` is
// not allowed on the strength of confinement while `foo` alone is asked
// about.
func projectScript(overall cmdVerdict, segs []cmdVerdict) cmdVerdict {
	if !overall.project {
		return overall
	}
	for _, s := range segs {
		if s.res != CommandCheckResultSafe && !s.project {
			return mkVerdict(CommandCheckResultDangerous, "rule: project code with another command: "+strings.Join(s.argv, " "),
				"the script runs project code and "+strings.Join(s.argv, " ")+", which is "+s.res.String()+" ("+s.rule+"); a person decides")
		}
	}
	return overall
}
