package programs

import "sync"

// probes: version and toolchain probes of programs whose other forms are
// blocked, dangerous or on no list (gh, R, quarto, swift, dotnet, rustup,
// the C compilers and build tools). Each form prints what is installed and
// takes no other word; a toolchain manager that a project file steers is
// judged with that file first (rust-toolchain for rustup, .swift-version
// for swift, global.json for dotnet: probeProjectFiles). Probes that would
// load the project or download a toolchain to answer (sbt --version,
// bazelisk --version, flutter --version, a Gradle wrapper's --version) are
// not here.
func probes() []*Spec {
	// v is a form that takes no operand and, besides list, no option.
	v := func(cmd, prefix, reason, list string) *Spec {
		return &Spec{ReadOnly: true, Command: cmd, Prefix: words(prefix), Syntax: Exact, MaxOperands: NoOperands, Options: opts(list), Reason: reason}
	}
	const version = "prints the version"
	return []*Spec{
		v("gh", "--version", version, ""),
		v("gh", "version", version, ""),
		// R's names are matched without case: R and Rscript.
		v("r", "--version", version, ""),
		v("rscript", "--version", version, ""),
		v("quarto", "--version", version, ""),
		v("swift", "--version", version, ""),
		v("swiftc", "--version", version, ""),
		// --list-sdks and --list-runtimes are answered by the host; --version
		// and --info run the SDK that global.json selects.
		v("dotnet", "--list-sdks", "lists the installed .NET SDKs", ""),
		v("dotnet", "--list-runtimes", "lists the installed .NET runtimes", ""),
		v("dotnet", "--version", "prints the .NET SDK's version", ""),
		v("dotnet", "--info", "prints the .NET installation's details", ""),
		{ReadOnly: true, Command: "sw_vers", Syntax: GoFlag, MaxOperands: NoOperands, Reason: "prints the macOS version",
			Options: opts("-productName -productVersion -productVersionExtra -buildVersion")},
		// rustup show prints the active toolchain, after the project's
		// rust-toolchain file is judged (rustProjectFiles).
		v("rustup", "show", "prints the installed and active toolchains", "-v,--verbose -h,--help"),
		v("rustup", "show active-toolchain", "prints the active toolchain", "-v,--verbose -h,--help"),
		v("rustup", "show home", "prints rustup's home directory", "-h,--help"),
		v("rustup", "show profile", "prints the installation profile", "-h,--help"),
		v("rustup", "--version", version, ""),
		v("rustup", "-V", version, ""),
		v("rustup", "toolchain list", "lists the installed toolchains", "-v,--verbose -q,--quiet -h,--help"),
		v("cmake", "--version", version, ""),
		v("ctest", "--version", version, ""),
		v("ninja", "--version", version, ""),
		v("meson", "--version", version, ""),
		v("gcc", "--version", version, ""),
		v("g++", "--version", version, ""),
		v("cc", "--version", version, ""),
		v("c++", "--version", version, ""),
		v("clang", "--version", version, ""),
		v("clang++", "--version", version, ""),
		{ReadOnly: true, Command: "xcodebuild", Prefix: words("-version"), Syntax: Find, MaxOperands: NoOperands, Reason: version},
		{ReadOnly: true, Command: "xcode-select", Prefix: words("-p"), Syntax: Exact, MaxOperands: NoOperands, Reason: "prints the active developer directory"},
		{ReadOnly: true, Command: "xcode-select", Prefix: words("--print-path"), Syntax: Exact, MaxOperands: NoOperands, Reason: "prints the active developer directory"},
		v("xcode-select", "--version", version, ""),
		v("swiftlint", "version", version, ""),
		v("swiftlint", "--version", version, ""),
		v("java", "--version", version, ""),
		v("java", "-version", version, ""),
		v("javac", "--version", version, ""),
		v("javac", "-version", version, ""),
		v("ruby", "--version", version, ""),
		v("ruby", "-v", version, ""),
		v("php", "--version", version, ""),
		v("php", "-v", version, ""),
		v("perl", "--version", version, ""),
		v("dart", "--version", version, ""),
		v("docker", "--version", version, ""),
		v("ffmpeg", "-version", version, ""),
		v("ffprobe", "-version", version, ""),
		{ReadOnly: true, Command: "xcodebuild", Prefix: words("-showsdks"), Syntax: Find, MaxOperands: NoOperands, Reason: "lists the installed SDKs"},
		{ReadOnly: true, Command: "xcrun", Prefix: words("--show-sdk-path"), Syntax: Exact, MaxOperands: NoOperands, Options: opts("--sdk="), Reason: "prints the SDK's path"},
		{ReadOnly: true, Command: "xcrun", Prefix: words("--show-sdk-version"), Syntax: Exact, MaxOperands: NoOperands, Options: opts("--sdk="), Reason: "prints the SDK's version"},
		{ReadOnly: true, Command: "xcrun", Prefix: words("--show-sdk-platform-path"), Syntax: Exact, MaxOperands: NoOperands, Options: opts("--sdk="), Reason: "prints the SDK platform's path"},
		{ReadOnly: true, Command: "xcrun", Prefix: words("--find"), Syntax: Exact, Operands: Text, MaxOperands: 1, Options: opts("--sdk="), Reason: "prints where a developer tool is"},
		{ReadOnly: true, Command: "xcrun", Prefix: words("simctl list"), Syntax: Exact, Operands: Text, MaxOperands: 2, Options: opts("-j,--json -v"), Check: simctlList, Reason: "lists the simulators"},
	}
}

// simctlList accepts what simctl list lists (devices, runtimes, ...) and
// the word available.
func simctlList(p *Parsed) *Problem {
	for _, o := range p.Operands {
		switch o {
		case "devices", "devicetypes", "runtimes", "pairs", "available":
		default:
			return &Problem{Unknown: true, Rule: "simctl list " + o, Reason: "simctl list lists devices, devicetypes, runtimes or pairs"}
		}
	}
	return nil
}

// casedNames are the programs whose real names have capitals. Every other
// name not written in lower case is never safe (LS runs ls on a
// case-insensitive file system, and imitates it elsewhere). It is built on first use.
var casedNames = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"R": true, "Rscript": true}
})

// CasedName reports whether name is, exactly as written, the real name of
// a program that has capitals in it (R, Rscript); its specs are listed
// under the name in lower case.
func CasedName(name string) bool { return casedNames()[name] }

// probeProjectFiles: swiftly's proxies read .swift-version, and dotnet
// reads global.json, to choose the toolchain a probe runs.
func probeProjectFiles(command string) ProjectFiles {
	switch command {
	case "swift", "swiftc":
		return SwiftVersion
	case "dotnet":
		return DotnetGlobalJSON
	}
	return 0
}
