package programs

import (
	"slices"
	"strings"
	"sync"

	"github.com/sandboxauth/sandboxauth/internal/pathres"
)

// golang: the go command and Go's formatters. The go command reads its
// build flags with Go's flag package and accepts them after the package
// operands too (GoTool). Flags that run other programs (-exec, -toolexec,
// -vettool, linker and compiler flags), read files outside the project
// (-overlay, -modfile) or change directory (-C) are unsafe. Whether the
// project's own code runs (go test, go generate) is the engine's concern:
// see the project-code rules.
func golang() []*Spec {
	const (
		runs      = "makes the go command run another program"
		elsewhere = "makes the go command read or write files beyond the project"
		network   = "makes the go command query or download modules from the network"
	)
	build := join(
		opts("-a -n -p= -race -msan -asan -cover -covermode= -coverpkg= -v -work -x -buildmode= -buildvcs= -compiler= -installsuffix= -linkshared -modcacherw -tags= -trimpath -json -pgo=R"),
		unsafe(runs, "-toolexec= -exec= -ldflags= -gcflags= -asmflags= -gccgoflags="),
		unsafe(elsewhere, "-overlay= -modfile= -pkgdir= -C="),
		unsafe("lets the go command download and change dependencies (-mod=mod)", "-mod="),
	)
	test := opts("-run= -bench= -benchtime= -benchmem -count= -cpu= -failfast -fullpath -list= -parallel= -short -shuffle= -skip= -timeout= -vet= -fuzz= -fuzztime= -fuzzminimizetime= -memprofilerate= -blockprofilerate= -mutexprofilefraction= -c -coverprofile=W -cpuprofile=W -memprofile=W -blockprofile=W -mutexprofile=W -trace=W -outputdir=W")
	args := []Option{{Names: []string{"-args"}, Ends: true}}
	vet := opts("-all -asmdecl -assign -atomic -bools -buildtag -cgocall -composites -copylocks -defers -directive -errorsas -framepointer -httpresponse -ifaceassert -loopclosure -lostcancel -nilfunc -printf -printf.funcs= -shift -sigchanyzer -slog -stdmethods -stdversion -stringintconv -structtag -testinggoroutine -tests -timeformat -unmarshal -unreachable -unsafeptr -unusedresult -waitgroup -appends -hostport -c= -V")
	g := func(sub, reason string, o ...[]Option) *Spec {
		return &Spec{ReadOnly: true, Command: "go", Prefix: words(sub), Syntax: GoTool, Operands: Text, Options: join(o...), Reason: reason, Check: goPackagesCheck}
	}
	// builds write the build cache and, with -o, a binary.
	writes := func(s *Spec) *Spec { s.ReadOnly = false; return s }
	return []*Spec{
		writes(g("test", "builds and runs the project's tests", build, test, args, unsafe("writes the test binary to a file of its choosing", "-o=W"))),
		writes(g("build", "builds the project", build, opts("-o=W"))),
		g("vet", "vets the project", build, vet, unsafe(runs, "-vettool=")),
		g("list", "lists packages (loading them downloads the modules go.mod requires: project code)", build, opts("-f= -e -export -find -compiled -deps -test"),
			unsafe(network, "-m -u -versions -retracted -reuse=")),
		writes(g("fmt", "formats the project's packages in place (loading them downloads the modules go.mod requires: project code)", opts("-n -x"), unsafe("lets the go command download and change dependencies (-mod=mod)", "-mod="))),
		{ReadOnly: true, Command: "go", Prefix: words("version"), Syntax: GoFlag, Options: opts("-m -v -json"), Reason: "prints the version"},
		{ReadOnly: true, Command: "go", Prefix: words("env"), Syntax: GoFlag, Operands: Text, Options: join(opts("-json -changed"), unsafe("writes the user's go env file", "-w -u")), Reason: "prints the Go environment"},
		{ReadOnly: true, Command: "go", Prefix: words("doc"), Syntax: GoFlag, Operands: Text, Options: join(opts("-all -c -cmd -short -src -u"), unsafe("starts a web server", "-http=")), Reason: "prints documentation (loading packages downloads the modules go.mod requires: project code)"},
		{ReadOnly: true, Command: "go", Prefix: words("help"), Syntax: GoFlag, Operands: Text, Reason: "prints help text"},
		{ReadOnly: true, Command: "go", Prefix: words("mod edit -json"), Syntax: GoFlag, MaxOperands: 1, Reason: "prints go.mod as JSON"},
		{ReadOnly: true, Command: "go", Prefix: words("mod edit -print"), Syntax: GoFlag, MaxOperands: 1, Reason: "prints go.mod"},
		{ReadOnly: true, Command: "go", Prefix: words("tool cover"), Syntax: GoFlag, Reason: "summarises a coverage profile; no browser, no output file",
			Options: join(opts("-func=R -mode= -var="), unsafe("opens a browser", "-html="), unsafe("writes a file", "-o=W"))},
		{ReadOnly: true, Command: "gofmt", Syntax: GoFlag, Reason: "formats Go code to standard output or lists differences",
			Options: join(opts("-l -d -e -s -r= -cpuprofile=W"), unsafe("rewrites files in place", "-w"))},
		{ReadOnly: true, Command: "goimports", Syntax: GoFlag, Reason: "lists import fixes",
			Options: join(opts("-l -d -e -local= -srcdir= -format-only -v"), unsafe("rewrites files in place", "-w"))},
	}
}

