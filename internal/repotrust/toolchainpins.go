package repotrust

import "path/filepath"

// Toolchain pins of other SDKs: files in the project that choose which
// toolchain a version probe runs. They are judged like rust-toolchain
// files: present anywhere from dir up to the sandbox, they make the probe
// not safe (fail closed), because telling a harmless pin from a harmful
// one needs the toolchain manager's own state.

// SwiftVersionTrusted reports whether swift would run the toolchain the
// user chose: no .swift-version in dir or its parents up to sandbox. A
// .swift-version makes swiftly's proxies select, and possibly install,
// the toolchain it names.
func SwiftVersionTrusted(dir, sandbox string) (ok bool, reason string) {
	return noPinFile(dir, sandbox, "the Swift toolchain: swiftly's proxies select, and may download, the toolchain it names", ".swift-version")
}

// DotnetGlobalJSONTrusted reports whether dotnet would run an SDK the user
// installed: no global.json in dir or its parents up to sandbox. A
// global.json selects the SDK that dotnet --version and --info run, and
// its sdk.paths key names directories (in the project, say) to take an
// SDK from: a program the model may have written.
func DotnetGlobalJSONTrusted(dir, sandbox string) (ok bool, reason string) {
	return noPinFile(dir, sandbox, "the .NET SDK that runs: its sdk.paths may name an SDK in the project", "global.json")
}

// noPinFile looks for the named files from dir up to sandbox; what says
// what such a file chooses.
func noPinFile(dir, sandbox, what string, names ...string) (bool, string) {
	dirs, in := projectDirs(dir, sandbox)
	if !in {
		return false, dir + " is not in the sandbox, so its toolchain files are not known"
	}
	for _, d := range dirs {
		for _, n := range names {
			if p := filepath.Join(d, n); !statNotExist(p) {
				return false, p + " chooses " + what
			}
		}
	}
	return true, ""
}
