package programs

import (
	"strings"
	"sync"
)

// Environment variables: an assignment in front of a command
// (`NAME=value cmd`, `env NAME=value cmd`) can change which program runs,
// what code a program loads, where it reads its configuration or where it
// downloads from. EnvEffect judges one assignment by its name:
//
//   - harmless names (locale, colours, CI markers, GOOS/GOARCH/CGO_ENABLED,
//     RUST_BACKTRACE, ...) with a plain value have no effect;
//   - names that steer programs (LD_*, DYLD_*, PATH, HOME, GIT_*, PAGER,
//     EDITOR, BASH_ENV, GOFLAGS, GOPROXY, NODE_OPTIONS, PYTHON*, PERL5*,
//     RUBYOPT, ...) are dangerous;
//   - every other name is unknown: the engine cannot know what a program
//     does with it.

// Env is what an environment assignment does to a command.
type Env uint8

const (
	// EnvHarmless: no effect on what the command runs or reads.
	EnvHarmless Env = iota
	// EnvUnknown: a name (or a value) this file does not know.
	EnvUnknown
	// EnvDangerous: it changes what the command runs, loads or reaches.
	EnvDangerous
)

// harmlessEnv returns the variables that change nothing a command does
// to files, programs or the network (locale, terminal, verbosity, test
// switches). It is built on first use.
var harmlessEnv = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"LANG": true, "LANGUAGE": true, "TZ": true, "TERM": true, "COLUMNS": true, "LINES": true,
		"NO_COLOR": true, "FORCE_COLOR": true, "CLICOLOR": true, "CLICOLOR_FORCE": true, "COLORTERM": true,
		"CI": true, "CGO_ENABLED": true, "GOOS": true, "GOARCH": true, "GOARM": true, "GOAMD64": true,
		"GO386": true, "GOWASM": true, "GOMAXPROCS": true, "GOTRACEBACK": true, "GOGC": true,
		"GOMEMLIMIT": true, "GODEBUG": true, "GOEXPERIMENT": true, "RUST_BACKTRACE": true, "RUST_LOG": true,
		"RUST_MIN_STACK": true, "CARGO_TERM_COLOR": true, "CARGO_INCREMENTAL": true, "NODE_ENV": true,
		"DEBUG": true, "VERBOSE": true, "PYTHONUNBUFFERED": true, "PYTHONDONTWRITEBYTECODE": true,
		"PYTHONHASHSEED": true, "PYTHONIOENCODING": true, "TESTING": true, "RACE": true,
	}
})

// dangerousEnv returns the variables that change what a command runs,
// loads or reaches, each with why. It is built on first use.
var dangerousEnv = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"PATH": "changes which program a name runs", "HOME": "changes where configuration is read from",
		"BASH_ENV": "makes bash run a file first", "ENV": "makes sh run a file first",
		"SHELL": "names the shell programs run", "SHELLOPTS": "changes shell behaviour",
		"BASHOPTS": "changes shell behaviour", "PS4": "runs code when tracing", "PROMPT_COMMAND": "runs code",
		"IFS": "changes word splitting", "CDPATH": "changes where cd goes", "ZDOTDIR": "makes zsh run other files",
		"PAGER": "names a program to run", "EDITOR": "names a program to run", "VISUAL": "names a program to run",
		"BROWSER": "names a program to run", "LESSOPEN": "names a program to run", "LESSCLOSE": "names a program to run",
		"GOFLAGS": "injects go command flags such as -toolexec", "GOPROXY": "changes where modules are downloaded from",
		"GONOSUMDB": "disables checksum verification", "GONOSUMCHECK": "disables checksum verification",
		"GOSUMDB": "changes checksum verification", "GOINSECURE": "allows insecure downloads",
		"GOPRIVATE": "disables checksum verification", "GONOPROXY": "changes where modules are downloaded from",
		"GOTOOLCHAIN": "downloads and runs another toolchain", "GOPATH": "changes where go writes",
		"GOBIN": "changes where go installs", "GOROOT": "changes which toolchain runs", "GOENV": "changes go configuration",
		"GOCACHE": "changes where go writes", "GOMODCACHE": "changes where go writes", "GOWORK": "changes the workspace",
		"GOAUTH": "runs credential helpers", "GOTMPDIR": "changes where go writes",
		"CC": "names the C compiler to run", "CXX": "names the C++ compiler to run", "CPP": "names a program",
		"LD": "names the linker", "AR": "names a program", "FC": "names a program",
		"NODE_OPTIONS": "preloads code into node", "NODE_PATH": "changes which modules node loads",
		"RUBYOPT": "preloads code into ruby", "RUBYLIB": "changes which code ruby loads",
		"PERLLIB": "changes which code perl loads", "JAVA_TOOL_OPTIONS": "injects JVM options",
		"_JAVA_OPTIONS": "injects JVM options", "JDK_JAVA_OPTIONS": "injects JVM options",
		"CLASSPATH": "changes which code java loads", "MAVEN_OPTS": "injects JVM options", "GRADLE_OPTS": "injects JVM options",
		"RUSTFLAGS": "injects compiler flags", "RUSTDOCFLAGS": "injects compiler flags", "RUSTC": "names the compiler",
		"RUSTC_WRAPPER": "wraps the compiler with a program", "RUSTC_WORKSPACE_WRAPPER": "wraps the compiler with a program",
		"RIPGREP_CONFIG_PATH": "loads ripgrep options such as --pre", "GREP_OPTIONS": "injects grep options",
		"TAR_OPTIONS": "injects tar options", "POSIXLY_CORRECT": "makes GNU programs stop reading options at the first operand, so the words after it are files", "MAKEFLAGS": "injects make options", "GCONV_PATH": "loads shared objects",
		"LOCPATH": "loads locale data from another place", "NLSPATH": "loads message catalogs", "HOSTALIASES": "changes name resolution",
		"RES_OPTIONS": "changes name resolution", "LOCALDOMAIN": "changes name resolution", "KUBECONFIG": "points at a cluster",
		"TMPDIR": "changes where temporary files go", "HTTP_PROXY": "routes network traffic", "HTTPS_PROXY": "routes network traffic",
		"ALL_PROXY": "routes network traffic", "http_proxy": "routes network traffic", "https_proxy": "routes network traffic",
		"all_proxy": "routes network traffic", "SSL_CERT_FILE": "changes trusted certificates", "SSL_CERT_DIR": "changes trusted certificates",
		"MANPAGER": "names a program to run", "SYSTEMD_PAGER": "names a program to run", "FCEDIT": "names a program to run",
		"SUDO_ASKPASS": "names a program to run", "SSH_ASKPASS": "names a program to run", "DISPLAY": "reaches a display server",
		"PROFILEREAD": "changes shell start-up", "INPUTRC": "changes shell start-up", "HISTFILE": "writes shell history",
	}
})

