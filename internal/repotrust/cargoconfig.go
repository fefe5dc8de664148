package repotrust

// cargoKey: the .cargo/config(.toml) settings that change neither what
// cargo runs, nor where it writes, nor which host it contacts. build.rustc,
// build.rustc-wrapper, build.rustflags, build.target-dir,
// target.<triple>.runner and .linker, alias, env, registries, source,
// net.git-fetch-with-cli, http.proxy, paths and the rest are not.
func cargoKey(path string) bool {
	switch path {
	case "term.color", "term.verbose", "term.quiet", "term.progress.when", "build.jobs",
		"build.incremental", "net.offline", "cargo-new.vcs", "future-incompat-report.frequency":
		return true
	}
	return false
}

// CargoTrusted reports whether the cargo configuration files in dir and
// its parents up to sandbox (.cargo/config and .cargo/config.toml; the
// one in CARGO_HOME lies outside and is the user's) set only keys from
// the allow-list. A line this reader does not understand (arrays, inline
// tables, multi-line strings) is not trusted.
func CargoTrusted(dir, sandbox string) (ok bool, reason string) {
	return scanProjectFiles(dir, sandbox, "cargo configuration files", []string{".cargo/config", ".cargo/config.toml"}, func(name, _ string, b []byte) (bool, string) {
		return tomlScan(name, b, nil, func(path, value string, l line) string {
			if !cargoKey(path) {
				return at(name, l) + ": key " + path + " may change what cargo and rustc run, write or contact"
			}
			return ""
		})
	})
}