// goPackagesCheck refuses package patterns that name a directory by an
// absolute path or climb with "..": go builds (and go test runs) the code
// there, which is not the project's. Import paths (fmt, example.com/x) and
// patterns beneath the working directory (./..., ./cmd/x) pass.
func goPackagesCheck(p *Parsed) *Problem {
	for _, o := range p.Operands {
		if strings.HasPrefix(o, "/") || pathres.HasDotDot(o) {
			return &Problem{Rule: "go package outside the working directory: " + o, Reason: "go builds and runs the code of a package the pattern names outside the project's tree; a person decides"}
		}
	}
	return nil
}

// goProjectCode: go test, run, generate, build and vet compile the
// project, whose cgo directives, generate lines and toolchain line run
// programs. go list and go doc load the project's packages: that
// downloads every module go.mod requires and the cache lacks, from hosts
// a module path in go.mod names (a channel out for anything the model
// read), and go list -export or -compiled runs cgo (pkg-config and the C
// compiler on the project's directives). go tool cover -func runs go list
// on the packages its profile names. go fmt loads the packages the same
// way and rewrites their files; go mod tidy downloads what the imports
// need and rewrites go.mod and go.sum. Confined, none of them reaches the
// network.
func goProjectCode() []ProjectCodeEntry {
	return []ProjectCodeEntry{{Command: "go", Subcommands: []string{"test", "run", "generate", "build", "vet", "list", "doc", "tool", "fmt", "mod tidy"}}}
}

// RunsGitStatus says why a command runs git status in its working
// directory's repository, or "" when it does not (args are the words after
// name): go build and go install stamp the binary with version control
// facts by running git status and git log there (-buildvcs defaults to
// auto), unless -buildvcs=false.
func RunsGitStatus(name string, args []string) string {
	if name != "go" || len(args) == 0 || args[0] != "build" && args[0] != "install" ||
		slices.Contains(args, "-buildvcs=false") || slices.Contains(args, "--buildvcs=false") {
		return ""
	}
	return "go " + args[0] + " runs git status to stamp version control facts"
}

// goProjectFiles: every go command reads the go and toolchain lines of
// go.mod and go.work, and runs another toolchain (from PATH, or
// downloaded) when they ask for a newer Go than its own: go version and go
// env as much as go build. The forms that run project code anyway (go
// test, go build, ...) are asked about, or confined, for that already:
// the toolchain a confined command would fetch cannot be reached, and one
// on PATH in the sandbox is project code too.
func goProjectFiles(command string, args []string) ProjectFiles {
	if command != "go" {
		return 0
	}
	for _, e := range goProjectCode() {
		if len(args) > 0 && slices.Contains(e.Subcommands, args[0]) {
			return 0
		}
	}
	return GoToolchain
}

// goToolNames are the Go tools that read options with Go's flag package:
// -name and --name alike, no bundling. It is built on first use.
var goToolNames = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"go": true, "gofmt": true, "goimports": true, "godoc": true, "gopls": true}
})

// goDangerous is go's part of the default dangerous list: commands that
// download, install, run arbitrary tools or write outside the sandbox.
func goDangerous() []ListEntry {
	return matcherList1(
		flagMatcher("go", nil, []string{"-exec", "-toolexec", "-vettool"}, "runs an arbitrary program during the build"),
		flagMatcher("go", []string{"install"}, nil, "installs binaries outside the sandbox"),
		flagMatcher("go", []string{"get"}, nil, "downloads and changes dependencies"),
		flagMatcher("go", []string{"run"}, nil, "builds and runs a program, possibly fetched from the network"),
		flagMatcher("go", []string{"generate"}, nil, "runs the commands named in //go:generate lines"),
		flagMatcher("go", []string{"mod", "download"}, nil, "downloads modules into the cache outside the sandbox"),
		flagMatcher("go", []string{"mod", "tidy"}, nil, "downloads modules and rewrites go.mod"),
		flagMatcher("go", []string{"mod", "graph"}, nil, "downloads the go.mod of every module go.mod requires, from hosts go.mod names"),
		flagMatcher("go", []string{"mod", "verify"}, nil, "downloads every module go.mod requires that the cache lacks, from hosts go.mod names"),
		flagMatcher("go", []string{"clean"}, nil, "deletes caches outside the sandbox"),
		flagMatcher("go", []string{"env"}, []string{"-w", "-u"}, "writes the user's go env file"),
		flagMatcher("go", []string{"tool"}, nil, "runs an arbitrary tool"),
		flagMatcher("go", []string{"work", "sync"}, nil, "downloads modules"),
	)
}