// dangerousEnvPrefixes are families of names that change what a program
// runs or loads.
var dangerousEnvPrefixes = []struct{ prefix, why string }{
	{"LD_", "changes how programs are linked and loaded"},
	{"DYLD_", "changes how programs are linked and loaded"},
	{"GIT_", "changes what git runs, reads or writes"},
	{"BASH_FUNC_", "defines shell functions"},
	{"PYTHON", "changes what python loads"},
	{"PERL5", "changes what perl loads"},
	{"PERL_", "changes what perl loads"},
	{"NPM_CONFIG_", "changes npm configuration"},
	{"npm_config_", "changes npm configuration"},
	{"YARN_", "changes yarn configuration"},
	{"PIP_", "changes pip configuration"},
	{"UV_", "changes uv configuration"},
	{"GEM_", "changes what ruby loads"},
	{"BUNDLE_", "changes bundler configuration"},
	{"CARGO_", "changes cargo configuration"},
	{"CGO_", "injects C compiler flags"},
	{"PKG_CONFIG", "changes where build flags come from"},
	{"XDG_", "changes where configuration is read from"},
	{"SSH_", "changes ssh behaviour"},
	{"GNUPG", "changes gpg behaviour"},
	{"AWS_", "cloud credentials"},
	{"DOCKER_", "changes docker behaviour"},
	{"MALLOC_", "changes the allocator"},
	{"GLIBC_", "changes libc behaviour"},
	{"CURL_", "changes curl behaviour"},
}

// EnvEffect judges the assignment name=value, and says why when it is not
// harmless.
func EnvEffect(name, value string) (Env, string) {
	if harmlessEnv()[name] || strings.HasPrefix(name, "LC_") {
		if plainEnvValue(value) {
			return EnvHarmless, ""
		}
		return EnvUnknown, name + " has an unusual value"
	}
	if why, ok := dangerousEnv()[name]; ok {
		return EnvDangerous, name + " " + why
	}
	for _, p := range dangerousEnvPrefixes {
		if strings.HasPrefix(name, p.prefix) {
			return EnvDangerous, name + " " + p.why
		}
	}
	if strings.HasSuffix(name, "PAGER") || strings.HasSuffix(name, "EDITOR") || strings.HasSuffix(name, "_OPTIONS") ||
		strings.HasSuffix(name, "_OPTS") || strings.HasSuffix(name, "FLAGS") || strings.HasSuffix(name, "PATH") {
		return EnvDangerous, name + " changes what a program runs or loads"
	}
	return EnvUnknown, name + " is an environment variable the classifier does not know"
}

func plainEnvValue(v string) bool {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !(c == '_' || c == '-' || c == '.' || c == ',' || c == ':' || c == '@' || c == '+' || c == '=' ||
			'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}
